package kubectl

import (
	"strings"

	"github.com/stateflow/stateflow/engine/api"
)

// resource is a resource type kubectl knows, with its names.
type resource struct {
	kind    string
	plural  string // "deployments"
	group   string // "apps" or ""
	version string // "v1" when empty
	aliases []string
	short   string // the short name discovery lists ("deploy"), or ""
	cluster bool   // cluster-scoped
}

// resourceTypes are the types the simulated API server serves, with the
// names and short names its discovery documents list.
var resourceTypes = []resource{
	{kind: api.KindPod, plural: "pods", aliases: []string{"pod", "pods", "po"}, short: "po"},
	{kind: api.KindDeployment, plural: "deployments", group: "apps", aliases: []string{"deployment", "deployments", "deploy"}, short: "deploy"},
	{kind: api.KindReplicaSet, plural: "replicasets", group: "apps", aliases: []string{"replicaset", "replicasets", "rs"}, short: "rs"},
	{kind: api.KindNode, plural: "nodes", aliases: []string{"node", "nodes", "no"}, short: "no", cluster: true},
	{kind: api.KindEvent, plural: "events", aliases: []string{"event", "events", "ev"}, short: "ev"},
	{kind: api.KindNamespace, plural: "namespaces", aliases: []string{"namespace", "namespaces", "ns"}, short: "ns", cluster: true},
	{kind: api.KindService, plural: "services", aliases: []string{"service", "services", "svc"}, short: "svc"},
	{kind: api.KindEndpoints, plural: "endpoints", aliases: []string{"endpoints", "ep"}, short: "ep"},
	{kind: api.KindEndpointSlice, plural: "endpointslices", group: "discovery.k8s.io", aliases: []string{"endpointslice", "endpointslices"}},
	{kind: api.KindDaemonSet, plural: "daemonsets", group: "apps", aliases: []string{"daemonset", "daemonsets", "ds"}, short: "ds"},
	{kind: api.KindControllerRevision, plural: "controllerrevisions", group: "apps", aliases: []string{"controllerrevision", "controllerrevisions"}},
	{kind: api.KindStatefulSet, plural: "statefulsets", group: "apps", aliases: []string{"statefulset", "statefulsets", "sts"}, short: "sts"},
	{kind: api.KindPersistentVolumeClaim, plural: "persistentvolumeclaims", aliases: []string{"persistentvolumeclaim", "persistentvolumeclaims", "pvc"}, short: "pvc"},
	{kind: api.KindJob, plural: "jobs", group: "batch", aliases: []string{"job", "jobs"}},
	{kind: api.KindCronJob, plural: "cronjobs", group: "batch", aliases: []string{"cronjob", "cronjobs", "cj"}, short: "cj"},
	{kind: api.KindHorizontalPodAutoscaler, plural: "horizontalpodautoscalers", group: "autoscaling", version: "v2",
		aliases: []string{"horizontalpodautoscaler", "horizontalpodautoscalers", "hpa"}, short: "hpa"},
	{kind: api.KindConfigMap, plural: "configmaps", aliases: []string{"configmap", "configmaps", "cm"}, short: "cm"},
	{kind: api.KindSecret, plural: "secrets", aliases: []string{"secret", "secrets"}},
	{kind: api.KindPodDisruptionBudget, plural: "poddisruptionbudgets", group: "policy",
		aliases: []string{"poddisruptionbudget", "poddisruptionbudgets", "pdb"}, short: "pdb"},
	// The metrics API's resources are "pods" and "nodes" of their group;
	// discovery gives them no singular name, so kubectl's REST mapper
	// guesses one from the kind ("podmetrics").
	{kind: api.KindPodMetrics, plural: "pods", group: metricsGroup, version: "v1beta1", aliases: []string{"podmetrics", "pods"}},
	{kind: api.KindNodeMetrics, plural: "nodes", group: metricsGroup, version: "v1beta1", aliases: []string{"nodemetrics", "nodes"}, cluster: true},
}

// metricsGroup is the resource metrics API's group, which the
// metrics-server serves.
const metricsGroup = "metrics.k8s.io"

// notSimulated are real resource types Stateflow does not model.
var notSimulated = map[string]bool{"ingresses": true, "ingress": true, "ing": true,
	"persistentvolumes": true, "persistentvolume": true, "pv": true, "storageclasses": true, "storageclass": true, "sc": true,
	"serviceaccounts": true, "sa": true}

// simulatedList names the simulated types in resolve's message.
const simulatedList = "deployments, replicasets, daemonsets, statefulsets, controllerrevisions, jobs, cronjobs, horizontalpodautoscalers, poddisruptionbudgets, pods, persistentvolumeclaims, configmaps, secrets, nodes, events, namespaces, services, endpoints, endpointslices, podmetrics and nodemetrics"

// lookupResource resolves "deploy", "deployments.apps",
// "deployments.v1.apps", "endpointslices.discovery.k8s.io", "Deployment",
// "pods.metrics.k8s.io", … A group after the first dot must be the
// type's own, with or without its version in front.
func lookupResource(name string) (resource, bool) {
	n := strings.TrimSuffix(strings.ToLower(name), "/v1")
	n, group, _ := strings.Cut(n, ".")
	for _, r := range resourceTypes {
		if g := strings.TrimPrefix(group, r.ver()+"."); g != "" && g != r.group && !(r.group == "" && g == r.ver()) {
			continue
		}
		if n == strings.ToLower(r.kind) {
			return r, true
		}
		for _, a := range r.aliases {
			if n == a {
				return r, true
			}
		}
	}
	return resource{}, false
}

func resourceFor(kind string) resource {
	for _, r := range resourceTypes {
		if r.kind == kind {
			return r
		}
	}
	return resource{kind: kind, plural: strings.ToLower(kind) + "s"}
}

// qualified is the "deployment.apps" form kubectl prints in messages.
func (r resource) qualified() string {
	if r.group == "" {
		return strings.ToLower(r.kind)
	}
	return strings.ToLower(r.kind) + "." + r.group
}

// groupKind is the "Job.batch" form of schema.GroupKind's String, as
// the rollout commands name a kind they cannot handle.
func (r resource) groupKind() string {
	if r.group == "" {
		return r.kind
	}
	return r.kind + "." + r.group
}

// pluralQualified is the "deployments.apps" form of API errors.
func (r resource) pluralQualified() string {
	if r.group == "" {
		return r.plural
	}
	return r.plural + "." + r.group
}

// ver is the version the type is served at.
func (r resource) ver() string {
	if r.version == "" {
		return "v1"
	}
	return r.version
}

// apiVersion is the group/version discovery lists the type under.
func (r resource) apiVersion() string {
	if r.group == "" {
		return r.ver()
	}
	return r.group + "/" + r.ver()
}

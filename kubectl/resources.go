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
	aliases []string
	cluster bool // cluster-scoped
}

var resourceTypes = []resource{
	{api.KindPod, "pods", "", []string{"pod", "pods", "po"}, false},
	{api.KindDeployment, "deployments", "apps", []string{"deployment", "deployments", "deploy"}, false},
	{api.KindReplicaSet, "replicasets", "apps", []string{"replicaset", "replicasets", "rs"}, false},
	{api.KindNode, "nodes", "", []string{"node", "nodes", "no"}, true},
	{api.KindEvent, "events", "", []string{"event", "events", "ev"}, false},
	{api.KindNamespace, "namespaces", "", []string{"namespace", "namespaces", "ns"}, true},
}

// notSimulated are real resource types Stateflow does not model.
var notSimulated = map[string]bool{"services": true, "service": true, "svc": true, "configmaps": true, "configmap": true, "cm": true,
	"secrets": true, "secret": true, "ingresses": true, "ingress": true, "ing": true, "statefulsets": true, "statefulset": true, "sts": true,
	"daemonsets": true, "daemonset": true, "ds": true, "jobs": true, "job": true, "cronjobs": true, "cronjob": true, "cj": true,
	"persistentvolumeclaims": true, "pvc": true, "persistentvolumes": true, "pv": true, "endpoints": true, "ep": true,
	"serviceaccounts": true, "sa": true, "horizontalpodautoscalers": true, "hpa": true}

// lookupResource resolves "deploy", "deployments.apps", "Deployment", …
func lookupResource(name string) (resource, bool) {
	n := strings.ToLower(name)
	n = strings.TrimSuffix(strings.TrimSuffix(n, ".apps"), "/v1")
	for _, r := range resourceTypes {
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

// pluralQualified is the "deployments.apps" form of API errors.
func (r resource) pluralQualified() string {
	if r.group == "" {
		return r.plural
	}
	return r.plural + "." + r.group
}

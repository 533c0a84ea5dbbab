package kubectl

import (
	"strings"

	"github.com/stateflow/stateflow/engine/api"
)

// resource is a resource type kubectl knows, with its names: its kind,
// version, resource and scope from engine/api's registry, its discovery
// short name from its kindHelper.
type resource struct {
	kind    string
	plural  string // "deployments"
	group   string // "apps" or ""
	version string // "v1"
	short   string // the short name discovery lists ("deploy"), or ""
	cluster bool   // cluster-scoped
}

// resourceOf is h's kind's resource.
func resourceOf(h *kindHelper) resource {
	info, _ := api.LookupKind(h.kind)
	version := info.APIVersion[strings.LastIndex(info.APIVersion, "/")+1:]
	return resource{kind: h.kind, plural: info.Resource, group: info.Group(), version: version, short: h.short, cluster: !info.Namespaced}
}

// resourceTypes are the types the simulated API server serves, with the
// names and short names its discovery documents list, in kindHelpers'
// order.
func resourceTypes() []resource {
	rs := make([]resource, len(kindHelpers))
	for i := range kindHelpers {
		rs[i] = resourceOf(&kindHelpers[i])
	}
	return rs
}

// names are the names kubectl resolves to r: its kind in lower case (the
// REST mapper's singular, which discovery leaves to it for the metrics
// API's types), its resource and its short name.
func (r resource) names() []string {
	return []string{strings.ToLower(r.kind), r.plural, r.short}
}

// metricsGroup is the resource metrics API's group, which the
// metrics-server serves.
const metricsGroup = "metrics.k8s.io"

// notSimulated are real resource types Stateflow does not model.
var notSimulated = map[string]bool{"ingresses": true, "ingress": true, "ing": true,
	"persistentvolumes": true, "persistentvolume": true, "pv": true, "storageclasses": true, "storageclass": true, "sc": true,
	"serviceaccounts": true, "sa": true}

// simulatedList names the simulated types in resolve's message: their
// resources, or their kinds where an earlier type has the same resource
// (the metrics API's "podmetrics").
func simulatedList() string {
	var names []string
	seen := map[string]bool{}
	for _, r := range resourceTypes() {
		n := r.plural
		if seen[n] {
			n = strings.ToLower(r.kind)
		}
		seen[n] = true
		names = append(names, n)
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// lookupResource resolves "deploy", "deployments.apps",
// "deployments.v1.apps", "endpointslices.discovery.k8s.io", "Deployment",
// "pods.metrics.k8s.io", … A group after the first dot must be the
// type's own, with or without its version in front.
func lookupResource(name string) (resource, bool) {
	n := strings.TrimSuffix(strings.ToLower(name), "/v1")
	n, group, _ := strings.Cut(n, ".")
	for _, r := range resourceTypes() {
		if g := strings.TrimPrefix(group, r.ver()+"."); g != "" && g != r.group && !(r.group == "" && g == r.ver()) {
			continue
		}
		for _, a := range r.names() {
			if n == a && a != "" {
				return r, true
			}
		}
	}
	return resource{}, false
}

// resourceFor is kind's resource.
func resourceFor(kind string) resource {
	if h := helperFor(kind); h.kind != "" {
		return resourceOf(h)
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
func (r resource) ver() string { return r.version }

// apiVersion is the group/version discovery lists the type under.
func (r resource) apiVersion() string {
	if r.group == "" {
		return r.ver()
	}
	return r.group + "/" + r.ver()
}

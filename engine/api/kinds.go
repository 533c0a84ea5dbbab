package api

import "strings"

// KindInfo is what every layer knows of a kind by its name, as the API
// server's discovery says it: the group and version its objects are
// served at, its resource (the plural kubectl and the API's messages
// use), the short name kubectl users know and whether its objects live in
// a namespace.
type KindInfo struct {
	Kind       string
	APIVersion string // "apps/v1", "v1"
	Resource   string // "deployments"
	Short      string // "deploy"
	Namespaced bool
}

// Group is the kind's API group, "" for the core group.
func (k KindInfo) Group() string {
	group, _, ok := strings.Cut(k.APIVersion, "/")
	if !ok {
		return ""
	}
	return group
}

// kindTable is the registry of the kinds the API serves: one line per
// kind. The API server numbers its trees in this order (KindIndex), so a
// new kind goes at the end.
var kindTable = [...]KindInfo{
	{KindNamespace, "v1", "namespaces", "ns", false},
	{KindNode, "v1", "nodes", "node", false},
	{KindDeployment, "apps/v1", "deployments", "deploy", true},
	{KindReplicaSet, "apps/v1", "replicasets", "rs", true},
	{KindPod, "v1", "pods", "pod", true},
	{KindEvent, "v1", "events", "event", true},
	{KindService, "v1", "services", "svc", true},
	{KindEndpointSlice, "discovery.k8s.io/v1", "endpointslices", "endpointslice", true},
	{KindEndpoints, "v1", "endpoints", "ep", true},
	{KindDaemonSet, "apps/v1", "daemonsets", "ds", true},
	{KindControllerRevision, "apps/v1", "controllerrevisions", "controllerrevision", true},
	{KindStatefulSet, "apps/v1", "statefulsets", "sts", true},
	{KindPersistentVolumeClaim, "v1", "persistentvolumeclaims", "pvc", true},
	{KindJob, "batch/v1", "jobs", "job", true},
	{KindCronJob, "batch/v1", "cronjobs", "cj", true},
	{KindHorizontalPodAutoscaler, "autoscaling/v2", "horizontalpodautoscalers", "hpa", true},
	{KindPodMetrics, "metrics.k8s.io/v1beta1", "pods", "podmetrics", true},
	{KindNodeMetrics, "metrics.k8s.io/v1beta1", "nodes", "nodemetrics", false},
	{KindPodDisruptionBudget, "policy/v1", "poddisruptionbudgets", "pdb", true},
	{KindConfigMap, "v1", "configmaps", "cm", true},
	{KindSecret, "v1", "secrets", "secret", true},
	{KindReplicationController, "v1", "replicationcontrollers", "rc", true},
	{KindPriorityClass, "scheduling.k8s.io/v1", "priorityclasses", "pc", false},
}

// NumKinds is how many kinds the API serves.
const NumKinds = len(kindTable)

// kindIndexes finds a kind's line of kindTable by its name.
var kindIndexes = func() map[string]int {
	m := make(map[string]int, len(kindTable))
	for i, k := range kindTable {
		m[k.Kind] = i
	}
	return m
}()

// KindIndex is the kind's line in the registry, 0 to NumKinds-1; false
// for a kind the API does not serve.
func KindIndex(kind string) (int, bool) {
	i, ok := kindIndexes[kind]
	return i, ok
}

// LookupKind is what the registry says of kind; false for a kind the API
// does not serve.
func LookupKind(kind string) (KindInfo, bool) {
	i, ok := kindIndexes[kind]
	if !ok {
		return KindInfo{}, false
	}
	return kindTable[i], true
}

// Kinds are the kinds the API serves, in the registry's order.
func Kinds() []KindInfo { return append([]KindInfo(nil), kindTable[:]...) }

// Namespaced reports whether objects of kind live in a namespace (a kind
// the API does not serve is taken to).
func Namespaced(kind string) bool {
	k, ok := LookupKind(kind)
	return !ok || k.Namespaced
}

// ShortKind is the short resource name kubectl users know (the kind in
// lower case for a kind the API does not serve).
func ShortKind(kind string) string {
	if k, ok := LookupKind(kind); ok {
		return k.Short
	}
	return strings.ToLower(kind)
}

// APIVersionOf returns the apiVersion of kind ("v1" for a kind the API
// does not serve).
func APIVersionOf(kind string) string {
	if k, ok := LookupKind(kind); ok {
		return k.APIVersion
	}
	return "v1"
}

package api

import "strings"

// Kind names.
const (
	KindDeployment              = "Deployment"
	KindReplicaSet              = "ReplicaSet"
	KindPod                     = "Pod"
	KindNode                    = "Node"
	KindEvent                   = "Event"
	KindNamespace               = "Namespace"
	KindService                 = "Service"
	KindEndpointSlice           = "EndpointSlice"
	KindEndpoints               = "Endpoints"
	KindDaemonSet               = "DaemonSet"
	KindControllerRevision      = "ControllerRevision"
	KindStatefulSet             = "StatefulSet"
	KindPersistentVolumeClaim   = "PersistentVolumeClaim"
	KindJob                     = "Job"
	KindCronJob                 = "CronJob"
	KindHorizontalPodAutoscaler = "HorizontalPodAutoscaler"
	KindPodMetrics              = "PodMetrics"
	KindNodeMetrics             = "NodeMetrics"
	KindPodDisruptionBudget     = "PodDisruptionBudget"
	KindConfigMap               = "ConfigMap"
	KindSecret                  = "Secret"
	KindReplicationController   = "ReplicationController"
	KindPriorityClass           = "PriorityClass"
)

// Key names one object: Kind/namespace/name, or Kind/name when the kind
// is cluster-scoped.
type Key struct {
	Kind      string
	Namespace string
	Name      string
}

// String renders the key as the trace and the CLI print it.
func (k Key) String() string {
	if k.Namespace == "" {
		return k.Kind + "/" + k.Name
	}
	return k.Kind + "/" + k.Namespace + "/" + k.Name
}

// Short is the kubectl-style reference: "rs/web-7d9f", "pod/web-7d9f-abcde".
func (k Key) Short() string { return ShortKind(k.Kind) + "/" + k.Name }

// NamespacedName is "namespace/name", or "name" if cluster-scoped.
func (k Key) NamespacedName() string {
	if k.Namespace == "" {
		return k.Name
	}
	return k.Namespace + "/" + k.Name
}

// ParseKey parses the String form back into a Key.
func ParseKey(s string) (Key, bool) {
	parts := strings.Split(s, "/")
	switch len(parts) {
	case 2:
		return Key{Kind: parts[0], Name: parts[1]}, true
	case 3:
		return Key{Kind: parts[0], Namespace: parts[1], Name: parts[2]}, true
	}
	return Key{}, false
}

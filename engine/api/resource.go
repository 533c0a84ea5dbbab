package api

import (
	"strings"

	"github.com/stateflow/stateflow/engine/api/labels"
)

// Resource names are sorted as pkg/apis/core/helper (v1.34) sorts them:
// native resources (cpu, memory, pods, ephemeral-storage, or any name in
// the kubernetes.io/ domain), huge pages, and extended resources: a
// vendor's fully qualified name such as example.com/dongle, which a device
// plugin (or a PATCH of the node's status) advertises in a node's capacity
// and which containers request in whole units.
const resourceDefaultNamespacePrefix = "kubernetes.io/"

// IsPrefixedNativeResource reports whether name is in the kubernetes.io/
// domain.
func IsPrefixedNativeResource(name string) bool {
	return strings.Contains(name, resourceDefaultNamespacePrefix)
}

// IsNativeResource reports whether name is a resource Kubernetes itself
// defines: no domain, or the kubernetes.io/ one.
func IsNativeResource(name string) bool {
	return !strings.Contains(name, "/") || IsPrefixedNativeResource(name)
}

// IsHugePageResourceName reports whether name is hugepages-<size>.
func IsHugePageResourceName(name string) bool { return strings.HasPrefix(name, "hugepages-") }

// IsExtendedResourceName reports whether name is an extended resource:
// not native, and valid as a quota's "requests.<name>".
func IsExtendedResourceName(name string) bool {
	if IsNativeResource(name) || strings.HasPrefix(name, "requests.") {
		return false
	}
	return len(labels.IsLabelKey("requests."+name)) == 0
}

// IsScalarResourceName is the scheduler's (pkg/scheduler/util): what it
// counts beside cpu, memory, pods and ephemeral-storage, each as an
// integer: extended resources, huge pages, prefixed native resources and
// attachable volumes.
func IsScalarResourceName(name string) bool {
	return IsExtendedResourceName(name) || IsHugePageResourceName(name) ||
		IsPrefixedNativeResource(name) || strings.HasPrefix(name, "attachable-volumes-")
}

// IsOvercommitAllowed reports whether a container's request of name may
// be lower than its limit: native resources other than huge pages; an
// extended resource's request must equal its limit.
func IsOvercommitAllowed(name string) bool {
	return IsNativeResource(name) && !IsHugePageResourceName(name)
}

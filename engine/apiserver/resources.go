package apiserver

import (
	"fmt"
	"slices"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
)

// validateResources is ValidateResourceRequirements
// (pkg/apis/core/validation/validation.go, v1.34) for a container: each
// limit, then each request, must name a container resource and be a
// non-negative quantity, whole for an extended resource (example.com/dongle);
// a request may not exceed its limit, and an extended resource or huge
// page, which cannot be overcommitted, must have a limit equal to its
// request. Upstream walks the maps in Go's random order; the errors are
// given here in resource-name order. The sorted walk is made only when
// something is wrong.
func validateResources(e *errs, c containerPath, r *api.ResourceRequirements) {
	if resourcesValid(r) {
		return
	}
	for _, name := range sortedResourceNames(r.Limits) {
		validateResourceQuantity(e, c.field(".resources.limits["+name+"]"), name, r.Limits[name])
	}
	for _, name := range sortedResourceNames(r.Requests) {
		q := r.Requests[name]
		validateResourceQuantity(e, c.field(".resources.requests["+name+"]"), name, q)
		lim, limited := r.Limits[name]
		switch {
		case limited && q.MilliValue() != lim.MilliValue() && !api.IsOvercommitAllowed(name):
			e.invalid(c.field(".resources.requests"), q.String(), fmt.Sprintf("must be equal to %s limit of %s", name, lim.String()))
		case limited && q.MilliValue() > lim.MilliValue():
			e.invalid(c.field(".resources.requests"), q.String(), fmt.Sprintf("must be less than or equal to %s limit of %s", name, lim.String()))
		case !limited && !api.IsOvercommitAllowed(name):
			e.add(c.field(".resources.limits"), "Required value: Limit must be set for non overcommitable resources")
		}
	}
}

// resourcesValid is the quick check of validateResources: true for the
// requirements of nearly every container.
func resourcesValid(r *api.ResourceRequirements) bool {
	for name, q := range r.Limits {
		if !resourceQuantityValid(name, q) {
			return false
		}
	}
	for name, q := range r.Requests {
		lim, limited := r.Limits[name]
		if !resourceQuantityValid(name, q) ||
			limited && (q.MilliValue() > lim.MilliValue() || q.MilliValue() != lim.MilliValue() && !api.IsOvercommitAllowed(name)) ||
			!limited && !api.IsOvercommitAllowed(name) {
			return false
		}
	}
	return true
}

func resourceQuantityValid(name string, q api.Quantity) bool {
	return containerResourceNameProblem(name) == "" && q.MilliValue() >= 0 &&
		(!isIntegerResource(name) || q.MilliValue()%1000 == 0)
}

// validateResourceQuantity is validateContainerResourceName and
// ValidateResourceQuantityValue for one entry.
func validateResourceQuantity(e *errs, path, name string, q api.Quantity) {
	if msg := containerResourceNameProblem(name); msg != "" {
		e.invalid(path, name, msg)
	}
	if q.MilliValue() < 0 {
		e.invalid(path, q.String(), "must be greater than or equal to 0")
	}
	if isIntegerResource(name) && q.MilliValue()%1000 != 0 {
		e.invalid(path, q.String(), "must be an integer")
	}
}

// containerResourceNameProblem is validateContainerResourceName's
// complaint about name, or "": a name without a domain must be cpu,
// memory, ephemeral-storage or hugepages-<size>; one with a domain
// outside kubernetes.io/ must be a valid extended resource name.
func containerResourceNameProblem(name string) string {
	switch {
	case !strings.Contains(name, "/"):
		if name != "cpu" && name != "memory" && name != "ephemeral-storage" && !api.IsHugePageResourceName(name) {
			return "must be a standard resource for containers"
		}
	case !api.IsNativeResource(name) && !api.IsExtendedResourceName(name):
		return "doesn't follow extended resource name standard"
	}
	return ""
}

// isIntegerResource is helper.IsIntegerResourceName for a container's
// resources: an extended resource counts whole devices.
func isIntegerResource(name string) bool { return api.IsExtendedResourceName(name) }

func sortedResourceNames(l api.ResourceList) []string {
	names := make([]string, 0, len(l))
	for k := range l {
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}

package apiserver

import (
	"sort"
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
		switch msg := requestLimitProblem(name, q, lim, limited); {
		case msg == "":
		case !limited:
			e.add(c.field(".resources.limits"), "Required value: %s", msg)
		default:
			e.invalid(c.field(".resources.requests"), q.String(), msg)
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
		if !resourceQuantityValid(name, q) || requestLimitProblem(name, q, lim, limited) != "" {
			return false
		}
	}
	return true
}

// requestLimitProblem is what is wrong with a request against its limit:
// above it, or, for a resource that cannot be overcommitted, not equal to
// it or without one.
func requestLimitProblem(name string, q, lim api.Quantity, limited bool) string {
	switch {
	case limited && q.MilliValue() != lim.MilliValue() && !api.IsOvercommitAllowed(name):
		return "must be equal to " + name + " limit of " + lim.String()
	case limited && q.MilliValue() > lim.MilliValue():
		return "must be less than or equal to " + name + " limit of " + lim.String()
	case !limited && !api.IsOvercommitAllowed(name):
		return "Limit must be set for non overcommitable resources"
	}
	return ""
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
	if fractionOfDevice(name, q) {
		e.invalid(path, q.String(), "must be an integer")
	}
}

// resourceQuantityValid reports whether validateResourceQuantity finds
// nothing wrong.
func resourceQuantityValid(name string, q api.Quantity) bool {
	return containerResourceNameProblem(name) == "" && q.MilliValue() >= 0 && !fractionOfDevice(name, q)
}

// fractionOfDevice reports a fraction of an extended resource, which
// counts whole devices (helper.IsIntegerResourceName).
func fractionOfDevice(name string, q api.Quantity) bool {
	return api.IsExtendedResourceName(name) && q.MilliValue()%1000 != 0
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

func sortedResourceNames(l api.ResourceList) []string {
	names := make([]string, 0, len(l))
	for k := range l {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

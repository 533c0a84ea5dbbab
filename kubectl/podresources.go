package kubectl

import "github.com/stateflow/stateflow/engine/api"

// This file is kubectl's pkg/util/resource PodRequestsAndLimits (v0.34),
// which describe node prints: a pod's requests or limits as its
// containers add up (restartable init containers, the sidecars, running
// beside them; each other init container alone with the sidecars before
// it, and the pod needing the most of any moment), with
// resource.Quantity's arithmetic, whose sum prints in the format of its
// first addend: 64Mi and 128Mi make 192Mi, not 201326592.

// fmtQuantity is a resource.Quantity after arithmetic: a value in
// thousandths and the format it prints in.
type fmtQuantity struct {
	milli int64
	f     quantityFormat
}

// resourceTotals is a corev1.ResourceList built with Add and max.
type resourceTotals map[string]fmtQuantity

// add is addResourceList for one resource: the first value is copied,
// later ones added (a zero sum takes the addend's format, as
// Quantity.Add does).
func (t resourceTotals) add(name string, q fmtQuantity) {
	cur, ok := t[name]
	switch {
	case !ok:
		cur = q
	case cur.milli == 0:
		cur = fmtQuantity{cur.milli + q.milli, q.f}
	default:
		cur.milli += q.milli
	}
	t[name] = cur
}

// addAll is addResourceList.
func (t resourceTotals) addAll(o resourceTotals) {
	for name, q := range o {
		t.add(name, q)
	}
}

// max is maxResourceList: each resource of o that is greater replaces
// t's, format included.
func (t resourceTotals) max(o resourceTotals) {
	for name, q := range o {
		if cur, ok := t[name]; !ok || q.milli > cur.milli {
			t[name] = q
		}
	}
}

func (t resourceTotals) milli(name string) int64 { return t[name].milli }

// value is Quantity.Value: whole units, rounded up.
func (t resourceTotals) value(name string) int64 { return (t[name].milli + 999) / 1000 }

// text is how kubectl prints the total ("0" when there is none).
func (t resourceTotals) text(name string) string {
	q := t[name]
	return canonicalString(q.milli, q.f)
}

func totalsOf(l api.ResourceList) resourceTotals {
	t := make(resourceTotals, len(l))
	for name, q := range l {
		t[name] = fmtQuantity{q.MilliValue(), formatOf(q)}
	}
	return t
}

func requestsOf(c *api.Container) api.ResourceList { return c.Resources.Requests }

func limitsOf(c *api.Container) api.ResourceList { return c.Resources.Limits }

// podResources is podRequests or podLimits (of picks which) of a pod
// spec.
func podResources(s *api.PodSpec, of func(*api.Container) api.ResourceList) resourceTotals {
	total := resourceTotals{}
	for i := range s.Containers {
		total.addAll(totalsOf(of(&s.Containers[i])))
	}
	sidecars, inits := resourceTotals{}, resourceTotals{}
	for i := range s.InitContainers {
		c := &s.InitContainers[i]
		need := sidecars
		if api.IsRestartableInitContainer(c) {
			total.addAll(totalsOf(of(c)))
			sidecars.addAll(totalsOf(of(c)))
		} else {
			need = totalsOf(of(c))
			need.addAll(sidecars)
		}
		inits.max(need)
	}
	total.max(inits)
	return total
}

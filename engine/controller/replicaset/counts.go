package replicaset

import (
	"fmt"
	"maps"
	"reflect"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
)

// podCounts is what a sync's walk over the pods a ReplicaSet controls
// would count in the controller's cache, kept up to date from the watch
// events instead (as an informer's indexer is kept by its event
// handlers): a sync of a settled 10,000-pod ReplicaSet then costs what
// upstream's costs once its cache is warm, not a walk over every pod.
//
// A count is made by a sync's walk (rebuild) and then moved by each pod
// event the controller observes; the watch stream is ordered and carries
// every pod write, so an event's Old is exactly what the cache held. The
// counts are over the active pods whose controller reference names the
// ReplicaSet's UID; matching, labeled and ready are among those that
// match its selector (the pods ClaimPods keeps), labeled against the
// template labels the count was made with.
type podCounts struct {
	selector *api.LabelSelector // the selector the counts were made with (immutable for a UID)
	template map[string]string  // the template labels labeled was counted against
	match    api.Matcher
	labels   api.Matcher
	// active pods controlled by the ReplicaSet; of those, the ones that
	// match its selector, that also carry every template label, and that
	// are ready.
	active, matching, labeled, ready int32
	// onNode counts the active pods by node ("" for unscheduled): a
	// scale-down ranks its pods by how many active pods of the
	// ReplicaSets with the same controller share their node.
	onNode map[string]int32
}

// counts are the podCounts by ReplicaSet UID.
type counts map[string]*podCounts

// clone copies the counts for a checkpoint.
func (cs counts) clone() counts {
	out := make(counts, len(cs))
	for k, v := range cs {
		c := *v
		c.onNode = maps.Clone(v.onNode)
		out[k] = &c
	}
	return out
}

// rebuild counts rs's pods from a walk: owned are the active pods the
// cache holds with rs's UID as their controller.
func (cs counts) rebuild(rs target, owned []*api.Pod) *podCounts {
	c := &podCounts{selector: rs.Spec.Selector, template: rs.Spec.Template.Labels,
		match: rs.Spec.Selector.Matcher(), labels: api.EqualityMatcher(rs.Spec.Template.Labels), onNode: map[string]int32{}}
	for _, p := range owned {
		c.add(p, 1)
	}
	cs[rs.UID] = c
	return c
}

// add moves the counts by one pod, counted (sign 1) or no longer (-1).
func (c *podCounts) add(p *api.Pod, sign int32) {
	if !api.IsPodActive(p) {
		return
	}
	c.active += sign
	if n := c.onNode[p.Spec.NodeName] + sign; n != 0 {
		c.onNode[p.Spec.NodeName] = n
	} else {
		delete(c.onNode, p.Spec.NodeName)
	}
	if !c.match.Matches(p.Labels) {
		return
	}
	c.matching += sign
	if c.labels.Matches(p.Labels) {
		c.labeled += sign
	}
	if api.IsPodReady(p) {
		c.ready += sign
	}
}

// observe moves the counts by a pod event: the old version leaves the
// counts of its controller, the new one joins its own.
func (cs counts) observe(ev apiserver.WatchEvent, p *api.Pod) {
	if old, ok := ev.Old.(*api.Pod); ok && ev.Type != apiserver.Added {
		cs.move(old, -1)
	}
	if ev.Type != apiserver.Deleted {
		cs.move(p, 1)
	} else if ev.Old == nil {
		cs.move(p, -1) // a deletion that carries only the last state
	}
}

func (cs counts) move(p *api.Pod, sign int32) {
	ref := p.ControllerRef()
	if ref == nil {
		return
	}
	if c, ok := cs[ref.UID]; ok {
		c.add(p, sign)
	}
}

// onNodes sums the active pods by node of the ReplicaSets rss, if every
// one of them has counts (a selector or template change, which usable
// drops counts for, does not change which pods are active or where).
func (cs counts) onNodes(rss []api.Object) (map[string]int, bool) {
	out := map[string]int{}
	for _, o := range rss {
		c, ok := cs[o.Meta().UID]
		if !ok {
			return nil, false
		}
		for node, n := range c.onNode {
			out[node] += int(n)
		}
	}
	return out, true
}

// usable returns rs's counts when a sync may use them instead of walking
// its pods: made with rs's selector and template labels.
func (cs counts) usable(rs target) (*podCounts, bool) {
	c, ok := cs[rs.UID]
	if !ok {
		return nil, false
	}
	if c.selector != rs.Spec.Selector && !reflect.DeepEqual(c.selector, rs.Spec.Selector) || !maps.Equal(c.template, rs.Spec.Template.Labels) {
		delete(cs, rs.UID)
		return nil, false
	}
	return c, true
}

// check compares the counts with a walk's, for Config.VerifyIncremental.
func (c *podCounts) check(rs target, owned []*api.Pod) error {
	want := (counts{}).rebuild(rs, owned)
	if c.active != want.active || c.matching != want.matching || c.labeled != want.labeled || c.ready != want.ready {
		return fmt.Errorf("internal error: rs/%s's kept pod counts (active %d, matching %d, labeled %d, ready %d) differ from its cache's (%d, %d, %d, %d)",
			rs.Name, c.active, c.matching, c.labeled, c.ready, want.active, want.matching, want.labeled, want.ready)
	}
	if !maps.Equal(c.onNode, want.onNode) {
		return fmt.Errorf("internal error: rs/%s's kept pod counts by node %v differ from its cache's %v", rs.Name, c.onNode, want.onNode)
	}
	return nil
}

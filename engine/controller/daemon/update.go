package daemon

import (
	"cmp"
	"fmt"
	"maps"
	"slices"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/controller/controllerutil"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
)

// rollingUpdate is rollingUpdate (update.go): which old pods to delete
// now, and (with maxSurge) which nodes get a new pod beside the old one.
func (c *Controller) rollingUpdate(tick reconcile.Tick, ds *api.DaemonSet, nodes []*api.Node, pods []*api.Pod, hash string) ([]string, error) {
	byNode := nodesToDaemonPods(pods)
	desired := 0
	for _, n := range nodes {
		if run, _ := NodeShouldRunDaemonPod(n, ds); run {
			desired++
			if _, ok := byNode[n.Name]; !ok {
				byNode[n.Name] = nil
			}
		}
	}
	maxSurge, maxUnavailable := counts(ds, desired)
	names := make([]string, 0, len(byNode))
	for n := range byNode {
		names = append(names, n)
	}
	slices.Sort(names) // upstream ranges over a map
	now := tick.Now()
	available := func(p *api.Pod) bool { return api.IsPodAvailable(p, ds.Spec.MinReadySeconds, now) }
	if maxSurge == 0 {
		del := c.replaceWithin(ds, byNode, names, hash, maxUnavailable, available)
		notes, err := c.syncNodes(tick, ds, del, nil, hash)
		if len(del) > 0 {
			notes = append([]string{fmt.Sprintf("rolling update: maxUnavailable %d", maxUnavailable)}, notes...)
		}
		return notes, err
	}
	del, create, err := c.surgeWithin(ds, byNode, names, nodes, hash, desired, maxSurge, available)
	if err != nil {
		return nil, err
	}
	notes, err := c.syncNodes(tick, ds, del, create, hash)
	if len(del)+len(create) > 0 {
		notes = append([]string{fmt.Sprintf("rolling update: maxSurge %d", maxSurge)}, notes...)
	}
	return notes, err
}

// replaceWithin is the maxSurge 0 half of rollingUpdate: old pods that
// are not available go at once; available ones as far as maxUnavailable
// allows, counting nodes without exactly one current pod as unavailable.
// The manage loop of a later sync creates the replacements.
func (c *Controller) replaceWithin(ds *api.DaemonSet, byNode map[string][]*api.Pod, names []string, hash string, maxUnavailable int, available func(*api.Pod) bool) []string {
	unavailable := 0
	var replace, candidates []string
	for _, n := range names {
		newPod, oldPod, ok := updatedPodsOnNode(ds, byNode[n], hash)
		switch {
		case !ok, oldPod == nil && newPod == nil, oldPod != nil && newPod != nil:
			unavailable++
		case newPod != nil:
			if !available(newPod) {
				unavailable++
			}
		case !available(oldPod):
			replace = append(replace, oldPod.Name) // it counts as unavailable already
			unavailable++
		case unavailable >= maxUnavailable:
		default:
			candidates = append(candidates, oldPod.Name)
		}
	}
	remaining := min(max(maxUnavailable-unavailable, 0), len(candidates))
	return append(replace, candidates[:remaining]...)
}

// surgeWithin is the maxSurge half: a new pod at once beside an old one
// that is not available, up to maxSurge beside available ones, and an old
// pod deleted once the new one on its node is available.
func (c *Controller) surgeWithin(ds *api.DaemonSet, byNode map[string][]*api.Pod, names []string, nodes []*api.Node, hash string, desired, maxSurge int, available func(*api.Pod) bool) (del, create []string, err error) {
	nodeByName := map[string]*api.Node{}
	for _, n := range nodes {
		nodeByName[n.Name] = n
	}
	var missing string // a node the cache lacks: upstream's lister Get fails
	shouldRun := func(name string) bool {
		n, ok := nodeByName[name]
		if !ok {
			missing = name
			return false
		}
		run, _ := NodeShouldRunDaemonPod(n, ds)
		return run
	}
	var notRunning, allowed, candidates []string
	surge, avail := 0, 0
	for _, n := range names {
		newPod, oldPod, ok := updatedPodsOnNode(ds, byNode[n], hash)
		if !ok {
			surge++
			continue
		}
		if oldPod != nil && available(oldPod) || oldPod == nil && newPod != nil && available(newPod) {
			avail++
		}
		switch {
		case oldPod == nil:
		case newPod == nil && !available(oldPod):
			run := shouldRun(n)
			if missing != "" {
				return nil, nil, fmt.Errorf("couldn't get node for nodeName %q: node %q not found", missing, missing)
			}
			if !run {
				del = append(del, oldPod.Name)
				continue
			}
			allowed = append(allowed, n)
		case newPod == nil:
			run := shouldRun(n)
			if missing != "" {
				return nil, nil, fmt.Errorf("couldn't get node for nodeName %q: node %q not found", missing, missing)
			}
			if !run {
				notRunning = append(notRunning, oldPod.Name)
				continue
			}
			if surge >= maxSurge {
				continue
			}
			candidates = append(candidates, n)
		case !available(newPod):
			surge++
		default:
			del = append(del, oldPod.Name)
		}
	}
	if deletable := min(avail-desired, len(notRunning)); deletable > 0 {
		del = append(del, notRunning[:deletable]...)
	}
	remaining := min(max(maxSurge-surge, 0), len(candidates))
	return del, append(allowed, candidates[:remaining]...), nil
}

// updatedPodsOnNode is findUpdatedPodsOnNode: the node's one current and
// one old pod (not deleting); false if it has two of either.
func updatedPodsOnNode(ds *api.DaemonSet, pods []*api.Pod, hash string) (newPod, oldPod *api.Pod, ok bool) {
	for _, p := range pods {
		if p.DeletionTimestamp != nil {
			continue
		}
		if isPodUpdated(p, hash, ds) {
			if newPod != nil {
				return nil, nil, false
			}
			newPod = p
		} else {
			if oldPod != nil {
				return nil, nil, false
			}
			oldPod = p
		}
	}
	return newPod, oldPod, true
}

// constructHistory is constructHistory: the ControllerRevision of the
// current template (created, or renumbered if an older one matches: a
// rollback) and the others.
func (c *Controller) constructHistory(tick reconcile.Tick, ds *api.DaemonSet) (*api.ControllerRevision, []*api.ControllerRevision, error) {
	hash := controllerutil.ComputeHash(&ds.Spec.Template, ds.Status.CollisionCount)
	var cur *api.ControllerRevision
	var old []*api.ControllerRevision
	c.Informer.EachOwned(api.KindControllerRevision, ds.UID, func(o api.Object) {
		r := o.(*api.ControllerRevision)
		if r.Labels[api.LabelControllerRevisionHash] == hash && cur == nil {
			cur = r
		} else {
			old = append(old, r)
		}
	})
	// The next number is past every other revision's (maxRevision(old)
	// + 1): a current revision that ties with an old one is renumbered.
	var maxRevision int64
	for _, r := range old {
		maxRevision = max(maxRevision, r.Revision)
	}
	switch {
	case cur == nil:
		r := newRevision(ds, hash, maxRevision+1)
		out, err := tick.Create(trace.Translate, r, fmt.Sprintf("ds/%s recorded revision %d of its template (%s)", ds.Name, r.Revision, r.Name))
		if apiserver.IsReason(err, apiserver.ReasonAlreadyExists) {
			live, ok := tick.LiveGet(api.KeyOf(r))
			if !ok {
				return nil, nil, err
			}
			out, err = live, nil
		}
		if err != nil {
			return nil, nil, err
		}
		cur = out.(*api.ControllerRevision)
	case cur.Revision <= maxRevision:
		r := cur.DeepCopy()
		r.Revision = maxRevision + 1
		out, err := tick.Update(trace.Translate, r, fmt.Sprintf("ds/%s went back to revision %s: it becomes revision %d", ds.Name, cur.Name, r.Revision))
		if err != nil {
			return nil, nil, err
		}
		cur = out.(*api.ControllerRevision)
	}
	slices.SortFunc(old, func(a, b *api.ControllerRevision) int { return cmp.Compare(a.Revision, b.Revision) })
	return cur, old, nil
}

// newRevision is NewControllerRevision: named after the DaemonSet and
// the template's hash, labelled with the template's labels and the hash.
func newRevision(ds *api.DaemonSet, hash string, revision int64) *api.ControllerRevision {
	t := ds.Spec.Template.DeepCopy()
	labels := map[string]string{api.LabelControllerRevisionHash: hash}
	for k, v := range t.Labels {
		labels[k] = v
	}
	prefix := ds.Name
	if len(prefix) > 223 {
		prefix = prefix[:223]
	}
	return &api.ControllerRevision{
		ObjectMeta: api.ObjectMeta{Name: prefix + "-" + hash, Namespace: ds.Namespace, Labels: labels, Annotations: maps.Clone(ds.Annotations),
			OwnerReferences: []api.OwnerReference{api.NewControllerRef(ds, "apps/v1")}},
		Data:     api.RevisionData{Spec: api.RevisionSpec{Template: api.RevisionTemplate{Patch: "replace", PodTemplateSpec: t}}},
		Revision: revision,
	}
}

// cleanupHistory is cleanupHistory: the oldest revisions beyond
// revisionHistoryLimit go, unless a pod still runs one.
func (c *Controller) cleanupHistory(tick reconcile.Tick, ds *api.DaemonSet, pods []*api.Pod, old []*api.ControllerRevision) error {
	toKill := len(old) - int(*ds.Spec.RevisionHistoryLimit)
	if toKill <= 0 {
		return nil
	}
	live := map[string]bool{}
	for _, pods := range nodesToDaemonPods(pods) {
		for _, p := range pods {
			live[p.Labels[api.LabelControllerRevisionHash]] = true
		}
	}
	for _, r := range old {
		if toKill <= 0 {
			break
		}
		if live[r.Labels[api.LabelControllerRevisionHash]] {
			continue
		}
		err := tick.Delete(trace.Translate, api.KeyOf(r), apiserver.DeleteOptions{}, fmt.Sprintf("ds/%s dropped revision %d beyond its revisionHistoryLimit", ds.Name, r.Revision))
		if err != nil {
			return err // NotFound too: the cache lagged (cleanupHistory)
		}
		toKill--
	}
	return nil
}

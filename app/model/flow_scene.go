package model

import (
	"cmp"
	"maps"
	"slices"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/trace"
)

// MaxDrawnPods is the most pods of one owner the diagram draws one by
// one; an owner with more is drawn as a group with counts, and only the
// pods the story is about stand beside it, MaxStoryPods of them at most.
const (
	MaxDrawnPods = 64
	MaxStoryPods = 12
)

// scene is what the diagram shows before it is placed: the workloads as
// lanes, the Services, the nodes, and what the story is about now.
type scene struct {
	m     *Model
	tick  *trace.Tick
	lanes []*lane
	nodes []*nodeItem
	// touched are the objects the tick wrote or acted on: each is drawn
	// by itself, whatever the density. focus adds the objects the lesson
	// points at and the one the inspector shows; a lane is kept open for
	// the tick's and the lesson's (the inspector's object is the first
	// Deployment until the visitor picks another).
	touched, focus, story map[api.Key]bool
	// expanded are the groups the visitor opened.
	expanded map[string]bool
	all      bool
	// wraps keeps each box's wrapOptions while the scene is measured,
	// and nodeGroup the box of the nodes it groups.
	wraps     map[wrapKey][]wrapOption
	nodeGroup *Box
	// focusNames are the names of the focus's pods: an owner of many
	// pods looks each up by name before it makes its key.
	focusNames map[string]bool
}

// lane is one workload and what it owns, drawn as a column: its top row
// (a Deployment or CronJob, with the autoscalers and budgets that act on
// it), its owners (ReplicaSets, Jobs, or the DaemonSet or StatefulSet
// itself), each over its pods, and for the Services' lane a column of
// boxes at the pods' row.
type lane struct {
	id     string
	top    []*Box
	owners []*owner
	column []*Box
	// focus says the story is about the lane: it is never folded.
	focus bool
}

// owner is a ReplicaSet, Job, DaemonSet or StatefulSet over its pods, or
// (box nil) the pods that have no owner.
type owner struct {
	box  *Box
	uid  string
	pods []*podItem
	// total is how many pods it has; when more than MaxDrawnPods, pods
	// holds only those the story is about and counts the rest by status.
	total  int
	counts []statusCount
	// idle says it has no pods and wants none (an old ReplicaSet kept
	// for rollbacks).
	idle bool
}

// firstBox is the box a lane folds to: its first top box, else its
// first owner's.
func (ln *lane) firstBox() *Box {
	if len(ln.top) > 0 {
		return ln.top[0]
	}
	for _, o := range ln.owners {
		if o.box != nil {
			return o.box
		}
	}
	return nil
}

// has says the lane draws one of the keys (its boxes and pods).
func (ln *lane) has(keys map[api.Key]bool) bool {
	if len(keys) == 0 {
		return false
	}
	for _, b := range ln.top {
		if keys[b.Key] {
			return true
		}
	}
	for _, b := range ln.column {
		if keys[b.Key] {
			return true
		}
	}
	for _, o := range ln.owners {
		if o.box != nil && keys[o.box.Key] {
			return true
		}
		for _, p := range o.pods {
			if keys[p.key] {
				return true
			}
		}
	}
	return false
}

// scene gathers the world at the current tick.
func (m *Model) scene(v Viewport) *scene {
	s := &scene{m: m, tick: m.Current(), expanded: v.Expanded, all: v.All}
	s.touched, s.focus, s.story = s.storyKeys()
	s.focusNames = map[string]bool{}
	for k := range s.focus {
		if k.Kind == api.KindPod {
			s.focusNames[k.Name] = true
		}
	}
	st := m.eng.Store()
	owned := ownedBy(st)
	byTarget := map[api.Key]*lane{}
	addLane := func(ln *lane, keys ...api.Key) {
		s.lanes = append(s.lanes, ln)
		for _, k := range keys {
			byTarget[k] = ln
		}
	}
	for _, o := range st.List(api.KindDeployment, "") {
		d := o.(*api.Deployment)
		addLane(s.deployment(d, owned), api.KeyOf(d))
	}
	for _, o := range st.List(api.KindDaemonSet, "") {
		addLane(s.daemonSet(o.(*api.DaemonSet), owned[o.Meta().UID]), api.KeyOf(o))
	}
	for _, o := range st.List(api.KindStatefulSet, "") {
		addLane(s.statefulSet(o.(*api.StatefulSet), owned[o.Meta().UID]), api.KeyOf(o))
	}
	for _, o := range st.List(api.KindReplicationController, "") {
		addLane(s.replicationController(o.(*api.ReplicationController), owned[o.Meta().UID]), api.KeyOf(o))
	}
	for _, o := range st.List(api.KindCronJob, "") {
		addLane(s.cronJob(o.(*api.CronJob), owned), api.KeyOf(o))
	}
	s.orphans(owned, addLane)
	for _, o := range st.List(api.KindHorizontalPodAutoscaler, "") {
		h := o.(*api.HorizontalPodAutoscaler)
		ref := h.Spec.ScaleTargetRef
		s.attach(byTarget[api.Key{Kind: ref.Kind, Namespace: h.Namespace, Name: ref.Name}], s.hpa(h))
	}
	for _, o := range st.List(api.KindPodDisruptionBudget, "") {
		p := o.(*api.PodDisruptionBudget)
		s.attach(s.guardedLane(p), s.pdb(p))
	}
	if svcs := st.List(api.KindService, ""); len(svcs) > 0 {
		s.lanes = append(s.lanes, &lane{id: "services", column: s.services(svcs)})
	}
	s.nodes = s.nodeItems(st.List(api.KindNode, ""))
	s.markFocus()
	return s
}

// attach puts a box at the top row of a lane, or of a lane of its own
// when it acts on nothing drawn.
func (s *scene) attach(ln *lane, b *Box) {
	if ln == nil {
		s.lanes = append(s.lanes, &lane{id: b.ID, top: []*Box{b}})
		return
	}
	ln.top = append(ln.top, b)
}

// ownedBy groups ReplicaSets, Jobs and pods by their controller's UID
// ("" for none), each group sorted by namespace and name when it is
// drawn object by object. An owner of many pods is drawn as counts, for
// which order does not matter, so a large cluster's pods are not sorted
// at every step.
func ownedBy(st apiserver.Reader) map[string][]api.Object {
	owned := map[string][]api.Object{}
	add := func(o api.Object) bool {
		uid := ""
		if ref := o.Meta().ControllerRef(); ref != nil {
			uid = ref.UID
		}
		owned[uid] = append(owned[uid], o)
		return true
	}
	st.Each(api.KindReplicaSet, add)
	st.Each(api.KindJob, add)
	st.Each(api.KindPod, add)
	for uid, objs := range owned {
		if len(objs) <= MaxDrawnPods || uid == "" || objs[0].GetKind() != api.KindPod {
			slices.SortFunc(objs, func(a, b api.Object) int {
				ma, mb := a.Meta(), b.Meta()
				return cmp.Or(strings.Compare(ma.Namespace, mb.Namespace), strings.Compare(ma.Name, mb.Name))
			})
		}
	}
	return owned
}

// orphans are the ReplicaSets, Jobs and pods without an owner, or whose
// owner is gone (the garbage collector has yet to delete them): a lane
// each for the ReplicaSets and Jobs, one for the pods.
func (s *scene) orphans(owned map[string][]api.Object, addLane func(*lane, ...api.Key)) {
	drawn := map[string]bool{"": true}
	for _, ln := range s.lanes {
		for _, o := range ln.owners {
			drawn[o.uid] = true
		}
		for _, b := range ln.top {
			if o, ok := s.m.eng.Store().Get(b.Key); ok {
				drawn[o.Meta().UID] = true
			}
		}
	}
	objs := owned[""]
	for _, uid := range slices.Sorted(maps.Keys(owned)) {
		if !drawn[uid] {
			objs = append(objs, owned[uid]...)
		}
	}
	// An orphaned ReplicaSet or Job is drawn over its own pods.
	for _, o := range objs {
		if viewOf(o.GetKind()).lane != nil {
			drawn[o.Meta().UID] = true
		}
	}
	var pods []api.Object
	for _, o := range objs {
		if draw := viewOf(o.GetKind()).lane; draw != nil {
			k := api.KeyOf(o)
			addLane(&lane{id: k.String(), owners: []*owner{draw(s, o, owned[o.Meta().UID])}}, k)
		} else if o.GetKind() == api.KindPod {
			if ref := o.Meta().ControllerRef(); ref == nil || !drawn[ref.UID] {
				pods = append(pods, o)
			}
		}
	}
	if len(pods) > 0 {
		addLane(&lane{id: "pods", owners: []*owner{s.podsOf(nil, "", pods)}})
	}
}

// podsOf makes an owner of its pods (children may hold other kinds).
func (s *scene) podsOf(box *Box, uid string, children []api.Object) *owner {
	o := &owner{box: box, uid: uid}
	var pods []*api.Pod
	for _, c := range children {
		if p, ok := c.(*api.Pod); ok {
			pods = append(pods, p)
		}
	}
	s.fillPods(o, pods)
	return o
}

// storyKeys are the objects the tick wrote or acted on (touched), with
// them the lesson's (story), and the inspector's too (focus).
func (s *scene) storyKeys() (touched, focus, story map[api.Key]bool) {
	touched, focus, story = map[api.Key]bool{}, map[api.Key]bool{}, map[api.Key]bool{}
	if t := s.tick; t != nil {
		for _, k := range s.m.tickKeys(t) {
			touched[k], focus[k], story[k] = true, true, true
		}
	}
	for _, k := range s.m.LessonMarks() {
		focus[k], story[k] = true, true
	}
	for k := range s.m.WhyMarks() {
		focus[k], story[k] = true, true
	}
	if k := s.m.Selected; k.Kind != "" {
		focus[k] = true
	}
	return touched, focus, story
}

// tickKeys are the objects a tick is drawn on: the object it handled,
// every object it wrote but Events (an EndpointSlice's or Endpoints'
// write is drawn on its Service), the Services whose rules a kube-proxy
// reprogrammed, and the node of a kubelet or of a pod bound to it.
func (m *Model) tickKeys(t *trace.Tick) []api.Key {
	var out []api.Key
	if t.Object.Kind != "" {
		out = append(out, t.Object)
	}
	if t.Host != "" {
		out = append(out, api.Key{Kind: api.KindNode, Name: t.Host})
	}
	for _, e := range t.Effects {
		switch {
		case e.Class == trace.Event:
		case e.Object.Kind == api.KindEndpointSlice || e.Object.Kind == api.KindEndpoints:
			if k, ok := serviceOf(e); ok {
				out = append(out, k)
			}
		default:
			out = append(out, e.Object)
		}
		if p, ok := e.After.(*api.Pod); ok && e.Class == trace.Bind && p.Spec.NodeName != "" {
			out = append(out, api.Key{Kind: api.KindNode, Name: p.Spec.NodeName})
		}
	}
	for _, c := range t.Rules() {
		out = append(out, c.Service)
	}
	return out
}

// markFocus marks the lanes the story is about: those that draw an
// object the tick or the lesson is about, and those the visitor opened;
// else those of the latest earlier tick that touched one; else the
// first.
func (s *scene) markFocus() {
	found := false
	for _, ln := range s.lanes {
		if ln.has(s.story) || s.expanded[foldID(ln)] {
			ln.focus, found = true, true
		}
	}
	if found || len(s.lanes) == 0 {
		return
	}
	tr := s.m.eng.Trace()
	for i := len(tr) - 1; i >= 0 && len(tr)-i <= recentTicks; i-- {
		keys := map[api.Key]bool{}
		for _, k := range s.m.tickKeys(tr[i]) {
			keys[k] = true
		}
		for _, ln := range s.lanes {
			if ln.has(keys) {
				ln.focus, found = true, true
			}
		}
		if found {
			return
		}
	}
	s.lanes[0].focus = true
}

// foldID is the id of the box a lane folds to.
func foldID(ln *lane) string { return "fold/" + ln.id }

// recentTicks bounds how far back markFocus looks for the workload the
// story was last about.
const recentTicks = 500

// ownedOldestFirst are the objects of type T among an owner's, oldest
// first (by creation time, then name), as a lane lists its owners.
func ownedOldestFirst[T api.Object](owned []api.Object) []T {
	var out []T
	for _, o := range owned {
		if t, ok := o.(T); ok {
			out = append(out, t)
		}
	}
	slices.SortFunc(out, func(a, b T) int {
		ma, mb := a.Meta(), b.Meta()
		return cmp.Or(cmp.Compare(ma.CreationTimestamp.MS, mb.CreationTimestamp.MS), strings.Compare(ma.Name, mb.Name))
	})
	return out
}

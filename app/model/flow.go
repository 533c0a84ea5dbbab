package model

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/controller/deployment"
	"github.com/stateflow/stateflow/engine/trace"
)

// Layout constants of the flow diagram, in SVG user units. Text is 11
// units of a monospace font; CharW is a character's advance with room to
// spare, so a line of n characters fits in TextWidth(n).
const (
	CharW           = 7
	TextPad         = 8  // left and right of a box's text
	LineH           = 14 // between lines of a box
	boxW, boxH      = 190, 64
	podW, podH      = 8 + 17*CharW + 8, 50 // 17 characters: "ContainerCreating"
	podChars        = 17
	podGap          = 10
	rowDeploy       = 24
	rowRS           = 136
	rowPods         = 248
	podsPerRow      = 4
	nodeW, nodeH    = 150, 64
	margin          = 24
	GroupPodsAbove  = 24  // an RS with more pods is drawn as groups per node
	GroupNodesAbove = 40  // more nodes are drawn as one summary box
	eventsColumnW   = 110 // the side channel on the right
	eventGap        = 9   // how far under its box an Event's arrow runs
	// EventLabelW is how far left of the Events channel an Event arrow's
	// label starts: within the margin right of the last box.
	EventLabelW = margin + 16
)

// TextWidth is the width a box needs for a line of n characters.
func TextWidth(n int) int { return TextPad + n*CharW + TextPad }

// widthFor is the width a box needs for its title and lines, at least min.
func widthFor(min int, title string, lines []string) int {
	n := len([]rune(title)) + 2 // the badges beside the title
	for _, l := range lines {
		n = max(n, len([]rune(l)))
	}
	return max(min, TextWidth(n))
}

// Clip cuts a line to what a box of width w shows, with an ellipsis.
func Clip(s string, w int) string {
	n := (w - 2*TextPad) / CharW
	r := []rune(s)
	if len(r) <= n || n < 2 {
		return s
	}
	return string(r[:n-1]) + "…"
}

// Box is one object in the diagram.
type Box struct {
	ID        string // "Kind/ns/name", or a group id
	Kind      string
	Name      string
	Key       api.Key
	X, Y      int
	W, H      int
	Title     string
	Lines     []string
	Stale     string // what a controller's stale cache believes, if it differs
	Status    string // ok, progress, warn, bad, gone
	Highlight trace.Class
	Actor     bool // the tick's component acted on this object
	// Spark is a Service's traffic, oldest interval first, drawn as bars
	// under its lines.
	Spark []SparkBar
	// Refused says this budget refused an eviction this tick (429).
	Refused bool
	// Lesson says the lesson's step points at this object.
	Lesson bool
}

// SparkBar is one interval of traffic: requests served and failed.
type SparkBar struct{ Served, Failed int }

// Edge connects an owner to what it owns, or a pod to its node.
type Edge struct {
	From, To string
	Kind     string // "owns", "bound", "scales" (an HPA) or "guards" (a PDB)
}

// Arrow is one effect of the current tick.
type Arrow struct {
	X1, Y1, X2, Y2 int
	// ViaY, when set, routes the arrow down to ViaY and along it to X2:
	// Events leave through the gap under their row.
	ViaY  int
	Class trace.Class
	Label string
	// LabelAtStart puts the label at the arrow's start rather than its
	// middle.
	LabelAtStart bool
}

// Flow is the diagram at the current tick.
type Flow struct {
	Width, Height int
	Boxes         []Box
	Edges         []Edge
	Arrows        []Arrow
	// SchedulerY is where the scheduler junction is drawn, between pods
	// and nodes; NodesY the node row.
	SchedulerY, NodesY int
	EventsX            int
	// Grouped says pods or nodes were grouped because there are many.
	Grouped string
}

type layout struct {
	m     *Model
	f     *Flow
	boxes map[string]*Box
	x     int
}

// Flow lays out every Deployment with its ReplicaSets and pods, every
// DaemonSet and StatefulSet with its pods, every CronJob with its Jobs
// and every Job with its pods, every HorizontalPodAutoscaler and
// PodDisruptionBudget, the Services beside them, the scheduler junction
// and the nodes, and the current tick's effects.
func (m *Model) Flow() (f Flow) {
	defer m.guard("drawing the flow")
	if m.eng == nil {
		return Flow{Width: 400, Height: 200}
	}
	l := &layout{m: m, f: &f, boxes: map[string]*Box{}, x: margin}
	st := m.eng.Store()
	deployments := st.List(api.KindDeployment, "")
	owned := ownedBy(st)
	maxPodsY := rowPods + podH
	for _, d := range deployments {
		maxPodsY = max(maxPodsY, l.deployment(d.(*api.Deployment), owned))
	}
	maxPodsY = max(maxPodsY, l.orphans(owned[""], owned))
	for _, d := range st.List(api.KindDaemonSet, "") {
		maxPodsY = max(maxPodsY, l.daemonSet(d.(*api.DaemonSet), owned[d.Meta().UID]))
	}
	for _, s := range st.List(api.KindStatefulSet, "") {
		maxPodsY = max(maxPodsY, l.statefulSet(s.(*api.StatefulSet), owned[s.Meta().UID]))
	}
	for _, c := range st.List(api.KindCronJob, "") {
		maxPodsY = max(maxPodsY, l.cronJob(c.(*api.CronJob), owned))
	}
	for _, h := range st.List(api.KindHorizontalPodAutoscaler, "") {
		l.hpa(h.(*api.HorizontalPodAutoscaler))
	}
	for _, p := range st.List(api.KindPodDisruptionBudget, "") {
		l.pdb(p.(*api.PodDisruptionBudget))
	}
	services := st.List(api.KindService, "")
	maxPodsY = max(maxPodsY, l.services(services))
	f.SchedulerY = maxPodsY + 40
	f.NodesY = f.SchedulerY + 60
	l.nodes(st.List(api.KindNode, ""))
	f.EventsX = max(l.x, 600)
	f.Width = f.EventsX + eventsColumnW
	f.Height = f.NodesY + nodeH + margin
	l.edges()
	l.highlight()
	l.markLesson()
	for _, id := range sortedIDs(l.boxes) {
		f.Boxes = append(f.Boxes, *l.boxes[id])
	}
	return f
}

// markLesson marks the boxes of the objects the lesson's step points at.
func (l *layout) markLesson() {
	marks := l.m.LessonMarks()
	if len(marks) == 0 {
		return
	}
	set := map[api.Key]bool{}
	for _, k := range marks {
		set[k] = true
	}
	for _, b := range l.boxes {
		if b.Key.Kind != "" && set[b.Key] {
			b.Lesson = true
		}
	}
}

func sortedIDs(m map[string]*Box) []string {
	ids := make([]string, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

func (l *layout) add(b *Box) *Box {
	l.boxes[b.ID] = b
	return b
}

// deployment places a Deployment above its ReplicaSets, each above its
// pods, and returns the lowest y used.
func (l *layout) deployment(d *api.Deployment, owned map[string][]api.Object) int {
	start := l.x
	var rss []*api.ReplicaSet
	for _, o := range owned[d.UID] {
		if rs, ok := o.(*api.ReplicaSet); ok {
			rss = append(rss, rs)
		}
	}
	sort.Slice(rss, func(i, j int) bool {
		return rss[i].CreationTimestamp.MS < rss[j].CreationTimestamp.MS || rss[i].CreationTimestamp.MS == rss[j].CreationTimestamp.MS && rss[i].Name < rss[j].Name
	})
	bottom := rowPods
	x := start
	for _, rs := range rss {
		w, b := l.replicaSet(rs, owned[rs.UID], x)
		x += w + margin
		bottom = max(bottom, b)
	}
	st := d.Status
	title := "deploy/" + d.Name
	lines := []string{fmt.Sprintf("ready %d/%d · updated %d · available %d", st.ReadyReplicas, d.Replicas(), st.UpdatedReplicas, st.AvailableReplicas), conditionsLine(d)}
	w := widthFor(boxW, title, lines)
	width := max(x-start-margin, w)
	db := l.add(l.objectBox(d, start+(width-w)/2, rowDeploy, w, boxH))
	db.Title, db.Lines = title, lines
	db.Status = deploymentStatus(d)
	db.Stale = l.stale(d, engine.DeploymentController, func(o api.Object) string {
		c := o.(*api.Deployment)
		return fmt.Sprintf("%d/%d available", c.Status.AvailableReplicas, c.Replicas())
	})
	l.x = start + width + 2*margin
	return bottom
}

func conditionsLine(d *api.Deployment) string {
	var parts []string
	for _, c := range d.Status.Conditions {
		if c.Type == api.DeploymentAvailable || c.Type == api.DeploymentProgressing {
			parts = append(parts, fmt.Sprintf("%s=%s", c.Type, c.Status))
		}
	}
	if len(parts) == 0 {
		return "no conditions yet"
	}
	return strings.Join(parts, " · ")
}

func deploymentStatus(d *api.Deployment) string {
	if d.DeletionTimestamp != nil {
		return "gone"
	}
	if c := d.Status.Condition(api.DeploymentProgressing); c != nil && c.Status == api.ConditionFalse {
		return "bad"
	}
	if c := d.Status.Condition(api.DeploymentAvailable); c == nil || c.Status != api.ConditionTrue {
		return "warn"
	}
	if d.Status.UpdatedReplicas != d.Replicas() || d.Status.AvailableReplicas != d.Replicas() {
		return "progress"
	}
	return "ok"
}

func (l *layout) objectBox(o api.Object, x, y, w, h int) *Box {
	k := api.KeyOf(o)
	return &Box{ID: k.String(), Kind: k.Kind, Name: k.Name, Key: k, X: x, Y: y, W: w, H: h}
}

// ownedBy groups ReplicaSets and pods by their controller's UID ("" for
// none), each group sorted by namespace and name when it is drawn object
// by object. A ReplicaSet of many pods is drawn as counts per node, for
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
		if len(objs) <= GroupPodsAbove || uid == "" || objs[0].GetKind() != api.KindPod {
			slices.SortFunc(objs, func(a, b api.Object) int {
				ma, mb := a.Meta(), b.Meta()
				return cmp.Or(strings.Compare(ma.Namespace, mb.Namespace), strings.Compare(ma.Name, mb.Name))
			})
		}
	}
	return owned
}

// replicaSet places a ReplicaSet and its pods at x; it returns the width
// used and the lowest y.
func (l *layout) replicaSet(rs *api.ReplicaSet, children []api.Object, x int) (int, int) {
	var pods []*api.Pod
	for _, o := range children {
		if p, ok := o.(*api.Pod); ok {
			pods = append(pods, p)
		}
	}
	cols := min(max(len(pods), 1), podsPerRow)
	title := "rs/" + rs.Name
	lines := []string{fmt.Sprintf("desired %d · current %d · ready %d", rs.Replicas(), rs.Status.Replicas, rs.Status.ReadyReplicas),
		fmt.Sprintf("revision %s", rs.Annotations[deployment.RevisionAnnotation])}
	w := widthFor(boxW, title, lines)
	width := max(cols*(podW+podGap)-podGap, w)
	b := l.add(l.objectBox(rs, x+(width-w)/2, rowRS, w, boxH))
	b.Title, b.Lines = title, lines
	b.Status = "ok"
	if rs.Status.ReadyReplicas < rs.Replicas() {
		b.Status = "progress"
	}
	if rs.DeletionTimestamp != nil {
		b.Status = "gone"
	}
	b.Stale = l.stale(rs, engine.DeploymentController, func(o api.Object) string {
		c := o.(*api.ReplicaSet)
		return fmt.Sprintf("%d/%d ready", c.Status.ReadyReplicas, c.Replicas())
	})
	return width, l.podsBelow(rs.UID, pods, x, width, engine.ReplicaSetController)
}

// podsBelow draws an owner's pods in rows under it (or, when there are
// many, as groups per node) and returns the lowest y; component is the
// owner's controller, whose cache the stale notes compare.
func (l *layout) podsBelow(uid string, pods []*api.Pod, x, width int, component string) int {
	if len(pods) > GroupPodsAbove {
		return l.podGroups(uid, pods, x, width)
	}
	bottom := rowPods
	for i, p := range pods {
		px := x + (i%podsPerRow)*(podW+podGap)
		py := rowPods + (i/podsPerRow)*(podH+podGap)
		l.pod(p, px, py, component)
		bottom = max(bottom, py+podH)
	}
	return bottom
}

func (l *layout) pod(p *api.Pod, x, y int, component string) {
	b := l.add(l.objectBox(p, x, y, podW, podH))
	b.Title = shortPod(p.Name)
	state, status := podState(p)
	b.Lines = strings.Split(state, " · ")
	b.Status = status
	b.Stale = l.stale(p, component, func(o api.Object) string {
		c := o.(*api.Pod)
		s, _ := podState(c)
		return s
	})
}

// shortPod keeps the random suffix, which tells pods apart.
func shortPod(name string) string {
	if i := strings.LastIndex(name, "-"); i > 0 && len(name) > podChars-2 {
		return "…" + name[i:]
	}
	return name
}

// podState is the pod's phase and readiness in a few words.
func podState(p *api.Pod) (string, string) {
	switch {
	case p.DeletionTimestamp != nil:
		return "Terminating", "gone"
	case p.Spec.NodeName == "":
		return "Pending · unscheduled", "warn"
	case p.Status.Phase == api.PodSucceeded:
		return "Completed", "ok"
	case p.Status.Phase == api.PodFailed:
		return failedState(p), "bad"
	}
	for _, c := range p.Status.ContainerStatuses {
		if w := c.State.Waiting; w != nil && w.Reason != "ContainerCreating" {
			return w.Reason, "bad"
		}
	}
	if api.IsPodReady(p) {
		return phaseState(p.Status.Phase, true), "ok"
	}
	return phaseState(p.Status.Phase, false), "progress"
}

// phaseState is "<phase> · ready" or "<phase> · not ready", made once for
// the phases of a running pod: the diagram asks for the state of every
// pod at every render.
func phaseState(phase string, ready bool) string {
	switch {
	case phase == api.PodRunning && ready:
		return "Running · ready"
	case phase == api.PodRunning:
		return "Running · not ready"
	case phase == api.PodPending && ready:
		return "Pending · ready"
	case phase == api.PodPending:
		return "Pending · not ready"
	case ready:
		return phase + " · ready"
	}
	return phase + " · not ready"
}

// failedState is a Failed pod as kubectl's STATUS names it (the pod's
// reason, else its container's: Error), with the exit code.
func failedState(p *api.Pod) string {
	for _, c := range p.Status.ContainerStatuses {
		if t := c.State.Terminated; t != nil {
			reason := cmp.Or(p.Status.Reason, t.Reason, "Error")
			return fmt.Sprintf("%s · exit %d", reason, t.ExitCode)
		}
	}
	return cmp.Or(p.Status.Reason, "Failed")
}

// groupNodes is how many nodes podGroups draws a box for; the pods on
// the other nodes share one.
const groupNodes = 8

// podGroups draws many pods as one box per node with counts by state: the
// first groupNodes nodes by name, then one box for the rest. A 150,000-pod
// cluster calls it for each of its ReplicaSets at every render, so it
// keeps counts by state only for the nodes it draws and for the rest
// together, not for every node.
func (l *layout) podGroups(uid string, pods []*api.Pod, x, width int) int {
	l.f.Grouped = fmt.Sprintf("ReplicaSets and DaemonSets with more than %d pods are drawn as groups per node.", GroupPodsAbove)
	type placed struct{ node, state string }
	all := make([]placed, len(pods)) // read once: the pods lie all over the heap
	seen := make(map[string]bool, len(pods))
	var nodes []string // the first groupNodes nodes by name, in order
	for i, p := range pods {
		all[i].node, all[i].state = groupNode(p), podStateOnly(p)
		if n := all[i].node; !seen[n] {
			seen[n] = true
			nodes = insertFirst(nodes, n, groupNodes)
		}
	}
	counts := make([]map[string]int, len(nodes))
	for i := range counts {
		counts[i] = map[string]int{}
	}
	rest := map[string]int{}
	for _, p := range all {
		if i := slices.Index(nodes, p.node); i >= 0 {
			counts[i][p.state]++
		} else {
			rest[p.state]++
		}
	}
	bottom := rowPods
	for i, n := range nodes {
		px := x + (i%2)*(width/2)
		py := rowPods + (i/2)*(podH+podGap)
		b := l.add(&Box{ID: fmt.Sprintf("group/%s/%s", uid, n), Kind: "PodGroup", Name: n, X: px, Y: py, W: width/2 - podGap, H: podH, Title: n, Status: "ok"})
		b.Lines = strings.SplitN(countsLine(counts[i]), ": ", 2)
		bottom = max(bottom, py+podH)
	}
	if more := len(seen) - len(nodes); more > 0 {
		py := bottom + podGap
		b := l.add(&Box{ID: fmt.Sprintf("group/%s/rest", uid), Kind: "PodGroup", Name: "other nodes", X: x, Y: py, W: width, H: podH,
			Title: fmt.Sprintf("%d more nodes", more), Lines: strings.SplitN(countsLine(rest), ": ", 2), Status: "ok"})
		bottom = b.Y + podH
	}
	return bottom
}

// podStateOnly is podState's first result.
func podStateOnly(p *api.Pod) string {
	s, _ := podState(p)
	return s
}

// groupNode is the node a pod is grouped under: its node, or
// "unscheduled".
func groupNode(p *api.Pod) string {
	return cmp.Or(p.Spec.NodeName, "unscheduled")
}

// insertFirst inserts s into sorted, which holds distinct names in order,
// keeping at most n: the first n names by order.
func insertFirst(sorted []string, s string, n int) []string {
	i, _ := slices.BinarySearch(sorted, s)
	if i >= n {
		return sorted
	}
	sorted = slices.Insert(sorted, i, s)
	return sorted[:min(len(sorted), n)]
}

func countsLine(c map[string]int) string {
	keys := make([]string, 0, len(c))
	total := 0
	for k, n := range c {
		keys = append(keys, k)
		total += n
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%d %s", c[k], k))
	}
	return fmt.Sprintf("%d pods: %s", total, strings.Join(parts, ", "))
}

// orphans places ReplicaSets and pods without an owner after the deployments.
func (l *layout) orphans(objs []api.Object, owned map[string][]api.Object) int {
	bottom := rowPods
	for _, o := range objs {
		switch x := o.(type) {
		case *api.ReplicaSet:
			w, b := l.replicaSet(x, owned[x.UID], l.x)
			l.x += w + 2*margin
			bottom = max(bottom, b)
		case *api.Job:
			w, b := l.job(x, owned[x.UID], l.x)
			l.x += w + 2*margin
			bottom = max(bottom, b)
		case *api.Pod:
			l.pod(x, l.x, rowPods, engine.ReplicaSetController)
			l.x += podW + 2*margin
		}
	}
	return bottom
}

// nodes draws the node row with each kubelet, or one summary box.
func (l *layout) nodes(objs []api.Object) {
	y := l.f.NodesY
	if len(objs) > GroupNodesAbove {
		ready := 0
		for _, o := range objs {
			if api.IsNodeReady(o.(*api.Node)) {
				ready++
			}
		}
		l.f.Grouped += fmt.Sprintf(" The %d nodes are drawn as one box.", len(objs))
		l.add(&Box{ID: "nodes", Kind: "NodeGroup", Name: "nodes", X: margin, Y: y, W: 3 * nodeW, H: nodeH, Title: fmt.Sprintf("%d nodes · kubelets", len(objs)),
			Lines: []string{fmt.Sprintf("%d Ready, %d not ready", ready, len(objs)-ready)}, Status: "ok"})
		l.x = max(l.x, margin+3*nodeW+margin)
		return
	}
	pods := map[string]int{}
	cpu := map[string]int64{}
	l.m.eng.Store().Each(api.KindPod, func(o api.Object) bool {
		p := o.(*api.Pod)
		if p.Spec.NodeName != "" && api.IsPodActive(p) {
			pods[p.Spec.NodeName]++
			cpu[p.Spec.NodeName] += api.PodRequests(p.Spec)["cpu"].MilliValue()
		}
		return true
	})
	x := margin
	for _, o := range objs {
		n := o.(*api.Node)
		b := l.add(l.objectBox(n, x, y, nodeW, nodeH))
		b.Title = n.Name
		ready := "Ready"
		b.Status = "ok"
		if c := n.Status.Condition(api.NodeReady); c == nil || c.Status != api.ConditionTrue {
			ready, b.Status = "NotReady", "bad"
			if c != nil && c.Status == api.ConditionUnknown {
				ready = "Unknown"
			}
		}
		if n.Spec.Unschedulable {
			ready += ",SchedulingDisabled"
			b.Status = "warn"
		}
		alloc := n.Status.Allocatable
		b.Lines = []string{ready + " · kubelet", fmt.Sprintf("%d/%d pods · cpu %dm/%dm", pods[n.Name], alloc["pods"].Value(), cpu[n.Name], alloc["cpu"].MilliValue())}
		b.W = widthFor(nodeW, b.Title, b.Lines)
		x += b.W + margin
	}
	l.x = max(l.x, x)
}

// stale describes what a component's cache holds for o when it lags the
// API server: the eventual consistency made visible.
func (l *layout) stale(o api.Object, component string, describe func(api.Object) string) string {
	cached, ok, watched := l.m.eng.Cached(component, api.KeyOf(o))
	if !watched || ok && cached.Meta().ResourceVersion == o.Meta().ResourceVersion {
		return ""
	}
	// How far the component's whole view lags: its cache is the API
	// server's state as of the last watch event it received.
	lag := ""
	if rv, ok := l.m.eng.CacheVersion(component); ok {
		lag = fmt.Sprintf(" · its cache is at rv %d of %d", rv, l.m.eng.Store().ResourceVersion())
	}
	switch {
	case !ok:
		return component + " has not seen it yet" + lag
	case describe(cached) != describe(o):
		return fmt.Sprintf("%s still sees %s%s", component, describe(cached), lag)
	}
	return fmt.Sprintf("%s's copy is behind (rv %s, API rv %s)", component, cached.Meta().ResourceVersion, o.Meta().ResourceVersion)
}

// edges links owners to owned objects and pods to their nodes.
func (l *layout) edges() {
	for _, b := range l.boxes {
		o, ok := l.m.eng.Store().Get(b.Key)
		if !ok || b.Key.Kind == "" {
			continue
		}
		if ref := o.Meta().ControllerRef(); ref != nil {
			owner := api.Key{Kind: ref.Kind, Namespace: b.Key.Namespace, Name: ref.Name}.String()
			if _, drawn := l.boxes[owner]; drawn {
				l.f.Edges = append(l.f.Edges, Edge{From: owner, To: b.ID, Kind: "owns"})
			}
		}
		if h, ok := o.(*api.HorizontalPodAutoscaler); ok {
			target := api.Key{Kind: h.Spec.ScaleTargetRef.Kind, Namespace: h.Namespace, Name: h.Spec.ScaleTargetRef.Name}.String()
			if _, drawn := l.boxes[target]; drawn {
				l.f.Edges = append(l.f.Edges, Edge{From: b.ID, To: target, Kind: "scales"})
			}
		}
		if p, ok := o.(*api.Pod); ok && p.Spec.NodeName != "" {
			if _, drawn := l.boxes["Node/"+p.Spec.NodeName]; drawn {
				l.f.Edges = append(l.f.Edges, Edge{From: b.ID, To: "Node/" + p.Spec.NodeName, Kind: "bound"})
			}
		}
	}
	l.pdbEdges()
	sort.Slice(l.f.Edges, func(i, j int) bool { return l.f.Edges[i].From+l.f.Edges[i].To < l.f.Edges[j].From+l.f.Edges[j].To })
}

// highlight marks the tick's object and draws an arrow per effect, in the
// direction its class moves state.
func (l *layout) highlight() {
	t := l.m.Current()
	if t == nil {
		return
	}
	actor := l.boxes[t.Object.String()]
	if actor != nil {
		actor.Actor = true
	}
	l.rulesArrows(t)
	l.metricsArrows(t)
	l.pdbArrows(t)
	for _, e := range t.Effects {
		target := l.boxes[e.Object.String()]
		if svc := l.serviceBoxOf(e); svc != nil {
			svc.Highlight = e.Class
			l.f.Arrows = append(l.f.Arrows, sideways(svc, e))
			continue
		}
		if target != nil && (target.Highlight == 0 || e.Class != trace.Event) {
			target.Highlight = e.Class
		}
		if a, ok := l.arrow(t, actor, target, e); ok {
			l.f.Arrows = append(l.f.Arrows, a)
		}
	}
}

func (l *layout) arrow(t *trace.Tick, actor, target *Box, e trace.Effect) (Arrow, bool) {
	label := e.Class.Symbol() + " " + e.Class.String()
	switch {
	case e.Class == trace.Event:
		from := actor
		if from == nil {
			from = target
		}
		if from == nil {
			return Arrow{}, false
		}
		x, y := from.X+from.W-10, from.Y+from.H
		return Arrow{X1: x, Y1: y, X2: l.f.EventsX + 10, Y2: y + eventGap, ViaY: y + eventGap, Class: e.Class, Label: label}, true
	case target == nil:
		return Arrow{}, false
	case e.Class == trace.Aggregate && target.Kind == api.KindPodDisruptionBudget:
		return Arrow{}, false // pdbArrows draws it from the pods
	case e.Class == trace.Aggregate:
		return Arrow{X1: target.X + target.W/2, Y1: target.Y + target.H + 44, X2: target.X + target.W/2, Y2: target.Y + target.H, Class: e.Class, Label: label}, true
	case e.Class == trace.Realize:
		node := l.boxes["Node/"+t.Host]
		if node == nil {
			return Arrow{X1: target.X + target.W/2, Y1: target.Y + target.H + 40, X2: target.X + target.W/2, Y2: target.Y + target.H, Class: e.Class, Label: label}, true
		}
		return Arrow{X1: node.X + node.W/2, Y1: node.Y, X2: target.X + target.W/2, Y2: target.Y + target.H, Class: e.Class, Label: label}, true
	case e.Class == trace.Bind:
		if p, ok := e.After.(*api.Pod); ok && p.Spec.NodeName != "" {
			if node := l.boxes["Node/"+p.Spec.NodeName]; node != nil {
				return Arrow{X1: target.X + target.W/2, Y1: target.Y + target.H, X2: node.X + node.W/2, Y2: node.Y, Class: e.Class, Label: label}, true
			}
		}
		return Arrow{X1: target.X + target.W/2, Y1: target.Y + target.H, X2: target.X + target.W/2, Y2: l.f.SchedulerY, Class: e.Class, Label: label}, true
	}
	from := actor
	if (from == nil || from == target) && target.Kind == api.KindService {
		// Services stand in a column: an arrow from above would cross the
		// one over it (kubectl patch of the second). It comes in from the
		// side, as a slice's does, labelled in the gap left for that.
		y := target.Y + target.H/2
		return Arrow{X1: target.X - sidewaysGap - 36, Y1: y, X2: target.X, Y2: y, Class: e.Class, Label: label, LabelAtStart: true}, true
	}
	if from == nil || from == target {
		return Arrow{X1: target.X + target.W/2, Y1: target.Y - 40, X2: target.X + target.W/2, Y2: target.Y, Class: e.Class, Label: label}, true
	}
	return Arrow{X1: from.X + from.W/2, Y1: from.Y + from.H, X2: target.X + target.W/2, Y2: target.Y, Class: e.Class, Label: label}, true
}

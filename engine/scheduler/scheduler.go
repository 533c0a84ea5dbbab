package scheduler

import (
	"github.com/stateflow/stateflow/engine/api/labels"

	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/informer"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
)

// Name is the scheduler's component name in the trace; its Events carry
// the source "default-scheduler" and it serves pods whose schedulerName is that.
const Name = "scheduler"

// Queue timing from pkg/scheduler/backend/queue/scheduling_queue.go.
const (
	initialBackoffMS       = 1000
	maxBackoffMS           = 10000
	maxInUnschedulablePool = 5 * 60 * 1000
)

// Scheduler is the simulated default-scheduler.
type Scheduler struct {
	reconcile.Base
	nodes     []string             // sorted node names
	order     []*nodeInfo          // the nodeInfo of nodes[i], for the scheduling loop
	info      map[string]*nodeInfo // node → what is placed there (placedOn)
	assumed   map[api.Key]string   // bound by us, not yet seen bound
	attempts  map[api.Key]int      // failed attempts per pod
	parked    map[api.Key]bool     // in the unschedulable pool
	nextStart int
	// selectorIDs numbers the default-spreading selectors (by their
	// ReplicaSet's UID) for the nodes' cached counts.
	selectorIDs map[string]int32
	selectors   []labels.Selector // by id, converted once
	// affinityPods counts the accounted pods with pod affinity or
	// anti-affinity, so that a cluster without any skips
	// InterPodAffinity's passes over the nodes.
	affinityPods int
	room         room // reused by every attempt; not state: a clone starts without it
}

// room is what a scheduling attempt works in: the feasible nodes, the
// filter failures and the score columns, one entry per node. Making them
// afresh cost each attempt six slices of up to a hundred entries.
type room struct {
	feasible               []*nodeInfo
	failures               []status
	scores, taints, spread []int64
	affinity               []int64
	raw                    []float64
}

// sized is buf at length n, zeroed, grown if it must be.
func sized[T any](buf []T, n int) []T {
	if cap(buf) < n {
		return make([]T, n)
	}
	buf = buf[:n]
	clear(buf)
	return buf
}

// New returns a scheduler with an empty cache.
func New() *Scheduler {
	return &Scheduler{Base: reconcile.NewBase(Name, "", informer.New(api.KindNode, api.KindPod, api.KindReplicaSet, api.KindPersistentVolumeClaim, api.KindService, api.KindStatefulSet)), info: map[string]*nodeInfo{},
		assumed: map[api.Key]string{}, attempts: map[api.Key]int{}, parked: map[api.Key]bool{}, selectorIDs: map[string]int32{}}
}

// Clone implements reconcile.Component.
func (s *Scheduler) Clone() reconcile.Component {
	c := &Scheduler{Base: s.CloneBase(), nodes: append([]string(nil), s.nodes...), info: make(map[string]*nodeInfo, len(s.info)),
		assumed: cloneMap(s.assumed), attempts: cloneMap(s.attempts), parked: cloneMap(s.parked), nextStart: s.nextStart, selectorIDs: cloneMap(s.selectorIDs), selectors: slices.Clip(s.selectors), affinityPods: s.affinityPods}
	for k, v := range s.info {
		c.info[k] = v.clone()
	}
	c.order = make([]*nodeInfo, len(c.nodes))
	for i, name := range c.nodes {
		c.order[i] = c.info[name]
	}
	return c
}

func cloneMap[K comparable, V any](m map[K]V) map[K]V {
	out := make(map[K]V, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// Observe keeps node accounting current and queues pods that need a node.
func (s *Scheduler) Observe(ev apiserver.WatchEvent, q reconcile.Queue) {
	switch o := ev.Object.(type) {
	case *api.Node:
		s.observeNode(ev, o)
		s.flushParked(q)
	case *api.Pod:
		s.observePod(ev, o, q)
	case *api.PersistentVolumeClaim:
		s.flushParked(q) // a claim bound may let a parked pod in
	}
}

func (s *Scheduler) observeNode(ev apiserver.WatchEvent, n *api.Node) {
	i := sort.SearchStrings(s.nodes, n.Name)
	exists := i < len(s.nodes) && s.nodes[i] == n.Name
	info := s.nodeInfo(n.Name)
	switch {
	case ev.Type == apiserver.Deleted && exists:
		s.nodes = slices.Delete(s.nodes, i, i+1)
		s.order = slices.Delete(s.order, i, i+1)
	case ev.Type != apiserver.Deleted && !exists:
		s.nodes = slices.Insert(s.nodes, i, n.Name)
		s.order = slices.Insert(s.order, i, info)
	}
	info.node = n
	if ev.Type == apiserver.Deleted {
		info.node = nil
	}
}

// placedOn is the node pod k (p, as an event shows it) is accounted on:
// the node the scheduler bound it to while it has not seen the binding,
// else the pod's own spec.nodeName, if the pod is accounted there.
// Accounting a pod on a node (nodeInfo.add) is what places it; a pod's
// node never changes once set.
func (s *Scheduler) placedOn(k api.Key, p *api.Pod) (*nodeInfo, bool) {
	node, ok := s.assumed[k]
	if !ok {
		node = p.Spec.NodeName
	}
	info := s.info[node]
	if node == "" || info == nil {
		return nil, false
	}
	_, ok = info.find(k)
	return info, ok
}

func (s *Scheduler) observePod(ev apiserver.WatchEvent, p *api.Pod, q reconcile.Queue) {
	k := api.KeyOf(p)
	info, placed := s.placedOn(k, p)
	if placed {
		i, _ := info.find(k)
		info.accounted[i] = p // as the cache now shows it
		if spreadChanged(ev, p) {
			info.spread = nil
		}
	}
	gone := ev.Type == apiserver.Deleted || p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed
	if placed && gone {
		s.account(info, p, -1)
		delete(s.assumed, k)
		s.flushParked(q)
		return
	}
	if gone {
		delete(s.attempts, k)
		delete(s.parked, k)
		return
	}
	if p.Spec.NodeName != "" {
		delete(s.assumed, k)
		delete(s.attempts, k)
		delete(s.parked, k)
		if !placed {
			s.account(s.nodeInfo(p.Spec.NodeName), p, 1)
		}
		return
	}
	if p.DeletionTimestamp != nil || p.Spec.SchedulerName != api.DefaultSchedulerName || s.parked[k] || gated(p) {
		return
	}
	if _, ok := s.assumed[k]; !ok && (ev.Type == apiserver.Added || ev.Old != nil && gated(ev.Old.(*api.Pod))) {
		q.Add(k) // new, or its last scheduling gate removed
	}
}

// gated is the SchedulingGates plugin's PreEnqueue: a pod with a
// scheduling gate left is not queued, and not scheduled.
func gated(p *api.Pod) bool { return len(p.Spec.SchedulingGates) > 0 }

// spreadChanged reports whether a pod event may change what the default
// spreading counts of it: its labels or whether it is terminating.
func spreadChanged(ev apiserver.WatchEvent, p *api.Pod) bool {
	old, ok := ev.Old.(*api.Pod)
	if !ok || ev.Type == apiserver.Deleted {
		return true
	}
	return (old.DeletionTimestamp == nil) != (p.DeletionTimestamp == nil) || !maps.Equal(old.Labels, p.Labels)
}

// account adds pod p to a node's accounting (sign 1) or takes it off (-1).
func (s *Scheduler) account(info *nodeInfo, p *api.Pod, sign int64) {
	info.add(p, usageOf(p), sign)
	if hasPodAffinity(p) {
		s.affinityPods += int(sign)
	}
}

func (s *Scheduler) nodeInfo(name string) *nodeInfo {
	if s.info[name] == nil {
		s.info[name] = &nodeInfo{hostPorts: map[int32]int{}}
	}
	return s.info[name]
}

// flushParked moves unschedulable pods back to the queue after their
// backoff, because a cluster event may have made room.
func (s *Scheduler) flushParked(q reconcile.Queue) {
	keys := make([]api.Key, 0, len(s.parked))
	for k := range s.parked {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].String() < keys[j].String() })
	for _, k := range keys {
		delete(s.parked, k)
		q.AddAfter(k, backoff(s.attempts[k]))
	}
}

func backoff(attempts int) int64 {
	b := int64(initialBackoffMS)
	for i := 1; i < attempts && b < maxBackoffMS; i++ {
		b *= 2
	}
	return min(b, maxBackoffMS)
}

// Reconcile is one scheduling attempt for one pod (schedule_one.go).
func (s *Scheduler) Reconcile(tick reconcile.Tick, key api.Key) (reconcile.Result, error) {
	p, ok := informer.Get[*api.Pod](s.Informer, key)
	if !ok {
		return reconcile.Gone(tick, key, "nothing to schedule")
	}
	if p.Spec.NodeName != "" || p.DeletionTimestamp != nil {
		tick.Explain("pod/%s needs no scheduling", key.Name)
		return reconcile.Result{}, nil
	}
	if gated(p) {
		tick.Explain("pod/%s waits for its scheduling gates to be removed", key.Name)
		return reconcile.Result{}, nil
	}
	if node, ok := s.assumed[key]; ok {
		tick.Explain("pod/%s was already bound to %s (cache not updated yet)", key.Name, node)
		return reconcile.Result{}, nil
	}
	tick.Read(p)
	node, fitErr, considered := s.schedule(tick, p)
	if fitErr != "" {
		return s.fail(tick, p, fitErr)
	}
	err := tick.Bind(p, node, fmt.Sprintf("bound pod/%s to %s", p.Name, node))
	if err != nil {
		tick.Explain("binding pod/%s to %s failed: %v", p.Name, node, err)
		return reconcile.Result{}, nil
	}
	s.assumed[key] = node
	s.account(s.nodeInfo(node), p, 1)
	tick.Event(p, "", api.EventNormal, "Scheduled", fmt.Sprintf("Successfully assigned %s/%s to %s", p.Namespace, p.Name, node))
	tick.Explain("pod/%s: filtered and scored %d of %d nodes; bound to %s", p.Name, considered, len(s.nodes), node)
	return reconcile.Result{}, nil
}

// schedule filters nodes starting at nextStart until enough feasible ones
// are found, then picks the best score, breaking ties at random.
func (s *Scheduler) schedule(tick reconcile.Tick, p *api.Pod) (string, string, int) {
	total := len(s.nodes)
	if total == 0 {
		return "", "0/0 nodes are available: no nodes available to schedule pods.", 0
	}
	if msg := s.volumeBinding(p); msg != "" {
		return "", preFilterError(total, msg), 0
	}
	want := numFeasibleNodesToFind(total)
	feasible := s.room.feasible[:0]
	failures := s.room.failures[:0] // one per node that did not fit
	defer func() {
		clear(feasible)
		s.room.feasible, s.room.failures = feasible[:0], failures[:0]
	}()
	processed := 0
	u := usageOf(p)
	pre := s.prefilter(p)
	for ; processed < total && len(feasible) < want; processed++ {
		i := (s.nextStart + processed) % total
		info := s.order[i]
		n := info.node
		if n == nil {
			continue
		}
		if st := filter(p, &u, n, info, pre); st.fails() {
			failures = append(failures, st)
			continue
		}
		feasible = append(feasible, info)
	}
	s.nextStart = (s.nextStart + processed) % total
	if len(feasible) == 0 {
		for _, info := range s.order {
			if info.node != nil {
				tick.Read(info.node) // every node turned the pod away
			}
		}
		return "", fitError(total, failures), processed
	}
	scores := s.scores(p, &u, feasible)
	best, count := 0, 1
	for i := 1; i < len(feasible); i++ {
		switch {
		case scores[i] > scores[best]:
			best, count = i, 1
		case scores[i] == scores[best]:
			count++
			if tick.Rand().IntN(count) == 0 {
				best = i
			}
		}
	}
	return feasible[best].node.Name, "", processed
}

// fitError builds the FailedScheduling message as v1.34 does
// (framework/types.go FitError.Error, then the PostFilter plugins'
// reasons joined by ", "): DynamicResources says "no new claims to
// deallocate" for a pod without claims, then DefaultPreemption its own
// FitError, where nodes that preemption cannot help (UnschedulableAndUnresolvable)
// count as "Preemption is not helpful for scheduling" and the others as
// "No preemption victims found for incoming pod" (every pod here has the
// same priority, so there is never a victim).
func fitError(total int, failures []status) string {
	// Counted per reason bit, then named: failures has one status per
	// node, and a pod that fits nowhere fails on every one of them at
	// each attempt.
	var perReason [reasonCount]int
	unresolvable := 0
	for _, st := range failures {
		for i := range reasonCount {
			if st.reasons&(reasons(1)<<i) != 0 {
				perReason[i]++
			}
		}
		if st.unresolvable {
			unresolvable++
		}
	}
	byText := map[string]int{}
	for i, n := range perReason {
		if n > 0 {
			byText[(reasons(1) << i).text()] = n // each bit has its own text
		}
	}
	for _, st := range failures {
		for _, name := range st.insufficient {
			byText["Insufficient "+name]++
		}
	}
	preempt := map[string]int{}
	if unresolvable > 0 {
		preempt["Preemption is not helpful for scheduling"] = unresolvable
	}
	if n := len(failures) - unresolvable; n > 0 {
		preempt["No preemption victims found for incoming pod"] = n
	}
	inner := fmt.Sprintf("0/%d nodes are available: %s.", total, histogram(preempt))
	return fmt.Sprintf("0/%d nodes are available: %s. no new claims to deallocate, preemption: %s", total, histogram(byText), inner)
}

func histogram(m map[string]int) string {
	var entries []string
	for r, n := range m {
		entries = append(entries, fmt.Sprintf("%d %s", n, r))
	}
	sort.Strings(entries)
	return strings.Join(entries, ", ")
}

// fail records PodScheduled=False and FailedScheduling, and parks the pod
// until a cluster event or the 5-minute flush.
func (s *Scheduler) fail(tick reconcile.Tick, p *api.Pod, msg string) (reconcile.Result, error) {
	k := api.KeyOf(p)
	s.attempts[k]++
	s.parked[k] = true
	tick.Event(p, "", api.EventWarning, "FailedScheduling", msg)
	// A status patch reads only the status: the copy shares the cached
	// pod's spec and metadata, and its conditions are its own because
	// SetPodCondition changes them in place.
	cp := *p
	cp.Status.Conditions = slices.Clone(p.Status.Conditions)
	if apiserver.SetPodCondition(&cp.Status, api.PodCondition{Type: api.PodScheduled, Status: api.ConditionFalse, Reason: "Unschedulable", Message: msg}, tick.Now()) {
		if _, err := tick.PatchStatus(trace.Bind, &cp, fmt.Sprintf("pod/%s PodScheduled=False (Unschedulable)", p.Name)); err != nil && !apiserver.IsReason(err, apiserver.ReasonNotFound) {
			return reconcile.Result{}, err
		}
	}
	tick.Explain("pod/%s fits no node: %s", p.Name, msg)
	return reconcile.Result{RequeueAfter: maxInUnschedulablePool}, nil
}

// volumeBinding is the VolumeBinding plugin's PreFilter for claims bound
// at once: a pod waits until every claim it mounts exists and is Bound.
func (s *Scheduler) volumeBinding(p *api.Pod) string {
	unbound := false
	for _, v := range p.Spec.Volumes {
		if v.PersistentVolumeClaim == nil {
			continue
		}
		c, ok := informer.Get[*api.PersistentVolumeClaim](s.Informer, api.Key{Kind: api.KindPersistentVolumeClaim, Namespace: p.Namespace, Name: v.PersistentVolumeClaim.ClaimName})
		if !ok {
			return fmt.Sprintf("persistentvolumeclaim %q not found", v.PersistentVolumeClaim.ClaimName)
		}
		// isPVCFullyBound (volumebinding/binder.go): a volume name and
		// the bind-completed annotation.
		unbound = unbound || c.Spec.VolumeName == "" || c.Annotations["pv.kubernetes.io/bind-completed"] == ""
	}
	if unbound {
		return "pod has unbound immediate PersistentVolumeClaims"
	}
	return ""
}

// preFilterError is FitError.Error for a pod a PreFilter plugin rejected
// as UnschedulableAndUnresolvable: its message, then the PostFilter
// plugins', for which no node could help.
func preFilterError(total int, msg string) string {
	return fmt.Sprintf("0/%d nodes are available: %s. no new claims to deallocate, preemption: 0/%d nodes are available: %d Preemption is not helpful for scheduling.", total, msg, total, total)
}

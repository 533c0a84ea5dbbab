package replicaset

import (
	"fmt"
	"maps"
	"reflect"
	"sort"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/controller/controllerutil"
	"github.com/stateflow/stateflow/engine/controller/expectations"
	"github.com/stateflow/stateflow/engine/controller/refmanager"
	"github.com/stateflow/stateflow/engine/informer"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
)

// Name is the component name used in Event sources and the trace.
const Name = "replicaset-controller"

// ReplicationName is the name of the same controller run over
// ReplicationControllers (kube-controller-manager's replicationcontroller,
// which records Events as replication-controller).
const ReplicationName = "replication-controller"

// BurstReplicas caps the pods created or deleted in one sync.
const BurstReplicas = 500

// Controller is the ReplicaSet controller with its cache of ReplicaSets
// (or ReplicationControllers) and Pods.
type Controller struct {
	reconcile.Base
	kind  string // api.KindReplicaSet or api.KindReplicationController
	short string // "rs" or "rc", in the trace's words
	// formats are the trace's sentences with short in them, made once:
	// a kind passed as an argument would be boxed at every sync.
	formats *formats
	exp     expectations.Expectations
	counts  counts // the pods each ReplicaSet controls, counted (counts.go)
	// verify makes every sync that uses counts also walk the pods and
	// fail if the two differ (engine.Config.VerifyIncremental).
	verify bool
	// owned is the room activePods lists a sync's pods in, reused by the
	// next sync (not state: a clone starts without it).
	owned []*api.Pod
}

// New returns a ReplicaSet controller with an empty cache.
func New() *Controller { return newController(Name, api.KindReplicaSet, "rs") }

// NewReplication returns the controller of ReplicationControllers, with
// an empty cache: the ReplicaSet controller reading each
// ReplicationController as a ReplicaSet (NewReplicationManager).
func NewReplication() *Controller {
	return newController(ReplicationName, api.KindReplicationController, "rc")
}

func newController(name, kind, short string) *Controller {
	return &Controller{Base: reconcile.NewBase(name, "", informer.New(kind, api.KindPod)), kind: kind, short: short,
		formats: &formats{saw: short + "/%s: saw %d of %d pods (%d ready, %d available)%s",
			deleted: short + "/%s deleted pod/%s (scale down to %d)", status: short + "/%s status: %d replicas, %d ready, %d available"},
		exp: expectations.Expectations{}, counts: counts{}}
}

// formats are the trace's sentences of one controller (they never
// change: clones share them).
type formats struct{ saw, deleted, status string }

// Verify makes every sync that uses the kept pod counts check them
// against a walk over the cache (for tests: engine.Config.VerifyIncremental).
func (c *Controller) Verify(on bool) { c.verify = on }

// Clone implements reconcile.Component.
func (c *Controller) Clone() reconcile.Component {
	return &Controller{Base: c.CloneBase(), kind: c.kind, short: c.short, formats: c.formats, exp: c.exp.Clone(), counts: c.counts.clone(), verify: c.verify}
}

// Observe queues the ReplicaSets it concerns.
func (c *Controller) Observe(ev apiserver.WatchEvent, q reconcile.Queue) {
	if p, ok := ev.Object.(*api.Pod); ok {
		c.counts.observe(ev, p)
		c.observePod(ev, p, q)
		return
	}
	if o := ev.Object; o.GetKind() == c.kind {
		if ev.Type == apiserver.Deleted {
			delete(c.exp, api.KeyOf(o))
			delete(c.counts, o.Meta().UID)
		}
		q.Add(api.KeyOf(o))
	}
}

func (c *Controller) observePod(ev apiserver.WatchEvent, p *api.Pod, q reconcile.Queue) {
	old, _ := ev.Old.(*api.Pod)
	rs := c.owner(p)
	switch {
	case ev.Type == apiserver.Added && p.DeletionTimestamp == nil:
		if rs.ReplicaSet != nil {
			c.exp.CreationObserved(api.KeyOf(rs.obj))
		}
	case ev.Type == apiserver.Deleted || p.DeletionTimestamp != nil && (old == nil || old.DeletionTimestamp == nil):
		if rs.ReplicaSet != nil {
			c.exp.DeletionObserved(api.KeyOf(rs.obj), api.KeyOf(p))
		}
	}
	if rs.ReplicaSet == nil {
		if p.ControllerRef() == nil {
			for _, o := range c.Informer.List(c.kind, p.Namespace) {
				if targetOf(o).Spec.Selector.Matches(p.Labels) {
					q.Add(api.KeyOf(o))
				}
			}
		}
		return
	}
	q.Add(api.KeyOf(rs.obj))
	if old != nil && !api.IsPodReady(old) && api.IsPodReady(p) && rs.Spec.MinReadySeconds > 0 {
		q.AddAfter(api.KeyOf(rs.obj), int64(rs.Spec.MinReadySeconds)*1000)
	}
}

// owner is the pod's controller, if the cache holds it; a target
// without a ReplicaSet otherwise.
func (c *Controller) owner(p *api.Pod) target {
	o, ok := controllerutil.ResolveControllerRef[api.Object](c.Informer, c.kind, p.Namespace, p.ControllerRef())
	if !ok {
		return target{}
	}
	return targetOf(o)
}

// Reconcile is syncReplicaSet (replica_set.go).
func (c *Controller) Reconcile(tick reconcile.Tick, key api.Key) (reconcile.Result, error) {
	o, ok := c.Informer.Get(key)
	if !ok {
		delete(c.exp, key)
		tick.Explain("%s/%s: deleted; nothing to do", c.short, key.Name)
		return reconcile.Result{}, nil
	}
	tick.Read(o)
	rs := targetOf(o)
	now := tick.Now()
	needsSync := c.exp.Satisfied(key, now)
	if pc, ok := c.countedSync(rs, needsSync); ok {
		return c.syncCounted(tick, rs, pc, needsSync, now)
	}
	owned, orphans := activePods(c.Informer, rs, c.owned[:0])
	defer func() { clear(owned); c.owned = owned[:0] }()
	c.counts.rebuild(rs, owned)
	pods, err := c.claimPods(tick, rs, owned, orphans)
	if err != nil {
		return reconcile.Result{}, err
	}
	var manageErr error
	action := ""
	if needsSync && rs.DeletionTimestamp == nil {
		action, manageErr = c.manageReplicas(tick, pods, rs)
	} else if !needsSync {
		action = waitsAction
	}
	newStatus := calculateStatus(rs, pods, manageErr, now)
	return c.finishSync(tick, rs, len(pods), newStatus, manageErr, func(u target) reconcile.Result {
		if u.Spec.MinReadySeconds > 0 && u.Status.ReadyReplicas != u.Status.AvailableReplicas {
			return reconcile.Result{RequeueAfter: nextAvailabilityCheck(pods, u.Spec.MinReadySeconds, now)}
		}
		return reconcile.Result{}
	}, action)
}

// waitsAction is what a sync with unmet expectations does.
const waitsAction = "waits for its earlier creations/deletions to show up in its cache"

// countedSync returns rs's kept pod counts when this sync can be decided
// from them alone, as the walk would decide it: every pod rs controls
// matches its selector (nothing to release), no orphan waits to be
// adopted, no pod is to be deleted (choosing which needs the pods), and
// availability is readiness (minReadySeconds 0, so no pod's ready time
// matters).
func (c *Controller) countedSync(rs target, needsSync bool) (*podCounts, bool) {
	if rs.Spec.MinReadySeconds != 0 {
		return nil, false
	}
	pc, ok := c.counts.usable(rs)
	if !ok || pc.active != pc.matching || hasActiveOrphans(c.Informer, rs.Namespace) {
		return nil, false
	}
	if needsSync && rs.DeletionTimestamp == nil && pc.matching > rs.Replicas() {
		return nil, false
	}
	return pc, true
}

// syncCounted is the rest of syncReplicaSet decided from the counts:
// ClaimPods would keep every pod rs controls and adopt none, so the
// claimed pods are the counted ones.
func (c *Controller) syncCounted(tick reconcile.Tick, rs target, pc *podCounts, needsSync bool, now int64) (reconcile.Result, error) {
	if c.verify {
		owned, _ := activePods(c.Informer, rs, nil)
		if err := pc.check(rs, owned); err != nil {
			return reconcile.Result{}, err
		}
	}
	n := int(pc.matching)
	var manageErr error
	action := ""
	if needsSync && rs.DeletionTimestamp == nil {
		if diff := n - int(rs.Replicas()); diff < 0 {
			action, manageErr = c.createReplicas(tick, rs, -diff)
		}
	} else if !needsSync {
		action = waitsAction
	}
	newStatus := statusOf(rs, n, pc.labeled, pc.ready, pc.ready, manageErr, now)
	return c.finishSync(tick, rs, n, newStatus, manageErr, func(target) reconcile.Result { return reconcile.Result{} }, action)
}

// finishSync explains the sync and writes the status; requeue says when
// to sync again after a successful write.
func (c *Controller) finishSync(tick reconcile.Tick, rs target, pods int, newStatus api.ReplicaSetStatus, manageErr error, requeue func(target) reconcile.Result, action string) (reconcile.Result, error) {
	tick.Explain(c.formats.saw, rs.Name, pods, rs.Replicas(), newStatus.ReadyReplicas, newStatus.AvailableReplicas, prefix(action))
	updated, err := c.updateStatus(tick, rs, newStatus)
	if err != nil {
		return reconcile.Result{}, err
	}
	if manageErr != nil {
		return reconcile.Result{}, manageErr
	}
	return requeue(updated), nil
}

// hasActiveOrphans reports whether the cache holds an active pod without
// a controller in namespace ns (one ClaimPods would try to adopt).
func hasActiveOrphans(cache *informer.Cache, ns string) bool {
	found := false
	cache.EachOrphan(api.KindPod, ns, func(o api.Object) bool {
		found = api.IsPodActive(o.(*api.Pod))
		return !found
	})
	return found
}

// nextAvailabilityCheck is when the earliest ready pod becomes available
// (controller_utils.go FindMinNextPodAvailabilityCheck), or after
// minReadySeconds when none is waiting.
func nextAvailabilityCheck(pods []*api.Pod, minReadySeconds int32, now int64) int64 {
	next := int64(minReadySeconds) * 1000
	found := false
	for _, p := range pods {
		if !api.IsPodReady(p) {
			continue
		}
		c := p.Status.Condition(api.PodReady)
		if !c.LastTransitionTime.Set {
			continue
		}
		if d := c.LastTransitionTime.MS + int64(minReadySeconds)*1000 - now; d > 0 && (!found || d < next) {
			next, found = d, true
		}
	}
	return next
}

func prefix(s string) string {
	if s == "" {
		return ""
	}
	return "; " + s
}

// activePods returns the cached pods controlled by rs (appended to owned)
// and those orphaned in its namespace, without terminal or terminating ones
// (FilterActivePods). The pods come in no particular order; code whose
// effects depend on the order sorts what it acts on.
func activePods(cache *informer.Cache, rs target, owned []*api.Pod) (_, orphans []*api.Pod) {
	cache.EachOwned(api.KindPod, rs.UID, func(o api.Object) {
		if p := o.(*api.Pod); api.IsPodActive(p) {
			owned = append(owned, p)
		}
	})
	for _, o := range cache.Orphans(api.KindPod, rs.Namespace) {
		if p := o.(*api.Pod); api.IsPodActive(p) {
			orphans = append(orphans, p)
		}
	}
	return owned, orphans
}

// byName sorts pods by name, for deterministic order where it matters.
func byName(ps []*api.Pod) {
	sort.Slice(ps, func(i, j int) bool { return ps[i].Name < ps[j].Name })
}

// claimPods is PodControllerRefManager.ClaimPods for the ReplicaSet.
func (c *Controller) claimPods(tick reconcile.Tick, rs target, owned, orphans []*api.Pod) ([]*api.Pod, error) {
	return refmanager.ClaimPods(tick, rs.obj, rs.Spec.Selector, owned, orphans, nil)
}

// manageReplicas creates or deletes pods towards spec.replicas.
func (c *Controller) manageReplicas(tick reconcile.Tick, pods []*api.Pod, rs target) (string, error) {
	diff := len(pods) - int(rs.Replicas())
	key := api.KeyOf(rs.obj)
	switch {
	case diff < 0:
		return c.createReplicas(tick, rs, -diff)
	case diff > 0:
		n := min(diff, BurstReplicas)
		byName(pods)
		onNode, err := c.relatedNodeCounts(rs)
		if err != nil {
			return "", err
		}
		victims := getPodsToDelete(pods, onNode, n, tick.Now())
		keys := make([]api.Key, len(victims))
		for i, p := range victims {
			keys[i] = api.KeyOf(p)
		}
		c.exp.ExpectDeletions(key, keys, tick.Now())
		var firstErr error
		deleted := 0
		for _, p := range victims {
			if err := c.deletePod(tick, rs, p); err != nil {
				c.exp.DeletionObserved(key, api.KeyOf(p))
				if firstErr == nil {
					firstErr = err
				}
				continue
			}
			deleted++
		}
		return fmt.Sprintf("deleted %d pods", deleted), firstErr
	}
	return "", nil
}

// createReplicas creates the diff missing pods, at most BurstReplicas,
// expecting their creations first.
func (c *Controller) createReplicas(tick reconcile.Tick, rs target, diff int) (string, error) {
	key := api.KeyOf(rs.obj)
	n := min(diff, BurstReplicas)
	c.exp.ExpectCreations(key, n, tick.Now())
	ok, batches, err := c.slowStartBatch(tick, rs, n)
	if skipped := n - ok; skipped > 0 {
		for i := 0; i < skipped; i++ {
			c.exp.CreationObserved(key)
		}
	}
	return fmt.Sprintf("created %d pods in batches %s", ok, batches), err
}

// slowStartBatch creates count pods in batches of 1, 2, 4, … and stops at
// the first batch with a failure (controller_utils.go slowStartBatch).
func (c *Controller) slowStartBatch(tick reconcile.Tick, rs target, count int) (int, string, error) {
	remaining, successes := count, 0
	var sizes []string
	owners := []api.OwnerReference{api.NewControllerRef(rs.obj, api.APIVersionOf(c.kind))} // shared by the pods, which never change it
	for batch := min(remaining, 1); batch > 0; batch = min(2*batch, remaining) {
		sizes = append(sizes, fmt.Sprint(batch))
		var firstErr error
		for i := 0; i < batch; i++ {
			if err := c.createPod(tick, rs, owners); err != nil {
				if firstErr == nil {
					firstErr = err
				}
				continue
			}
			successes++
		}
		if firstErr != nil {
			return successes, strings.Join(sizes, ", "), firstErr
		}
		remaining -= batch
	}
	return successes, strings.Join(sizes, ", "), nil
}

func (c *Controller) createPod(tick reconcile.Tick, rs target, owners []api.OwnerReference) error {
	// GetPodFromTemplate copies the template; here the pod shares its
	// labels, annotations and spec with it instead, as stored objects are
	// never changed (the API server copies what admission changes).
	t := &rs.Spec.Template
	p := &api.Pod{ObjectMeta: api.ObjectMeta{GenerateName: rs.Name + "-", Namespace: rs.Namespace, Labels: t.Labels,
		Annotations: t.Annotations, OwnerReferences: owners}, Spec: &t.Spec}
	created, err := tick.Create(trace.Translate, p, "")
	if err != nil {
		tick.Event(rs.obj, "", api.EventWarning, "FailedCreate", "Error creating: "+err.Error())
		return err
	}
	tick.Event(rs.obj, "", api.EventNormal, "SuccessfulCreate", "Created pod: "+created.Meta().Name)
	return nil
}

func (c *Controller) deletePod(tick reconcile.Tick, rs target, p *api.Pod) error {
	err := tick.Delete(trace.Translate, api.KeyOf(p), apiserver.DeleteOptions{UID: p.UID}, fmt.Sprintf(c.formats.deleted, rs.Name, p.Name, rs.Replicas()))
	if err != nil {
		if apiserver.IsReason(err, apiserver.ReasonNotFound) {
			return nil
		}
		tick.Event(rs.obj, "", api.EventWarning, "FailedDelete", "Error deleting: "+err.Error())
		return err
	}
	tick.Event(rs.obj, "", api.EventNormal, "SuccessfulDelete", "Deleted pod: "+p.Name)
	return nil
}

// relatedNodeCounts counts, per node, the active pods of every
// ReplicaSet with the same controller as rs (getIndirectlyRelatedPods,
// as getPodsRankedByRelatedPodsOnSameNode counts them); none for a
// ReplicaSet without a controller (getReplicaSetsWithSameController
// returns no ReplicaSet then, not rs itself), whose pods all rank alike
// by node. The counts are all the ranking reads of the related pods:
// they come from the pod counts kept for each related ReplicaSet, or,
// when one has none yet, from a walk over their pods.
func (c *Controller) relatedNodeCounts(rs target) (map[string]int, error) {
	ref := rs.ControllerRef()
	if ref == nil {
		return map[string]int{}, nil
	}
	related := c.Informer.Owned(c.kind, ref.UID)
	kept, ok := c.counts.onNodes(related)
	if ok && !c.verify {
		return kept, nil
	}
	onNode := map[string]int{}
	for _, s := range related {
		c.Informer.EachOwned(api.KindPod, s.Meta().UID, func(o api.Object) {
			if p := o.(*api.Pod); api.IsPodActive(p) {
				onNode[p.Spec.NodeName]++
			}
		})
	}
	if ok && !maps.Equal(kept, onNode) {
		return nil, fmt.Errorf("internal error: the kept pod counts by node of %s/%s's related ReplicaSets %v differ from its cache's %v", c.short, rs.Name, kept, onNode)
	}
	return onNode, nil
}

// calculateStatus aggregates the pods into the ReplicaSet's status
// (replica_set_utils.go calculateStatus).
func calculateStatus(rs target, pods []*api.Pod, manageErr error, now int64) api.ReplicaSetStatus {
	var labeled, ready, available int32
	templateLabels := api.EqualityMatcher(rs.Spec.Template.Labels)
	for _, p := range pods {
		if templateLabels.Matches(p.Labels) {
			labeled++
		}
		if api.IsPodReady(p) {
			ready++
			if api.IsPodAvailable(p, rs.Spec.MinReadySeconds, now) {
				available++
			}
		}
	}
	return statusOf(rs, len(pods), labeled, ready, available, manageErr, now)
}

// statusOf is the rest of calculateStatus, from the counts of the pods:
// the ReplicaFailure condition follows manageErr.
func statusOf(rs target, pods int, labeled, ready, available int32, manageErr error, now int64) api.ReplicaSetStatus {
	st := rs.Status
	st.Conditions = append([]api.ReplicaSetCondition(nil), rs.Status.Conditions...)
	failure := st.Condition(api.ReplicaSetReplicaFailure)
	if manageErr != nil && failure == nil {
		reason := "FailedCreate"
		if int32(pods) > rs.Replicas() {
			reason = "FailedDelete"
		}
		st.Conditions = append(st.Conditions, api.ReplicaSetCondition{Type: api.ReplicaSetReplicaFailure, Status: api.ConditionTrue,
			Reason: reason, Message: manageErr.Error(), LastTransitionTime: api.At(now)})
	} else if manageErr == nil && failure != nil {
		var kept []api.ReplicaSetCondition
		for _, c := range st.Conditions {
			if c.Type != api.ReplicaSetReplicaFailure {
				kept = append(kept, c)
			}
		}
		st.Conditions = kept
	}
	st.Replicas = int32(pods)
	st.FullyLabeledReplicas = labeled
	st.ReadyReplicas = ready
	st.AvailableReplicas = available
	return st
}

// updateStatus writes the status when it changed (updateReplicaSetStatus
// in replica_set_utils.go): observedGeneration is the generation of the
// ReplicaSet this sync read, and a failed write is retried once on a
// fresh read from the API server, keeping that observedGeneration.
func (c *Controller) updateStatus(tick reconcile.Tick, rs target, st api.ReplicaSetStatus) (target, error) {
	st.ObservedGeneration = rs.Generation
	if reflect.DeepEqual(&rs.Status, &st) {
		return rs, nil
	}
	cur := rs
	for i := 0; ; i++ {
		summary := fmt.Sprintf(c.formats.status, cur.Name, st.Replicas, st.ReadyReplicas, st.AvailableReplicas)
		out, err := tick.UpdateStatus(trace.Aggregate, cur.withStatus(st), summary)
		if err == nil {
			return targetOf(out), nil
		}
		if i >= 1 {
			return target{}, err
		}
		live, ok := tick.LiveGet(api.KeyOf(rs.obj))
		if !ok {
			return target{}, apiserver.NotFound(c.kind, rs.Name)
		}
		cur = targetOf(live)
	}
}

package replicaset

import (
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/controller/expectations"
	"github.com/stateflow/stateflow/engine/controller/refmanager"
	"github.com/stateflow/stateflow/engine/informer"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
)

// Name is the component name used in Event sources and the trace.
const Name = "replicaset-controller"

// BurstReplicas caps the pods created or deleted in one sync.
const BurstReplicas = 500

// Controller is the ReplicaSet controller with its cache of ReplicaSets and Pods.
type Controller struct {
	cache *informer.Cache
	exp   expectations.Expectations
	// owned is the room activePods lists a sync's pods in, reused by the
	// next sync (not state: a clone starts without it).
	owned []*api.Pod
}

// New returns a ReplicaSet controller with an empty cache.
func New() *Controller {
	return &Controller{cache: informer.New(api.KindReplicaSet, api.KindPod), exp: expectations.Expectations{}}
}

// Name implements reconcile.Component.
func (c *Controller) Name() string { return Name }

// Host implements reconcile.Component.
func (c *Controller) Host() string { return "" }

// Watches implements reconcile.Component.
func (c *Controller) Watches() []string { return c.cache.Watches() }

// Cache exposes the controller's view.
func (c *Controller) Cache() *informer.Cache { return c.cache }

// Clone implements reconcile.Component.
func (c *Controller) Clone() reconcile.Component {
	return &Controller{cache: c.cache.Clone(), exp: c.exp.Clone()}
}

// Observe applies a watch event and queues the ReplicaSets it concerns.
func (c *Controller) Observe(ev apiserver.WatchEvent, q reconcile.Queue) {
	c.cache.Apply(ev)
	switch o := ev.Object.(type) {
	case *api.ReplicaSet:
		if ev.Type == apiserver.Deleted {
			delete(c.exp, api.KeyOf(o))
		}
		q.Add(api.KeyOf(o))
	case *api.Pod:
		c.observePod(ev, o, q)
	}
}

func (c *Controller) observePod(ev apiserver.WatchEvent, p *api.Pod, q reconcile.Queue) {
	old, _ := ev.Old.(*api.Pod)
	rs := c.owner(p)
	switch {
	case ev.Type == apiserver.Added && p.DeletionTimestamp == nil:
		if rs != nil {
			c.exp.CreationObserved(api.KeyOf(rs))
		}
	case ev.Type == apiserver.Deleted || p.DeletionTimestamp != nil && (old == nil || old.DeletionTimestamp == nil):
		if rs != nil {
			c.exp.DeletionObserved(api.KeyOf(rs), api.KeyOf(p))
		}
	}
	if rs == nil {
		if p.ControllerRef() == nil {
			for _, o := range c.cache.List(api.KindReplicaSet, p.Namespace) {
				if o.(*api.ReplicaSet).Spec.Selector.Matches(p.Labels) {
					q.Add(api.KeyOf(o))
				}
			}
		}
		return
	}
	q.Add(api.KeyOf(rs))
	if old != nil && !api.IsPodReady(old) && api.IsPodReady(p) && rs.Spec.MinReadySeconds > 0 {
		q.AddAfter(api.KeyOf(rs), int64(rs.Spec.MinReadySeconds)*1000)
	}
}

func (c *Controller) owner(p *api.Pod) *api.ReplicaSet {
	ref := p.ControllerRef()
	if ref == nil || ref.Kind != api.KindReplicaSet {
		return nil
	}
	rs, ok := informer.Get[*api.ReplicaSet](c.cache, api.Key{Kind: api.KindReplicaSet, Namespace: p.Namespace, Name: ref.Name})
	if !ok || rs.UID != ref.UID {
		return nil
	}
	return rs
}

// Reconcile is syncReplicaSet (replica_set.go).
func (c *Controller) Reconcile(tick reconcile.Tick, key api.Key) (reconcile.Result, error) {
	rs, ok := informer.Get[*api.ReplicaSet](c.cache, key)
	if !ok {
		delete(c.exp, key)
		tick.Explain("rs/%s: deleted; nothing to do", key.Name)
		return reconcile.Result{}, nil
	}
	tick.Read(rs)
	now := tick.Now()
	needsSync := c.exp.Satisfied(key, now)
	owned, orphans := activePods(c.cache, rs, c.owned[:0])
	defer func() { clear(owned); c.owned = owned[:0] }()
	pods, err := c.claimPods(tick, rs, owned, orphans)
	if err != nil {
		return reconcile.Result{}, err
	}
	var manageErr error
	action := ""
	if needsSync && rs.DeletionTimestamp == nil {
		action, manageErr = c.manageReplicas(tick, pods, rs)
	} else if !needsSync {
		action = "waits for its earlier creations/deletions to show up in its cache"
	}
	newStatus := calculateStatus(rs, pods, manageErr, now)
	tick.Explain("rs/%s: saw %d of %d pods (%d ready, %d available)%s", rs.Name, len(pods), rs.Replicas(), newStatus.ReadyReplicas, newStatus.AvailableReplicas, prefix(action))
	updated, err := c.updateStatus(tick, rs, newStatus)
	if err != nil {
		return reconcile.Result{}, err
	}
	if manageErr != nil {
		return reconcile.Result{}, manageErr
	}
	if u := updated; u.Spec.MinReadySeconds > 0 && u.Status.ReadyReplicas != u.Status.AvailableReplicas {
		return reconcile.Result{RequeueAfter: nextAvailabilityCheck(pods, u.Spec.MinReadySeconds, now)}, nil
	}
	return reconcile.Result{}, nil
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
func activePods(cache *informer.Cache, rs *api.ReplicaSet, owned []*api.Pod) (_, orphans []*api.Pod) {
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
func (c *Controller) claimPods(tick reconcile.Tick, rs *api.ReplicaSet, owned, orphans []*api.Pod) ([]*api.Pod, error) {
	return refmanager.ClaimPods(tick, rs, rs.Spec.Selector, owned, orphans, nil)
}

// manageReplicas creates or deletes pods towards spec.replicas.
func (c *Controller) manageReplicas(tick reconcile.Tick, pods []*api.Pod, rs *api.ReplicaSet) (string, error) {
	diff := len(pods) - int(rs.Replicas())
	key := api.KeyOf(rs)
	switch {
	case diff < 0:
		n := min(-diff, BurstReplicas)
		c.exp.ExpectCreations(key, n, tick.Now())
		ok, batches, err := c.slowStartBatch(tick, rs, n)
		if skipped := n - ok; skipped > 0 {
			for i := 0; i < skipped; i++ {
				c.exp.CreationObserved(key)
			}
		}
		return fmt.Sprintf("created %d pods in batches %s", ok, batches), err
	case diff > 0:
		n := min(diff, BurstReplicas)
		byName(pods)
		victims := getPodsToDelete(pods, c.relatedPods(rs), n, tick.Now())
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

// slowStartBatch creates count pods in batches of 1, 2, 4, … and stops at
// the first batch with a failure (controller_utils.go slowStartBatch).
func (c *Controller) slowStartBatch(tick reconcile.Tick, rs *api.ReplicaSet, count int) (int, string, error) {
	remaining, successes := count, 0
	var sizes []string
	for batch := min(remaining, 1); batch > 0; batch = min(2*batch, remaining) {
		sizes = append(sizes, fmt.Sprint(batch))
		var firstErr error
		for i := 0; i < batch; i++ {
			if err := c.createPod(tick, rs); err != nil {
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

func (c *Controller) createPod(tick reconcile.Tick, rs *api.ReplicaSet) error {
	t := rs.Spec.Template.DeepCopy()
	p := &api.Pod{ObjectMeta: api.ObjectMeta{GenerateName: rs.Name + "-", Namespace: rs.Namespace, Labels: t.Labels,
		Annotations: t.Annotations, OwnerReferences: []api.OwnerReference{api.NewControllerRef(rs, "apps/v1")}}, Spec: t.Spec}
	created, err := tick.Create(trace.Translate, p, "")
	if err != nil {
		tick.Event(rs, "", api.EventWarning, "FailedCreate", "Error creating: "+err.Error())
		return err
	}
	tick.Event(rs, "", api.EventNormal, "SuccessfulCreate", "Created pod: "+created.Meta().Name)
	return nil
}

func (c *Controller) deletePod(tick reconcile.Tick, rs *api.ReplicaSet, p *api.Pod) error {
	err := tick.Delete(trace.Translate, api.KeyOf(p), apiserver.DeleteOptions{UID: p.UID}, fmt.Sprintf("rs/%s deleted pod/%s (scale down to %d)", rs.Name, p.Name, rs.Replicas()))
	if err != nil {
		if apiserver.IsReason(err, apiserver.ReasonNotFound) {
			return nil
		}
		tick.Event(rs, "", api.EventWarning, "FailedDelete", "Error deleting: "+err.Error())
		return err
	}
	tick.Event(rs, "", api.EventNormal, "SuccessfulDelete", "Deleted pod: "+p.Name)
	return nil
}

// relatedPods returns the pods of every ReplicaSet with the same
// controller as rs (getIndirectlyRelatedPods); none for a ReplicaSet
// without a controller (getReplicaSetsWithSameController returns no
// ReplicaSet then, not rs itself), whose pods all rank alike by node.
func (c *Controller) relatedPods(rs *api.ReplicaSet) []*api.Pod {
	ref := rs.ControllerRef()
	if ref == nil {
		return nil
	}
	var out []*api.Pod
	for _, s := range c.cache.Owned(api.KindReplicaSet, ref.UID) {
		c.cache.EachOwned(api.KindPod, s.Meta().UID, func(o api.Object) { out = append(out, o.(*api.Pod)) })
	}
	return out
}

// calculateStatus aggregates the pods into the ReplicaSet's status
// (replica_set_utils.go calculateStatus).
func calculateStatus(rs *api.ReplicaSet, pods []*api.Pod, manageErr error, now int64) api.ReplicaSetStatus {
	st := rs.Status
	st.Conditions = append([]api.ReplicaSetCondition(nil), rs.Status.Conditions...)
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
	failure := st.Condition(api.ReplicaSetReplicaFailure)
	if manageErr != nil && failure == nil {
		reason := "FailedCreate"
		if int32(len(pods)) > rs.Replicas() {
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
	st.Replicas = int32(len(pods))
	st.FullyLabeledReplicas = labeled
	st.ReadyReplicas = ready
	st.AvailableReplicas = available
	return st
}

// updateStatus writes the status when it changed (updateReplicaSetStatus
// in replica_set_utils.go): observedGeneration is the generation of the
// ReplicaSet this sync read, and a failed write is retried once on a
// fresh read from the API server, keeping that observedGeneration.
func (c *Controller) updateStatus(tick reconcile.Tick, rs *api.ReplicaSet, st api.ReplicaSetStatus) (*api.ReplicaSet, error) {
	st.ObservedGeneration = rs.Generation
	if reflect.DeepEqual(&rs.Status, &st) {
		return rs, nil
	}
	cur := rs
	for i := 0; ; i++ {
		cp := cur.DeepCopy()
		cp.Status = st
		summary := fmt.Sprintf("rs/%s status: %d replicas, %d ready, %d available", cur.Name, st.Replicas, st.ReadyReplicas, st.AvailableReplicas)
		out, err := tick.UpdateStatus(trace.Aggregate, cp, summary)
		if err == nil {
			return out.(*api.ReplicaSet), nil
		}
		if i >= 1 {
			return nil, err
		}
		live, ok := tick.LiveGet(api.KeyOf(rs))
		if !ok {
			return nil, apiserver.NotFound(api.KindReplicaSet, rs.Name)
		}
		cur = live.(*api.ReplicaSet)
	}
}

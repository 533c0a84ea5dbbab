package deployment

import (
	"fmt"
	"github.com/stateflow/stateflow/engine/controller/controllerutil"
	"reflect"
	"sort"
	"strconv"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
)

// sync scales and updates the status without starting a rollout: used for
// paused deployments and scaling events (sync.go sync).
func (s *syncer) sync(d *api.Deployment, rsList []*api.ReplicaSet) (reconcile.Result, error) {
	newRS, oldRSs, err := s.getAllReplicaSetsAndSyncRevision(d, rsList, false)
	if err != nil {
		return reconcile.Result{}, err
	}
	if err := s.scale(d, newRS, oldRSs); err != nil {
		return reconcile.Result{}, err
	}
	if d.Spec.Paused && d.Annotations[RollbackToAnnotation] == "" {
		if err := s.cleanupDeployment(oldRSs, d); err != nil {
			return reconcile.Result{}, err
		}
	}
	allRSs := append(oldRSs, newRS)
	return reconcile.Result{}, s.syncDeploymentStatus(allRSs, newRS, d)
}

// getAllReplicaSetsAndSyncRevision splits the ReplicaSets into the new one
// (created if asked and missing) and the old ones, and syncs revisions.
func (s *syncer) getAllReplicaSetsAndSyncRevision(d *api.Deployment, rsList []*api.ReplicaSet, createIfNotExisted bool) (*api.ReplicaSet, []*api.ReplicaSet, error) {
	existingNew := FindNewReplicaSet(d, rsList)
	_, allOldRSs := findOldReplicaSets(d, rsList, existingNew)
	newRS, err := s.getNewReplicaSet(d, existingNew, allOldRSs, createIfNotExisted)
	if err != nil {
		return nil, nil, err
	}
	return newRS, allOldRSs, nil
}

// getNewReplicaSet returns the new ReplicaSet with its annotations synced,
// creating it when asked (sync.go getNewReplicaSet).
func (s *syncer) getNewReplicaSet(d *api.Deployment, existing *api.ReplicaSet, oldRSs []*api.ReplicaSet, create bool) (*api.ReplicaSet, error) {
	newRevision := strconv.FormatInt(maxRevision(oldRSs)+1, 10)
	if existing != nil {
		return s.syncExistingNewReplicaSet(d, existing, newRevision)
	}
	if !create {
		return nil, nil
	}
	hash := controllerutil.ComputeHash(&d.Spec.Template, d.Status.CollisionCount)
	rs := &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Name: d.Name + "-" + hash, Namespace: d.Namespace,
		OwnerReferences: []api.OwnerReference{api.NewControllerRef(d, "apps/v1")}, Labels: map[string]string{}}}
	rs.Spec.Template = d.Spec.Template.DeepCopy()
	if rs.Spec.Template.Labels == nil {
		rs.Spec.Template.Labels = map[string]string{}
	}
	rs.Spec.Template.Labels[DefaultHashLabel] = hash
	for k, v := range rs.Spec.Template.Labels {
		rs.Labels[k] = v
	}
	rs.Spec.Selector = d.Spec.Selector.DeepCopy()
	if rs.Spec.Selector.MatchLabels == nil {
		rs.Spec.Selector.MatchLabels = map[string]string{}
	}
	rs.Spec.Selector.MatchLabels[DefaultHashLabel] = hash
	rs.Spec.MinReadySeconds = d.Spec.MinReadySeconds
	allRSs := append(append([]*api.ReplicaSet(nil), oldRSs...), rs)
	rs.Spec.Replicas = api.Int32(0)
	n := newRSNewReplicas(d, allRSs, rs)
	rs.Spec.Replicas = api.Int32(n)
	setNewReplicaSetAnnotations(d, rs, newRevision, false)
	created, err := s.tick.Create(trace.Translate, rs, fmt.Sprintf("created rs/%s (revision %s) with %d replicas from deploy/%s's template", rs.Name, newRevision, n, d.Name))
	alreadyExists := err != nil
	if err != nil {
		if created, err = s.createFailed(d, rs, err); err != nil {
			return nil, err
		}
	}
	createdRS := created.(*api.ReplicaSet)
	if !alreadyExists {
		s.Note("created %s with %d of %d replicas", rsKey(createdRS), n, d.Replicas())
		if n > 0 {
			s.tick.Event(d, "", api.EventNormal, "ScalingReplicaSet", fmt.Sprintf("Scaled up replica set %s from 0 to %d", createdRS.Name, n))
		}
	}
	needsUpdate := setDeploymentRevision(d, newRevision)
	if !alreadyExists && hasProgressDeadline(d) {
		msg := fmt.Sprintf("Created new replica set %q", createdRS.Name)
		setDeploymentCondition(&d.Status, newDeploymentCondition(api.DeploymentProgressing, api.ConditionTrue, NewReplicaSetReason, msg, s.now))
		needsUpdate = true
	}
	if needsUpdate {
		// Upstream discards the returned object, so a later status write
		// in the same sync may conflict and be retried: we do the same.
		if _, err := s.tick.UpdateStatus(trace.Aggregate, d, fmt.Sprintf("deploy/%s revision %s; Progressing=True (%s)", d.Name, newRevision, NewReplicaSetReason)); err != nil {
			return nil, err
		}
	}
	return createdRS, nil
}

// createFailed handles a failed create of the new ReplicaSet. When the
// name is taken by the deployment's own ReplicaSet with the same template
// (the create raced the cache), it returns that ReplicaSet and the sync
// goes on; otherwise it returns an error.
func (s *syncer) createFailed(d *api.Deployment, rs *api.ReplicaSet, err error) (api.Object, error) {
	if apiserver.IsReason(err, apiserver.ReasonAlreadyExists) {
		cur, ok := s.cache.Get(api.KeyOf(rs))
		if !ok {
			// Upstream returns the lister's NotFound error, whose text
			// names the singular resource ("replicaset.apps"), unlike the
			// API server's ("replicasets.apps"); the engine adds the retry.
			s.Note("%s already exists in the API server but this controller's cache has not seen it yet", rsKey(rs))
			return nil, &apiserver.StatusError{Reason: apiserver.ReasonNotFound, Message: fmt.Sprintf("replicaset.apps %q not found", rs.Name)}
		}
		if own := cur.Meta().ControllerRef(); own != nil && own.UID == d.UID && EqualIgnoreHash(&cur.(*api.ReplicaSet).Spec.Template, &d.Spec.Template) {
			s.Note("%s was already created by an earlier sync", rsKey(rs))
			return cur, nil
		}
		// A hash collision: bump collisionCount so the next sync hashes
		// differently, and requeue with the original error (upstream
		// ignores a failed status write here).
		c := int32(1)
		if d.Status.CollisionCount != nil {
			c = *d.Status.CollisionCount + 1
		}
		d.Status.CollisionCount = &c
		if _, uerr := s.tick.UpdateStatus(trace.Aggregate, d, fmt.Sprintf("deploy/%s collisionCount=%d (hash collision)", d.Name, c)); uerr == nil {
			s.Note("hash collision: %s belongs to another template; collisionCount is now %d", rsKey(rs), c)
		}
		return nil, err
	}
	msg := fmt.Sprintf("Failed to create new replica set %q: %v", rs.Name, err)
	if hasProgressDeadline(d) {
		setDeploymentCondition(&d.Status, newDeploymentCondition(api.DeploymentProgressing, api.ConditionFalse, FailedRSCreateReason, msg, s.now))
		_, _ = s.tick.UpdateStatus(trace.Aggregate, d, "Progressing=False ("+FailedRSCreateReason+")")
	}
	s.tick.Event(d, "", api.EventWarning, FailedRSCreateReason, msg)
	return nil, err
}

func (s *syncer) syncExistingNewReplicaSet(d *api.Deployment, existing *api.ReplicaSet, newRevision string) (*api.ReplicaSet, error) {
	rsCopy := existing.DeepCopy()
	annotationsUpdated := setNewReplicaSetAnnotations(d, rsCopy, newRevision, true)
	minReadyNeedsUpdate := rsCopy.Spec.MinReadySeconds != d.Spec.MinReadySeconds
	if annotationsUpdated || minReadyNeedsUpdate {
		rsCopy.Spec.MinReadySeconds = d.Spec.MinReadySeconds
		out, err := s.tick.Update(trace.Translate, rsCopy, fmt.Sprintf("rs/%s takes revision %s from deploy/%s", rsCopy.Name, rsCopy.Annotations[RevisionAnnotation], d.Name))
		if err != nil {
			return nil, err
		}
		return out.(*api.ReplicaSet), nil
	}
	needsUpdate := setDeploymentRevision(d, rsCopy.Annotations[RevisionAnnotation])
	if hasProgressDeadline(d) && d.Status.Condition(api.DeploymentProgressing) == nil {
		msg := fmt.Sprintf("Found new replica set %q", rsCopy.Name)
		setDeploymentCondition(&d.Status, newDeploymentCondition(api.DeploymentProgressing, api.ConditionTrue, FoundNewRSReason, msg, s.now))
		needsUpdate = true
	}
	if needsUpdate {
		if _, err := s.tick.UpdateStatus(trace.Aggregate, d, fmt.Sprintf("deploy/%s revision %s", d.Name, d.Annotations[RevisionAnnotation])); err != nil {
			return nil, err
		}
	}
	return rsCopy, nil
}

// scale resizes ReplicaSets when the deployment's replicas changed,
// proportionally across them while a rollout is in flight (sync.go scale).
func (s *syncer) scale(d *api.Deployment, newRS *api.ReplicaSet, oldRSs []*api.ReplicaSet) error {
	if active := findActiveOrLatest(newRS, oldRSs); active != nil {
		if active.Replicas() == d.Replicas() {
			return nil
		}
		_, _, err := s.scaleReplicaSetAndRecordEvent(active, d.Replicas(), d)
		return err
	}
	if isSaturated(d, newRS) {
		for _, old := range activeRSs(oldRSs) {
			if _, _, err := s.scaleReplicaSetAndRecordEvent(old, 0, d); err != nil {
				return err
			}
		}
		return nil
	}
	if !isRolling(d) {
		return nil
	}
	allRSs := activeRSs(append(append([]*api.ReplicaSet(nil), oldRSs...), newRS))
	allRSsReplicas := getReplicaCountForReplicaSets(allRSs)
	allowedSize := int32(0)
	if d.Replicas() > 0 {
		allowedSize = d.Replicas() + MaxSurge(d)
	}
	toAdd := allowedSize - allRSsReplicas
	if toAdd > 0 {
		sortBySizeNewer(allRSs)
	} else {
		sortBySizeOlder(allRSs)
	}
	sizes := make([]int32, len(allRSs))
	var added int32
	for i, rs := range allRSs {
		p := int32(0)
		if toAdd != 0 {
			p = getReplicaSetProportion(rs, d, toAdd, added)
		}
		sizes[i] = rs.Replicas() + p
		added += p
	}
	s.Note("proportional scaling: %d replicas to spread over %d ReplicaSets", toAdd, len(allRSs))
	for i, rs := range allRSs {
		if i == 0 && toAdd != 0 {
			sizes[i] = max(sizes[i]+toAdd-added, 0)
		}
		if _, _, err := s.scaleReplicaSet(rs, sizes[i], d); err != nil {
			return err
		}
	}
	return nil
}

func activeRSs(rss []*api.ReplicaSet) []*api.ReplicaSet {
	var out []*api.ReplicaSet
	for _, rs := range rss {
		if rs != nil && rs.Replicas() > 0 {
			out = append(out, rs)
		}
	}
	return out
}

// sortBySizeNewer: larger first, ties newer first (ReplicaSetsBySizeNewer).
func sortBySizeNewer(rss []*api.ReplicaSet) {
	sort.SliceStable(rss, func(i, j int) bool {
		if rss[i].Replicas() == rss[j].Replicas() {
			if rss[i].CreationTimestamp.MS == rss[j].CreationTimestamp.MS {
				return rss[i].Name > rss[j].Name
			}
			return rss[i].CreationTimestamp.MS > rss[j].CreationTimestamp.MS
		}
		return rss[i].Replicas() > rss[j].Replicas()
	})
}

// sortBySizeOlder: larger first, ties older first (ReplicaSetsBySizeOlder).
func sortBySizeOlder(rss []*api.ReplicaSet) {
	sort.SliceStable(rss, func(i, j int) bool {
		if rss[i].Replicas() == rss[j].Replicas() {
			if rss[i].CreationTimestamp.MS == rss[j].CreationTimestamp.MS {
				return rss[i].Name < rss[j].Name
			}
			return rss[i].CreationTimestamp.MS < rss[j].CreationTimestamp.MS
		}
		return rss[i].Replicas() > rss[j].Replicas()
	})
}

func (s *syncer) scaleReplicaSetAndRecordEvent(rs *api.ReplicaSet, newScale int32, d *api.Deployment) (bool, *api.ReplicaSet, error) {
	if rs.Replicas() == newScale {
		return false, rs, nil
	}
	return s.scaleReplicaSet(rs, newScale, d)
}

// scaleReplicaSet writes the size and the desired/max annotations, and
// emits ScalingReplicaSet when the size changed.
func (s *syncer) scaleReplicaSet(rs *api.ReplicaSet, newScale int32, d *api.Deployment) (bool, *api.ReplicaSet, error) {
	sizeNeedsUpdate := rs.Replicas() != newScale
	annotationsNeedUpdate := replicasAnnotationsNeedUpdate(rs, d.Replicas(), d.Replicas()+MaxSurge(d))
	if !sizeNeedsUpdate && !annotationsNeedUpdate {
		return false, rs, nil
	}
	rsCopy := rs.DeepCopy()
	rsCopy.Spec.Replicas = api.Int32(newScale)
	setReplicasAnnotations(rsCopy, d.Replicas(), d.Replicas()+MaxSurge(d))
	dir := "up"
	if newScale < rs.Replicas() {
		dir = "down"
	}
	summary := fmt.Sprintf("scaled %s %s from %d to %d", dir, rsKey(rs), rs.Replicas(), newScale)
	if !sizeNeedsUpdate {
		summary = fmt.Sprintf("%s annotations: desired-replicas %d, max-replicas %d", rsKey(rs), d.Replicas(), d.Replicas()+MaxSurge(d))
	}
	out, err := s.tick.Update(trace.Translate, rsCopy, summary)
	if err != nil {
		return false, nil, err
	}
	if sizeNeedsUpdate {
		s.Note("%s", summary)
		s.tick.Event(d, "", api.EventNormal, "ScalingReplicaSet", fmt.Sprintf("Scaled %s replica set %s from %d to %d", dir, rs.Name, rs.Replicas(), newScale))
	}
	return true, out.(*api.ReplicaSet), nil
}

// calculateStatus summarises the ReplicaSets into the deployment status
// (sync.go calculateStatus).
func (s *syncer) calculateStatus(allRSs []*api.ReplicaSet, newRS *api.ReplicaSet, d *api.Deployment) api.DeploymentStatus {
	available := getAvailableReplicaCountForReplicaSets(allRSs)
	total := getReplicaCountForReplicaSets(allRSs)
	unavailable := max(total-available, 0)
	var updated int32
	if newRS != nil {
		updated = newRS.Status.Replicas
	}
	st := api.DeploymentStatus{
		ObservedGeneration:  d.Generation,
		Replicas:            getActualReplicaCountForReplicaSets(allRSs),
		UpdatedReplicas:     updated,
		ReadyReplicas:       getReadyReplicaCountForReplicaSets(allRSs),
		AvailableReplicas:   available,
		UnavailableReplicas: unavailable,
		CollisionCount:      d.Status.CollisionCount,
		Conditions:          append([]api.DeploymentCondition(nil), d.Status.Conditions...),
	}
	if available >= d.Replicas()-MaxUnavailable(d) {
		setDeploymentCondition(&st, newDeploymentCondition(api.DeploymentAvailable, api.ConditionTrue, MinimumReplicasAvailable, "Deployment has minimum availability.", s.now))
	} else {
		setDeploymentCondition(&st, newDeploymentCondition(api.DeploymentAvailable, api.ConditionFalse, MinimumReplicasUnavailable, "Deployment does not have minimum availability.", s.now))
	}
	return st
}

// syncDeploymentStatus writes the calculated status if it changed.
func (s *syncer) syncDeploymentStatus(allRSs []*api.ReplicaSet, newRS *api.ReplicaSet, d *api.Deployment) error {
	newStatus := s.calculateStatus(allRSs, newRS, d)
	if reflect.DeepEqual(&d.Status, &newStatus) {
		return nil
	}
	return s.writeStatus(d, newStatus)
}

// writeStatus is the status update both syncDeploymentStatus and
// syncRolloutStatus end with, noting what it wrote or tried to.
func (s *syncer) writeStatus(d *api.Deployment, newStatus api.DeploymentStatus) error {
	nd := d.DeepCopy()
	nd.Status = newStatus
	_, err := s.tick.UpdateStatus(trace.Aggregate, nd, statusSummary(d, &newStatus))
	if err == nil {
		s.noteStatus(d, &newStatus)
	} else {
		s.Note("tried to write status (%d/%d ready, %d updated, %d available)", newStatus.ReadyReplicas, d.Replicas(), newStatus.UpdatedReplicas, newStatus.AvailableReplicas)
	}
	return err
}

// cleanupDeployment deletes old, empty ReplicaSets beyond
// revisionHistoryLimit, lowest revision first.
func (s *syncer) cleanupDeployment(oldRSs []*api.ReplicaSet, d *api.Deployment) error {
	if d.Spec.RevisionHistoryLimit == nil || *d.Spec.RevisionHistoryLimit == 1<<31-1 {
		return nil
	}
	var cleanable []*api.ReplicaSet
	for _, rs := range oldRSs {
		if rs != nil && rs.DeletionTimestamp == nil {
			cleanable = append(cleanable, rs)
		}
	}
	diff := len(cleanable) - int(*d.Spec.RevisionHistoryLimit)
	if diff <= 0 {
		return nil
	}
	sort.SliceStable(cleanable, func(i, j int) bool { return Revision(cleanable[i]) < Revision(cleanable[j]) })
	for i := 0; i < diff; i++ {
		rs := cleanable[i]
		if rs.Status.Replicas != 0 || rs.Replicas() != 0 || rs.Generation > rs.Status.ObservedGeneration || rs.DeletionTimestamp != nil {
			continue
		}
		summary := fmt.Sprintf("deleted old %s (revision %d) beyond revisionHistoryLimit %d", rsKey(rs), Revision(rs), *d.Spec.RevisionHistoryLimit)
		if err := s.tick.Delete(trace.Translate, api.KeyOf(rs), apiserver.DeleteOptions{UID: rs.UID}, summary); err != nil && !apiserver.IsReason(err, apiserver.ReasonNotFound) {
			return err
		}
		s.Note("%s", summary)
	}
	return nil
}

// checkPausedConditions records pausing and resuming in the Progressing
// condition (Unknown DeploymentPaused / DeploymentResumed).
func (s *syncer) checkPausedConditions(d *api.Deployment) error {
	if !hasProgressDeadline(d) {
		return nil
	}
	cond := d.Status.Condition(api.DeploymentProgressing)
	if cond != nil && cond.Reason == TimedOutReason {
		return nil
	}
	pausedCondExists := cond != nil && cond.Reason == PausedDeployReason
	var c api.DeploymentCondition
	switch {
	case d.Spec.Paused && !pausedCondExists:
		c = newDeploymentCondition(api.DeploymentProgressing, api.ConditionUnknown, PausedDeployReason, "Deployment is paused", s.now)
	case !d.Spec.Paused && pausedCondExists:
		c = newDeploymentCondition(api.DeploymentProgressing, api.ConditionUnknown, ResumedDeployReason, "Deployment is resumed", s.now)
	default:
		return nil
	}
	setDeploymentCondition(&d.Status, c)
	_, err := s.tick.UpdateStatus(trace.Aggregate, d, fmt.Sprintf("deploy/%s Progressing=Unknown (%s)", d.Name, c.Reason))
	return err
}

// isScalingEvent reports whether an active ReplicaSet's desired-replicas
// annotation differs from spec.replicas: a resize, not a rollout.
func (s *syncer) isScalingEvent(d *api.Deployment, rsList []*api.ReplicaSet) (bool, error) {
	newRS, oldRSs, err := s.getAllReplicaSetsAndSyncRevision(d, rsList, false)
	if err != nil {
		return false, err
	}
	for _, rs := range activeRSs(append(oldRSs, newRS)) {
		desired, err := strconv.ParseInt(rs.Annotations[DesiredReplicasAnnotation], 10, 32)
		if err != nil {
			continue
		}
		if int32(desired) != d.Replicas() {
			return true, nil
		}
	}
	return false, nil
}

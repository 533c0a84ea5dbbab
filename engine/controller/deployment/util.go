package deployment

import (
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
)

// Annotations and reasons from pkg/controller/deployment/util/deployment_util.go.
const (
	RevisionAnnotation        = "deployment.kubernetes.io/revision"
	RevisionHistoryAnnotation = "deployment.kubernetes.io/revision-history"
	DesiredReplicasAnnotation = "deployment.kubernetes.io/desired-replicas"
	MaxReplicasAnnotation     = "deployment.kubernetes.io/max-replicas"
	RollbackToAnnotation      = "deprecated.deployment.rollback.to"
	lastAppliedAnnotation     = "kubectl.kubernetes.io/last-applied-configuration"
	DefaultHashLabel          = "pod-template-hash"

	ReplicaSetUpdatedReason    = "ReplicaSetUpdated"
	FailedRSCreateReason       = "ReplicaSetCreateError"
	NewReplicaSetReason        = "NewReplicaSetCreated"
	FoundNewRSReason           = "FoundNewReplicaSet"
	NewRSAvailableReason       = "NewReplicaSetAvailable"
	TimedOutReason             = "ProgressDeadlineExceeded"
	PausedDeployReason         = "DeploymentPaused"
	ResumedDeployReason        = "DeploymentResumed"
	MinimumReplicasAvailable   = "MinimumReplicasAvailable"
	MinimumReplicasUnavailable = "MinimumReplicasUnavailable"

	maxRevHistoryLengthInChars = 2000
)

// resolveFenceposts turns maxSurge and maxUnavailable into absolute
// numbers: surge rounds up, unavailable rounds down, and when both are
// zero unavailable becomes 1.
func resolveFenceposts(maxSurge, maxUnavailable *api.IntOrString, desired int32) (int32, int32, error) {
	zero := api.FromInt(0)
	if maxSurge == nil {
		maxSurge = &zero
	}
	if maxUnavailable == nil {
		maxUnavailable = &zero
	}
	surge, err := maxSurge.ScaledValue(int(desired), true)
	if err != nil {
		return 0, 0, err
	}
	unavailable, err := maxUnavailable.ScaledValue(int(desired), false)
	if err != nil {
		return 0, 0, err
	}
	if surge == 0 && unavailable == 0 {
		unavailable = 1
	}
	return int32(surge), int32(unavailable), nil
}

func isRolling(d *api.Deployment) bool {
	return d.Spec.Strategy.Type == api.RollingUpdateStrategy && d.Spec.Strategy.RollingUpdate != nil
}

// MaxSurge returns the absolute surge of a rolling deployment, else 0.
func MaxSurge(d *api.Deployment) int32 {
	if !isRolling(d) {
		return 0
	}
	ru := d.Spec.Strategy.RollingUpdate
	surge, _, _ := resolveFenceposts(ru.MaxSurge, ru.MaxUnavailable, d.Replicas())
	return surge
}

// MaxUnavailable returns the absolute unavailability budget, clamped to
// spec.replicas; 0 for Recreate or zero replicas.
func MaxUnavailable(d *api.Deployment) int32 {
	if !isRolling(d) || d.Replicas() == 0 {
		return 0
	}
	ru := d.Spec.Strategy.RollingUpdate
	_, u, _ := resolveFenceposts(ru.MaxSurge, ru.MaxUnavailable, d.Replicas())
	if u > d.Replicas() {
		return d.Replicas()
	}
	return u
}

// MinAvailable is spec.replicas - MaxUnavailable for rolling deployments.
func MinAvailable(d *api.Deployment) int32 {
	if !isRolling(d) {
		return 0
	}
	return d.Replicas() - MaxUnavailable(d)
}

// newRSNewReplicas is how many replicas the new ReplicaSet should have now.
func newRSNewReplicas(d *api.Deployment, allRSs []*api.ReplicaSet, newRS *api.ReplicaSet) int32 {
	if d.Spec.Strategy.Type != api.RollingUpdateStrategy {
		return d.Replicas()
	}
	maxTotalPods := d.Replicas() + MaxSurge(d)
	currentPodCount := getReplicaCountForReplicaSets(allRSs)
	if currentPodCount >= maxTotalPods {
		return newRS.Replicas()
	}
	scaleUpCount := min(maxTotalPods-currentPodCount, d.Replicas()-newRS.Replicas())
	return newRS.Replicas() + scaleUpCount
}

// getReplicaCountForReplicaSets sums spec.replicas.
func getReplicaCountForReplicaSets(rss []*api.ReplicaSet) int32 {
	return sumReplicaSets(rss, (*api.ReplicaSet).Replicas)
}

// getActualReplicaCountForReplicaSets sums status.replicas.
func getActualReplicaCountForReplicaSets(rss []*api.ReplicaSet) int32 {
	return sumReplicaSets(rss, func(rs *api.ReplicaSet) int32 { return rs.Status.Replicas })
}

// getReadyReplicaCountForReplicaSets sums status.readyReplicas.
func getReadyReplicaCountForReplicaSets(rss []*api.ReplicaSet) int32 {
	return sumReplicaSets(rss, func(rs *api.ReplicaSet) int32 { return rs.Status.ReadyReplicas })
}

// getAvailableReplicaCountForReplicaSets sums status.availableReplicas.
func getAvailableReplicaCountForReplicaSets(rss []*api.ReplicaSet) int32 {
	return sumReplicaSets(rss, func(rs *api.ReplicaSet) int32 { return rs.Status.AvailableReplicas })
}

// sumReplicaSets sums a count over the ReplicaSets, skipping nil ones.
func sumReplicaSets(rss []*api.ReplicaSet, count func(*api.ReplicaSet) int32) int32 {
	var n int32
	for _, rs := range rss {
		if rs != nil {
			n += count(rs)
		}
	}
	return n
}

// EqualIgnoreHash compares two templates ignoring the pod-template-hash label.
func EqualIgnoreHash(a, b *api.PodTemplateSpec) bool {
	a1, b1 := a.DeepCopy(), b.DeepCopy()
	delete(a1.Labels, DefaultHashLabel)
	delete(b1.Labels, DefaultHashLabel)
	if len(a1.Labels) == 0 {
		a1.Labels = nil
	}
	if len(b1.Labels) == 0 {
		b1.Labels = nil
	}
	return reflect.DeepEqual(a1, b1)
}

// byCreation sorts ReplicaSets oldest first, ties by name
// (controller.ReplicaSetsByCreationTimestamp).
func byCreation(rss []*api.ReplicaSet) {
	sort.SliceStable(rss, func(i, j int) bool {
		a, b := rss[i], rss[j]
		if a.CreationTimestamp.MS == b.CreationTimestamp.MS {
			return a.Name < b.Name
		}
		return a.CreationTimestamp.MS < b.CreationTimestamp.MS
	})
}

// FindNewReplicaSet returns the oldest ReplicaSet whose template equals the
// deployment's, ignoring the hash label.
func FindNewReplicaSet(d *api.Deployment, rsList []*api.ReplicaSet) *api.ReplicaSet {
	sorted := append([]*api.ReplicaSet(nil), rsList...)
	byCreation(sorted)
	for _, rs := range sorted {
		if EqualIgnoreHash(&rs.Spec.Template, &d.Spec.Template) {
			return rs
		}
	}
	return nil
}

// findOldReplicaSets returns the ReplicaSets other than newRS, and those of
// them that still have replicas.
func findOldReplicaSets(d *api.Deployment, rsList []*api.ReplicaSet, newRS *api.ReplicaSet) (requiredRSs, allOldRSs []*api.ReplicaSet) {
	for _, rs := range rsList {
		if newRS != nil && rs.UID == newRS.UID {
			continue
		}
		allOldRSs = append(allOldRSs, rs)
		if rs.Replicas() != 0 {
			requiredRSs = append(requiredRSs, rs)
		}
	}
	return requiredRSs, allOldRSs
}

// Revision returns an object's revision annotation (0 when absent).
func Revision(o api.Object) int64 {
	v, _ := strconv.ParseInt(o.Meta().Annotations[RevisionAnnotation], 10, 64)
	return v
}

// maxRevision is the highest revision among rss.
func maxRevision(rss []*api.ReplicaSet) int64 {
	var m int64
	for _, rs := range rss {
		m = max(m, Revision(rs))
	}
	return m
}

func skipCopyAnnotation(k string) bool {
	switch k {
	case lastAppliedAnnotation, RevisionAnnotation, RevisionHistoryAnnotation, DesiredReplicasAnnotation, MaxReplicasAnnotation, RollbackToAnnotation:
		return true
	}
	return false
}

// copyDeploymentAnnotationsToReplicaSet copies every annotation that is
// not the controller's own bookkeeping.
func copyDeploymentAnnotationsToReplicaSet(d *api.Deployment, rs *api.ReplicaSet) bool {
	changed := false
	if rs.Annotations == nil {
		rs.Annotations = map[string]string{}
	}
	for k, v := range d.Annotations {
		if skipCopyAnnotation(k) || rs.Annotations[k] == v {
			continue
		}
		rs.Annotations[k] = v
		changed = true
	}
	return changed
}

// setNewReplicaSetAnnotations sets the revision (keeping the history when
// an old ReplicaSet is re-used) and, for a new one, the replica annotations.
func setNewReplicaSetAnnotations(d *api.Deployment, rs *api.ReplicaSet, newRevision string, exists bool) bool {
	changed := copyDeploymentAnnotationsToReplicaSet(d, rs)
	oldRevision, ok := rs.Annotations[RevisionAnnotation]
	oldRevisionInt, err := strconv.ParseInt(oldRevision, 10, 64)
	if err != nil {
		if oldRevision != "" {
			return false
		}
		oldRevisionInt = 0
	}
	newRevisionInt, err := strconv.ParseInt(newRevision, 10, 64)
	if err != nil {
		return false
	}
	if oldRevisionInt < newRevisionInt {
		rs.Annotations[RevisionAnnotation] = newRevision
		changed = true
	}
	if ok && oldRevisionInt < newRevisionInt {
		appendRevisionHistory(rs, oldRevision)
	}
	if !exists && setReplicasAnnotations(rs, d.Replicas(), d.Replicas()+MaxSurge(d)) {
		changed = true
	}
	return changed
}

func appendRevisionHistory(rs *api.ReplicaSet, oldRevision string) {
	history := rs.Annotations[RevisionHistoryAnnotation]
	old := strings.Split(history, ",")
	if len(old[0]) == 0 {
		rs.Annotations[RevisionHistoryAnnotation] = oldRevision
		return
	}
	totalLen := len(history) + len(oldRevision) + 1
	start := 0
	for totalLen > maxRevHistoryLengthInChars && start < len(old) {
		totalLen -= len(old[start]) + 1
		start++
	}
	if totalLen <= maxRevHistoryLengthInChars {
		rs.Annotations[RevisionHistoryAnnotation] = strings.Join(append(old[start:], oldRevision), ",")
	}
}

// setReplicasAnnotations sets desired-replicas and max-replicas.
func setReplicasAnnotations(rs *api.ReplicaSet, desired, maxReplicas int32) bool {
	if rs.Annotations == nil {
		rs.Annotations = map[string]string{}
	}
	d, m := strconv.Itoa(int(desired)), strconv.Itoa(int(maxReplicas))
	if rs.Annotations[DesiredReplicasAnnotation] == d && rs.Annotations[MaxReplicasAnnotation] == m {
		return false
	}
	rs.Annotations[DesiredReplicasAnnotation] = d
	rs.Annotations[MaxReplicasAnnotation] = m
	return true
}

// replicasAnnotationsNeedUpdate reports whether desired/max differ.
func replicasAnnotationsNeedUpdate(rs *api.ReplicaSet, desired, maxReplicas int32) bool {
	return rs.Annotations[DesiredReplicasAnnotation] != strconv.Itoa(int(desired)) ||
		rs.Annotations[MaxReplicasAnnotation] != strconv.Itoa(int(maxReplicas))
}

// setDeploymentRevision sets the deployment's revision annotation.
func setDeploymentRevision(d *api.Deployment, revision string) bool {
	if d.Annotations == nil {
		d.Annotations = map[string]string{}
	}
	if d.Annotations[RevisionAnnotation] == revision {
		return false
	}
	d.Annotations[RevisionAnnotation] = revision
	return true
}

// getReplicaSetFraction estimates the proportion of toAdd for rs.
func getReplicaSetFraction(rs *api.ReplicaSet, d *api.Deployment) int32 {
	if d.Replicas() == 0 {
		return -rs.Replicas()
	}
	deploymentReplicas := d.Replicas() + MaxSurge(d)
	annotatedReplicas, ok := getMaxReplicasAnnotation(rs)
	if !ok || annotatedReplicas == 0 {
		annotatedReplicas = d.Status.Replicas
		if annotatedReplicas == 0 {
			return 0
		}
	}
	newRSsize := float64(rs.Replicas()*deploymentReplicas) / float64(annotatedReplicas)
	return int32(math.Round(newRSsize)) - rs.Replicas()
}

func getMaxReplicasAnnotation(rs *api.ReplicaSet) (int32, bool) {
	v, err := strconv.ParseInt(rs.Annotations[MaxReplicasAnnotation], 10, 32)
	return int32(v), err == nil
}

// getReplicaSetProportion is how many of toAdd (after added) go to rs.
func getReplicaSetProportion(rs *api.ReplicaSet, d *api.Deployment, toAdd, added int32) int32 {
	if rs == nil || rs.Replicas() == 0 || toAdd == 0 || toAdd == added {
		return 0
	}
	fraction := getReplicaSetFraction(rs, d)
	allowed := toAdd - added
	if toAdd > 0 {
		return min(fraction, allowed)
	}
	return max(fraction, allowed)
}

// isSaturated reports whether newRS alone runs the whole deployment.
func isSaturated(d *api.Deployment, rs *api.ReplicaSet) bool {
	if rs == nil {
		return false
	}
	desired, err := strconv.ParseInt(rs.Annotations[DesiredReplicasAnnotation], 10, 32)
	return err == nil && rs.Replicas() == d.Replicas() && int32(desired) == d.Replicas() && rs.Status.AvailableReplicas == d.Replicas()
}

// findActiveOrLatest returns the only active ReplicaSet, or the newest
// when none is active, or nil when several are.
func findActiveOrLatest(newRS *api.ReplicaSet, oldRSs []*api.ReplicaSet) *api.ReplicaSet {
	if newRS == nil && len(oldRSs) == 0 {
		return nil
	}
	sorted := append([]*api.ReplicaSet(nil), oldRSs...)
	byCreation(sorted)
	for i, j := 0, len(sorted)-1; i < j; i, j = i+1, j-1 {
		sorted[i], sorted[j] = sorted[j], sorted[i]
	}
	var active []*api.ReplicaSet
	for _, rs := range append(sorted, newRS) {
		if rs != nil && rs.Replicas() > 0 {
			active = append(active, rs)
		}
	}
	switch len(active) {
	case 0:
		if newRS != nil {
			return newRS
		}
		return sorted[0]
	case 1:
		return active[0]
	}
	return nil
}

// rsKey names a ReplicaSet in explanations.
func rsKey(rs *api.ReplicaSet) string { return fmt.Sprintf("rs/%s", rs.Name) }

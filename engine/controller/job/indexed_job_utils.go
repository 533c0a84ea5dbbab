package job

import (
	"slices"
	"strconv"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
)

const unknownCompletionIndex = -1

// interval and orderedIntervals are upstream's: completed indexes as
// sorted, disjoint, non-adjacent ranges ("0-2,4").
type interval struct{ first, last int }

type orderedIntervals []interval

// calculateSucceededIndexes returns the completed indexes of the status
// and those with the newly succeeded pods added.
func calculateSucceededIndexes(job *api.Job, pods []*api.Pod) (prev, cur orderedIntervals) {
	completions := int(*job.Spec.Completions)
	prev = parseIndexesFromString(job.Status.CompletedIndexes, completions)
	var fresh []int
	for _, p := range pods {
		ix := getCompletionIndex(p.Annotations)
		if p.Status.Phase == api.PodSucceeded && ix != unknownCompletionIndex && ix < completions && hasJobTrackingFinalizer(p) {
			fresh = append(fresh, ix)
		}
	}
	slices.Sort(fresh)
	return prev, prev.withOrderedIndexes(slices.Compact(fresh))
}

func (oi orderedIntervals) withOrderedIndexes(ixs []int) orderedIntervals {
	n := make(orderedIntervals, len(ixs))
	for i, ix := range ixs {
		n[i] = interval{ix, ix}
	}
	return oi.merge(n)
}

func (oi orderedIntervals) merge(other orderedIntervals) orderedIntervals {
	var out orderedIntervals
	add := func(iv interval) {
		if len(out) == 0 || iv.first > out[len(out)-1].last+1 {
			out = append(out, iv)
		} else if out[len(out)-1].last < iv.last {
			out[len(out)-1].last = iv.last
		}
	}
	i, j := 0, 0
	for i < len(oi) && j < len(other) {
		if oi[i].first < other[j].first {
			add(oi[i])
			i++
		} else {
			add(other[j])
			j++
		}
	}
	for ; i < len(oi); i++ {
		add(oi[i])
	}
	for ; j < len(other); j++ {
		add(other[j])
	}
	return out
}

func (oi orderedIntervals) total() int {
	n := 0
	for _, iv := range oi {
		n += iv.last - iv.first + 1
	}
	return n
}

// String is "0-2,4" (two adjacent indexes print as "5,6").
func (oi orderedIntervals) String() string {
	var b strings.Builder
	for _, v := range oi {
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(v.first))
		if v.last > v.first {
			if v.last == v.first+1 {
				b.WriteByte(',')
			} else {
				b.WriteByte('-')
			}
			b.WriteString(strconv.Itoa(v.last))
		}
	}
	return b.String()
}

func (oi orderedIntervals) has(ix int) bool {
	i, _ := slices.BinarySearchFunc(oi, ix, func(iv interval, t int) int {
		if iv.last < t {
			return -1
		}
		return 1
	})
	return i < len(oi) && oi[i].first <= ix
}

// parseIndexesFromString reads completedIndexes, ignoring what is corrupt
// or beyond completions.
func parseIndexesFromString(s string, completions int) orderedIntervals {
	if s == "" {
		return nil
	}
	var out orderedIntervals
	for _, part := range strings.Split(s, ",") {
		limits := strings.Split(part, "-")
		first, err := strconv.Atoi(limits[0])
		if err != nil {
			continue
		}
		if first >= completions {
			break
		}
		last := first
		if len(limits) > 1 {
			if last, err = strconv.Atoi(limits[1]); err != nil {
				continue
			}
			last = min(last, completions-1)
		}
		if len(out) > 0 && out[len(out)-1].last == first-1 {
			out[len(out)-1].last = last
		} else {
			out = append(out, interval{first, last})
		}
	}
	return out
}

// firstPendingIndexes is the count lowest indexes neither succeeded nor
// held by an active (or, replacing only failed pods, terminating) pod.
func firstPendingIndexes(ctx *syncJobCtx, count, completions int) []int {
	if count == 0 {
		return nil
	}
	nonPending := ctx.succeededIndexes.withOrderedIndexes(getIndexes(ctx.activePods))
	if onlyReplaceFailedPods(ctx.job) {
		nonPending = nonPending.withOrderedIndexes(getIndexes(filterTerminatingPods(ctx.pods)))
	}
	out := make([]int, 0, count)
	candidate := 0
	for _, iv := range nonPending {
		for ; candidate < completions && len(out) < count && candidate < iv.first; candidate++ {
			out = append(out, candidate)
		}
		candidate = max(candidate, iv.last+1)
	}
	for ; candidate < completions && len(out) < count; candidate++ {
		out = append(out, candidate)
	}
	return out
}

// getIndexes is the sorted set of the pods' indexes.
func getIndexes(pods []*api.Pod) []int {
	var out []int
	for _, p := range pods {
		if ix := getCompletionIndex(p.Annotations); ix != unknownCompletionIndex {
			out = append(out, ix)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// appendDuplicatedIndexPodsForRemoval picks, among active pods by index,
// those with an index out of range and all but one of each repeated
// index (the one kept is the best by ActivePods order).
func appendDuplicatedIndexPodsForRemoval(rm, left, pods []*api.Pod, completions int) ([]*api.Pod, []*api.Pod) {
	slices.SortStableFunc(pods, func(a, b *api.Pod) int {
		return getCompletionIndex(a.Annotations) - getCompletionIndex(b.Annotations)
	})
	last, start, looped := unknownCompletionIndex, 0, 0
	for i, p := range pods {
		ix := getCompletionIndex(p.Annotations)
		if ix >= completions {
			rm = append(rm, pods[i:]...)
			break
		}
		if ix != last {
			rm, left = appendPodsWithSameIndex(rm, left, pods[start:i], last)
			start, last = i, ix
		}
		looped++
	}
	return appendPodsWithSameIndex(rm, left, pods[start:looped], last)
}

func appendPodsWithSameIndex(rm, left, pods []*api.Pod, ix int) ([]*api.Pod, []*api.Pod) {
	if ix == unknownCompletionIndex {
		return append(rm, pods...), left
	}
	if len(pods) == 1 {
		return rm, append(left, pods[0])
	}
	sortActivePods(pods)
	return append(rm, pods[:len(pods)-1]...), append(left, pods[len(pods)-1])
}

// getCompletionIndex reads the batch.kubernetes.io/job-completion-index
// annotation, or unknownCompletionIndex.
func getCompletionIndex(annotations map[string]string) int {
	v, ok := annotations[api.JobCompletionIndex]
	if !ok {
		return unknownCompletionIndex
	}
	i, err := strconv.Atoi(v)
	if err != nil || i < 0 {
		return unknownCompletionIndex
	}
	return i
}

// addCompletionIndexEnvVariables adds JOB_COMPLETION_INDEX, read from the
// pod's index label (PodIndexLabel is on), to every container.
func addCompletionIndexEnvVariables(t *api.PodTemplateSpec) {
	for i := range t.Spec.Containers {
		c := &t.Spec.Containers[i]
		if slices.ContainsFunc(c.Env, func(e api.EnvVar) bool { return e.Name == "JOB_COMPLETION_INDEX" }) {
			continue
		}
		c.Env = append(c.Env, api.EnvVar{Name: "JOB_COMPLETION_INDEX", ValueFrom: &api.EnvVarSource{FieldRef: &api.ObjectFieldSelector{
			FieldPath: "metadata.labels['" + api.JobCompletionIndex + "']"}}})
	}
}

// podGenerateNameWithIndex is "<job>-<index>-", cut to the 58 characters
// a generated name keeps.
func podGenerateNameWithIndex(job string, ix int) string {
	suffix := "-" + strconv.Itoa(ix) + "-"
	prefix := job + suffix
	if len(prefix) > 58 {
		prefix = prefix[:58-len(suffix)] + suffix
	}
	return prefix
}

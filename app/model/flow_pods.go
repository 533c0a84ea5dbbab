package model

// This file draws pods: each in one of three sizes (full, compact, a
// chip), and the pods of an owner the story is not about as one group
// box with counts by status and a mark per pod. A pod's words are
// kubectl's: its STATUS column and its READY count.

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/order"
	"github.com/stateflow/stateflow/kubectl"
)

// podVariant is how large a pod is drawn.
type podVariant int

const (
	// podFull: its name, STATUS, and READY (or "no node yet").
	podFull podVariant = iota
	// podCompact: its name and STATUS.
	podCompact
	// podChip: the end of its name and a mark of its status.
	podChip
)

// MaxMarks is the most marks a group box draws, one per member.
const MaxMarks = 40

// podItem is a pod as the diagram knows it.
type podItem struct {
	p      *api.Pod
	key    api.Key
	state  string // kubectl's STATUS
	status string // ok, progress, warn, bad, gone
	// stale is its stale note, worked out when it is first drawn.
	stale *string
	// boxes are its box at each variant, made when first drawn.
	boxes [3]*Box
}

// statusCount is how many pods of an owner show one STATUS.
type statusCount struct {
	state, status string
	n             int
}

// fillPods takes an owner's pods: every one when it has at most
// MaxDrawnPods, else only those the story is about, with counts of all.
func (s *scene) fillPods(o *owner, pods []*api.Pod) {
	o.total = len(pods)
	if len(pods) <= MaxDrawnPods {
		for _, p := range pods {
			o.pods = append(o.pods, s.podItem(p))
		}
		return
	}
	counts := map[[2]string]int{}
	for _, p := range pods {
		state, status := podStatus(p)
		counts[[2]string{state, status}]++
		if s.focusNames[p.Name] && s.focus[api.KeyOf(p)] {
			o.pods = append(o.pods, s.podItem(p))
		}
	}
	for k, n := range counts {
		o.counts = append(o.counts, statusCount{state: k[0], status: k[1], n: n})
	}
	sortCounts(o.counts)
}

func (s *scene) podItem(p *api.Pod) *podItem {
	state, status := podStatus(p)
	return &podItem{p: p, key: api.KeyOf(p), state: state, status: status}
}

// podCount is how many of an owner's pods are not terminating, and how
// many are.
func (o *owner) podCount() (counted, terminating int) {
	if o.counts != nil {
		for _, c := range o.counts {
			if c.state == "Terminating" {
				terminating += c.n
			} else {
				counted += c.n
			}
		}
		return counted, terminating
	}
	for _, p := range o.pods {
		if p.p.DeletionTimestamp != nil {
			terminating++
		} else {
			counted++
		}
	}
	return counted, terminating
}

// podStatus is the pod's STATUS as kubectl prints it, and how the
// diagram colours it.
func podStatus(p *api.Pod) (state, status string) {
	state = kubectl.PodStatus(p)
	switch {
	case p.DeletionTimestamp != nil:
		return state, "gone"
	case p.Spec.NodeName == "" && p.Status.Phase == api.PodPending:
		return state, "warn"
	case p.Status.Phase == api.PodSucceeded:
		return state, "ok"
	case p.Status.Phase == api.PodFailed:
		return state, "bad"
	}
	for _, list := range [2][]api.ContainerStatus{p.Status.InitContainerStatuses, p.Status.ContainerStatuses} {
		for _, c := range list {
			if w := c.State.Waiting; w != nil && w.Reason != "" && w.Reason != "ContainerCreating" && w.Reason != "PodInitializing" {
				return state, "bad"
			}
		}
	}
	if api.IsPodReady(p) {
		return state, "ok"
	}
	return state, "progress"
}

// StatusGlyph marks a status where a pod or node is too small for words:
// ✓ healthy, ○ on its way, ◌ waiting, ✗ failing, ⊘ going away.
func StatusGlyph(status string) string {
	switch status {
	case "ok":
		return "✓"
	case "progress":
		return "○"
	case "warn":
		return "◌"
	case "bad":
		return "✗"
	case "gone":
		return "⊘"
	}
	return "?"
}

// readyLine is the pod's READY count; or for a pod that has finished,
// its container's exit code; or why it has no node: held by scheduling
// gates, fitting no node (the scheduler said so), or not scheduled yet.
func readyLine(p *api.Pod) string {
	if p.Spec.NodeName == "" {
		switch {
		case len(p.Spec.SchedulingGates) > 0:
			return "held by " + plural(len(p.Spec.SchedulingGates), "gate")
		case unschedulableMessage(p) != "":
			return "fits no node"
		}
		return "no node yet"
	}
	if p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed {
		for _, list := range [2][]api.ContainerStatus{p.Status.InitContainerStatuses, p.Status.ContainerStatuses} {
			for _, c := range list {
				if t := c.State.Terminated; t != nil && (t.ExitCode != 0 || p.Status.Phase == api.PodSucceeded) {
					return fmt.Sprintf("exit %d", t.ExitCode)
				}
			}
		}
	}
	ready, total := kubectl.PodReady(p)
	return fmt.Sprintf("ready %d/%d", ready, total)
}

// unschedulableMessage is the scheduler's last word on a pod it could
// not place (PodScheduled=False, Unschedulable), or "".
func unschedulableMessage(p *api.Pod) string {
	if c := p.Status.Condition(api.PodScheduled); c != nil && c.Status == api.ConditionFalse && c.Reason == "Unschedulable" {
		return c.Message
	}
	return ""
}

// unscheduledDetail says why a pod has no node, in full: its gates, or
// the scheduler's message; "" for a pod with a node or not yet tried.
func unscheduledDetail(p *api.Pod) string {
	if p.Spec.NodeName != "" {
		return ""
	}
	if gates := p.Spec.SchedulingGates; len(gates) > 0 {
		names := make([]string, len(gates))
		for i, g := range gates {
			names[i] = g.Name
		}
		return "the scheduler waits until these scheduling gates are removed: " + strings.Join(names, ", ")
	}
	return unschedulableMessage(p)
}

// podBox is the pod drawn at a variant, sized (a copy of the one the
// item keeps: the scene is measured at several densities).
func (s *scene) podBox(it *podItem, v podVariant) *Box {
	if it.boxes[v] == nil {
		it.boxes[v] = size(s.newPodBox(it, v), 0)
	}
	return copyBox(it.boxes[v])
}

// newPodBox makes the pod's box at a variant.
func (s *scene) newPodBox(it *podItem, v podVariant) *Box {
	b := objectBox(it.p, shortPod(it.p.Name))
	b.Status = it.status
	switch v {
	case podFull:
		b.Lines = []string{it.state, readyLine(it.p)}
	case podCompact:
		b.Lines = []string{it.state}
	case podChip:
		b.Title = chipName(it.p.Name) + " " + StatusGlyph(it.status)
		b.Detail = fmt.Sprintf("pod/%s: %s, %s", it.p.Name, it.state, readyLine(it.p))
	}
	if why := unscheduledDetail(it.p); why != "" {
		// The scheduler's reasons are too long for the box: its
		// accessible name and tooltip carry them.
		b.Detail = fmt.Sprintf("pod/%s: %s, %s: %s", it.p.Name, it.state, readyLine(it.p), why)
	}
	if it.stale == nil {
		st := s.m.staleNote(it.p)
		it.stale = &st
	}
	b.Stale = *it.stale
	return b
}

// podChars is how many characters a pod's full box is sized for:
// "ContainerCreating", the longest usual STATUS.
const podChars = 17

// shortPod keeps the random suffix, which tells pods apart.
func shortPod(name string) string {
	if i := strings.LastIndex(name, "-"); i > 0 && len(name) > podChars-2 {
		return "…" + name[i:]
	}
	return name
}

// chipName is what a chip shows of a pod's name: all of a short name,
// else its last part ("-87qdr", "-12").
func chipName(name string) string {
	if i := strings.LastIndex(name, "-"); i > 0 && runes(name) > 8 {
		return name[i:]
	}
	return name
}

// groupBox is one box for an owner's pods that are not drawn by
// themselves: how many, their counts by STATUS and a mark each.
func (o *owner) groupBox(drawn map[api.Key]bool, open bool) *Box {
	byState := map[[2]string]int{}
	for _, c := range o.counts {
		byState[[2]string{c.state, c.status}] += c.n
	}
	for _, p := range o.pods {
		switch {
		case o.counts == nil && !drawn[p.key]:
			byState[[2]string{p.state, p.status}]++
		case o.counts != nil && drawn[p.key]:
			byState[[2]string{p.state, p.status}]-- // counted, and drawn by itself
		}
	}
	var counts []statusCount
	for k, n := range byState {
		if n > 0 {
			counts = append(counts, statusCount{state: k[0], status: k[1], n: n})
		}
	}
	sortCounts(counts)
	var marks []string
	for _, c := range counts {
		for range min(c.n, MaxMarks-len(marks)) {
			marks = append(marks, c.status)
		}
	}
	n := 0
	var parts []string
	for _, c := range counts {
		n += c.n
		parts = append(parts, fmt.Sprintf("%d %s", c.n, c.state))
	}
	title := fmt.Sprintf("%d pods", n)
	if len(drawn) > 0 {
		title = fmt.Sprintf("%d more pods", n)
	}
	id := "group/" + cmp.Or(o.uid, "pods")
	b := &Box{ID: id, Kind: "PodGroup", Name: id, Title: title, Lines: []string{strings.Join(parts, clauseSep)},
		Marks: marks[:min(len(marks), MaxMarks)], Status: worstStatus(counts), Detail: fmt.Sprintf("%s: %s", title, strings.Join(parts, ", "))}
	if open {
		b.Opens = id
	}
	return b
}

// sortCounts puts the largest counts first, then by name.
func sortCounts(cs []statusCount) {
	order.SortFunc(cs, func(a, b statusCount) int {
		return cmp.Or(cmp.Compare(b.n, a.n), strings.Compare(a.state, b.state))
	})
}

// worstStatus is the status a group is coloured with: its worst member's.
func worstStatus(cs []statusCount) string {
	rank := map[string]int{"ok": 0, "gone": 1, "progress": 2, "warn": 3, "bad": 4}
	worst := "ok"
	for _, c := range cs {
		if rank[c.status] > rank[worst] {
			worst = c.status
		}
	}
	return worst
}

package model

// This file draws the nodes, each with its kubelet: whether it is Ready,
// how many pods it runs and the CPU they request; or, when there are
// many or the room is short, the nodes the story is not about as one
// group box.

import (
	"fmt"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
)

// GroupNodesAbove is how many nodes the diagram draws one by one at
// most; more are drawn as one group (with those the story is about
// beside it).
const GroupNodesAbove = 40

// nodeVariant is how large a node is drawn.
type nodeVariant int

const (
	// nodeFull: its name, readiness and kubelet, pods and CPU.
	nodeFull nodeVariant = iota
	// nodeCompact: its name, readiness and pods.
	nodeCompact
)

// nodeItem is a node as the diagram knows it.
type nodeItem struct {
	n      *api.Node
	key    api.Key
	ready  string // Ready, NotReady or Unknown, and SchedulingDisabled
	status string
	pods   int
	cpu    int64 // millicores requested by its pods
	// boxes are its box at each variant, made when first drawn.
	boxes [2]*Box
}

// nodeItems reads the nodes with what runs on them (counted only when
// they are few enough to be drawn one by one).
func (s *scene) nodeItems(objs []api.Object) []*nodeItem {
	out := make([]*nodeItem, 0, len(objs))
	for _, o := range objs {
		n := o.(*api.Node)
		it := &nodeItem{n: n, key: api.KeyOf(n), ready: "Ready", status: "ok"}
		if c := n.Status.Condition(api.NodeReady); c == nil || c.Status != api.ConditionTrue {
			it.ready, it.status = "NotReady", "bad"
			if c != nil && c.Status == api.ConditionUnknown {
				it.ready = "Unknown"
			}
		}
		if n.Spec.Unschedulable {
			it.ready += ", SchedulingDisabled"
			if it.status == "ok" {
				it.status = "warn"
			}
		}
		out = append(out, it)
	}
	if len(out) > GroupNodesAbove {
		return out
	}
	index := make(map[string]*nodeItem, len(out))
	for _, it := range out {
		index[it.n.Name] = it
	}
	// The pods of one template bound to one node share their spec: its
	// requests are read once.
	cpu := map[*api.PodSpec]int64{}
	s.m.eng.Store().Each(api.KindPod, func(o api.Object) bool {
		p := o.(*api.Pod)
		if it := index[p.Spec.NodeName]; it != nil && api.IsPodActive(p) {
			c, ok := cpu[p.Spec]
			if !ok {
				c = api.PodRequests(p.Spec)["cpu"].MilliValue()
				cpu[p.Spec] = c
			}
			it.pods++
			it.cpu += c
		}
		return true
	})
	return out
}

// nodeBox is a node drawn at a variant (a copy of the one the item
// keeps: the scene is measured at several densities).
func nodeBox(it *nodeItem, v nodeVariant) *Box {
	if it.boxes[v] == nil {
		it.boxes[v] = newNodeBox(it, v)
	}
	return copyBox(it.boxes[v])
}

// newNodeBox makes the node's box at a variant.
func newNodeBox(it *nodeItem, v nodeVariant) *Box {
	b := objectBox(it.n, it.n.Name)
	b.Status = it.status
	alloc := it.n.Status.Allocatable
	switch v {
	case nodeFull:
		b.Lines = []string{it.ready + " · kubelet", fmt.Sprintf("%d/%d pods · cpu %s", it.pods, alloc["pods"].Value(), cpuShare(it.cpu, alloc["cpu"].MilliValue()))}
	case nodeCompact:
		b.Lines = []string{fmt.Sprintf("%s · %s", it.ready, podsWord(it.pods))}
		b.Detail = fmt.Sprintf("node/%s (its kubelet runs its pods): %s, %d/%d pods, cpu %s requested", it.n.Name, it.ready, it.pods, alloc["pods"].Value(), cpuShare(it.cpu, alloc["cpu"].MilliValue()))
	}
	return b
}

// cpuShare is CPU requested as kubectl describe node says it: "250m
// (6%)".
func cpuShare(milli, alloc int64) string {
	if alloc <= 0 {
		return fmt.Sprintf("%dm", milli)
	}
	return fmt.Sprintf("%dm (%d%%)", milli, milli*100/alloc)
}

func podsWord(n int) string {
	if n == 1 {
		return "1 pod"
	}
	return fmt.Sprintf("%d pods", n)
}

// nodeGroup is one box for the nodes not drawn by themselves: how many,
// how many are Ready, and the pods they run.
func nodeGroup(items []*nodeItem, drawn map[api.Key]bool, counted bool) *Box {
	n, pods := 0, 0
	byReady, byStatus := map[string]int{}, map[string]int{}
	var marks []string
	for _, it := range items {
		if drawn[it.key] {
			continue
		}
		n++
		pods += it.pods
		byReady[it.ready]++
		byStatus[it.status]++
		if len(marks) < MaxMarks {
			marks = append(marks, it.status)
		}
	}
	var worst []statusCount
	for status, n := range byStatus {
		worst = append(worst, statusCount{status: status, n: n})
	}
	var parts []string
	for _, r := range []string{"Ready", "NotReady", "Unknown", "Ready, SchedulingDisabled", "NotReady, SchedulingDisabled", "Unknown, SchedulingDisabled"} {
		if byReady[r] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", byReady[r], r))
		}
	}
	title := fmt.Sprintf("%d nodes · kubelets", n)
	if len(drawn) > 0 {
		title = fmt.Sprintf("%d more nodes", n)
	}
	line := strings.Join(parts, clauseSep)
	if counted {
		line += clauseSep + podsWord(pods)
	}
	b := &Box{ID: "nodes", Kind: "NodeGroup", Name: "nodes", Title: title, Lines: []string{line}, Marks: marks,
		Status: worstStatus(worst), Detail: title + ": " + strings.Join(parts, ", ")}
	if len(items) <= GroupNodesAbove {
		b.Opens = "nodes"
	}
	return b
}

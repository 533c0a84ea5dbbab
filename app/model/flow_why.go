package model

// This file draws the open "why?" answer (package provenance) on the
// placed diagram: the boxes of its steps' objects numbered, and the path
// between them, each leg from a step's objects to the objects of the
// step they caused, labelled with that step's number and the component
// that read the one and wrote the other.

import (
	"strconv"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/provenance"
)

// WhyLink is one leg of the open "why?" chain's path: from a box of a
// step's objects to a box of the step they caused. A user's action, which
// nothing on the diagram caused, comes in from above its object.
type WhyLink struct {
	// From and To are the boxes' IDs (From "" for a user's action).
	From, To       string
	X1, Y1, X2, Y2 int
	// Step is the caused step's number (1 the newest), Component the
	// component that acted in it.
	Step      int
	Component string
	// Label is "Step Component" where it fits clear of every box and
	// label, else the number alone, else "" (the box's badge and tooltip
	// still say it); LabelX and LabelY are where its text starts.
	Label          string
	LabelX, LabelY int
}

// maxLegLinks bounds the lines one leg draws (three pods counted by
// their ReplicaSet are three lines; three hundred are not).
const maxLegLinks = 4

// markWhy numbers the boxes of the objects in the open "why?" chain and
// draws its path.
func (l *layout) markWhy() {
	marks := l.m.WhyMarks()
	if len(marks) == 0 {
		return
	}
	steps := l.m.Why().Chain.Steps
	for _, b := range l.boxes {
		if n, ok := marks[b.Key]; ok && b.Key.Kind != "" {
			b.Why, b.WhyStep = n, steps[n-1].Summary()
		}
	}
	l.reserve()
	for i := range steps {
		l.whyLegs(steps, i)
	}
}

// whyLegs draws the legs into step i: from the boxes of the steps one
// further from the question (its causes), or from above for a user's
// action. A cause drawn in the step's own box (a kubelet's work on its
// pod) draws no leg.
func (l *layout) whyLegs(steps []provenance.Step, i int) {
	s := steps[i]
	if s.Before || len(s.Ticks) == 0 {
		return
	}
	to := l.stepBoxes(s)
	if len(to) == 0 {
		return
	}
	var links []WhyLink
	if s.User {
		links = append(links, l.userLeg(to[0]))
	}
	for _, c := range steps {
		if c.Depth != s.Depth+1 {
			continue
		}
		for _, from := range l.stepBoxes(c) {
			for _, b := range to {
				if from != b && len(links) < maxLegLinks && !containsBox(to, from) {
					links = append(links, legBetween(from, b))
				}
			}
		}
	}
	for j := range links {
		k := &links[j]
		k.Step, k.Component = i+1, s.Component
		if j == 0 {
			l.labelLeg(k)
		}
	}
	l.f.WhyLinks = append(l.f.WhyLinks, links...)
}

// userLeg is the leg of a user's action into box b: from the gap above
// it, or, where a text of the diagram (its header) lies in that gap,
// from the gap at its left.
func (l *layout) userLeg(b *Box) WhyLink {
	x, y := b.X+b.W/2, b.Y-rowGap+4
	for _, t := range l.f.Texts {
		if t.Vertical {
			continue
		}
		if r := labelRect(t.X, t.Y, t.Text); x >= r.x0 && x <= r.x1 && y < r.y1 && r.y0 < b.Y {
			y = b.Y + b.H/2
			return WhyLink{To: b.ID, X1: b.X - gapX + 1, Y1: y, X2: b.X, Y2: y}
		}
	}
	return WhyLink{To: b.ID, X1: x, Y1: y, X2: x, Y2: b.Y}
}

// stepBoxes are the boxes the step's objects are drawn in (their own, or
// the group that counts them), once each.
func (l *layout) stepBoxes(s provenance.Step) []*Box {
	var out []*Box
	for _, o := range s.Objects {
		k, ok := api.ParseKey(o)
		if !ok {
			continue
		}
		if b := l.boxOfKey(k); b != nil && !containsBox(out, b) {
			out = append(out, b)
		}
	}
	return out
}

// boxOfKey is the box an object is drawn in: its own, else its owner's
// group of pods or the group of nodes.
func (l *layout) boxOfKey(k api.Key) *Box {
	if b := l.boxes[k.String()]; b != nil {
		return b
	}
	switch k.Kind {
	case api.KindPod:
		if o, ok := l.m.eng.Store().Get(k); ok {
			if ref := o.Meta().ControllerRef(); ref != nil {
				return l.boxes[groupID(&owner{uid: ref.UID})]
			}
		}
	case api.KindNode:
		return l.boxes["nodes"]
	}
	return nil
}

func containsBox(bs []*Box, b *Box) bool {
	for _, x := range bs {
		if x == b {
			return true
		}
	}
	return false
}

// legOffset parts a leg going up from one going down between the same
// two boxes (desired state down, observed state back up).
const legOffset = 6

// legBetween is a line from one box's edge to the other's: bottom to
// top when one lies above the other, else side to side.
func legBetween(from, to *Box) WhyLink {
	k := WhyLink{From: from.ID, To: to.ID}
	switch {
	case from.Y+from.H <= to.Y: // down
		k.X1, k.Y1, k.X2, k.Y2 = from.X+from.W/2-legOffset, from.Y+from.H, to.X+to.W/2-legOffset, to.Y
	case to.Y+to.H <= from.Y: // up
		k.X1, k.Y1, k.X2, k.Y2 = from.X+from.W/2+legOffset, from.Y, to.X+to.W/2+legOffset, to.Y+to.H
	case from.X < to.X:
		k.X1, k.Y1, k.X2, k.Y2 = from.X+from.W, from.Y+from.H/2-legOffset, to.X, to.Y+to.H/2-legOffset
	default:
		k.X1, k.Y1, k.X2, k.Y2 = from.X, from.Y+from.H/2+legOffset, to.X+to.W, to.Y+to.H/2+legOffset
	}
	return k
}

// labelLeg names a leg with its step and component where that fits, else
// with its step alone.
func (l *layout) labelLeg(k *WhyLink) {
	for _, label := range []string{strconv.Itoa(k.Step) + " " + k.Component, strconv.Itoa(k.Step)} {
		if x, y, placed := l.placeLabel(label, labelSpots(k.X1, k.Y1, k.X2, k.Y2, 0, label)); placed != "" {
			k.Label, k.LabelX, k.LabelY = placed, x, y
			return
		}
	}
}

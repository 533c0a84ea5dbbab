package model

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine/api"
)

// The inspector asks why of the selected object at the current tick; the
// answer stays for that object, numbers the chain's objects for the
// diagram, and goes when another scenario applies or it is closed.
func TestAskWhy(t *testing.T) {
	m := seed(t)
	m.AskWhy("status.availableReplicas")
	if a := m.Why(); a == nil || a.Err == "" || a.Chain != nil {
		t.Fatalf("at tick 0: %+v", a)
	}
	m.RunUntilSettled()
	deploy := api.Key{Kind: api.KindDeployment, Namespace: "codartium-team", Name: "codartium-api"}
	if m.Selected != deploy {
		t.Fatalf("selected %v", m.Selected)
	}
	m.AskWhy("status.availableReplicas")
	a := m.Why()
	if a == nil || a.Err != "" || a.Chain == nil || len(a.Chain.Steps) != 10 || a.At != m.Status().Tick {
		t.Fatalf("answer %+v", a)
	}
	marks := m.WhyMarks()
	byKind := map[string][]int{}
	for k, n := range marks {
		byKind[k.Kind] = append(byKind[k.Kind], n)
	}
	if !slices.Equal(byKind[api.KindDeployment], []int{1}) || !slices.Equal(byKind[api.KindReplicaSet], []int{2}) || !slices.Equal(byKind[api.KindPod], []int{3, 3, 3}) {
		t.Errorf("marks %v", marks)
	}
	numbered := 0
	for _, b := range m.Flow(DefaultViewport).Boxes {
		if b.Why > 0 {
			numbered++
			if marks[b.Key] != b.Why {
				t.Errorf("box %s numbered %d, the chain says %d", b.ID, b.Why, marks[b.Key])
			}
			if want := a.Chain.Steps[b.Why-1]; !strings.Contains(b.WhyStep, want.Component) || !strings.Contains(b.WhyStep, want.TickLabel()) {
				t.Errorf("box %s says %q of its step, want its component %s and ticks %s", b.ID, b.WhyStep, want.Component, want.TickLabel())
			}
		}
	}
	if numbered != 5 {
		t.Errorf("%d boxes numbered, want 5", numbered)
	}
	// Seeking to a step's tick keeps the answer; another object hides it.
	m.Seek(a.Chain.Steps[2].Ticks[0])
	if m.Why() != a {
		t.Error("the answer went when its step's tick was shown")
	}
	m.Select(api.Key{Kind: api.KindNode, Name: "node-1"})
	if m.Why() != nil || m.WhyMarks() != nil {
		t.Error("another object's inspector shows the answer")
	}
	m.Select(deploy)
	m.CloseWhy()
	if m.Why() != nil {
		t.Error("closed, the answer stays")
	}
	m.AskWhy("status.nope")
	if a := m.Why(); a == nil || a.Chain == nil || a.Chain.Set {
		t.Errorf("a field the object does not have: %+v", a)
	}
}

// The menu offers the object's status fields as the trace names them,
// a pod's node and a workload's replicas.
func TestWhyFields(t *testing.T) {
	m := seed(t)
	m.RunUntilSettled()
	in := m.Inspect()
	for _, want := range []string{"spec.replicas", "status.availableReplicas", "status.conditions[Available].status", "status.conditions[Progressing].reason"} {
		if !slices.Contains(in.WhyFields, want) {
			t.Errorf("deployment: no %s in %v", want, in.WhyFields)
		}
	}
	for _, f := range in.WhyFields {
		if !strings.HasPrefix(f, "status.") && f != "spec.replicas" {
			t.Errorf("deployment: %s offered", f)
		}
	}
	for _, k := range m.Pickable().Keys {
		if k.Kind == api.KindPod {
			m.Select(k)
			break
		}
	}
	in = m.Inspect()
	for _, want := range []string{"spec.nodeName", "status.phase", "status.containerStatuses[api].ready", "status.conditions[Ready].status"} {
		if !slices.Contains(in.WhyFields, want) {
			t.Errorf("pod: no %s in %v", want, in.WhyFields)
		}
	}
}

// The diagram draws the answer's path: a leg from each step's causes to
// it, named by its number and component, checked by hand against the
// default example's chain (1 deployment-controller ↑ … 10 kubectl ↓).
func TestWhyPath(t *testing.T) {
	m := seed(t)
	m.RunUntilSettled()
	m.AskWhy("status.availableReplicas")
	f := m.Flow(DefaultViewport)
	boxes := map[string]Box{}
	for _, b := range f.Boxes {
		boxes[b.ID] = b
	}
	kindOf := func(id string) string {
		if id == "" {
			return "user"
		}
		return boxes[id].Kind
	}
	var legs []string
	for _, k := range f.WhyLinks {
		leg := fmt.Sprintf("%d %s: %s → %s", k.Step, k.Component, kindOf(k.From), kindOf(k.To))
		if !slices.Contains(legs, leg) {
			legs = append(legs, leg)
		}
	}
	want := []string{
		"1 deployment-controller: ReplicaSet → Deployment", // summarised its ReplicaSet (up)
		"2 replicaset-controller: Pod → ReplicaSet",        // counted its pods (up)
		"8 replicaset-controller: ReplicaSet → Pod",        // created them (down)
		"9 deployment-controller: Deployment → ReplicaSet", // created the ReplicaSet (down)
		"10 kubectl: user → Deployment",                    // kubectl apply
	}
	if strings.Join(legs, "\n") != strings.Join(want, "\n") {
		t.Errorf("legs:\n%s\nwant:\n%s", strings.Join(legs, "\n"), strings.Join(want, "\n"))
	}
	// Each leg runs between its boxes' edges; each label lies inside the
	// diagram and over no box; the leg down and the leg up between the
	// Deployment and its ReplicaSet are apart.
	labels := 0
	for _, k := range f.WhyLinks {
		if to := boxes[k.To]; !onEdge(to, k.X2, k.Y2) {
			t.Errorf("step %d ends at (%d,%d), off %s's edge", k.Step, k.X2, k.Y2, k.To)
		}
		if from, ok := boxes[k.From]; ok && !onEdge(from, k.X1, k.Y1) {
			t.Errorf("step %d starts at (%d,%d), off %s's edge", k.Step, k.X1, k.Y1, k.From)
		}
		if k.Label == "" {
			continue
		}
		labels++
		r := labelRect(k.LabelX, k.LabelY, k.Label)
		if r.x0 < 0 || r.y0 < 0 || r.x1 > f.Width || r.y1 > f.Height {
			t.Errorf("label %q outside the diagram", k.Label)
		}
		for _, b := range f.Boxes {
			if r.overlaps(rect{b.X, b.Y, b.X + b.W, b.Y + b.H}) {
				t.Errorf("label %q covers %s", k.Label, b.ID)
			}
		}
	}
	if labels < 3 {
		t.Errorf("only %d legs labelled", labels)
	}
	// No leg runs through a text of the diagram (its header), in a
	// laptop's pane, a phone's and an embed's.
	for _, v := range []Viewport{DefaultViewport, {W: 360, H: 480}, {W: 520, H: 340, MinFont: 11}} {
		f := m.Flow(v)
		for _, k := range f.WhyLinks {
			for _, tx := range f.Texts {
				r := labelRect(tx.X, tx.Y, tx.Text)
				if !tx.Vertical && min(k.X1, k.X2) <= r.x1 && max(k.X1, k.X2) >= r.x0 && min(k.Y1, k.Y2) < r.y1 && max(k.Y1, k.Y2) > r.y0 {
					t.Errorf("%dx%d: step %d's leg runs through %q", v.W, v.H, k.Step, tx.Text)
				}
			}
		}
	}
	var up, down WhyLink
	for _, k := range f.WhyLinks {
		switch k.Step {
		case 1:
			up = k
		case 9:
			down = k
		}
	}
	if up.X1 == down.X2 {
		t.Errorf("the legs up and down between the Deployment and its ReplicaSet overlap: %+v %+v", up, down)
	}
	m.CloseWhy()
	if f := m.Flow(DefaultViewport); len(f.WhyLinks) != 0 {
		t.Errorf("closed, the path stays: %d legs", len(f.WhyLinks))
	}
}

// onEdge reports whether (x, y) lies on b's outline.
func onEdge(b Box, x, y int) bool {
	inX, inY := x >= b.X && x <= b.X+b.W, y >= b.Y && y <= b.Y+b.H
	return inX && (y == b.Y || y == b.Y+b.H) || inY && (x == b.X || x == b.X+b.W)
}

// The caption asks why its tick did what it says: the chain begins at
// that tick, about the object it wrote first, which the inspector shows.
func TestAskWhyTick(t *testing.T) {
	m := seed(t)
	if m.Caption(true).Why {
		t.Error("tick 0 offers why")
	}
	m.RunUntilSettled()
	var creates, eventsOnly int
	for _, tk := range m.eng.Trace() {
		if creates == 0 && tk.Component == "replicaset-controller" && len(tk.Effects) > 0 && tk.Effects[0].Object.Kind == api.KindPod {
			creates = tk.Seq
		}
		if eventsOnly == 0 && len(tk.Effects) > 0 && !writes(tk) {
			eventsOnly = tk.Seq
		}
	}
	m.Seek(creates)
	if !m.Caption(true).Why {
		t.Fatalf("tick %d (the pods' creation) offers no why", creates)
	}
	m.AskWhyTick()
	a := m.Why()
	if a == nil || !a.Tick || a.Chain == nil || a.Key.Kind != api.KindPod || m.Selected != a.Key || a.Chain.Steps[0].Ticks[0] != creates {
		t.Fatalf("answer %+v, selected %v", a, m.Selected)
	}
	if got := len(a.Chain.Steps); got != 3 || !a.Chain.Steps[2].User {
		t.Errorf("%d steps, want 3 ending at the user's apply:\n%s", got, a.Chain.Text())
	}
	if eventsOnly > 0 {
		m.Seek(eventsOnly)
		if m.Caption(true).Why {
			t.Errorf("tick %d wrote only Events and offers why", eventsOnly)
		}
	}
}

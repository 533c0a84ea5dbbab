package model

import (
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

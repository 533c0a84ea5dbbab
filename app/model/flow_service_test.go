package model

import (
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/examples"
)

// A Service is drawn beside its pods with its endpoints counted; a slice
// write is an arrow into the Service box, level with it; a Service whose
// selector matches nothing is drawn as broken until a patch fixes it.
func TestFlowDrawsServicesWithTheirEndpoints(t *testing.T) {
	ex, ok := examples.Get("service-endpoints")
	if !ok {
		t.Fatal("no service-endpoints example")
	}
	m, err := New(ex.Source)
	if err != nil {
		t.Fatal(err)
	}
	sideways, broken := false, false
	for range 200 {
		m.Step()
		if typo := box(m.Flow(wide), api.KindService, "web-typo"); typo != nil && m.Engine().Now() < 60_000 {
			broken = broken || strings.Contains(strings.Join(typo.Lines, "|"), "no endpoints") && typo.Status == "bad"
		}
		t0 := m.Current()
		if t0 == nil || t0.Component != "endpointslice-controller" || len(t0.Effects) == 0 || !strings.Contains(t0.Effects[0].Text(), "/3 endpoints ready") {
			continue
		}
		f := m.Flow(wide)
		svc := box(f, api.KindService, "web")
		for _, a := range f.Arrows {
			if a.X2 == svc.X && a.X1 < a.X2 && a.Y1 == a.Y2 && a.Y1 > svc.Y && a.Y1 < svc.Y+svc.H {
				sideways = true
			}
		}
		if !svc.Actor || svc.Highlight == 0 {
			t.Errorf("tick %d: the Service the controller synced is the actor and takes the slice's effect", t0.Seq)
		}
	}
	if !sideways {
		t.Error("no slice write was drawn as an arrow into the Service box from its side")
	}
	m.RunUntilSettled()
	f := m.Flow(wide)
	web, typo := box(f, api.KindService, "web"), box(f, api.KindService, "web-typo")
	if !strings.Contains(strings.Join(web.Lines, "|"), "endpoints 3/3 ready") || web.Status != "ok" {
		t.Errorf("svc/web at the end: %v (%s)", web.Lines, web.Status)
	}
	if !broken {
		t.Error("svc/web-typo was never drawn as broken with no endpoints before its selector was fixed")
	}
	if !strings.Contains(strings.Join(typo.Lines, "|"), "endpoints 3/3 ready") || typo.Status != "ok" {
		t.Errorf("svc/web-typo after the patch: %v (%s)", typo.Lines, typo.Status)
	}
	for _, b := range f.Boxes {
		if b.Kind == api.KindPod && b.Y == web.Y && b.X+b.W > web.X && web.X+web.W > b.X {
			t.Errorf("svc/web overlaps pod %s", b.Name)
		}
	}
}

func box(f Flow, kind, name string) *Box {
	for i := range f.Boxes {
		if f.Boxes[i].Kind == kind && f.Boxes[i].Name == name {
			return &f.Boxes[i]
		}
	}
	return &Box{}
}

// A write to a Service by no box's component (kubectl patch) comes in
// from the side, in the gap left of the Service: from above it would
// cross the Service over it.
func TestKubectlWriteToAServiceComesFromTheSide(t *testing.T) {
	m := seed(t)
	if !m.Apply(m.Applied + `---
apiVersion: v1
kind: Service
metadata: {name: a, namespace: codartium-team}
spec: {selector: {app: codartium-api}, ports: [{port: 80}]}
---
apiVersion: v1
kind: Service
metadata: {name: b, namespace: codartium-team}
spec: {selector: {app: nope}, ports: [{port: 80}]}
`) {
		t.Fatalf("%v", m.Problems)
	}
	m.RunUntilSettled()
	m.Run(`kubectl patch service b -p '{"spec": {"selector": {"app": "codartium-api"}}}'`)
	f := m.Flow(wide)
	var b Box
	for _, x := range f.Boxes {
		if x.ID == "Service/codartium-team/b" {
			b = x
		}
	}
	found := false
	for _, ar := range f.Arrows {
		if ar.X2 == b.X && ar.Y2 == b.Y+b.H/2 {
			found = true
			if ar.Y1 != ar.Y2 || ar.X1 >= b.X {
				t.Errorf("the arrow into svc/b does not come in from its side: %+v", ar)
			}
			for _, x := range f.Boxes {
				if ar.X1 >= x.X && ar.X1 <= x.X+x.W && ar.Y1 >= x.Y && ar.Y1 <= x.Y+x.H {
					t.Errorf("the arrow into svc/b starts inside %s: %+v", x.ID, ar)
				}
			}
		}
	}
	if !found {
		t.Fatalf("no arrow into svc/b (%+v) among %+v", b, f.Arrows)
	}
}

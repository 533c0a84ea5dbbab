package model

import (
	"github.com/stateflow/stateflow/engine/trace"
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine/api"
)

// An autoscaler sits at the top row beside its Deployment, linked to it,
// with its metric against the target and its counts; a metrics-server
// scrape is drawn as arrows up into it, and its rescale as an arrow into
// the Deployment.
func TestFlowDrawsHPALoop(t *testing.T) {
	ex := load(t, "hpa-load-spike")
	seekTime(t, ex, 61_000)
	f := ex.Flow(wide)
	h := box(f, api.KindHorizontalPodAutoscaler, "web")
	d := box(f, api.KindDeployment, "web")
	if h.Kind == "" || h.Y != d.Y || d.Kind == "" || h.X <= d.X+d.W {
		t.Fatalf("hpa %+v, deploy %+v", h, d)
	}
	if h.Lines[0] != "deploy/web · cpu: 300%/50%" || h.Lines[1] != "replicas 2 → 4 · 2–10" || h.Status != "progress" {
		t.Errorf("hpa lines %q, status %s", h.Lines, h.Status)
	}
	scales := false
	for _, e := range f.Edges {
		scales = scales || e.From == "HorizontalPodAutoscaler/default/web" && e.To == "Deployment/default/web" && e.Kind == "scales"
	}
	if !scales {
		t.Error("no scales edge from the HPA to its Deployment")
	}
	var sawMetrics, sawRescale bool
	for _, tk := range ex.Engine().Trace() {
		if tk.Time > 70_000 {
			break
		}
		ex.Seek(tk.Seq)
		for _, a := range ex.Flow(wide).Arrows {
			sawMetrics = sawMetrics || strings.HasSuffix(a.Label, " metrics") && tk.Component == "metrics-server"
			sawRescale = sawRescale || tk.Component == "horizontal-pod-autoscaler" && a.Class == trace.Translate
		}
	}
	if !sawMetrics || !sawRescale {
		t.Errorf("metrics arrows %v, rescale arrow %v", sawMetrics, sawRescale)
	}
}

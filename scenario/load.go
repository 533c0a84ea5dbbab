package scenario

// This file reads spec.load: the CPU and memory a workload's pods use
// over time, which the metrics-server measures and a
// HorizontalPodAutoscaler acts on.

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/metrics"
	"github.com/stateflow/stateflow/engine/trace"
)

// LoadSpec is the load on one workload.
type LoadSpec struct {
	// Workload is "deployment/NAME" (or statefulset/, daemonset/,
	// replicaset/, job/), in Namespace (default: the console's namespace,
	// else "default").
	Workload  string `json:"workload" yaml:"workload"`
	Namespace string `json:"namespace,omitempty" yaml:"namespace,omitempty"`
	// CPU and Memory are steps: each holds from its time until the next.
	CPU    []LoadPoint `json:"cpu,omitempty" yaml:"cpu,omitempty"`
	Memory []LoadPoint `json:"memory,omitempty" yaml:"memory,omitempty"`
	// Idle is the CPU a running pod uses before it is Ready.
	Idle *api.Quantity `json:"idle,omitempty" yaml:"idle,omitempty"`
}

// LoadPoint is one step: from At, each Ready pod uses PerPod, or the
// Ready pods share Total evenly.
type LoadPoint struct {
	At     string        `json:"at" yaml:"at"`
	PerPod *api.Quantity `json:"perPod,omitempty" yaml:"perPod,omitempty"`
	Total  *api.Quantity `json:"total,omitempty" yaml:"total,omitempty"`
}

// loadKinds are the workloads a load may name, by kubectl's names.
var loadKinds = map[string]string{"deployment": api.KindDeployment, "deploy": api.KindDeployment, "statefulset": api.KindStatefulSet, "sts": api.KindStatefulSet,
	"daemonset": api.KindDaemonSet, "ds": api.KindDaemonSet, "replicaset": api.KindReplicaSet, "rs": api.KindReplicaSet, "job": api.KindJob}

// load checks one workload's load and adds it to the configuration.
func (p *parser) load(n *yaml.Node, i int, l LoadSpec) {
	path := fmt.Sprintf("spec.load[%d]", i)
	bad := func(f, format string, args ...any) {
		a := nodeAt(n, path+f)
		p.errorf(a.Line, a.Column, path+f, format, args...)
	}
	kind, name, _ := strings.Cut(l.Workload, "/")
	k, ok := loadKinds[strings.ToLower(kind)]
	if !ok || name == "" {
		bad(".workload", "Invalid value: %q: want deployment/NAME, statefulset/NAME, daemonset/NAME, replicaset/NAME or job/NAME", l.Workload)
		return
	}
	c := metrics.Curve{Workload: api.Key{Kind: k, Namespace: l.Namespace, Name: name}}
	if c.Workload.Namespace == "" {
		c.Workload.Namespace = p.sc.Namespace
	}
	if c.Workload.Namespace == "" {
		c.Workload.Namespace = "default"
	}
	if l.Idle != nil {
		c.Idle = l.Idle.MilliValue()
	}
	if len(l.CPU) == 0 && len(l.Memory) == 0 {
		bad("", "cpu: Required value: give cpu or memory steps")
	}
	c.CPU = p.loadPoints(n, path+".cpu", l.CPU)
	c.Memory = p.loadPoints(n, path+".memory", l.Memory)
	p.sc.Config.Load = append(p.sc.Config.Load, c)
}

// loadPoints checks a curve's steps: each with a time, in order, and one
// of perPod and total, not negative.
func (p *parser) loadPoints(n *yaml.Node, path string, pts []LoadPoint) []metrics.Point {
	out := make([]metrics.Point, 0, len(pts))
	last := int64(-1)
	for j, lp := range pts {
		pp := fmt.Sprintf("%s[%d]", path, j)
		bad := func(f, format string, args ...any) {
			a := nodeAt(n, pp+f)
			p.errorf(a.Line, a.Column, pp+f, format, args...)
		}
		at, ok := p.duration(n, pp+".at", lp.At)
		if !ok {
			continue
		}
		if at <= last {
			bad(".at", "Invalid value: %q: steps must be in time order (after %s)", lp.At, trace.FormatTime(last))
		}
		last = at
		pt := metrics.Point{At: at}
		switch {
		case (lp.PerPod == nil) == (lp.Total == nil):
			bad("", "Invalid value: give exactly one of perPod and total")
			continue
		case lp.PerPod != nil:
			pt.PerPod = lp.PerPod.MilliValue()
		default:
			pt.Total, pt.IsTotal = lp.Total.MilliValue(), true
		}
		if pt.PerPod < 0 || pt.Total < 0 {
			bad("", "Invalid value: a load is not negative")
		}
		out = append(out, pt)
	}
	return out
}

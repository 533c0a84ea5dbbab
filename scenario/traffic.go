package scenario

// This file reads spec.traffic: synthetic requests sent to a Service,
// routed by each sending node's kube-proxy rules.

import (
	"fmt"
	"strconv"

	"gopkg.in/yaml.v3"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/trace"
)

// Traffic limits and defaults.
const (
	MaxRPS                 = 10_000
	defaultTrafficInterval = "1s"
	defaultTrafficFor      = 120_000 // ms after from, when until is not given
	minTrafficInterval     = 100
	maxTrafficFor          = 24 * 3_600_000
)

// TrafficSpec is one stream of synthetic requests to a Service.
type TrafficSpec struct {
	// Service is the Service's name, in Namespace (default: the
	// console's namespace, else "default").
	Service   string `json:"service" yaml:"service"`
	Namespace string `json:"namespace,omitempty" yaml:"namespace,omitempty"`
	// Port is the Service port, by name or number; default the first.
	Port *api.IntOrString `json:"port,omitempty" yaml:"port,omitempty"`
	RPS  int              `json:"rps" yaml:"rps"`
	// From and Until bound the requests (default 0s and 2m after from);
	// Interval is how often the trace reports their counts (default 1s).
	From     string `json:"from,omitempty" yaml:"from,omitempty"`
	Until    string `json:"until,omitempty" yaml:"until,omitempty"`
	Interval string `json:"interval,omitempty" yaml:"interval,omitempty"`
	// Nodes send the requests in turn; default every node.
	Nodes []string `json:"nodes,omitempty" yaml:"nodes,omitempty"`
}

// traffic checks one stream and adds it to the configuration.
func (p *parser) traffic(n *yaml.Node, i int, t TrafficSpec) {
	path := fmt.Sprintf("spec.traffic[%d]", i)
	at := func(f string) *yaml.Node { return nodeAt(n, path+f) }
	bad := func(f, format string, args ...any) {
		a := at(f)
		p.errorf(a.Line, a.Column, path+f, format, args...)
	}
	if t.Service == "" {
		bad("", "service: Required value: the name of the Service to send requests to")
	}
	if t.RPS < 1 || t.RPS > MaxRPS {
		bad(".rps", "Invalid value: %d: must be between 1 and %d requests per second", t.RPS, MaxRPS)
	}
	s := engine.TrafficStream{Service: api.Key{Kind: api.KindService, Namespace: t.Namespace, Name: t.Service}, RPS: t.RPS, Nodes: t.Nodes}
	if s.Service.Namespace == "" {
		s.Service.Namespace = p.sc.Namespace
	}
	if s.Service.Namespace == "" {
		s.Service.Namespace = "default"
	}
	if t.Port != nil {
		s.Port = t.Port.String()
		if !t.Port.IsString && (t.Port.IntVal < 1 || t.Port.IntVal > 65535) {
			bad(".port", "Invalid value: %d: must be between 1 and 65535, inclusive", t.Port.IntVal)
		}
	}
	ok := true
	dur := func(f, v, def string) int64 {
		if v == "" {
			v = def
		}
		ms, good := p.duration(n, path+f, v)
		ok = ok && good
		return ms
	}
	s.From = dur(".from", t.From, "0s")
	s.Interval = dur(".interval", t.Interval, defaultTrafficInterval)
	s.Until = s.From + defaultTrafficFor
	if t.Until != "" {
		s.Until = dur(".until", t.Until, "")
	}
	if !ok {
		return
	}
	if s.Until <= s.From {
		bad(".until", "Invalid value: %q: must be later than from (%s)", t.Until, trace.FormatTime(s.From))
	}
	if s.Until-s.From > maxTrafficFor {
		bad(".until", "Invalid value: %q: traffic lasts at most 24h", t.Until)
	}
	if s.Interval < minTrafficInterval {
		bad(".interval", "Invalid value: %q: must be at least 100ms", t.Interval)
	}
	for j, node := range t.Nodes {
		p.faults = append(p.faults, fault{path: path + ".nodes[" + strconv.Itoa(j) + "]", node: node, line: at(".nodes[" + strconv.Itoa(j) + "]"), bare: true, at: -1})
	}
	p.sc.Config.Traffic = append(p.sc.Config.Traffic, s)
}

package scenario

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/fieldpath"
)

// workload is one manifest that asks for pods, as the capacity check
// sees it.
type workload struct {
	ref      string // "deploy/web", "pod/one"
	pods     int64
	per      podRequest // one pod's requests
	node     *yaml.Node
	prefix   string // path of the pod spec: "spec.template.spec" or "spec"
	replicas bool   // a Deployment or ReplicaSet (its pods are replicas)
}

// podRequest is one pod's requests in milli-units, as the scheduler sums
// them (a limit without a request counts as the request, as the API
// server defaults it).
// Scalar resources (extended resources such as example.com/dongle, huge
// pages) are in whole units, by name; nil when the pod asks for none.
type podRequest struct {
	cpu, memory int64
	scalar      map[string]int64
}

func requestsOf(spec *api.PodSpec) podRequest {
	req := api.AggregateRequests(spec, func(c *api.Container) api.ResourceList {
		out := api.ResourceList{}
		for _, l := range [...]api.ResourceList{c.Resources.Requests, c.Resources.Limits} {
			for name, q := range l {
				if _, done := out[name]; !done && (name == "cpu" || name == "memory" || api.IsScalarResourceName(name)) {
					out[name] = q
				}
			}
		}
		for name, q := range out {
			if q.MilliValue() <= 0 {
				delete(out, name)
			}
		}
		return out
	})
	r := podRequest{cpu: req["cpu"].MilliValue(), memory: req["memory"].MilliValue()}
	for name, q := range req {
		if api.IsScalarResourceName(name) {
			if r.scalar == nil {
				r.scalar = map[string]int64{}
			}
			r.scalar[name] = q.Value()
		}
	}
	return r
}

// checkCapacity warns when the workloads' pods cannot all fit on the
// nodes, whatever the scheduler does: a pod that asks for more than any
// node's whole allocatable, more pods than the nodes' pods capacity, or
// more cpu or memory in all than the nodes have allocatable. The counts
// are lower bounds from sums (node selectors, taints, a rollout's surge
// pods and fragmentation only make it worse), so it never warns about a
// manifest that fits. Objects with a controller owner are counted by
// their owner.
func (p *parser) checkCapacity() {
	if len(p.nodes) == 0 {
		return
	}
	var ws []workload
	for _, d := range p.docs {
		if d.obj.Meta().ControllerRef() != nil {
			continue
		}
		if k := kindNamed(d.obj.GetKind()); k.pods != nil {
			n, replicas := k.pods(d.obj)
			spec, prefix := k.template(d.obj)
			ws = append(ws, workload{ref: api.KeyOf(d.obj).Short(), pods: n, per: requestsOf(spec), node: d.node, prefix: prefix, replicas: replicas})
		}
	}
	var alloc podRequest
	var maxNode podRequest
	podsCap, limited := int64(0), true
	minPods, maxPods := int64(math.MaxInt64), int64(0)
	for _, n := range p.nodes {
		cpu, mem := max(0, n.Status.Allocatable["cpu"].MilliValue()), max(0, n.Status.Allocatable["memory"].MilliValue())
		alloc.cpu, alloc.memory = addSat(alloc.cpu, cpu), addSat(alloc.memory, mem)
		maxNode.cpu, maxNode.memory = max(maxNode.cpu, cpu), max(maxNode.memory, mem)
		q, ok := n.Status.Allocatable["pods"]
		if !ok {
			limited = false
			continue
		}
		np := max(0, q.Value())
		podsCap = addSat(podsCap, np)
		minPods, maxPods = min(minPods, np), max(maxPods, np)
	}
	// Pods that fit no node at all.
	var fit []workload
	for _, w := range ws {
		if w.pods <= 0 {
			continue
		}
		if p.warnScalarTooBig(w) {
			continue
		}
		if res, want, have := tooBig(w.per, maxNode); res != "" {
			path := requestPath(w, res)
			at := nodeAt(w.node, path)
			p.warnf(at.Line, at.Column, path,
				"each pod of %s requests %s %s but no node has more than %s %s allocatable: %s (FailedScheduling: Insufficient %s)",
				w.ref, quantity(res, want), res, quantity(res, have), res, noneOf(w.pods), res)
			continue
		}
		fit = append(fit, w)
	}
	if len(fit) == 0 {
		return
	}
	total, biggest := int64(0), fit[0]
	var sum podRequest
	for _, w := range fit {
		total = addSat(total, w.pods)
		sum.cpu = addSat(sum.cpu, mulSat(w.pods, w.per.cpu))
		sum.memory = addSat(sum.memory, mulSat(w.pods, w.per.memory))
		if w.pods > biggest.pods {
			biggest = w
		}
	}
	warnAt := func(w workload, format string, args ...any) {
		path := "metadata.name"
		if w.replicas {
			path = "spec.replicas"
		}
		at := nodeAt(w.node, path)
		if path == "spec.replicas" && child(child(w.node, "spec"), "replicas") == nil {
			at, path = w.node, ""
		}
		p.warnf(at.Line, at.Column, path, format, args...)
	}
	need := func(w workload, what string) string {
		if len(fit) == 1 && w.replicas {
			verb := "need"
			if w.pods == 1 {
				verb = "needs"
			}
			return fmt.Sprintf("%s %s %s", plural64(w.pods, "replica"), verb, what)
		}
		return fmt.Sprintf("the workloads need %s in all (%s for %s)", what, plural64(w.pods, "pod"), w.ref)
	}
	if limited && total > podsCap {
		each := fmt.Sprintf(" (%d each)", maxPods)
		switch {
		case len(p.nodes) == 1:
			each = ""
		case minPods != maxPods:
			each = fmt.Sprintf(" (%d to %d each)", minPods, maxPods)
		}
		warnAt(biggest, "%s but %s at most %d%s: at least %d will stay Pending with FailedScheduling (Too many pods)",
			need(biggest, plural64(total, "pod")), theNodes(len(p.nodes), "hold"), podsCap, each, total-podsCap)
	}
	for _, r := range []struct {
		name       string
		sum, alloc int64
		per        func(podRequest) int64
	}{
		{"cpu", sum.cpu, alloc.cpu, func(r podRequest) int64 { return r.cpu }},
		{"memory", sum.memory, alloc.memory, func(r podRequest) int64 { return r.memory }},
	} {
		if r.sum <= r.alloc {
			continue
		}
		// Each pod left out frees at most the largest request, so at
		// least this many pods cannot be placed.
		largest := int64(0)
		for _, w := range fit {
			largest = max(largest, r.per(w.per))
		}
		pending := (r.sum - r.alloc + largest - 1) / largest
		what := fmt.Sprintf("%s %s", quantity(r.name, r.sum), r.name)
		if len(fit) == 1 && biggest.replicas {
			warnAt(biggest, "%s of %s %s request %s in all; %s %s %s allocatable: at least %s will stay Pending with FailedScheduling (Insufficient %s)",
				plural64(biggest.pods, "replica"), quantity(r.name, r.per(biggest.per)), r.name, what, theNodes(len(p.nodes), "have"), quantity(r.name, r.alloc), r.name, plural64(pending, "pod"), r.name)
			continue
		}
		warnAt(biggest, "the workloads' pods request %s in all (%s for %s); %s %s %s allocatable: at least %s will stay Pending with FailedScheduling (Insufficient %s)",
			what, quantity(r.name, mulSat(biggest.pods, r.per(biggest.per))), biggest.ref, theNodes(len(p.nodes), "have"), quantity(r.name, r.alloc), r.name, plural64(pending, "pod"), r.name)
	}
}

// warnScalarTooBig warns, and reports, when each pod of w asks for more
// of a scalar resource (an extended resource such as example.com/dongle)
// than any node offers: the scheduler counts them like cpu, and a node
// offers only what its device plugins advertise, here what the
// Scenario's nodes.capacity (or a Node's status.capacity) gives it.
func (p *parser) warnScalarTooBig(w workload) bool {
	names := make([]string, 0, len(w.per.scalar))
	for name := range w.per.scalar {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		want, have := w.per.scalar[name], int64(0)
		for _, n := range p.nodes {
			have = max(have, n.Status.Allocatable[name].Value())
		}
		if want <= have {
			continue
		}
		path := requestPath(w, name)
		at := nodeAt(w.node, path)
		offer := fmt.Sprintf("no node has more than %d %s allocatable", have, name)
		if have == 0 {
			offer = fmt.Sprintf("no node advertises %s (a device plugin would; here give the nodes capacity: Scenario spec.nodes.capacity, %s: %d)", name, name, want)
		}
		p.warnf(at.Line, at.Column, path, "each pod of %s requests %d %s but %s: %s (FailedScheduling: Insufficient %s)",
			w.ref, want, name, offer, noneOf(w.pods), name)
		return true
	}
	return false
}

// tooBig names a resource one pod asks more of than the largest node
// has allocatable, with both amounts.
func tooBig(per, maxNode podRequest) (res string, want, have int64) {
	switch {
	case per.cpu > maxNode.cpu:
		return "cpu", per.cpu, maxNode.cpu
	case per.memory > maxNode.memory:
		return "memory", per.memory, maxNode.memory
	}
	return "", 0, 0
}

// requestPath is where the first container's request of res is written
// (or its limit, or the container).
func requestPath(w workload, res string) string {
	cs := child(nodeAt(w.node, w.prefix), "containers")
	if cs == nil || cs.Kind != yaml.SequenceNode {
		return w.prefix
	}
	for i, c := range cs.Content {
		for _, kind := range []string{"requests", "limits"} {
			if child(child(child(c, "resources"), kind), res) != nil {
				return fieldpath.Child(fmt.Sprintf("%s.containers[%d].resources.%s", w.prefix, i, kind), res)
			}
		}
	}
	return w.prefix + ".containers"
}

func noneOf(n int64) string {
	if n == 1 {
		return "its pod can never be scheduled"
	}
	return fmt.Sprintf("none of its %d pods can ever be scheduled", n)
}

// theNodes is "the 3 nodes have" or "the only node has", with the verb
// given in the plural.
func theNodes(n int, verb string) string {
	if n == 1 {
		return "the only node " + map[string]string{"have": "has", "hold": "holds"}[verb]
	}
	return fmt.Sprintf("the %d nodes %s", n, verb)
}

func plural64(n int64, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.FormatInt(n, 10) + " " + noun + "s"
}

// quantity formats milli-units of a resource: cpu as "250m" or "12",
// memory in the largest binary unit that keeps it short ("24Gi",
// "1.5Gi").
func quantity(res string, milli int64) string {
	if res == "cpu" {
		if milli%1000 == 0 {
			return strconv.FormatInt(milli/1000, 10)
		}
		if milli < 1000 {
			return strconv.FormatInt(milli, 10) + "m"
		}
		return strings.TrimRight(strings.TrimRight(strconv.FormatFloat(float64(milli)/1000, 'f', 3, 64), "0"), ".")
	}
	bytes := float64(milli) / 1000
	for _, u := range []struct {
		name string
		size float64
	}{{"Ei", 1 << 60}, {"Pi", 1 << 50}, {"Ti", 1 << 40}, {"Gi", 1 << 30}, {"Mi", 1 << 20}, {"Ki", 1 << 10}} {
		if bytes >= u.size {
			return strings.TrimSuffix(strconv.FormatFloat(bytes/u.size, 'f', 1, 64), ".0") + u.name
		}
	}
	return strconv.FormatFloat(bytes, 'f', 0, 64)
}

// addSat and mulSat saturate at math.MaxInt64 instead of wrapping: a
// manifest may ask for absurd amounts.
func addSat(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

func mulSat(a, b int64) int64 {
	if a == 0 || b == 0 {
		return 0
	}
	if a > math.MaxInt64/b {
		return math.MaxInt64
	}
	return a * b
}

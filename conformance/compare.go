package conformance

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	batch "k8s.io/api/batch/v1"
	discovery "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
)

// change is one write in a comparable form: the operation, the object and
// the value of every field it changed, rendered as text.
type change struct {
	verb   string // create, update, delete
	kind   string
	name   string
	fields map[string]string // field path → new value (JSON)
	// For an EndpointSlice written: setFields are the fields the write
	// changed with the endpoints of both versions in a canonical order
	// (its endpoints compared as a set); endpoints are the slice's
	// endpoints after the write, each as the slice's ports and itself in
	// JSON; slice is the rest of what the slice says (ports, labels,
	// owner, address type) and how many endpoints it holds (see the
	// endpoint-order allowance).
	setFields map[string]string
	endpoints []string
	slice     string
	// generated says upstream's API server drew the name from
	// generateName (a StatefulSet's pods carry a generateName but are
	// named by the controller).
	generated bool
	// previous holds, for the fields an update changed, their values
	// before it.
	previous map[string]string
	// uid and rv are a created object's uid and resourceVersion.
	uid, rv string
}

func (c change) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s/%s", c.verb, c.kind, c.name)
	paths := make([]string, 0, len(c.fields))
	for p := range c.fields {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		fmt.Fprintf(&b, "\n      %s = %s", p, c.fields[p])
	}
	return b.String()
}

// ignoredField reports fields the comparison leaves out: those only the
// API server sets, whose values differ between two servers by
// construction (uids, resourceVersions, creation times), and
// managedFields.
func ignoredField(path string) bool {
	for _, p := range []string{"metadata.resourceVersion", "metadata.uid", "metadata.creationTimestamp", "metadata.managedFields", "kind", "apiVersion"} {
		if path == p || strings.HasPrefix(path, p+".") || strings.HasPrefix(path, p+"[") {
			return true
		}
	}
	return false
}

// flatten turns an object into field path → JSON value, leaving out empty
// maps, empty lists and nulls (so `resources: {}` and an absent field are
// the same).
func flatten(o runtime.Object) (map[string]string, error) {
	out := map[string]string{}
	if o == nil {
		return out, nil
	}
	b, err := json.Marshal(o)
	if err != nil {
		return nil, err
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return nil, err
	}
	walk(v, "", out)
	return out, nil
}

func walk(v any, path string, out map[string]string) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			p := k
			if path != "" {
				p = path + "." + k
			}
			walk(e, p, out)
		}
	case []any:
		for i, e := range x {
			walk(e, fmt.Sprintf("%s[%d]", path, i), out)
		}
	case nil:
	default:
		b, _ := json.Marshal(x)
		out[path] = string(b)
	}
}

// changeOf compares a stored object before and after a write. Times are
// compared in virtual time, truncated to whole seconds as the API server
// stores them, so a condition the engine stamps at 0.4 s and upstream at
// the wall-clock instant standing for 0.4 s are equal.
func changeOf(verb, kind, name string, before, after runtime.Object, clk clock, upstream bool) (change, error) {
	c := change{verb: verb, kind: kind, name: name}
	if verb == "delete" {
		c.fields = map[string]string{}
		return c, nil
	}
	before, after = clk.toVirtual(before, upstream), clk.toVirtual(after, upstream)
	before, after = uncountedAsSets(before), uncountedAsSets(after)
	if m, err := meta.Accessor(after); verb == "create" && err == nil {
		c.uid, c.rv = string(m.GetUID()), m.GetResourceVersion()
	}
	var err error
	if c.fields, c.previous, err = changedFields(before, after); err != nil {
		return c, err
	}
	if es, ok := after.(*discovery.EndpointSlice); ok {
		c.setFields, _, err = changedFields(endpointsAsSet(before), endpointsAsSet(after))
		ports := "[]" // nil and empty alike
		if len(es.Ports) > 0 {
			b, _ := json.Marshal(es.Ports)
			ports = string(b)
		}
		for _, e := range es.Endpoints {
			b, _ := json.Marshal(e)
			c.endpoints = append(c.endpoints, ports+" "+string(b))
		}
		b, _ := json.Marshal(map[string]any{"ports": ports, "labels": es.Labels, "ownerReferences": es.OwnerReferences,
			"addressType": es.AddressType, "endpoints": len(es.Endpoints)})
		c.slice = string(b)
	}
	return c, err
}

// changedFields is every field of after that differs from before, and
// "<removed>" for those it lost, with the values they had before.
func changedFields(before, after runtime.Object) (fields, previous map[string]string, err error) {
	fields, previous = map[string]string{}, map[string]string{}
	b, err := flatten(before)
	if err != nil {
		return nil, nil, err
	}
	a, err := flatten(after)
	if err != nil {
		return nil, nil, err
	}
	for p, v := range a {
		if ignoredField(p) || b[p] == v {
			continue
		}
		fields[p] = v
		if old, ok := b[p]; ok {
			previous[p] = old
		}
	}
	for p, old := range b {
		if _, ok := a[p]; !ok && !ignoredField(p) {
			fields[p] = "<removed>"
			previous[p] = old
		}
	}
	return fields, previous, nil
}

// uncountedAsSets returns a Job with the pod uids of its
// status.uncountedTerminatedPods sorted: the Job controller reads them as
// sets, and upstream lists them in the order of its pod indexer, a map's
// (see allowances.go). Anything else is returned as it is.
func uncountedAsSets(o runtime.Object) runtime.Object {
	j, ok := o.(*batch.Job)
	if !ok || j == nil || j.Status.UncountedTerminatedPods == nil {
		return o
	}
	j = j.DeepCopy()
	slices.Sort(j.Status.UncountedTerminatedPods.Succeeded)
	slices.Sort(j.Status.UncountedTerminatedPods.Failed)
	return j
}

// endpointsAsSet returns a copy of an EndpointSlice with its endpoints
// sorted by their JSON, nil for nil.
func endpointsAsSet(o runtime.Object) runtime.Object {
	s, ok := o.(*discovery.EndpointSlice)
	if !ok || s == nil {
		return o
	}
	s = s.DeepCopy()
	key := func(e discovery.Endpoint) string {
		b, _ := json.Marshal(e)
		return string(b)
	}
	sort.SliceStable(s.Endpoints, func(i, j int) bool { return key(s.Endpoints[i]) < key(s.Endpoints[j]) })
	return s
}

// pairNames renames the objects upstream named from generateName after the
// engine's, pairing creates of the same kind and generateName: first
// those for the same node (a DaemonSet's pods, pinned to their nodes by
// node affinity), then the rest in order. It returns the mapping.
func pairNames(ours, theirs []change, generateName func(change) string) map[string]string {
	byPrefix := map[string][]string{}
	for _, c := range ours {
		if c.verb == "create" {
			if g := generateName(c); g != "" {
				key := c.kind + "/" + g + "@" + targetNode(c)
				byPrefix[key] = append(byPrefix[key], c.name)
			}
		}
	}
	names := map[string]string{}
	var unpaired []change
	for _, c := range theirs {
		if c.verb != "create" || !c.generated {
			continue
		}
		g := generateName(c)
		if g == "" {
			continue
		}
		key := c.kind + "/" + g + "@" + targetNode(c)
		if q := byPrefix[key]; len(q) > 0 {
			names[c.name] = q[0]
			byPrefix[key] = q[1:]
			continue
		}
		unpaired = append(unpaired, c)
	}
	// The rest, in order, whatever their nodes (a different choice of
	// node then shows as a difference of the pod's node affinity).
	rest := map[string][]string{}
	for _, c := range ours {
		if c.verb == "create" {
			if g := generateName(c); g != "" {
				key := c.kind + "/" + g + "@" + targetNode(c)
				if slices.Contains(byPrefix[key], c.name) {
					rest[c.kind+"/"+g] = append(rest[c.kind+"/"+g], c.name)
				}
			}
		}
	}
	for _, c := range unpaired {
		key := c.kind + "/" + generateName(c)
		if q := rest[key]; len(q) > 0 {
			names[c.name] = q[0]
			rest[key] = q[1:]
		}
	}
	return names
}

// nodeAffinityField is the field of a daemon pod that pins it to its node
// (ReplaceDaemonSetPodNodeNameNodeAffinity).
const nodeAffinityField = "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0].values[0]"

// targetNode is the node a created pod is bound or pinned to, as JSON,
// "" for none.
func targetNode(c change) string {
	if n := c.fields["spec.nodeName"]; n != "" {
		return n
	}
	if c.fields["spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0].key"] == `"metadata.name"` {
		return c.fields[nodeAffinityField]
	}
	return ""
}

// pairSlices renames the EndpointSlices upstream created from
// generateName after the engine's: each generated suffix is random, and a
// sync that creates several slices (more than 100 endpoints, or several
// port mappings) creates them in an order upstream draws from maps. Each
// upstream create is paired with the engine create of the same
// generateName whose pods and ports it shares most, ties in order.
func pairSlices(ours, theirs []change) map[string]string {
	type cand struct {
		c    change
		sig  map[string]bool
		used bool
	}
	signature := func(c change) map[string]bool {
		sig := map[string]bool{}
		for p, v := range c.fields {
			if strings.HasPrefix(p, "endpoints[") && strings.HasSuffix(p, "].targetRef.name") {
				sig["pod "+v] = true
			}
			if strings.HasPrefix(p, "ports[") {
				sig["port "+p[strings.Index(p, "]")+1:]+"="+v] = true
			}
		}
		return sig
	}
	created := func(c change) bool {
		return c.verb == "create" && c.kind == "EndpointSlice" && c.fields["metadata.generateName"] != ""
	}
	var cands []*cand
	for _, c := range ours {
		if created(c) {
			cands = append(cands, &cand{c: c, sig: signature(c)})
		}
	}
	names := map[string]string{}
	for _, t := range theirs {
		if !created(t) {
			continue
		}
		sig := signature(t)
		var best *cand
		bestScore := -1
		for _, o := range cands {
			if o.used || o.c.fields["metadata.generateName"] != t.fields["metadata.generateName"] {
				continue
			}
			score := 0
			for k := range sig {
				if o.sig[k] {
					score++
				}
			}
			if score > bestScore {
				best, bestScore = o, score
			}
		}
		if best != nil {
			best.used = true
			names[t.name] = best.c.name
		}
	}
	return names
}

// rename applies a name mapping to a list of changes: their objects'
// names and every field value.
func rename(names map[string]string, cs []change) {
	for i := range cs {
		cs[i].name = renameText(names, cs[i].name)
		for p, v := range cs[i].fields {
			cs[i].fields[p] = renameText(names, v)
		}
		for p, v := range cs[i].setFields {
			cs[i].setFields[p] = renameText(names, v)
		}
		for j, e := range cs[i].endpoints {
			cs[i].endpoints[j] = renameText(names, e)
		}
		cs[i].slice = renameText(names, cs[i].slice)
	}
}

func renameText(names map[string]string, s string) string {
	for from, to := range names {
		s = strings.ReplaceAll(s, from, to)
	}
	return s
}

// diffLists compares two multisets of strings and returns the lines only
// in ours ("-") and only in upstream's ("+").
func diffLists(ours, theirs []string) []string {
	count := map[string]int{}
	for _, s := range ours {
		count[s]++
	}
	for _, s := range theirs {
		count[s]--
	}
	var out []string
	keys := make([]string, 0, len(count))
	for k := range count {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		for n := count[k]; n > 0; n-- {
			out = append(out, "- engine:   "+k)
		}
		for n := count[k]; n < 0; n++ {
			out = append(out, "+ upstream: "+k)
		}
	}
	return out
}

package conformance

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
)

// change is one write in a comparable form: the operation, the object and
// the value of every field it changed, rendered as text.
type change struct {
	verb   string // create, update, delete
	kind   string
	name   string
	fields map[string]string // field path → new value (JSON)
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
	c := change{verb: verb, kind: kind, name: name, fields: map[string]string{}}
	if verb == "delete" {
		return c, nil
	}
	b, err := flatten(clk.toVirtual(before, upstream))
	if err != nil {
		return c, err
	}
	a, err := flatten(clk.toVirtual(after, upstream))
	if err != nil {
		return c, err
	}
	for p, v := range a {
		if ignoredField(p) || b[p] == v {
			continue
		}
		c.fields[p] = v
	}
	for p := range b {
		if _, ok := a[p]; !ok && !ignoredField(p) {
			c.fields[p] = "<removed>"
		}
	}
	return c, nil
}

// pairNames renames the objects upstream named from generateName after the
// engine's, pairing creates of the same kind and generateName in order,
// and returns the mapping.
func pairNames(ours, theirs []change, generateName func(change) string) map[string]string {
	byPrefix := map[string][]string{}
	for _, c := range ours {
		if c.verb == "create" {
			if g := generateName(c); g != "" {
				byPrefix[c.kind+"/"+g] = append(byPrefix[c.kind+"/"+g], c.name)
			}
		}
	}
	names := map[string]string{}
	for _, c := range theirs {
		if c.verb != "create" {
			continue
		}
		g := generateName(c)
		if g == "" {
			continue
		}
		if q := byPrefix[c.kind+"/"+g]; len(q) > 0 {
			names[c.name] = q[0]
			byPrefix[c.kind+"/"+g] = q[1:]
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

package model

import (
	"sort"
	"strings"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/kubectl"
	"github.com/stateflow/stateflow/engine/trace"
)

// Line is one line of the inspector's YAML.
type Line struct {
	Text    string
	Changed bool // the current tick changed this field
}

// Section is a top-level part of an object: metadata, spec, status.
type Section struct {
	Name  string
	Lines []Line
}

// Inspection is the selected object at the current tick.
type Inspection struct {
	Key      api.Key
	Exists   bool
	Sections []Section
	// Changes lists the fields the current tick changed on this object.
	Changes []trace.Change
	// Op is what the current tick did to the object ("" if nothing).
	Op string
}

// Select chooses the object the inspector shows.
func (m *Model) Select(k api.Key) { m.Selected = k }

// Inspect returns the selected object's YAML, split into sections, with
// the fields the current tick changed marked.
func (m *Model) Inspect() (in Inspection) {
	defer m.guard("inspecting")
	in.Key = m.Selected
	if m.eng == nil || m.Selected.Kind == "" {
		return in
	}
	o, ok := m.eng.Store().Get(m.Selected)
	if !ok {
		return in
	}
	in.Exists = true
	changed := map[string]bool{}
	if t := m.Current(); t != nil {
		for i := range t.Effects {
			if e := &t.Effects[i]; e.Object == m.Selected {
				in.Op = string(e.Op)
				for _, c := range e.Changes() {
					in.Changes = append(in.Changes, c)
					changed[c.Path] = true
				}
			}
		}
	}
	for _, raw := range m.sections(o) {
		sec := Section{Name: raw.name}
		for _, l := range raw.lines {
			sec.Lines = append(sec.Lines, Line{Text: l.Text, Changed: isChanged(l.Path, changed)})
		}
		in.Sections = append(in.Sections, sec)
	}
	return in
}

// rawSection is a section's YAML with the path of every line, before the
// current tick's changes are marked.
type rawSection struct {
	name  string
	lines []kubectl.YAMLLine
}

// inspected remembers the YAML of the last object inspected. Objects are
// immutable and a resourceVersion names one version within a run, so a
// step that did not write the selected object reuses it.
type inspected struct {
	eng      *engine.Engine
	key      api.Key
	rv       string
	sections []rawSection
}

// sections renders o as kubectl -o yaml, split into its top-level fields
// (apiVersion and kind together as "object"), from the cache when it can.
func (m *Model) sections(o api.Object) []rawSection {
	key, rv := api.KeyOf(o), o.Meta().ResourceVersion
	if c := m.inspected; c.eng == m.eng && c.key == key && c.rv == rv && rv != "" {
		return c.sections
	}
	obj := kubectl.ToMap(o)
	order := []string{"apiVersion", "kind", "metadata", "spec", "status"}
	var rest []string
	for k := range obj {
		if !contains(order, k) {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	head := rawSection{name: "object"}
	out := []rawSection{}
	for _, k := range append(order, rest...) {
		v, ok := obj[k]
		if !ok {
			continue
		}
		lines := kubectl.YAMLLines(map[string]any{k: v})
		if k == "apiVersion" || k == "kind" {
			head.lines = append(head.lines, lines...)
			continue
		}
		out = append(out, rawSection{name: k, lines: lines})
	}
	out = append([]rawSection{head}, out...)
	m.inspected = inspected{eng: m.eng, key: key, rv: rv, sections: out}
	return out
}

// isChanged: a line is changed when its path is a changed field or lies
// inside one (a field that appeared or was replaced as a whole).
func isChanged(path string, changed map[string]bool) bool {
	if path == "" {
		return false
	}
	for c := range changed {
		if c == path || strings.HasPrefix(path, c+".") || strings.HasPrefix(path, c+"[") {
			return true
		}
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

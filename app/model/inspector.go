package model

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/order"
	"github.com/stateflow/stateflow/engine/trace"
	"github.com/stateflow/stateflow/kubectl"
)

// Line is one line of the inspector's YAML.
type Line struct {
	Text    string
	Changed bool // the current tick changed this field
	// Lesson says the lesson's step points at this field.
	Lesson bool
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
	// Diff is Changes as the inspector shows them first: path, old → new.
	Diff []ChangeRow
	// LastWrite is the latest earlier tick that wrote the object, when this
	// tick did not (0 when none is kept or it was not looked for).
	LastWrite int
	// Rules is, for a Service, where each node's kube-proxy forwards its
	// first port now: the data plane one hop past the EndpointSlices.
	Rules []RulesRow
	// LessonField is the field of this object the lesson's step points
	// at ("" for none): its lines are marked Lesson, and LessonUnset says
	// the object has no such field yet (a pod not yet bound has no
	// spec.nodeName).
	LessonField string
	LessonUnset bool
	// Stale is what a component's lagging cache believes about the
	// object (the diagram's ◔), "" when none lags.
	Stale string
	// WhyFields are the fields the inspector offers to ask "why?" about:
	// the object's status fields (and a pod's node, a workload's
	// replicas); a changed field is asked about from its row of Diff.
	WhyFields []string
}

// RulesRow is one node's rules for the inspected Service.
type RulesRow struct {
	Node string
	// Targets are the pods (or addresses) the node forwards to; empty
	// with OK set means it rejects every connection.
	Targets []string
	OK      bool // the node's kube-proxy has rules for the Service
}

// ChangeRow is one changed field, its values as compact JSON.
type ChangeRow struct {
	Path, From, To string
}

// lastWriteScan bounds how far back the inspector looks for the tick
// that last wrote the selected object.
const lastWriteScan = 5000

func changeRows(cs []trace.Change) []ChangeRow {
	out := make([]ChangeRow, 0, len(cs))
	for _, c := range cs {
		out = append(out, ChangeRow{Path: c.Path, From: compact(c.From), To: compact(c.To)})
	}
	return out
}

// compact renders a field's value in one line: absent as "(none)".
func compact(v any) string {
	if v == nil {
		return "(none)"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// lastWrite is the latest kept tick before the current one that wrote k.
func (m *Model) lastWrite(k api.Key) int {
	tr := m.eng.Trace()
	for i, n := len(tr)-2, 0; i >= 0 && n < lastWriteScan; i, n = i-1, n+1 {
		for _, e := range tr[i].Effects {
			if e.Object == k {
				return tr[i].Seq
			}
		}
	}
	return 0
}

// MaxPickerPods is how many pods the inspector's object menu lists: all of
// them up to this many, else the pods of the ReplicaSet in focus.
const MaxPickerPods = 300

// Picker is the inspector's object menu.
type Picker struct {
	Keys []api.Key
	// Hidden counts the pods not listed; Focus is the ReplicaSet whose
	// pods are listed instead of all of them ("" when all are).
	Hidden int
	Focus  string
}

// Pickable lists the objects the inspector offers: every workload
// (Deployment, ReplicaSet, DaemonSet, StatefulSet, CronJob, Job), its
// HorizontalPodAutoscalers and PodDisruptionBudgets, Service,
// EndpointSlice, claim and Node, and the pods — all of them on a small cluster, on
// a large one the pods of the selected ReplicaSet (or of the selected
// pod's), so that the menu stays usable and cheap to render.
func (m *Model) Pickable() (pk Picker) {
	defer m.guard("listing objects")
	if m.eng == nil {
		return pk
	}
	st := m.eng.Store()
	for _, kind := range []string{api.KindDeployment, api.KindReplicaSet, api.KindDaemonSet, api.KindStatefulSet, api.KindCronJob, api.KindJob, api.KindHorizontalPodAutoscaler, api.KindPodDisruptionBudget, api.KindService, api.KindEndpointSlice} {
		for _, o := range st.List(kind, "") {
			pk.Keys = append(pk.Keys, api.KeyOf(o))
		}
	}
	pk.Keys = append(pk.Keys, m.pickablePods(&pk)...)
	for _, o := range st.List(api.KindPersistentVolumeClaim, "") {
		pk.Keys = append(pk.Keys, api.KeyOf(o))
	}
	for _, o := range st.List(api.KindNode, "") {
		pk.Keys = append(pk.Keys, api.KeyOf(o))
	}
	return pk
}

// pickablePods is the pod part of Pickable.
func (m *Model) pickablePods(pk *Picker) []api.Key {
	st := m.eng.Store()
	total := st.Count(api.KindPod)
	if total <= MaxPickerPods {
		var keys []api.Key
		for _, o := range st.List(api.KindPod, "") {
			keys = append(keys, api.KeyOf(o))
		}
		return keys
	}
	focus := ""
	if o, ok := st.Get(m.Selected); ok {
		if podOwner := viewOf(o.GetKind()).podOwner; podOwner != nil {
			if uid, name := podOwner(o); uid != "" {
				focus, pk.Focus = uid, name
			}
		}
	}
	var keys []api.Key
	st.Each(api.KindPod, func(o api.Object) bool {
		k := api.KeyOf(o)
		if ref := o.Meta().ControllerRef(); k == m.Selected || focus != "" && ref != nil && ref.UID == focus {
			keys = append(keys, k)
		}
		return true
	})
	order.SortFunc(keys, func(a, b api.Key) int {
		return cmp.Or(strings.Compare(a.Namespace, b.Namespace), strings.Compare(a.Name, b.Name))
	})
	if len(keys) > MaxPickerPods {
		keys = keys[:MaxPickerPods]
		if i := slices.Index(keys, m.Selected); i < 0 && m.Selected.Kind == api.KindPod {
			keys[len(keys)-1] = m.Selected
		}
	}
	pk.Hidden = total - len(keys)
	return keys
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
	in.Exists = ok
	changed := map[string]bool{}
	if t := m.Current(); t != nil {
		for i := range t.Effects {
			if e := &t.Effects[i]; e.Object == m.Selected {
				in.Op = e.Op.String()
				for _, c := range e.Changes() {
					in.Changes = append(in.Changes, c)
					changed[c.Path] = true
				}
			}
		}
	}
	in.Diff = changeRows(in.Changes)
	if in.Op == "" {
		in.LastWrite = m.lastWrite(m.Selected)
	}
	if !ok {
		return in
	}
	if svc, isSvc := o.(*api.Service); isSvc && proxied(svc) {
		in.Rules = m.rulesRows(api.KeyOf(svc))
	}
	in.Stale = m.staleNote(o)
	in.WhyFields = whyFields(o)
	in.LessonField = m.lessonField(m.Selected)
	lesson := map[string]bool{in.LessonField: in.LessonField != ""}
	in.LessonUnset = in.LessonField != ""
	for _, raw := range m.sections(o) {
		sec := Section{Name: raw.name}
		for _, l := range raw.lines {
			ln := Line{Text: l.Text, Changed: isChanged(l.Path, changed), Lesson: isChanged(l.Path, lesson)}
			in.LessonUnset = in.LessonUnset && !ln.Lesson
			sec.Lines = append(sec.Lines, ln)
		}
		in.Sections = append(in.Sections, sec)
	}
	return in
}

// lessonField is the field the lesson's step names, when it points at k
// ("" otherwise).
func (m *Model) lessonField(k api.Key) string {
	if m.lesson == nil || m.lesson.step == nil || m.lesson.step.Field == "" || !slices.Contains(m.lesson.step.Objects, k) {
		return ""
	}
	return m.lesson.step.Field
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

// rulesRows reads each joined node's kube-proxy rules for svc, naming
// pods rather than addresses.
func (m *Model) rulesRows(svc api.Key) []RulesRow {
	var out []RulesRow
	for _, r := range m.eng.ProxyRules(svc) {
		row := RulesRow{Node: r.Node, OK: r.OK}
		for i, ep := range r.Endpoints {
			if p := r.Pods[i]; p != "" {
				row.Targets = append(row.Targets, p[strings.IndexByte(p, '/')+1:]+" ("+ep+")")
			} else {
				row.Targets = append(row.Targets, ep)
			}
		}
		out = append(out, row)
	}
	return out
}

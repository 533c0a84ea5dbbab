package model

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/fieldpath"
	"github.com/stateflow/stateflow/provenance"
)

// WhyAnswer is the inspector's answer to "why does this field have this
// value?" (package provenance), kept as it was asked: a step's link seeks
// to its tick, and the answer stays until another field is asked about or
// it is closed.
type WhyAnswer struct {
	Key   api.Key
	Field string
	At    int
	// Tick says the question is the caption's, "why did tick At do
	// this?": Field is empty and Key is the object the tick wrote first.
	Tick bool
	// Chain is the answer; nil when Err says why there is none.
	Chain *provenance.Chain
	Err   string
}

// AskWhy asks why the selected object's field has its value at the
// current tick.
func (m *Model) AskWhy(field string) {
	defer m.guard("asking why " + field)
	k, at := m.Selected, m.eng.Tick()
	a := &WhyAnswer{Key: k, Field: field, At: at}
	m.why = a
	if k.Kind == "" || at == 0 {
		a.Err = "Choose an object and step the simulation first: nothing has happened yet."
		return
	}
	c, err := provenance.Why(m.eng, provenance.Query{Object: k, Field: field, At: at})
	if errors.Is(err, provenance.ErrNoWrites) {
		if o, ok := m.eng.Store().Get(k); ok {
			c, err = provenance.Before(o, field, at, m.eng.FirstTick()), nil
		} else {
			err = fmt.Errorf("%s does not exist at tick %d", k.Short(), at)
		}
	}
	if err != nil {
		a.Err = err.Error()
		return
	}
	a.Chain = c
}

// AskWhyTick asks why the current tick did what its caption says: the
// chain behind its first write. It selects the object written, so the
// inspector shows it with the answer.
func (m *Model) AskWhyTick() {
	defer m.guard("asking why of the tick")
	at := m.eng.Tick()
	a := &WhyAnswer{Key: m.Selected, At: at, Tick: true}
	m.why = a
	c, err := provenance.WhyTick(m.eng, at)
	if err != nil {
		a.Err = err.Error()
		return
	}
	a.Key, _ = api.ParseKey(c.Object)
	a.Chain = c
	m.Select(a.Key)
}

// Why is the answer about the selected object, nil when none was asked.
func (m *Model) Why() *WhyAnswer {
	if m.why == nil || m.why.Key != m.Selected {
		return nil
	}
	return m.why
}

// CloseWhy forgets the answer.
func (m *Model) CloseWhy() { m.why = nil }

// WhyMarks numbers the objects of the open answer's chain for the
// diagram: each object the step it first appears in (1 the newest).
func (m *Model) WhyMarks() map[api.Key]int {
	a := m.Why()
	if a == nil || a.Chain == nil {
		return nil
	}
	out := map[api.Key]int{}
	for i, s := range a.Chain.Steps {
		for _, o := range s.Objects {
			if k, ok := api.ParseKey(o); ok {
				if _, seen := out[k]; !seen {
					out[k] = i + 1
				}
			}
		}
	}
	return out
}

// maxWhyFields bounds the fields the inspector offers to ask about.
const maxWhyFields = 200

// whyFields are the leaf fields of o's status (and a pod's node), in
// the notation the trace's changes use, for the inspector's "Why?" menu.
func whyFields(o api.Object) []string {
	b, err := json.Marshal(o)
	if err != nil {
		return nil
	}
	var doc map[string]any
	if json.Unmarshal(b, &doc) != nil {
		return nil
	}
	var out []string
	leaves("status", doc["status"], &out)
	if spec, ok := doc["spec"].(map[string]any); ok {
		for _, f := range []string{"replicas", "nodeName"} {
			if _, ok := spec[f]; ok {
				out = append(out, "spec."+f)
			}
		}
	}
	if len(out) > maxWhyFields {
		out = out[:maxWhyFields]
	}
	return out
}

// leaves lists the leaf paths under path: a list's items by their type
// or name where they have one, else by index.
func leaves(path string, v any, out *[]string) {
	switch t := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			leaves(fieldpath.Child(path, k), t[k], out)
		}
	case []any:
		for i, item := range t {
			key := strconv.Itoa(i)
			if m, ok := item.(map[string]any); ok {
				for _, f := range []string{"type", "name"} {
					if s, ok := m[f].(string); ok {
						key = s
						break
					}
				}
			}
			leaves(fieldpath.Item(path, key), item, out)
		}
	case nil:
	default:
		*out = append(*out, path)
	}
}

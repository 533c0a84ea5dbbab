// Package examples holds Stateflow's example scenarios, embedded so the
// playground and the tests read the same files.
package examples

import (
	"embed"
	"sort"
	"strings"
)

//go:embed *.yaml
var files embed.FS

// Example is one scenario file.
type Example struct {
	// Name is the file name without .yaml, such as "rolling-update".
	Name string
	// Source is the file's text.
	Source string
}

// All returns every example, the default (what a new visitor sees) first,
// then by name.
func All() []Example {
	entries, _ := files.ReadDir(".")
	var out []Example
	for _, e := range entries {
		b, err := files.ReadFile(e.Name())
		if err != nil {
			continue
		}
		out = append(out, Example{Name: strings.TrimSuffix(e.Name(), ".yaml"), Source: string(b)})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if (out[i].Name == Default) != (out[j].Name == Default) {
			return out[i].Name == Default
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// Default is the example a new visitor sees first: one Deployment rolling
// out from nothing, the whole flow down and back up in about 10 s.
const Default = "codartium-api"

// Get returns the example called name.
func Get(name string) (Example, bool) {
	for _, e := range All() {
		if e.Name == name {
			return e, true
		}
	}
	return Example{}, false
}

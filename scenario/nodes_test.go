package scenario

import (
	"slices"
	"testing"
)

// Declared Node documents are the cluster unless the Scenario asks for
// generated nodes with a nodes block, wherever the Scenario document
// stands in the file (DESIGN: "none when the file declares kind: Node
// documents and has no nodes: block").
func TestDeclaredNodesWhateverTheOrder(t *testing.T) {
	const (
		node     = "apiVersion: v1\nkind: Node\nmetadata: {name: edge}\n"
		pod      = "apiVersion: v1\nkind: Pod\nmetadata: {name: one}\nspec: {containers: [{name: c, image: nginx:1.25}]}\n"
		plain    = "apiVersion: stateflow/v1alpha1\nkind: Scenario\nspec: {seed: 1}\n"
		twoNodes = "apiVersion: stateflow/v1alpha1\nkind: Scenario\nspec: {seed: 1, nodes: {count: 2}}\n"
	)
	for _, tc := range []struct {
		name string
		docs []string
		want []string
	}{
		{"scenario first", []string{plain, node, pod}, []string{"edge"}},
		{"scenario last", []string{node, pod, plain}, []string{"edge"}},
		{"no scenario", []string{node, pod}, []string{"edge"}},
		{"no node documents", []string{plain, pod}, []string{"node-1", "node-2", "node-3"}},
		{"no scenario, no nodes", []string{pod}, []string{"node-1", "node-2", "node-3"}},
		{"a nodes block first", []string{twoNodes, node, pod}, []string{"node-1", "node-2", "edge"}},
		{"a nodes block last", []string{node, pod, twoNodes}, []string{"node-1", "node-2", "edge"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := ""
			for i, d := range tc.docs {
				if i > 0 {
					src += "---\n"
				}
				src += d
			}
			sc, err := Parse([]byte(src))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, n := range sc.Config.Nodes {
				got = append(got, n.Name)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("nodes %q, want %q", got, tc.want)
			}
		})
	}
}

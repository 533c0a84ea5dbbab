package heapwalk

import (
	"strings"
	"testing"
)

type node struct {
	name string
	next *node
	kids []*node
	tags map[string]int
}

// Each object is counted once, however many roots or pointers reach it,
// and a second root is charged only for what the first did not reach.
func TestWalkCountsEachObjectOnce(t *testing.T) {
	shared := &node{name: strings.Repeat("s", 100)}
	a := &node{name: "a", next: shared, kids: []*node{shared, shared}}
	b := &node{name: "b", next: shared}
	w := New()
	first := w.Walk(a)
	second := w.Walk(b)
	nodeSize := int64(8*2 + 8 + 24 + 8) // name, next, kids, tags
	if want := 2*nodeSize + 101 + 2*8; first != want {
		t.Errorf("a reaches %d bytes, want %d (a, shared, their names, the kids array)", first, want)
	}
	if want := nodeSize + 1; second != want {
		t.Errorf("b adds %d bytes, want %d (b and its name only)", second, want)
	}
	if w.ByType["heapwalk.node"] != 3*nodeSize {
		t.Errorf("nodes %d, want %d", w.ByType["heapwalk.node"], 3*nodeSize)
	}
}

// A map is charged for its slots and its keys' and values' contents.
func TestWalkCountsMaps(t *testing.T) {
	w := New()
	n := w.Walk(&node{tags: map[string]int{"xx": 1, "yyyy": 2}})
	if w.ByType["map[string]int"] == 0 || w.ByType["string"] != 6 || n <= w.ByType["map[string]int"] {
		t.Fatalf("map %d, strings %d, total %d", w.ByType["map[string]int"], w.ByType["string"], n)
	}
}

package order

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

type item struct {
	key  int
	name string
	seq  int // the position before sorting
}

// SortStableFunc agrees with slices.SortStableFunc, the oracle, on
// random slices with many equal keys (so stability shows), and Sorted
// with collecting then sorting.
func TestAgreesWithSlices(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	byKey := func(a, b item) int { return cmp.Compare(a.key, b.key) }
	for n := range 300 {
		s := make([]item, n)
		for i := range s {
			s[i] = item{key: r.IntN(max(n/4, 1)), name: string(rune('a' + r.IntN(26))), seq: i}
		}
		want := slices.Clone(s)
		slices.SortStableFunc(want, byKey)
		got := slices.Clone(s)
		SortStableFunc(got, byKey)
		if !slices.Equal(got, want) {
			t.Fatalf("n=%d: SortStableFunc differs from slices.SortStableFunc", n)
		}
		got = slices.Clone(s)
		SortFunc(got, byKey)
		if !slices.Equal(got, want) {
			t.Fatalf("n=%d: SortFunc is not stable", n)
		}
		if got := Sorted(slices.Values(s), byKey); !slices.Equal(got, want) {
			t.Fatalf("n=%d: Sorted differs", n)
		}
	}
}

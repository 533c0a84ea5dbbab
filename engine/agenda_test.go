package engine

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

// The agenda hands items out in (at, seq) order whatever the mix of
// pushes, pops, peeks and clones, against a sorted slice as the oracle:
// the hole a pop leaves, filled by the next push or by the next look at
// the agenda, changes nothing in that order, and a clone (a checkpoint's)
// goes on exactly as the agenda it was copied from.
func TestAgendaOrderAgainstASortedSlice(t *testing.T) {
	for seed := range uint64(50) {
		rng := rand.New(rand.NewPCG(seed, 7))
		var a agenda
		var want []item // pending, sorted by (at, seq)
		var seq uint64
		var clones []struct {
			a    agenda
			want []item
		}
		order := func(x, y item) int {
			if c := cmp.Compare(x.at, y.at); c != 0 {
				return c
			}
			return cmp.Compare(x.seq, y.seq)
		}
		for step := range 2000 {
			switch op := rng.IntN(10); {
			case op < 5 || len(want) == 0:
				seq++
				it := item{at: int64(rng.IntN(50)), seq: seq, comp: step}
				a.push(it)
				want = append(want, it)
				slices.SortFunc(want, order)
			case op < 8:
				got := a.pop()
				if got.seq != want[0].seq {
					t.Fatalf("seed %d step %d: pop gave seq %d (at %d), want seq %d (at %d)", seed, step, got.seq, got.at, want[0].seq, want[0].at)
				}
				want = want[1:]
			case op < 9:
				if a.Len() != len(want) {
					t.Fatalf("seed %d step %d: Len %d, want %d", seed, step, a.Len(), len(want))
				}
				if a.NextAt() != want[0].at || a.peek().seq != want[0].seq {
					t.Fatalf("seed %d step %d: the next item is seq %d at %d, want seq %d at %d", seed, step, a.peek().seq, a.NextAt(), want[0].seq, want[0].at)
				}
			default:
				clones = append(clones, struct {
					a    agenda
					want []item
				}{a.clone(), slices.Clone(want)})
			}
		}
		for i, c := range clones {
			for len(c.want) > 0 {
				if got := c.a.pop(); got.seq != c.want[0].seq {
					t.Fatalf("seed %d clone %d: pop gave seq %d, want %d", seed, i, got.seq, c.want[0].seq)
				}
				c.want = c.want[1:]
			}
			if c.a.Len() != 0 {
				t.Fatalf("seed %d clone %d: %d items left over", seed, i, c.a.Len())
			}
		}
	}
}

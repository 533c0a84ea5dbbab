package engine

import "testing"

// An inbox hands deliveries out in the order they came, and one that is
// never empty (a cluster that never settles) keeps its slice bounded by
// what is pending rather than by all it ever held.
func TestInboxIsAFIFOThatStaysBounded(t *testing.T) {
	var b inbox
	next, want := uint64(0), uint64(0)
	for round := range 200 {
		for range 50 + round%7 {
			next++
			b.push(delivery{seq: next})
		}
		for range 50 {
			want++
			if d := b.pop(); d.seq != want {
				t.Fatalf("popped %d, want %d", d.seq, want)
			}
		}
		if pending := len(b.q) - b.head; cap(b.q) > 4*max(pending, keptCapacity) {
			t.Fatalf("round %d: %d pending in a slice of %d", round, pending, cap(b.q))
		}
	}
	for !b.empty() {
		want++
		if d := b.pop(); d.seq != want {
			t.Fatalf("popped %d, want %d", d.seq, want)
		}
	}
	if want != next || cap(b.q) > keptCapacity {
		t.Fatalf("drained at %d of %d with a slice of %d", want, next, cap(b.q))
	}
}

package engine

import (
	"testing"

	"github.com/stateflow/stateflow/engine/apiserver"
)

// An inbox hands deliveries out in the order they came, across the
// wrap of its ring and its growth, and one that is never empty (a
// cluster that never settles) keeps its ring bounded by what is pending
// rather than by all it ever held.
func TestInboxIsAFIFOThatStaysBounded(t *testing.T) {
	var b inbox
	next, want := uint64(0), uint64(0)
	for round := range 200 {
		for range 50 + round%7 {
			next++
			b.push(delivery{seq: next})
		}
		peak := b.n
		for range 50 {
			want++
			if d := b.pop(); d.seq != want {
				t.Fatalf("popped %d, want %d", d.seq, want)
			}
		}
		if len(b.q) > 2*max(peak, 8) {
			t.Fatalf("round %d: at most %d pending in a ring of %d", round, peak, len(b.q))
		}
		if c := b.clone(); c.n != b.n || len(c.q) != b.n || (c.n > 0 && c.at(0).seq != want+1) {
			t.Fatalf("round %d: a clone of %d pending holds %d in %d, first %d", round, b.n, c.n, len(c.q), c.at(0).seq)
		}
	}
	for !b.empty() {
		want++
		if d := b.pop(); d.seq != want {
			t.Fatalf("popped %d, want %d", d.seq, want)
		}
	}
	if want != next || len(b.q) > keptCapacity {
		t.Fatalf("drained at %d of %d with a ring of %d", want, next, len(b.q))
	}
}

// A drained inbox keeps its ring for the next burst (a ReplicaSet's pod
// creations reach every pod watcher in bursts), unless the ring is
// larger than keptCapacity.
func TestInboxKeepsItsRingBetweenBursts(t *testing.T) {
	var b inbox
	burst := func(n int) {
		for i := range n {
			b.push(delivery{seq: uint64(i)})
		}
		for !b.empty() {
			b.pop()
		}
	}
	burst(10_000)
	if allocs := testing.AllocsPerRun(5, func() { burst(10_000) }); allocs != 0 {
		t.Fatalf("a burst of 10,000 after another allocates %.0f times, want 0", allocs)
	}
	burst(2 * keptCapacity)
	if b.q != nil {
		t.Fatalf("a ring of %d is kept after draining, more than keptCapacity (%d)", len(b.q), keptCapacity)
	}
}

// A checkpoint gives each pending event one copy, shared by all its
// deliveries, whether the pending resourceVersions lie close together
// (a slice) or far apart (a map): every delivery of one event gets the
// same copy, deliveries of different events different ones, and each
// copy holds its event as fixed.
func TestPendingCopiesOnePerEvent(t *testing.T) {
	for _, spread := range []int64{1, 100_000} {
		w := &world{inboxes: make([]inbox, 4)}
		var evs []*apiserver.WatchEvent
		for i := range 50 {
			evs = append(evs, &apiserver.WatchEvent{Type: apiserver.Modified, RV: 1000 + int64(i)*spread})
		}
		for i, ev := range evs {
			for c := range 1 + i%4 {
				w.inboxes[c].push(delivery{seq: uint64(i), ev: ev})
			}
		}
		copies := w.pendingCopies()
		if (copies.byRV != nil) != (spread == 1) {
			t.Fatalf("spread %d: slice %v", spread, copies.byRV != nil)
		}
		byEvent := map[*apiserver.WatchEvent]*apiserver.WatchEvent{}
		w.eachPending(func(d *delivery) {
			cp := copies.of(d.ev, func(s *apiserver.WatchEvent) { s.Type = "fixed" })
			if prev, ok := byEvent[d.ev]; ok && prev != cp {
				t.Fatalf("spread %d: two copies of rv %d", spread, d.ev.RV)
			}
			if cp == d.ev || cp.RV != d.ev.RV || cp.Type != "fixed" {
				t.Fatalf("spread %d: copy %+v of %+v", spread, cp, d.ev)
			}
			byEvent[d.ev] = cp
		})
		if len(copies.made) != len(evs) || len(byEvent) != len(evs) {
			t.Fatalf("spread %d: %d copies made for %d events", spread, len(copies.made), len(evs))
		}
	}
}

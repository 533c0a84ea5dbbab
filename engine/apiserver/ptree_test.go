package apiserver

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// kv is a test item: ordered by k, carrying v.
type kv struct{ k, v int }

var kvOps = &ptreeOps[kv]{
	less: func(a, b kv) bool { return a.k < b.k },
	sep:  func(a kv) kv { return kv{k: a.k, v: -1} },
}

// kvAppendOps are kvOps for items that mostly come in ascending order.
var kvAppendOps = &ptreeOps[kv]{less: kvOps.less, sep: kvOps.sep, appends: true}

// writeOps are both ways of splitting a full node, for the tests that
// hold for either.
var writeOps = map[string]*ptreeOps[kv]{"halves": kvOps, "appends": kvAppendOps}

// model is the oracle: a sorted slice, copied on every write.
type model []kv

func (m model) with(x kv) model {
	i, found := slices.BinarySearchFunc(m, x.k, func(e kv, k int) int { return e.k - k })
	out := slices.Clone(m)
	if found {
		out[i] = x
		return out
	}
	return slices.Insert(out, i, x)
}

func (m model) without(k int) (model, bool) {
	i, found := slices.BinarySearchFunc(m, k, func(e kv, k int) int { return e.k - k })
	if !found {
		return m, false
	}
	return slices.Delete(slices.Clone(m), i, i+1), true
}

func collect(t ptree[kv], from bool, pivot int, limit int) []kv {
	var out []kv
	t.Ascend(from, kv{k: pivot}, kvOps, func(x kv) bool {
		out = append(out, x)
		return len(out) < limit
	})
	return out
}

// Random writes and deletes against a sorted slice, keeping every
// version: each version of the tree answers Get, Len and Ascend (from the
// start and from any pivot, stopped early) exactly as its model does,
// after every later write. No separator carries a payload.
func TestPtreeMatchesASortedSlice(t *testing.T) {
	for name, ops := range writeOps {
		t.Run(name, func(t *testing.T) { matchesASortedSlice(t, ops) })
	}
}

func matchesASortedSlice(t *testing.T, ops *ptreeOps[kv]) {
	for seed := range uint64(30) {
		rng := rand.New(rand.NewPCG(seed, 7))
		keys := 1 + rng.IntN(3000)
		trees := []ptree[kv]{{}}
		models := []model{nil}
		for step := range 2500 {
			tr, m := trees[len(trees)-1], models[len(models)-1]
			k := rng.IntN(keys)
			if rng.IntN(3) == 0 {
				var found bool
				tr, found = tr.Without(kv{k: k}, ops)
				var mfound bool
				m, mfound = m.without(k)
				if found != mfound {
					t.Fatalf("seed %d step %d: Without(%d) found %v, want %v", seed, step, k, found, mfound)
				}
			} else {
				x := kv{k, step}
				tr, m = tr.With(x, ops), m.with(x)
			}
			trees, models = append(trees, tr), append(models, m)
		}
		for i, tr := range trees {
			if i%97 != 0 && i != len(trees)-1 {
				continue
			}
			m := models[i]
			if tr.Len() != len(m) {
				t.Fatalf("seed %d version %d: Len %d, want %d", seed, i, tr.Len(), len(m))
			}
			if got := collect(tr, false, 0, len(m)+1); !slices.Equal(got, m) && len(m) > 0 {
				t.Fatalf("seed %d version %d: Ascend gave %v, want %v", seed, i, got, m)
			}
			for range 20 {
				k := rng.IntN(keys+2) - 1
				got, ok := tr.Get(kv{k: k}, kvOps)
				j, want := slices.BinarySearchFunc(m, k, func(e kv, k int) int { return e.k - k })
				if ok != want || ok && got != m[j] {
					t.Fatalf("seed %d version %d: Get(%d) = %v %v", seed, i, k, got, ok)
				}
				limit := 1 + rng.IntN(40)
				wantFrom := m[j:min(len(m), j+limit)]
				if g := collect(tr, true, k, limit); !slices.Equal(g, wantFrom) {
					t.Fatalf("seed %d version %d: Ascend from %d gave %v, want %v", seed, i, k, g, wantFrom)
				}
			}
			checkSeparators(t, tr.root)
		}
	}
}

// A writer that owns its nodes (WithOwned, AddOwned, WithoutOwned) and snapshots
// its tree now and then by taking a new stamp: its live tree always
// matches the model of every write so far, and every snapshot still
// matches the model as of the moment it was taken, after every later
// in-place write. Writes under one stamp between two snapshots change
// nodes in place (fewer nodes are made than by plain writes).
func TestPtreeOwnedWritesKeepSnapshots(t *testing.T) {
	for name, ops := range writeOps {
		t.Run(name, func(t *testing.T) { ownedWritesKeepSnapshots(t, ops) })
	}
}

func ownedWritesKeepSnapshots(t *testing.T, ops *ptreeOps[kv]) {
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 9))
		keys := 1 + rng.IntN(2000)
		var live ptree[kv]
		var m model
		gen := uint32(1)
		type snap struct {
			tr ptree[kv]
			m  model
		}
		var snaps []snap
		for step := range 3000 {
			k := rng.IntN(keys)
			if rng.IntN(3) == 0 {
				var found bool
				live, found = live.WithoutOwned(kv{k: k}, ops, gen)
				var want bool
				m, want = m.without(k)
				if found != want {
					t.Fatalf("seed %d step %d: WithoutOwned(%d) found %v, want %v", seed, step, k, found, want)
				}
			} else if rng.IntN(2) == 0 {
				x := kv{k, step}
				live, m = live.WithOwned(x, ops, gen), m.with(x)
			} else {
				x := kv{k, step}
				_, had := slices.BinarySearchFunc(m, k, func(e kv, k int) int { return e.k - k })
				var added bool
				live, added = live.AddOwned(x, ops, gen)
				if added == had {
					t.Fatalf("seed %d step %d: AddOwned(%d) added %v, the tree had it %v", seed, step, k, added, had)
				}
				if added {
					m = m.with(x)
				}
			}
			if rng.IntN(50) == 0 {
				snaps = append(snaps, snap{live, m})
				gen++ // the snapshot keeps the nodes made so far
			}
			if step%97 == 0 {
				check(t, live, m)
				for _, s := range snaps {
					check(t, s.tr, s.m)
				}
			}
		}
		check(t, live, m)
		for _, s := range snaps {
			check(t, s.tr, s.m)
		}
	}
}

// check fails unless tr holds exactly m, in order, with sound separators.
func check(t *testing.T, tr ptree[kv], m model) {
	t.Helper()
	if tr.Len() != len(m) {
		t.Fatalf("Len %d, want %d", tr.Len(), len(m))
	}
	if got := collect(tr, false, 0, len(m)+1); !slices.Equal(got, m) && (len(got) != 0 || len(m) != 0) {
		t.Fatalf("items %v, want %v", got, m)
	}
	for _, x := range m {
		if y, ok := tr.Get(kv{k: x.k}, kvOps); !ok || y != x {
			t.Fatalf("Get(%d) = %v, %v; want %v", x.k, y, ok, x)
		}
	}
	if tr.root != nil {
		checkSeparators(t, tr.root)
	}
}

// Owned writes between snapshots make far fewer nodes than plain ones.
func TestPtreeOwnedWritesChangeInPlace(t *testing.T) {
	var plain, owned ptree[kv]
	for i := range 20000 {
		x := kv{i * 7919 % 20011, i}
		plain, owned = plain.With(x, kvOps), owned.WithOwned(x, kvOps, 1)
	}
	allocs := func(f func()) float64 { return testing.AllocsPerRun(100, f) }
	i := 0
	p := allocs(func() { i++; plain = plain.With(kv{i % 20011, 0}, kvOps) })
	o := allocs(func() { i++; owned = owned.WithOwned(kv{i % 20011, 0}, kvOps, 1) })
	if o >= 1 || p < 3 {
		t.Fatalf("allocations per write: plain %.1f, owned %.1f; want owned writes in place", p, o)
	}
}

// checkSeparators fails if a separator carries a payload or orders its
// children wrongly.
func checkSeparators(t *testing.T, nd *pnode[kv]) (lo, hi int, ok bool) {
	t.Helper()
	if nd == nil {
		return 0, 0, false
	}
	if nd.leaf() {
		if nd.n == 0 {
			t.Fatal("an empty leaf")
		}
		return nd.items[0].k, nd.items[nd.n-1].k, true
	}
	first := true
	for c := 0; c <= int(nd.n); c++ {
		l, h, ok := checkSeparators(t, nd.kids[c])
		if !ok {
			t.Fatal("an internal node with a nil child")
		}
		if c > 0 && l < nd.items[c-1].k || c < int(nd.n) && h >= nd.items[c].k {
			t.Fatalf("child %d spans %d..%d across separators %v", c, l, h, nd.items[:nd.n])
		}
		if first {
			lo, first = l, false
		}
		hi = h
	}
	for _, s := range nd.items[:nd.n] {
		if s.v != -1 {
			t.Fatalf("separator %v keeps a payload", s)
		}
	}
	return lo, hi, true
}

// BenchmarkPtreeWith writes into a 100,000-item tree whose every version
// is kept for a while, as the store's Versions are.
func BenchmarkPtreeWith(b *testing.B) {
	var tr ptree[kv]
	for i := range 100000 {
		tr = tr.With(kv{i * 7919 % 100003, i}, kvOps)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	b.ReportAllocs()
	for b.Loop() {
		tr = tr.With(kv{rng.IntN(100003), 0}, kvOps)
	}
}

// BenchmarkPtreeGet looks items up in a 100,000-item tree.
func BenchmarkPtreeGet(b *testing.B) {
	var tr ptree[kv]
	for i := range 100000 {
		tr = tr.With(kv{i * 7919 % 100003, i}, kvOps)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	for b.Loop() {
		tr.Get(kv{k: rng.IntN(100003)}, kvOps)
	}
}

// getNear finds exactly what Get finds, for keys in order and at random,
// carrying its leaf from one lookup to the next.
func TestPtreeGetNearMatchesGet(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	var tr ptree[kv]
	for i := range 5000 {
		tr = tr.With(kv{rng.IntN(20000), i}, kvOps)
	}
	var near *pnode[kv]
	for k := -5; k < 20005; k++ {
		if rng.IntN(4) == 0 {
			k += rng.IntN(200) - 100 // jump about
		}
		want, wok := tr.Get(kv{k: k}, kvOps)
		got, ok := tr.getNear(kv{k: k}, kvOps, &near)
		if ok != wok || got != want {
			t.Fatalf("getNear(%d) = %v, %v; Get says %v, %v", k, got, ok, want, wok)
		}
	}
	var empty ptree[kv]
	near = nil
	if _, ok := empty.getNear(kv{k: 1}, kvOps, &near); ok {
		t.Fatal("an empty tree found something")
	}
}

// An ascending run of writes into a tree whose items mostly come in
// order (ptreeOps.appends) fills its leaves: 10,000 keys take 1,250
// leaves of 8, where splitting in halves leaves them half full, and the
// property tests above hold for both. After a snapshot, the next 200
// ascending writes copy only the right edge: the snapshot shares every
// other node with the live tree.
func TestPtreeAppendsFillNodesAndShareTheRest(t *testing.T) {
	build := func(ops *ptreeOps[kv]) ptree[kv] {
		var tr ptree[kv]
		for i := range 10000 {
			tr = tr.WithOwned(kv{i, i}, ops, 1)
		}
		return tr
	}
	if got, halves := leaves(build(kvAppendOps).root), leaves(build(kvOps).root); got != 10000/pmax || halves < 2*got-2 {
		t.Errorf("10,000 ascending keys take %d leaves (%d split in halves), want %d", got, halves, 10000/pmax)
	}
	snap := build(kvAppendOps)
	live := snap
	for i := range 200 {
		live = live.WithOwned(kv{10000 + i, i}, kvAppendOps, 2)
	}
	check(t, snap, ascending(0, 10000))
	check(t, live, ascending(0, 10200))
	old := map[*pnode[kv]]bool{}
	walk(snap.root, func(nd *pnode[kv]) { old[nd] = true })
	made := 0
	walk(live.root, func(nd *pnode[kv]) {
		if !old[nd] {
			made++
		}
	})
	if want := 200/pmax + 2*depth(live.root); made > want {
		t.Errorf("200 ascending writes after a snapshot made %d nodes, want at most %d (the new leaves and the right edge)", made, want)
	}
}

// ascending is the model of keys from..to-1, each carrying its own key
// less from (as the test writes them).
func ascending(from, to int) model {
	var m model
	for i := from; i < to; i++ {
		m = append(m, kv{i, i % 10000})
	}
	return m
}

// walk calls f with every node of the tree under nd, parents first.
func walk[T any](nd *pnode[T], f func(*pnode[T])) {
	if nd == nil {
		return
	}
	f(nd)
	if !nd.leaf() {
		for i := 0; i <= int(nd.n); i++ {
			walk(nd.kids[i], f)
		}
	}
}

func leaves(nd *pnode[kv]) int {
	n := 0
	walk(nd, func(nd *pnode[kv]) {
		if nd.leaf() {
			n++
		}
	})
	return n
}

func depth(nd *pnode[kv]) int {
	d := 1
	for !nd.leaf() {
		nd, d = nd.kids[0], d+1
	}
	return d
}

package apiserver

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine/api"
)

// recorderEvent is the Event a recorder writes whole through Create, the
// path every Event took before records: the oracle of the records.
func recorderEvent(name, ns string, ref api.ObjectReference, src api.EventSource, typ, reason, msg string, now int64) *api.Event {
	return &api.Event{ObjectMeta: api.ObjectMeta{Name: name, Namespace: ns}, InvolvedObject: ref, Reason: reason, Message: msg,
		Source: src, Type: typ, Count: 1, FirstTimestamp: api.At(now), LastTimestamp: api.At(now),
		ReportingComponent: src.Component, ReportingInstance: src.Host}
}

// Two stores from one seed take the same random writes: one stores each
// Event whole through Create and counts it again through Update (as the
// recorder did), the other through CreateEvent and CountEvent. Every
// Event reads back equal from both (UID, resourceVersion, timestamps,
// count and message included), and so do the stores' resourceVersions
// and the name and UID draws interleaved with them.
func TestEventRecordsReadAsTheEventsCreateStores(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	whole, recs := New(9), New(9)
	srcs := []api.EventSource{{Component: "default-scheduler"}, {Component: "kubelet", Host: "node-1"}}
	var names []string
	for step := range 600 {
		now := int64(step) * 250
		whole.SetNow(now)
		recs.SetNow(now)
		if step%7 == 0 { // a write of another kind draws a name between Events
			if a, b := whole.RandomString(5), recs.RandomString(5); a != b {
				t.Fatalf("step %d: the generators drifted: %q, %q", step, a, b)
			}
		}
		if len(names) > 0 && rng.IntN(3) == 0 {
			name := names[rng.IntN(len(names))]
			msg := fmt.Sprintf("again %d", step)
			old, _ := whole.Get(api.Key{Kind: api.KindEvent, Namespace: "default", Name: name})
			ne := old.(*api.Event).DeepCopy()
			ne.Count++
			ne.LastTimestamp, ne.Message = api.At(now), msg
			if _, err := whole.Update(ne); err != nil {
				t.Fatal(err)
			}
			rec, _ := recs.EventRecord(api.Key{Kind: api.KindEvent, Namespace: "default", Name: name})
			if _, err := recs.CountEvent(rec, msg); err != nil {
				t.Fatal(err)
			}
		} else {
			pod := fmt.Sprintf("web-%d", rng.IntN(40))
			ref := api.ObjectReference{Kind: api.KindPod, Namespace: "default", Name: pod, UID: "uid-" + pod, APIVersion: "v1"}
			src := srcs[rng.IntN(len(srcs))]
			typ := []string{api.EventNormal, api.EventWarning}[rng.IntN(2)]
			name := fmt.Sprintf("%s.%x", pod, step)
			if _, err := whole.Create(recorderEvent(name, "default", api.ObjectReference{Kind: ref.Kind, Namespace: ref.Namespace, Name: ref.Name,
				UID: ref.UID, APIVersion: ref.APIVersion, ResourceVersion: fmt.Sprint(step + 1), FieldPath: "spec.containers{web}"}, src, typ, "Pulled", "msg", now)); err != nil {
				t.Fatal(err)
			}
			shared := ref
			if _, err := recs.CreateEvent(&api.EventRecord{Name: name, Namespace: "default", Involved: &shared, InvolvedRV: int64(step + 1),
				Message: "msg", Origin: &api.EventOrigin{Source: src, Reason: "Pulled", FieldPath: "spec.containers{web}", Warning: typ == api.EventWarning}}); err != nil {
				t.Fatal(err)
			}
			names = append(names, name)
		}
		if whole.ResourceVersion() != recs.ResourceVersion() {
			t.Fatalf("step %d: resourceVersion %d, %d", step, whole.ResourceVersion(), recs.ResourceVersion())
		}
	}
	a, b := whole.List(api.KindEvent, ""), recs.List(api.KindEvent, "")
	if len(a) != len(b) || whole.Count(api.KindEvent) != recs.Count(api.KindEvent) {
		t.Fatalf("%d and %d Events", len(a), len(b))
	}
	for i := range a {
		if !reflect.DeepEqual(a[i], b[i]) {
			t.Fatalf("Event %d:\nwhole   %+v\nrecord  %+v", i, a[i], b[i])
		}
	}
}

// A recorder's Event with an invalid name is refused as Create refuses
// it, and a taken name as AlreadyExists.
func TestCreateEventErrors(t *testing.T) {
	ref := &api.ObjectReference{Kind: api.KindPod, Name: "Web"}
	src := &api.EventSource{Component: "kubelet"}
	for _, name := range []string{"Web.1880", "web.1880"} {
		whole, recs := New(1), New(1)
		_, want := whole.Create(recorderEvent(name, "default", *ref, *src, api.EventNormal, "Pulled", "m", 0))
		_, got := recs.CreateEvent(&api.EventRecord{Name: name, Namespace: "default", Involved: ref, Message: "m", Origin: &api.EventOrigin{Source: *src, Reason: "Pulled"}})
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: CreateEvent says %v, Create %v", name, got, want)
		}
		_, want = whole.Create(recorderEvent(name, "default", *ref, *src, api.EventNormal, "Pulled", "m", 0))
		_, got = recs.CreateEvent(&api.EventRecord{Name: name, Namespace: "default", Involved: ref, Message: "m", Origin: &api.EventOrigin{Source: *src, Reason: "Pulled"}})
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s again: CreateEvent says %v, Create %v", name, got, want)
		}
	}
}

// The store changes its Events in place, but a clone (a checkpoint) and
// the store it came from never see each other's later writes: random
// creates, counts and expiries on both sides of a chain of clones leave
// every side with exactly the Events its own history made.
func TestEventsOfClonesStayApart(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	type side struct {
		s     *Store
		names map[string]int32 // name → count
		last  map[string]int64 // name → last written
	}
	ref := &api.ObjectReference{Kind: api.KindPod, Namespace: "default", Name: "p"}
	src := &api.EventSource{Component: "kubelet"}
	sides := []*side{{s: New(3), names: map[string]int32{}, last: map[string]int64{}}}
	for step := range 3000 {
		sd := sides[rng.IntN(len(sides))]
		sd.s.SetNow(int64(step))
		switch k := rng.IntN(10); {
		case k == 0 && len(sides) < 12:
			c := &side{s: sd.s.Clone(), names: map[string]int32{}, last: map[string]int64{}}
			for n, v := range sd.names {
				c.names[n], c.last[n] = v, sd.last[n]
			}
			sides = append(sides, c)
		case k < 4 && len(sd.names) > 0:
			for n := range sd.names {
				r, _ := sd.s.EventRecord(api.Key{Kind: api.KindEvent, Namespace: "default", Name: n})
				if _, err := sd.s.CountEvent(r, "again"); err != nil {
					t.Fatal(err)
				}
				sd.names[n]++
				sd.last[n] = int64(step)
				break
			}
		case k == 4:
			sd.s.ExpireEvents(int64(step) - 500)
			for n, last := range sd.last {
				if last < int64(step)-500 {
					delete(sd.names, n)
					delete(sd.last, n)
				}
			}
		default:
			name := fmt.Sprintf("p.%d", step)
			if _, err := sd.s.CreateEvent(&api.EventRecord{Name: name, Namespace: "default", Involved: ref, Message: "m", Origin: &api.EventOrigin{Source: *src, Reason: "R"}}); err != nil {
				t.Fatal(err)
			}
			sd.names[name], sd.last[name] = 1, int64(step)
		}
		for i, o := range sides {
			if o.s.Count(api.KindEvent) != len(o.names) {
				t.Fatalf("step %d: side %d holds %d Events, its history made %d", step, i, o.s.Count(api.KindEvent), len(o.names))
			}
			o.s.EachEvent("", func(r *api.EventRecord) bool {
				if c, ok := o.names[r.Name]; !ok || c != r.Count {
					t.Fatalf("step %d: side %d holds %s with count %d, its history says %d (%v)", step, i, r.Name, r.Count, c, ok)
				}
				return true
			})
		}
	}
}

// The Events' tree is in the order of the times in their names, but the
// scans the API server's
// callers see are in its (namespace, name) order: EachEvent and List list
// random Events of three namespaces sorted by namespace and name (the
// oracle: a sort of the keys written), EachEvent of one namespace lists
// exactly its own, EachEventRecord visits each Event once, and an expiry
// deletes in (namespace, name) order, one resourceVersion each.
func TestEventScansKeepTheAPIServersOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	s := New(2)
	src := &api.EventSource{Component: "kubelet"}
	var keys []string // "ns/name"
	for i := range 2000 {
		ns := []string{"default", "kube-system", "apps"}[rng.IntN(3)]
		name := fmt.Sprintf("web-%c%c%c.%x", alphanums[rng.IntN(len(alphanums))], alphanums[rng.IntN(len(alphanums))], alphanums[rng.IntN(len(alphanums))], 1000+i)
		s.SetNow(int64(i))
		ref := &api.ObjectReference{Kind: api.KindPod, Namespace: ns, Name: "p"}
		if _, err := s.CreateEvent(&api.EventRecord{Name: name, Namespace: ns, Involved: ref, Message: "m", Origin: &api.EventOrigin{Source: *src, Reason: "Pulled"}}); err != nil {
			t.Fatal(err)
		}
		keys = append(keys, ns+"/"+name)
	}
	slices.Sort(keys)
	var got []string
	s.EachEvent("", func(r *api.EventRecord) bool { got = append(got, r.Namespace+"/"+r.Name); return true })
	if !slices.Equal(got, keys) {
		t.Fatalf("EachEvent lists %d Events out of (namespace, name) order; first %v, want %v", len(got), got[:5], keys[:5])
	}
	var listed []string
	for _, o := range s.List(api.KindEvent, "") {
		listed = append(listed, o.Meta().Namespace+"/"+o.Meta().Name)
	}
	if !slices.Equal(listed, keys) {
		t.Errorf("List lists the Events out of (namespace, name) order")
	}
	var apps []string
	s.EachEvent("apps", func(r *api.EventRecord) bool { apps = append(apps, r.Namespace+"/"+r.Name); return true })
	want := slices.DeleteFunc(slices.Clone(keys), func(k string) bool { return !strings.HasPrefix(k, "apps/") })
	if !slices.Equal(apps, want) {
		t.Errorf("EachEvent(apps) lists %d Events, want the %d of apps in order", len(apps), len(want))
	}
	seen := map[string]int{}
	s.EachEventRecord(func(r *api.EventRecord) bool { seen[r.Namespace+"/"+r.Name]++; return true })
	if len(seen) != len(keys) {
		t.Errorf("EachEventRecord visits %d Events, want %d", len(seen), len(keys))
	}
	for k, n := range seen {
		if n != 1 {
			t.Errorf("EachEventRecord visits %s %d times", k, n)
		}
	}
	var deleted []string
	var rvs []int64
	s.SetSink(func(e WatchEvent) {
		if e.Type == Deleted {
			m := e.Object.Meta()
			deleted = append(deleted, m.Namespace+"/"+m.Name)
			rvs = append(rvs, e.RV)
		}
	})
	rv := s.ResourceVersion()
	s.ExpireEvents(1000) // the first 1,000 written
	var expired []string
	for _, k := range keys {
		ns, name, _ := strings.Cut(k, "/")
		if r, ok := s.EventRecord(api.Key{Kind: api.KindEvent, Namespace: ns, Name: name}); ok {
			if r.LastMS < 1000 {
				t.Errorf("%s, last written at %d, is still there", k, r.LastMS)
			}
		} else {
			expired = append(expired, k)
		}
	}
	if len(expired) != 1000 || !slices.Equal(deleted, expired) {
		t.Errorf("the expiry deleted %d Events, want the 1,000 oldest in (namespace, name) order", len(deleted))
	}
	for i, r := range rvs {
		if r != rv+int64(i)+1 {
			t.Fatalf("deletion %d took resourceVersion %d, want %d", i, r, rv+int64(i)+1)
		}
	}
	if s.Count(api.KindEvent) != 1000 {
		t.Errorf("%d Events left, want 1,000", s.Count(api.KindEvent))
	}
}

// Two keys of one number (eventOrder) are ordered by namespace and name,
// so the tree holds both and finds each.
func TestEventKeysOfOneHashStayApart(t *testing.T) {
	a := &api.EventRecord{Namespace: "default", Name: "a.1"}
	b := &api.EventRecord{Namespace: "default", Name: "b.1"}
	x, y := eventItem{h: 7, r: a}, eventItem{h: 7, r: b}
	if !eventOps.less(x, y) || eventOps.less(y, x) || eventOps.less(x, x) {
		t.Fatal("items of one hash are not ordered by name")
	}
	var tr ptree[eventItem]
	tr = tr.WithOwned(y, eventOps, 1).WithOwned(x, eventOps, 1)
	if tr.Len() != 2 {
		t.Fatalf("the tree holds %d items, want 2", tr.Len())
	}
	for _, it := range []eventItem{x, y} {
		if got, ok := tr.Get(eventItem{h: 7, r: &api.EventRecord{Namespace: "default", Name: it.r.Name}}, eventOps); !ok || got.r != it.r {
			t.Errorf("Get(%s) = %v, %v", it.r.Name, got.r, ok)
		}
	}
}

// An Event's place in the tree is the time its name ends in, as
// client-go's recorder names Events ("<object>.<UnixNano in hex>"), and
// any other name's place is the hash of its key, below every time the
// recorder writes.
func TestEventOrderReadsTheTimeInTheName(t *testing.T) {
	for _, c := range []struct {
		name string
		want uint64
	}{
		{"web-6d4c9-x2b7f.18a3b4c5d6e7f809", 0x18a3b4c5d6e7f809},
		{"node-1.ff", 0xff},
		{"a.b.c.0", 0},
		{"my-event", eventHash("default", "my-event") >> 4},
		{"upper.FF", eventHash("default", "upper.FF") >> 4},
		{"trailing.", eventHash("default", "trailing.") >> 4},
		{"long.18a3b4c5d6e7f8091", eventHash("default", "long.18a3b4c5d6e7f8091") >> 4},
		{"sign.-1", eventHash("default", "sign.-1") >> 4},
	} {
		if got := eventOrder("default", c.name); got != c.want {
			t.Errorf("eventOrder(%q) = %#x, want %#x", c.name, got, c.want)
		}
		if got := eventOrder("default", c.name); c.name == "my-event" && got >= uint64(api.EpochUnixNano()) {
			t.Errorf("eventOrder(%q) = %#x, not below the recorder's times (%#x on)", c.name, got, api.EpochUnixNano())
		}
	}
}

// A recorder's Events are named with a time that only grows, so each new
// one goes at the tree's right edge: after a checkpoint (Clone), 200 more
// Events copy the leaves they fill and that edge, and the checkpoint
// shares every other node of the tree with the live store. Ordered by a
// hash of the names instead, they would copy a path to a random leaf
// each, most of the tree. An Event of another name (one applied from a
// manifest) changes neither: its place is below the recorder's, so the
// new ones still go at the right edge and fill their leaves.
func TestNewEventsShareTheTreeWithACheckpoint(t *testing.T) {
	s := New(1)
	ref := &api.ObjectReference{Kind: api.KindPod, Namespace: "default", Name: "web-1"}
	origin := &api.EventOrigin{Source: api.EventSource{Component: "kubelet", Host: "node-1"}, Reason: "Pulled"}
	for _, name := range []string{"my-event", "deploy-notes", "zz-last"} {
		if _, err := s.CreateEvent(&api.EventRecord{Name: name, Namespace: "default", Involved: ref, Message: "m", Origin: origin}); err != nil {
			t.Fatal(err)
		}
	}
	create := func(from, to int) {
		for i := from; i < to; i++ {
			s.SetNow(int64(i))
			name := fmt.Sprintf("web-%d.%x", i%97, api.EpochUnixNano()+int64(i)*1_000_000)
			if _, err := s.CreateEvent(&api.EventRecord{Name: name, Namespace: "default", Involved: ref, Message: "m", Origin: origin}); err != nil {
				t.Fatal(err)
			}
		}
	}
	create(0, 5000)
	cp := s.Clone()
	create(5000, 5200)
	old := map[*pnode[eventItem]]bool{}
	walk(cp.events.tree.root, func(nd *pnode[eventItem]) { old[nd] = true })
	made, all := 0, 0
	walk(s.events.tree.root, func(nd *pnode[eventItem]) {
		all++
		if !old[nd] {
			made++
		}
	})
	if made > 60 {
		t.Errorf("200 new Events after a checkpoint made %d of the tree's %d nodes, want at most 60 (25 leaves and the right edge)", made, all)
	}
	leaves := 0
	walk(s.events.tree.root, func(nd *pnode[eventItem]) {
		if nd.leaf() {
			leaves++
		}
	})
	if want := 5203/pmax + 2; leaves > want {
		t.Errorf("5,203 Events take %d leaves, want at most %d (full leaves)", leaves, want)
	}
	if cp.Count(api.KindEvent) != 5003 || s.Count(api.KindEvent) != 5203 {
		t.Errorf("the checkpoint holds %d Events and the store %d, want 5,003 and 5,203", cp.Count(api.KindEvent), s.Count(api.KindEvent))
	}
}

package apiserver

import (
	"fmt"
	"math/rand/v2"
	"reflect"
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
				UID: ref.UID, APIVersion: ref.APIVersion, ResourceVersion: fmt.Sprint(step), FieldPath: "spec.containers{web}"}, src, typ, "Pulled", "msg", now)); err != nil {
				t.Fatal(err)
			}
			shared := ref
			if _, err := recs.CreateEvent(&api.EventRecord{Name: name, Namespace: "default", Involved: &shared, InvolvedRV: fmt.Sprint(step),
				FieldPath: "spec.containers{web}", Reason: "Pulled", Message: "msg", Warning: typ == api.EventWarning, Source: &src}); err != nil {
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
		_, got := recs.CreateEvent(&api.EventRecord{Name: name, Namespace: "default", Involved: ref, Reason: "Pulled", Message: "m", Source: src})
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: CreateEvent says %v, Create %v", name, got, want)
		}
		_, want = whole.Create(recorderEvent(name, "default", *ref, *src, api.EventNormal, "Pulled", "m", 0))
		_, got = recs.CreateEvent(&api.EventRecord{Name: name, Namespace: "default", Involved: ref, Reason: "Pulled", Message: "m", Source: src})
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
			if _, err := sd.s.CreateEvent(&api.EventRecord{Name: name, Namespace: "default", Involved: ref, Reason: "R", Message: "m", Source: src}); err != nil {
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

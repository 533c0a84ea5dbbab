package events

import (
	"fmt"
	"hash/fnv"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
)

func event(msg string) *Emitted {
	return &Emitted{Involved: api.ObjectReference{Kind: "Deployment", Namespace: "default", Name: "web", UID: "u"},
		Reason: "ScalingReplicaSet", Message: msg, Type: api.EventNormal, Source: api.EventSource{Component: "deployment-controller"}}
}

// docs/fidelity.md S2: 20 distinct ScalingReplicaSet messages on one
// object within 10 minutes: 9 stay distinct, the 10th and later fold into
// one combined event with count 11.
func TestAggregationS2(t *testing.T) {
	s := apiserver.New(1)
	r := New()
	for i := 0; i < 20; i++ {
		s.SetNow(int64(i) * 1000)
		if _, ok, err := r.Record(s, event(fmt.Sprintf("Scaled replica set web-new from %d to %d", i, i+1))); !ok || err != nil {
			t.Fatalf("event %d dropped: %v", i, err)
		}
	}
	evs := s.List(api.KindEvent, "")
	if len(evs) != 10 {
		t.Fatalf("%d events stored, want 10", len(evs))
	}
	combined := 0
	for _, o := range evs {
		e := o.(*api.Event)
		if strings.HasPrefix(e.Message, "(combined from similar events): ") {
			combined++
			if e.Count != 11 || e.Message != "(combined from similar events): Scaled replica set web-new from 19 to 20" {
				t.Errorf("combined event: count %d message %q", e.Count, e.Message)
			}
		} else if e.Count != 1 {
			t.Errorf("plain event count %d", e.Count)
		}
	}
	if combined != 1 {
		t.Fatalf("%d combined events", combined)
	}
}

func TestRepeatsIncrementCount(t *testing.T) {
	s := apiserver.New(1)
	r := New()
	for i := 0; i < 3; i++ {
		s.SetNow(int64(i) * 60_000)
		r.Record(s, event("Back-off"))
	}
	evs := s.List(api.KindEvent, "")
	e := evs[0].(*api.Event)
	if len(evs) != 1 || e.Count != 3 || e.FirstTimestamp.MS != 0 || e.LastTimestamp.MS != 120_000 {
		t.Fatalf("%d events, %+v", len(evs), e)
	}
}

// The spam filter lets 25 events from one source about one object through,
// then one per 5 minutes.
func TestSpamFilter(t *testing.T) {
	s := apiserver.New(1)
	r := New()
	passed := 0
	for i := 0; i < 40; i++ {
		if _, ok, _ := r.Record(s, event(fmt.Sprintf("m%d", i))); ok {
			passed++
		}
	}
	if passed != 25 {
		t.Fatalf("%d passed, want 25", passed)
	}
	s.SetNow(300_000)
	if _, ok, _ := r.Record(s, event("later")); !ok {
		t.Fatal("a token refills after 5 minutes")
	}
}

// The spam filter keys its buckets by the Event's type too (client-go's
// getSpamKey): once Warnings exhaust an object's bucket, a Normal Event
// about it still gets through.
func TestSpamFilterPerType(t *testing.T) {
	s := apiserver.New(1)
	r := New()
	for i := 0; i < 30; i++ {
		e := event(fmt.Sprintf("w%d", i))
		e.Type = api.EventWarning
		r.Record(s, e)
	}
	if _, ok, _ := r.Record(s, event("normal")); !ok {
		t.Fatal("a Normal Event was dropped after 30 Warnings")
	}
}

// The in-place hash is hash/fnv's FNV-1a over each part and a NUL.
func TestHashIsFNV1a(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		parts := make([]string, rng.IntN(12))
		for i := range parts {
			b := make([]byte, rng.IntN(40))
			for j := range b {
				b[j] = byte(rng.IntN(256))
			}
			parts[i] = string(b)
		}
		h := fnv.New64a()
		for _, p := range parts {
			h.Write([]byte(p))
			h.Write([]byte{0})
		}
		if got, want := hash(parts...), h.Sum64(); got != want {
			t.Fatalf("hash(%q) = %x, want %x", parts, got, want)
		}
	}
}

// A clone and its original share their correlation caches until one
// changes them: exhausting the spam filter's bucket for an object on one
// side leaves the other side's bucket full, whichever side goes first.
func TestCloneSharesCachesCopyOnWrite(t *testing.T) {
	for _, floodOriginal := range []bool{true, false} {
		s := apiserver.New(1)
		orig := New()
		if _, ok, _ := orig.Record(s, event("first")); !ok {
			t.Fatal("the first event was dropped")
		}
		clone, cs := orig.Clone(), s.Clone() // each side writes its own store
		flooded, fs, other, os := orig, s, clone, cs
		if !floodOriginal {
			flooded, fs, other, os = clone, cs, orig, s
		}
		dropped := false
		for i := range 2 * spamBurst {
			_, ok, err := flooded.Record(fs, event(fmt.Sprintf("flood %d", i)))
			if err != nil {
				t.Fatal(err)
			}
			dropped = dropped || !ok
		}
		if !dropped {
			t.Fatal("the spam filter dropped nothing")
		}
		if _, ok, err := other.Record(os, event("after the flood")); err != nil || !ok {
			t.Errorf("flooding the original=%v emptied the other side's bucket too (%v)", floodOriginal, err)
		}
	}
}

// The records of a reason's repeated message share one copy of the
// string, and those of one source, reason and field path one origin: a
// kubelet's "Started container web" for every pod of a Deployment is
// kept once, not once per Event. A clone of the recorder shares the
// copies too. The messages are built afresh for each
// event, as a component's Sprintf builds them.
func TestRecordsShareRepeatedTexts(t *testing.T) {
	s := apiserver.New(1)
	r := New()
	emit := func(r *Recorder, pod string) *api.EventRecord {
		e := &Emitted{Involved: api.ObjectReference{Kind: "Pod", Namespace: "default", Name: pod, UID: "uid-" + pod,
			FieldPath: strings.Join([]string{"spec.containers{", "web", "}"}, "")},
			Reason: "Started", Message: strings.Join([]string{"Started container", "web"}, " "), Type: api.EventNormal,
			Source: api.EventSource{Component: "kubelet", Host: "node-1"}}
		w, ok, err := r.Record(s, e)
		if !ok || err != nil {
			t.Fatalf("event of %s not recorded: %v", pod, err)
		}
		return w.After
	}
	a, b := emit(r, "web-a"), emit(r, "web-b")
	c := emit(r.Clone(), "web-c")
	for _, rec := range []*api.EventRecord{b, c} {
		if rec.Message != a.Message || unsafe.StringData(rec.Message) != unsafe.StringData(a.Message) {
			t.Errorf("%s's message %q is a copy of its own, not the one %s's record keeps", rec.Involved.Name, rec.Message, a.Involved.Name)
		}
		if rec.Origin != a.Origin || rec.Origin.FieldPath != "spec.containers{web}" {
			t.Errorf("%s's source, reason and field path %+v are a copy of their own", rec.Involved.Name, rec.Origin)
		}
	}
}

// A record keeps the involved object's resourceVersion as a number and
// gives it back as the API server wrote it; a resourceVersion a number
// would not give back keeps the whole Event instead.
func TestRecordKeepsTheInvolvedResourceVersion(t *testing.T) {
	for _, rv := range []string{"", "1", "48213", "007", "x1", "-3", "+5", "0"} {
		s := apiserver.New(1)
		r := New()
		e := &Emitted{Involved: api.ObjectReference{Kind: "Pod", Namespace: "default", Name: "web-1", UID: "u", ResourceVersion: rv},
			Reason: "Pulled", Message: "pulled", Type: api.EventNormal, Source: api.EventSource{Component: "kubelet", Host: "node-1"}}
		w, ok, err := r.Record(s, e)
		if !ok || err != nil {
			t.Fatalf("%q: not recorded: %v", rv, err)
		}
		ev := w.After.Event()
		if got := ev.InvolvedObject.ResourceVersion; got != rv {
			t.Errorf("involvedObject.resourceVersion %q reads back as %q", rv, got)
		}
		if kept := w.After.Full != nil; kept != (rv == "007" || rv == "x1" || rv == "-3" || rv == "+5" || rv == "0") {
			t.Errorf("%q: whole Event kept %v", rv, kept)
		}
		if ev.Reason != "Pulled" || ev.Source.Host != "node-1" || ev.Type != api.EventNormal {
			t.Errorf("%q: the Event reads %s %s from %+v", rv, ev.Type, ev.Reason, ev.Source)
		}
	}
}

// The aggregator's rows behave as client-go's EventAggregator, written
// here as it is there (an aggregate record per key: a set of local keys
// and a last timestamp; a record older than the interval starts over;
// from the 10th distinct message on, the Event is combined and one
// remembered message dropped, here the smallest hash): over random
// events of a few reasons, sources and messages, at random gaps that
// cross the 10-minute interval, every event gets the same key and
// message from both.
func TestAggregateRowsMatchClientGosAggregator(t *testing.T) {
	type record struct {
		keys   map[uint64]bool
		lastMS int64
	}
	oracle := map[uint64]*record{}
	aggregate := func(e *Emitted, now int64) (uint64, string) {
		akey := hash(e.Source.Component, e.Source.Host, e.Type, e.Reason)
		r, ok := oracle[akey]
		if !ok || now-r.lastMS > aggregateIntervalMS {
			r = &record{keys: map[uint64]bool{}}
			oracle[akey] = r
		}
		r.keys[hash(e.Message)] = true
		r.lastMS = now
		if len(r.keys) < aggregateMaxEvents {
			return 0, ""
		}
		delete(r.keys, slices.Min(slices.Collect(maps.Keys(r.keys))))
		return akey, "(combined from similar events): " + e.Message
	}
	rng := rand.New(rand.NewPCG(3, 3))
	c := &correlation{}
	now := int64(0)
	combined := 0
	for step := range 20000 {
		switch r := rng.IntN(200); {
		case r == 0:
			now += 700_000 // past the interval: the records start over
		case r < 10:
			now += 60_000
		default:
			now += int64(rng.IntN(2)) * 1_000
		}
		e := &Emitted{Type: api.EventNormal, Reason: fmt.Sprint("Reason", rng.IntN(3)), Message: fmt.Sprint("message ", rng.IntN(14)),
			Source: api.EventSource{Component: "kubelet", Host: fmt.Sprint("node-", rng.IntN(2))}}
		wantKey, wantMsg := aggregate(e, now)
		key, msg := c.aggregateKey(e, now)
		if key != wantKey || msg != wantMsg {
			t.Fatalf("step %d: aggregateKey = %#x %q, client-go's = %#x %q", step, key, msg, wantKey, wantMsg)
		}
		if key != 0 {
			combined++
		}
	}
	if combined == 0 {
		t.Fatal("no event was combined: the test exercises nothing")
	}
}

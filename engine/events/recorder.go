package events

import (
	"fmt"
	"hash/fnv"
	"maps"
	"slices"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
)

// Correlation constants from client-go tools/record/events_cache.go.
const (
	aggregateMaxEvents  = 10
	aggregateIntervalMS = 600_000
	spamBurst           = 25
	spamRefillMS        = 300_000 // one token per 5 minutes
)

// aggregateRecord is shared by clones once stored: a change stores a new
// one (its localKeys a new slice).
type aggregateRecord struct {
	localKeys []uint64 // hashes of the distinct messages, ascending
	lastMS    int64
}

type spamBucket struct {
	tokens float64
	lastMS int64
}

// Recorder turns emitted events into Event objects in the store. Its
// caches are keyed by 64-bit FNV hashes of client-go's string keys, which
// keeps checkpoints cheap; a collision is astronomically unlikely.
type Recorder struct {
	aggregate map[uint64]aggregateRecord
	logged    map[uint64]api.Key // event key → stored Event
	spam      map[uint64]spamBucket
	counter   int64
}

// New returns an empty recorder.
func New() *Recorder {
	return &Recorder{aggregate: map[uint64]aggregateRecord{}, logged: map[uint64]api.Key{}, spam: map[uint64]spamBucket{}}
}

// Clone returns an independent copy: the maps are copied, their values
// (records are never changed in place) shared.
func (r *Recorder) Clone() *Recorder {
	return &Recorder{aggregate: maps.Clone(r.aggregate), logged: maps.Clone(r.logged), spam: maps.Clone(r.spam), counter: r.counter}
}

// Write is the store write a recorded event caused.
type Write struct {
	Before, After api.Object // Before is nil for a new Event
}

// Record correlates e (with InvolvedObject, Reason, Message, Type and
// Source set) and writes it. It returns the write, or false when the spam
// filter dropped the event.
func (r *Recorder) Record(s *apiserver.Store, e *api.Event) (Write, bool, error) {
	now := s.Now()
	if !r.allow(e, now) {
		return Write{}, false, nil
	}
	key, message := r.aggregateKey(e, now)
	if key != 0 {
		e.Message = message
	} else {
		key = eventKey(e)
	}
	if k, ok := r.logged[key]; ok {
		if old, ok := s.Get(k); ok {
			prev := old.(*api.Event)
			ne := prev.DeepCopy()
			ne.Count++
			ne.LastTimestamp = api.At(now)
			ne.Message = e.Message
			out, err := s.Update(ne)
			if err != nil {
				return Write{}, false, err
			}
			return Write{Before: prev, After: out}, true, nil
		}
	}
	r.counter++
	e.Name = fmt.Sprintf("%s.%x", e.InvolvedObject.Name, api.EpochUnixNano()+now*1_000_000+r.counter)
	e.Namespace = e.InvolvedObject.Namespace
	if e.Namespace == "" {
		e.Namespace = "default"
	}
	e.Count = 1
	e.FirstTimestamp, e.LastTimestamp = api.At(now), api.At(now)
	e.ReportingComponent = e.Source.Component
	e.ReportingInstance = e.Source.Host
	out, err := s.Create(e)
	if err != nil {
		return Write{}, false, err
	}
	r.logged[key] = api.KeyOf(out)
	return Write{After: out}, true, nil
}

// hash is FNV-1a over the parts, separated by NUL.
func hash(parts ...string) uint64 {
	h := fnv.New64a()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return h.Sum64()
}

// eventKey identifies identical events (getEventKey).
func eventKey(e *api.Event) uint64 {
	o := e.InvolvedObject
	return hash(e.Source.Component, e.Source.Host, o.Kind, o.Namespace, o.Name, o.FieldPath, o.UID, o.APIVersion, e.Type, e.Reason, e.Message)
}

// aggregateKey returns the key and message of a combined event once an
// object has had 10 distinct messages with one reason within 10 minutes.
func (r *Recorder) aggregateKey(e *api.Event, now int64) (uint64, string) {
	o := e.InvolvedObject
	akey := hash(e.Source.Component, e.Source.Host, o.Kind, o.Namespace, o.Name, o.UID, o.APIVersion, e.Type, e.Reason)
	rec, ok := r.aggregate[akey]
	if !ok || now-rec.lastMS > aggregateIntervalMS {
		rec = aggregateRecord{}
	}
	msg := hash(e.Message)
	if i, found := slices.BinarySearch(rec.localKeys, msg); !found {
		rec.localKeys = slices.Insert(slices.Clip(rec.localKeys), i, msg) // a new slice: a clone may share the old
	}
	rec.lastMS = now
	combined := len(rec.localKeys) >= aggregateMaxEvents
	if combined {
		// PopAny: drop one remembered message (the smallest hash, for determinism).
		rec.localKeys = rec.localKeys[1:]
	}
	r.aggregate[akey] = rec
	if !combined {
		return 0, ""
	}
	return akey, "(combined from similar events): " + e.Message
}

// allow is the spam filter: a token bucket per source and object.
func (r *Recorder) allow(e *api.Event, now int64) bool {
	o := e.InvolvedObject
	key := hash(e.Source.Component, e.Source.Host, o.Kind, o.Namespace, o.Name, o.UID, o.APIVersion)
	b, ok := r.spam[key]
	if !ok {
		b = spamBucket{tokens: spamBurst, lastMS: now}
	}
	b.tokens = min(spamBurst, b.tokens+float64(now-b.lastMS)/spamRefillMS)
	b.lastMS = now
	allowed := b.tokens >= 1
	if allowed {
		b.tokens--
	}
	r.spam[key] = b
	return allowed
}

package events

import (
	"cmp"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

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

// aggregateRow is one message the aggregator remembers for one
// aggregate key: client-go's aggregateRecord is a key's set of local keys
// (its distinct messages) and its lastTimestamp; here each message is a
// row of its own, and the rows of a key share its last time. A pod's
// handful of reasons with one message each then take one row apiece, not
// a record and a set.
type aggregateRow struct {
	key, msg uint64 // the aggregate key's and the message's hashes
	lastMS   int64
}

type spamBucket struct {
	tokens float64
	lastMS int64
}

// Recorder turns emitted events into Event objects in the store. Its
// caches are keyed by 64-bit FNV hashes of client-go's string keys (less
// the fields that name the involved object, its kind, namespace, name,
// UID and API version, which pick the correlation); a collision is
// astronomically unlikely.
//
// Every key of client-go's three caches (the spam filter's, the
// aggregator's and the event logger's) includes the involved object, so
// the recorder keeps them per involved object: a checkpoint copies one
// pointer per object that ever had an Event, not an entry per Event. The
// object's correlation is shared by clones until one side changes it:
// the first change after a checkpoint copies it (gen says who owns it),
// as the engine does with its components.
type Recorder struct {
	objects map[uint64]*correlation // by involvedObjectKey
	gen     uint64
	counter int64
	// origins are the (source, type, reason, field path) of the Events
	// recorded, each kept once for the records that point at it: a cache
	// of immutable values, shared by clones (what it holds never changes
	// what is recorded).
	origins map[api.EventOrigin]*api.EventOrigin
	// texts keeps one copy of the strings many records repeat, shared
	// by clones the same way (the engine runs one clone at a time): the last message of each reason (a
	// kubelet's "Pulling image", "Created container" and "Started
	// container" repeat for every pod of a Deployment) and each field
	// path ("spec.containers{web}").
	texts *texts
}

// texts are the recorder's shared copies of repeated strings.
type texts struct {
	lastMessage map[string]string // by reason
	fieldPaths  map[string]string
}

// message is msg, as the copy the last record of reason kept when the two
// are equal.
func (t *texts) message(reason, msg string) string {
	if last, ok := t.lastMessage[reason]; ok && last == msg {
		return last
	}
	t.lastMessage[reason] = msg
	return msg
}

// fieldPath is the kept copy of path.
func (t *texts) fieldPath(path string) string {
	if path == "" {
		return ""
	}
	if kept, ok := t.fieldPaths[path]; ok {
		return kept
	}
	t.fieldPaths[path] = path
	return path
}

// Emitted is an event as a component emits it: record.EventRecorder's
// Event(object, eventtype, reason, message) with the recorder's source.
type Emitted struct {
	Involved              api.ObjectReference
	Type, Reason, Message string
	Source                api.EventSource
}

// correlation is the recorder's memory of one involved object's events:
// small slices sorted by key (an object has a handful of each), and the
// object's reference, which its Events' records share.
type correlation struct {
	gen       uint64
	ref       *api.ObjectReference // without resourceVersion and fieldPath
	spam      []keyed[spamBucket]
	aggregate []aggregateRow // sorted by key, then message
	// logged maps an event key to the stored Event, by the time its name
	// carries (eventName of the involved object's name and this): the
	// name is made again when the Event repeats.
	logged []keyed[int64]
}

// keyed is one entry of a correlation cache.
type keyed[V any] struct {
	key uint64
	val V
}

// find returns the index of key in s, sorted by key, and whether it is
// there.
func find[V any](s []keyed[V], key uint64) (int, bool) {
	return slices.BinarySearchFunc(s, key, func(e keyed[V], k uint64) int { return cmp.Compare(e.key, k) })
}

// lookup returns the value of key in s.
func lookup[V any](s []keyed[V], key uint64) (V, bool) {
	if i, ok := find(s, key); ok {
		return s[i].val, true
	}
	var none V
	return none, false
}

// store sets key to v in s, keeping it sorted.
func store[V any](s []keyed[V], key uint64, v V) []keyed[V] {
	i, ok := find(s, key)
	if ok {
		s[i].val = v
		return s
	}
	return inserted(s, i, keyed[V]{key, v})
}

// inserted is s with v at index i, in a new slice of exactly that length:
// a clone of the correlation shares the old one, and an object keeps a
// handful of entries for as long as its Events live, so room to grow
// would be kept for nothing.
func inserted[V any](s []V, i int, v V) []V {
	out := make([]V, len(s)+1)
	copy(out, s[:i])
	out[i] = v
	copy(out[i+1:], s[i:])
	return out
}

func (c *correlation) clone(gen uint64) *correlation {
	return &correlation{gen: gen, ref: c.ref, spam: slices.Clone(c.spam), aggregate: slices.Clone(c.aggregate), logged: slices.Clone(c.logged)}
}

// New returns an empty recorder.
func New() *Recorder {
	return &Recorder{objects: map[uint64]*correlation{}, origins: map[api.EventOrigin]*api.EventOrigin{},
		texts: &texts{lastMessage: map[string]string{}, fieldPaths: map[string]string{}}}
}

// Clone returns an independent copy: O(involved objects), the
// correlations shared until either side changes one.
func (r *Recorder) Clone() *Recorder {
	r.gen += 2
	return &Recorder{objects: maps.Clone(r.objects), gen: r.gen + 1, counter: r.counter, origins: r.origins, texts: r.texts}
}

// correlation returns the state of the object an event is about, to
// change: copied first if a clone shares it.
func (r *Recorder) correlation(e *Emitted) *correlation {
	k := involvedObjectKey(e)
	c, ok := r.objects[k]
	switch {
	case !ok:
		ref := e.Involved
		ref.ResourceVersion, ref.FieldPath = "", ""
		c = &correlation{gen: r.gen, ref: &ref}
	case c.gen != r.gen:
		c = c.clone(r.gen)
	default:
		return c
	}
	r.objects[k] = c
	return c
}

// Write is the store write a recorded event caused: the records of the
// Event before (nil for a new Event) and after.
type Write struct {
	Before, After *api.EventRecord
}

// Record correlates e and writes it. It returns the write, or false when
// the spam filter dropped the event.
func (r *Recorder) Record(s *apiserver.Store, e *Emitted) (Write, bool, error) {
	now := s.Now()
	c := r.correlation(e)
	if !c.allow(e, now) {
		return Write{}, false, nil
	}
	key, message := c.aggregateKey(e, now)
	if key != 0 {
		e.Message = message
	} else {
		key = eventKey(e)
	}
	ns := eventNamespace(e)
	if nano, ok := lookup(c.logged, key); ok {
		if old, ok := s.EventRecord(api.Key{Kind: api.KindEvent, Namespace: ns, Name: eventName(c.ref.Name, nano)}); ok {
			out, err := s.CountEvent(old, e.Message)
			if err != nil {
				return Write{}, false, err
			}
			return Write{Before: old, After: out}, true, nil
		}
	}
	r.counter++
	nano := api.EpochUnixNano() + now*1_000_000 + r.counter
	out, err := r.create(s, c, e, ns, eventName(e.Involved.Name, nano))
	if err != nil {
		return Write{}, false, err
	}
	c.logged = store(c.logged, key, nano)
	return Write{After: out}, true, nil
}

// create stores a new Event: a record, or, for a type other than Normal
// and Warning, the whole Event.
func (r *Recorder) create(s *apiserver.Store, c *correlation, e *Emitted, ns, name string) (*api.EventRecord, error) {
	rv, numeric := resourceVersion(e.Involved.ResourceVersion)
	if e.Type != api.EventNormal && e.Type != api.EventWarning || !numeric {
		ev := &api.Event{ObjectMeta: api.ObjectMeta{Name: name, Namespace: ns}, InvolvedObject: e.Involved, Reason: e.Reason, Message: e.Message,
			Source: e.Source, Type: e.Type, Count: 1, FirstTimestamp: api.At(s.Now()), LastTimestamp: api.At(s.Now()),
			ReportingComponent: e.Source.Component, ReportingInstance: e.Source.Host}
		if _, err := s.Create(ev); err != nil {
			return nil, err
		}
		rec, _ := s.EventRecord(api.KeyOf(ev))
		return rec, nil
	}
	return s.CreateEvent(&api.EventRecord{Name: name, Namespace: ns, Involved: c.ref, InvolvedRV: rv,
		Message: r.texts.message(e.Reason, e.Message), Origin: r.origin(e)})
}

// origin is the recorder's one copy of e's source, type, reason and
// field path.
func (r *Recorder) origin(e *Emitted) *api.EventOrigin {
	o := api.EventOrigin{Source: e.Source, Reason: e.Reason, FieldPath: e.Involved.FieldPath, Warning: e.Type == api.EventWarning}
	if p, ok := r.origins[o]; ok {
		return p
	}
	o.FieldPath = r.texts.fieldPath(o.FieldPath)
	p := &o
	r.origins[o] = p
	return p
}

// resourceVersion is the involved object's resourceVersion as a record
// keeps it: a decimal number written the way strconv writes it, 0 for
// none. Anything else a record cannot keep (the whole Event is stored).
func resourceVersion(s string) (int64, bool) {
	if s == "" {
		return 0, true
	}
	v, err := strconv.ParseInt(s, 10, 64)
	return v, err == nil && v > 0 && s[0] >= '1' && s[0] <= '9' // no sign, no leading zero
}

// eventName is the name client-go's recorder gives an Event:
// fmt.Sprintf("%v.%x", ref.Name, t.UnixNano()), built in one allocation.
func eventName(object string, unixNano int64) string {
	var b strings.Builder
	b.Grow(len(object) + 17)
	b.WriteString(object)
	b.WriteByte('.')
	var digits [17]byte
	b.Write(strconv.AppendInt(digits[:0], unixNano, 16))
	return b.String()
}

// hash is 64-bit FNV-1a (hash/fnv's New64a) over the parts, each
// followed by a NUL, computed in place: hashing an event allocates nothing.
func hash(parts ...string) uint64 {
	const offset64, prime64 = 14695981039346656037, 1099511628211
	h := uint64(offset64)
	for _, p := range parts {
		for i := 0; i < len(p); i++ {
			h ^= uint64(p[i])
			h *= prime64
		}
		h *= prime64 // h ^= 0: the separator
	}
	return h
}

// eventNamespace is the namespace of an Event: its involved object's, or
// default for a cluster-scoped one.
func eventNamespace(e *Emitted) string {
	if e.Involved.Namespace == "" {
		return "default"
	}
	return e.Involved.Namespace
}

// involvedObjectKey identifies the object an event is about: every key
// of client-go's caches includes these fields, so the recorder keeps one
// correlation per object, and the keys below, which are only ever looked
// up in that object's correlation, hash the other fields alone.
func involvedObjectKey(e *Emitted) uint64 {
	o := e.Involved
	return hash(o.Kind, o.Namespace, o.Name, o.UID, o.APIVersion)
}

// eventKey identifies identical events of one object (getEventKey).
func eventKey(e *Emitted) uint64 {
	return hash(e.Source.Component, e.Source.Host, e.Involved.FieldPath, e.Type, e.Reason, e.Message)
}

// aggregateKey returns the key and message of a combined event once an
// object has had 10 distinct messages with one reason within 10 minutes.
func (c *correlation) aggregateKey(e *Emitted, now int64) (uint64, string) {
	akey := hash(e.Source.Component, e.Source.Host, e.Type, e.Reason)
	lo, hi := c.aggregateRows(akey)
	if lo < hi && now-c.aggregate[lo].lastMS > aggregateIntervalMS {
		c.aggregate = slices.Delete(c.aggregate, lo, hi) // a new record
		hi = lo
	}
	msg := hash(e.Message)
	i, found := slices.BinarySearchFunc(c.aggregate[lo:hi], msg, func(r aggregateRow, m uint64) int { return cmp.Compare(r.msg, m) })
	if !found {
		c.aggregate = inserted(c.aggregate, lo+i, aggregateRow{key: akey, msg: msg})
		hi++
	}
	for j := lo; j < hi; j++ {
		c.aggregate[j].lastMS = now
	}
	if hi-lo < aggregateMaxEvents {
		return 0, ""
	}
	// PopAny: drop one remembered message (the smallest hash, for determinism).
	c.aggregate = slices.Delete(c.aggregate, lo, lo+1)
	return akey, "(combined from similar events): " + e.Message
}

// aggregateRows returns the range of c.aggregate that holds the rows of
// aggregate key akey.
func (c *correlation) aggregateRows(akey uint64) (lo, hi int) {
	byKey := func(r aggregateRow, k uint64) int { return cmp.Compare(r.key, k) }
	lo, _ = slices.BinarySearchFunc(c.aggregate, akey, byKey)
	hi = lo
	for hi < len(c.aggregate) && c.aggregate[hi].key == akey {
		hi++
	}
	return lo, hi
}

// spamQPS is the spam filter's refill rate as client-go holds it: one
// token per spamRefillMS as the float32 qps of
// NewTokenBucketPassiveRateLimiterWithClock, widened to
// golang.org/x/time/rate's Limit (a little more than 1/300 per second).
var spamQPS = float64(float32(1000.0 / spamRefillMS))

// allow is the spam filter: a token bucket per source, object and Event
// type (getSpamKey: a Warning storm leaves Normal Events through), in
// golang.org/x/time/rate's arithmetic (Limiter.advance and reserveN):
// the tokens accrue by the elapsed seconds times spamQPS, an Event is
// let through when it leaves no deficit that would take a whole
// nanosecond to refill, and a refused Event leaves the bucket as it was.
// (Tokens accrued exactly at a refill's boundary decide whether a
// CronJob's Events, which come on the minute, are let through.)
func (c *correlation) allow(e *Emitted, now int64) bool {
	key := hash(e.Source.Component, e.Source.Host, e.Type)
	b, ok := lookup(c.spam, key)
	if !ok {
		b = spamBucket{tokens: spamBurst, lastMS: now}
	}
	elapsed := time.Duration(max(0, now-b.lastMS)) * time.Millisecond
	left := min(spamBurst, b.tokens+elapsed.Seconds()*spamQPS) - 1
	if left < 0 && time.Duration(float64(time.Second)*(-left/spamQPS)) > 0 {
		return false
	}
	c.spam = store(c.spam, key, spamBucket{tokens: left, lastMS: now})
	return true
}

package apiserver

import (
	"cmp"
	"slices"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
)

// The store keeps its Events apart from its Versions. No component
// watches Events, so no informer's view needs them, and they are the most
// written kind (five or more per pod): in a Version, every Event write
// copied the path from the root of its tree, and the next pod write froze
// it again. Here they are one tree of records (api.EventRecord) that the
// store owns and changes in place; only a snapshot (Clone, for a
// checkpoint) freezes it, by giving both sides a new owner stamp.
//
// The tree is ordered by a number kept in the tree's items beside the
// record (eventItem), not by the namespace and name themselves: the time
// a recorder's Event name ends in (client-go names an Event
// "<object>.<UnixNano in hex>"), else a hash of the namespace and name
// (eventOrder). Every write and lookup is by key, and with tens of
// thousands of Events of names that share long prefixes ("web-6d4c…-x2b7f.")
// a descent by name compared a dozen and more strings, each two pointers
// away in memory (the record, then its bytes); by number it compares
// integers held in the nodes. And as the recorder's names carry a time
// that only grows, a new Event goes at the tree's right edge: a new
// Event after a checkpoint copies that edge, not a path to a random leaf
// (a repeat, CountEvent, and an expiry still copy the path to an older
// leaf), so a checkpoint shares most of the tree with the live store, and
// full leaves split at their end stay full (ptreeOps.appends). The
// hashes of other names are put below every time a recorder writes, so
// that an Event applied from a manifest does not sit at the right edge,
// where every new Event would go just before it and the leaves would
// split in halves again. Only the scans
// that need the API server's (namespace, name) order pay for it, by
// sorting (EachEvent); the others take the tree's order
// (EachEventRecord).
type events struct {
	tree ptree[eventItem]
	gen  uint32  // this store's owner stamp
	last *uint32 // the last stamp handed out, shared by the store's clones
}

// eventItem is an Event's record with its place in the tree
// (eventOrder of its key).
type eventItem struct {
	h uint64
	r *api.EventRecord
}

func newEvents() events {
	last := uint32(1)
	return events{gen: 1, last: &last}
}

// stamp hands out a new owner stamp.
func (e *events) stamp() uint32 {
	*e.last++
	return *e.last
}

// eventHash is the 64-bit FNV-1a hash of an Event's namespace and name (a
// zero byte between them): fixed, so the tree's order is the same in
// every run and build.
func eventHash(ns, name string) uint64 {
	const offset, prime = 14695981039346656037, 1099511628211
	h := uint64(offset)
	for i := 0; i < len(ns); i++ {
		h = (h ^ uint64(ns[i])) * prime
	}
	h *= prime // the zero byte: "a"+"bc" and "ab"+"c" differ
	for i := 0; i < len(name); i++ {
		h = (h ^ uint64(name[i])) * prime
	}
	return h
}

// eventOrder is an Event's place in the tree: the time its name ends in
// when it is named as client-go's recorder names Events (a dot and 1 to
// 16 lowercase hex digits), else the hash of its namespace and name
// shifted right by 4 bits: below 2^60 nanoseconds (the year 2006), under
// every time the recorder writes (api.EpochUnixNano on).
// Either is fixed, so the tree's order is the same in every run and
// build; two keys of one number are ordered by namespace and name.
func eventOrder(ns, name string) uint64 {
	dot := strings.LastIndexByte(name, '.')
	digits := name[dot+1:]
	if dot < 0 || len(digits) == 0 || len(digits) > 16 {
		return eventHash(ns, name) >> 4
	}
	var n uint64
	for i := 0; i < len(digits); i++ {
		c := digits[i]
		switch {
		case c >= '0' && c <= '9':
			n = n<<4 | uint64(c-'0')
		case c >= 'a' && c <= 'f':
			n = n<<4 | uint64(c-'a'+10)
		default:
			return eventHash(ns, name) >> 4
		}
	}
	return n
}

// itemOf is r's item.
func itemOf(r *api.EventRecord) eventItem {
	return eventItem{h: eventOrder(r.Namespace, r.Name), r: r}
}

// compareEventKeys orders Events by namespace and name.
func compareEventKeys(a, b *api.EventRecord) int {
	return cmp.Or(cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name))
}

var eventOps = &ptreeOps[eventItem]{
	less: func(a, b eventItem) bool {
		if a.h != b.h {
			return a.h < b.h
		}
		return compareEventKeys(a.r, b.r) < 0 // two keys of one number
	},
	appends: true,
	// A separator is the item it was made from, so a split allocates
	// nothing; it may keep that record alive after the record was
	// replaced (CountEvent) or deleted (an expiry, after an hour): one
	// record per separator at most.
	sep: func(it eventItem) eventItem { return it },
}

// eventRecord looks a record up by its key.
func (s *Store) eventRecord(ns, name string) (*api.EventRecord, bool) {
	s.evPivot.Namespace, s.evPivot.Name = ns, name
	it, ok := s.events.tree.Get(eventItem{h: eventOrder(ns, name), r: &s.evPivot}, eventOps)
	s.evPivot = api.EventRecord{}
	return it.r, ok
}

// EventRecord returns the record of the Event with key k, if there is
// one.
func (s *Store) EventRecord(k api.Key) (*api.EventRecord, bool) {
	return s.eventRecord(k.Namespace, k.Name)
}

// EachEvent calls f with the record of every Event in namespace ns (""
// for all), in (namespace, name) order, until f returns false: a scan
// that builds no Event. The records are sorted first (the tree is in
// order of the times in their names): a scan that needs no order is
// EachEventRecord.
func (s *Store) EachEvent(ns string, f func(*api.EventRecord) bool) {
	var rs []*api.EventRecord
	s.EachEventRecord(func(r *api.EventRecord) bool {
		if ns == "" || r.Namespace == ns {
			rs = append(rs, r)
		}
		return true
	})
	slices.SortFunc(rs, compareEventKeys)
	for _, r := range rs {
		if !f(r) {
			return
		}
	}
}

// EachEventRecord calls f with the record of every Event, in no order
// (the same in every run), until f returns false.
func (s *Store) EachEventRecord(f func(*api.EventRecord) bool) {
	s.events.tree.Ascend(false, eventItem{}, eventOps, func(it eventItem) bool { return f(it.r) })
}

// putEvent stores r in place of the record with its key, if any.
func (s *Store) putEvent(r *api.EventRecord) {
	s.events.tree = s.events.tree.WithOwned(itemOf(r), eventOps, s.events.gen)
}

// removeEvent deletes the record with ns and name.
func (s *Store) removeEvent(ns, name string) {
	s.events.tree, _ = s.events.tree.WithoutOwned(eventItem{h: eventOrder(ns, name), r: &api.EventRecord{Namespace: ns, Name: name}}, eventOps, s.events.gen)
}

// fullRecord is the record of an Event kept whole.
func fullRecord(e *api.Event) *api.EventRecord {
	return &api.EventRecord{Namespace: e.Namespace, Name: e.Name, Full: e}
}

// CreateEvent stores a recorder's Event: r has its name, namespace,
// involved object, source, reason, message and type; the store adds the
// UID, resourceVersion, timestamps (now) and a count of 1, exactly as
// Create does for the Event r stands for, with the same errors.
func (s *Store) CreateEvent(r *api.EventRecord) (*api.EventRecord, error) {
	e := errs{}
	switch {
	case r.Name == "":
		e.add("metadata.name", "Required value: name or generateName is required")
	case !isDNS1123Subdomain(r.Name):
		e.invalid("metadata.name", r.Name, dns1123SubdomainMsg)
	}
	if r.Namespace != "" && !isDNS1123Label(r.Namespace) {
		e.invalid("metadata.namespace", r.Namespace, dns1123LabelMsg)
	}
	if len(e) > 0 {
		return nil, &InvalidError{Kind: api.KindEvent, Name: r.Name, Fields: e}
	}
	t, added := s.events.tree.AddOwned(itemOf(r), eventOps, s.events.gen)
	if !added {
		return nil, alreadyExists(api.KindEvent, r.Name)
	}
	s.events.tree = t // r is in it: what follows fills it in
	r.UID = s.newEventUID()
	r.FirstMS, r.LastMS, r.Count = s.now, s.now, 1
	s.rv++
	r.RV = s.rv
	s.emit(Added, r, nil)
	return r, nil
}

// CountEvent records that a recorder's Event happened again at now with
// message: a new record in place of old (which stays as it was), with
// the count one more, as an Update of the Event would store it.
func (s *Store) CountEvent(old *api.EventRecord, message string) (*api.EventRecord, error) {
	if old.Full != nil {
		ne := old.Full.DeepCopy()
		ne.Count++
		ne.LastTimestamp = api.At(s.now)
		ne.Message = message
		out, err := s.Update(ne)
		if err != nil {
			return nil, err
		}
		return fullRecord(out.(*api.Event)), nil
	}
	cur, ok := s.eventRecord(old.Namespace, old.Name)
	if !ok || cur.UID != old.UID {
		return nil, NotFound(api.KindEvent, old.Name)
	}
	if cur.RV != old.RV {
		return nil, conflict(api.KindEvent, old.Name)
	}
	r := *old
	r.Count++
	r.LastMS, r.Message = s.now, message
	s.rv++
	r.RV = s.rv
	s.putEvent(&r)
	s.emit(Modified, &r, old)
	return &r, nil
}

// ExpireEvents deletes every Event last written before cutoff (virtual
// milliseconds), as the API server's event TTL does.
func (s *Store) ExpireEvents(cutoff int64) {
	var gone []*api.EventRecord
	s.EachEventRecord(func(r *api.EventRecord) bool {
		last := r.LastMS
		if r.Full != nil {
			last = r.Full.LastTimestamp.MS
		}
		if last < cutoff {
			gone = append(gone, r)
		}
		return true
	})
	// Deleted in (namespace, name) order, as a scan of the API server's
	// keys finds them: each deletion takes the next resourceVersion.
	slices.SortFunc(gone, compareEventKeys)
	for _, r := range gone {
		if r.Full != nil {
			_, _, _ = s.Delete(api.Key{Kind: api.KindEvent, Namespace: r.Namespace, Name: r.Name}, DeleteOptions{})
			continue
		}
		s.rv++
		s.removeEvent(r.Namespace, r.Name)
		s.emit(Deleted, r, r)
	}
}

// newEventUID draws a UID as newUID does (the same draws from the store's
// generator), kept as its digits.
func (s *Store) newEventUID() api.EventUID {
	var u api.EventUID
	for d := range 32 {
		nib := byte(4) // newUID's '4' at position 14, not drawn
		if d != 12 {
			nib = byte(s.rng.IntN(16))
		}
		if d%2 == 0 {
			u[d/2] = nib << 4
		} else {
			u[d/2] |= nib
		}
	}
	return u
}

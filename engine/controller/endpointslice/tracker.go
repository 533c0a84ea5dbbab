package endpointslice

import (
	"maps"

	"github.com/stateflow/stateflow/engine/api"
)

// deletionExpected is the generation the tracker records for a slice it
// deleted.
const deletionExpected = -1

// tracker is endpointSliceTracker (endpointslice_tracker.go): the
// generation of every slice the controller last wrote, by Service UID and
// slice UID, so a sync can tell that its cache of slices has not caught
// up with its own writes yet.
type tracker map[string]map[string]int64

// clone shares the per-Service maps: every write below copies the one
// it changes first.
func (t tracker) clone() tracker { return maps.Clone(t) }

func ownerUID(s *api.EndpointSlice) string {
	if ref := s.ControllerRef(); ref != nil {
		return ref.UID
	}
	return ""
}

// update records a slice the controller created or updated.
func (t tracker) update(s *api.EndpointSlice) {
	svc := ownerUID(s)
	m := t[svc]
	if m == nil {
		m = map[string]int64{}
	} else {
		m = maps.Clone(m) // a clone of the controller may share it
	}
	m[s.UID] = s.Generation
	t[svc] = m
}

// expectDeletion records a slice the controller deleted.
func (t tracker) expectDeletion(s *api.EndpointSlice) {
	svc := ownerUID(s)
	m := maps.Clone(t[svc])
	if m == nil {
		m = map[string]int64{}
	}
	m[s.UID] = deletionExpected
	t[svc] = m
}

// expected reports whether a watch event of s is one of the controller's
// own writes (ShouldSync's opposite).
func (t tracker) expected(s *api.EndpointSlice, deleted bool) bool {
	g, ok := t[ownerUID(s)][s.UID]
	if !ok {
		return false
	}
	if deleted {
		return g == deletionExpected
	}
	return g != deletionExpected && s.Generation <= g
}

// stale is StaleSlices: the cache holds an older generation of a slice
// than the controller wrote, or still holds one it deleted, or misses one
// it created.
func (t tracker) stale(svc *api.Service, cached []*api.EndpointSlice) bool {
	seen := map[string]bool{}
	for _, s := range cached {
		seen[s.UID] = true
		if g, ok := t[svc.UID][s.UID]; ok && (g == deletionExpected || s.Generation < g) {
			return true
		}
	}
	for uid, g := range t[svc.UID] {
		if g != deletionExpected && !seen[uid] {
			return true
		}
	}
	return false
}

// forget drops what the cache has caught up with: slices it no longer
// holds and whose deletion was expected.
func (t tracker) forget(svc *api.Service, cached []*api.EndpointSlice) {
	m := t[svc.UID]
	if m == nil {
		return
	}
	seen := map[string]bool{}
	for _, s := range cached {
		seen[s.UID] = true
	}
	var gone []string
	for uid, g := range m {
		if g == deletionExpected && !seen[uid] {
			gone = append(gone, uid)
		}
	}
	if len(gone) == 0 {
		return
	}
	m = maps.Clone(m)
	for _, uid := range gone {
		delete(m, uid)
	}
	t[svc.UID] = m
}

// forgetSlice forgets a slice someone else deleted (the tracker's
// Delete), so its absence from the cache is not taken for staleness.
func (t tracker) forgetSlice(s *api.EndpointSlice) {
	svc := ownerUID(s)
	if _, ok := t[svc][s.UID]; !ok {
		return
	}
	m := maps.Clone(t[svc])
	delete(m, s.UID)
	t[svc] = m
}

// deleteService forgets a deleted Service.
func (t tracker) deleteService(svc *api.Service) { delete(t, svc.UID) }

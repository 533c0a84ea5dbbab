package apiserver

// A watch event carries the Version just after its write, so every
// pending delivery keeps its own Version: each shares all but the paths
// its later writes copied, and those paths add up. A checkpoint taken
// while thousands of deliveries are on their way held most of a 30,000-pod
// run's tree nodes that way. So a checkpoint keeps its pending events
// without their Versions, and Rebuild gives them back when the checkpoint
// is restored, from the one Version the checkpoint keeps: the store's.

// Revert returns v without ev's change, at resourceVersion rv: ev's
// object put back as it was before (Old), or gone if ev created it. v is
// unchanged. If v holds ev's object as ev left it, the result holds it
// exactly as it was before ev, indexes included.
func (v *Version) Revert(ev *WatchEvent, rv int64) *Version {
	switch ev.Type {
	case Added:
		return v.without(ev.Object, rv)
	case Modified:
		return v.with(ev.Old, ev.Object, rv)
	default: // Deleted: Object is the last state
		return v.with(ev.Object, nil, rv)
	}
}

// at returns v as of resourceVersion rv: the same objects.
func (v *Version) at(rv int64) *Version {
	n := *v
	n.rv = rv
	return &n
}

// Rebuild sets the Version of each of events, in resourceVersion order,
// from cur, the Version after the last of them: the Version of an event
// is cur with every later one among events reverted.
//
// When events are every delivery pending in a world, what a component
// sees of an event's rebuilt Version is what it would have seen of the
// Version the event carried: its deliveries arrive in the order of the
// writes and every write it watches goes to it, so each later write it
// would see is pending too, among events, and reverted; a later write it
// would not see changes nothing it reads. The indexes follow the objects,
// and each Version's resourceVersion is its event's, as a cache reports.
func Rebuild(cur *Version, events []*WatchEvent) {
	v := cur
	for i := len(events) - 1; i >= 0; i-- {
		if i == len(events)-1 {
			v = v.at(events[i].RV)
		} else {
			v = v.Revert(events[i+1], events[i].RV)
		}
		events[i].Version = v
	}
}

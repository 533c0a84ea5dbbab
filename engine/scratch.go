package engine

import "github.com/stateflow/stateflow/engine/trace"

// tickScratch is the room a running tick appends its reads and effects
// to. The trace keeps every tick, so a tick's slices are copied out at
// their exact length when it finishes, and the room, grown once to the
// largest tick so far, serves the next one: growing a tick's slices by
// appending used to leave up to half of each kept slice empty and as much
// again as garbage.
type tickScratch struct {
	tick    *trace.Tick // the tick using the room, if any
	reads   []trace.Read
	effects []trace.Effect
}

// lend gives t the room.
func (s *tickScratch) lend(t *trace.Tick) {
	s.tick = t
	t.Reads, t.Effects = s.reads[:0], s.effects[:0]
}

// settle gives t slices of its own, if it was using the room, and takes
// the room back, cleared so it keeps no object alive.
func (s *tickScratch) settle(t *trace.Tick) {
	if t != s.tick {
		return
	}
	s.tick = nil
	reads, effects := t.Reads, t.Effects
	t.Reads, t.Effects = exact(reads), exact(effects)
	clear(reads) // the room past len was cleared when it was last used
	clear(effects)
	s.reads, s.effects = reads[:0], effects[:0]
}

// exact is a copy of xs at its length, or nil when it is empty.
func exact[T any](xs []T) []T {
	if len(xs) == 0 {
		return nil
	}
	return append(make([]T, 0, len(xs)), xs...)
}

// Package lesson plays a scenario's Lesson document against its
// simulation: it resolves each step's goto to a tick of the trace (a
// tick number, a time, or the next tick where a component writes an
// object or a class of effect), its highlights to the objects that
// exist then, and asks its question with choices generated from the
// world at that tick, the right one found in the ticks that follow,
// never in text written beside the lesson. Each answer carries the tick
// that proves it.
//
// A Lesson runs its own engine forward only, as far as the steps asked
// for so far need (steps resolve lazily, as a learner reaches them), and
// reads the world at a step's tick back from the trace's effects, so
// that the page's engine can seek freely. The engine is deterministic,
// so its ticks are the page's.
package lesson

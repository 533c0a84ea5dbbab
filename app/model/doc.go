// Package model is the playground's view-model: it owns the running
// simulation (engine, scenario, kubectl session) and turns its state into
// plain data the go-app components render — the flow diagram's layout, the
// tick log and its story (ticks that change nothing folded into one row
// that says why), the inspector's YAML with the fields the current tick
// changed, the events, the console, and the lesson player (lesson.go:
// the step shown, resolved a step at a time, the learner's answers and
// progress, and the step's text read from its Markdown subset). It is the
// only writer of its state. It has no go-app or JavaScript dependency,
// so all of it is tested natively. No call into the engine can crash the
// page: panics are recovered into a report the visitor can copy.
package model

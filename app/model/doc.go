// Package model is the playground's view-model: it owns the running
// simulation (engine, scenario, kubectl session) and turns its state into
// plain data the go-app components render — the flow diagram's layout, the
// tick log and its story (ticks that change nothing folded into one row
// that says why), the inspector's YAML with the fields the current tick
// changed, the events and the console. It is the only writer of its state. It has no go-app or JavaScript dependency,
// so all of it is tested natively. No call into the engine can crash the
// page: panics are recovered into a report the visitor can copy.
package model

// Package layering holds the test that keeps Stateflow's packages in
// layers, each importing only layers below it (and never its own parent):
//
//	engine/...         the simulated control plane's parts: api, apiserver, informer,
//	                   the controllers, scheduler, kubelet, trace… (import one another, never engine)
//	engine             the loop that wires them: ticks, checkpoints, settle and seek
//	provenance         why a field has its value: a chain read back from the trace
//	kubectl            a client of the engine: kubectl's commands at a tick
//	scenario           a client of the engine: the scenario file, its actions and faults
//	examples/...       scenarios as data, and generators of them
//	lesson             a scenario's Lesson played against a simulation of it
//	claim              what an example's header and a lesson state, checked
//	                   against the simulation (through kubectl and the trace)
//	app/model, app/share   the playground's view-model and share links
//	app                the go-app components
//	wasm, cmd/...      the programs
//	internal/testkit   the tests' shared helpers: imports any layer, and
//	                   only tests (_test.go files) import it
//	internal/framing   who may frame the site (stateflow serve and build,
//	                   and the browser tests' server)
//	internal/heapwalk  what a value keeps reachable, for the memory benchmark
//
// The differential harness (conformance/) is a module of its own above
// all of them.
//
// It also keeps the README's Layout true: the table names every package
// (readme_test.go).
package layering

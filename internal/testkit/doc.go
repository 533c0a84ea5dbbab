// Package testkit holds what Stateflow's tests share: loading a scenario
// into an engine, typed reads of the API server's objects, the soundness
// checks that property and fuzz tests run at every tick, scans of the
// trace, what a settled engine keeps, by holder (Retained), and the
// manifests several tests apply (ZonedCronJob).
//
// It is for tests only: _test.go files import it, and no other package
// may (internal/layering checks this).
package testkit

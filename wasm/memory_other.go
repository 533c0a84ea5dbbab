//go:build !(js && wasm)

package main

// limitMemory does nothing outside the browser: the limit is the tab's.
func limitMemory() {}

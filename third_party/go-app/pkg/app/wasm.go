//go:build wasm
// +build wasm

package app

// Stateflow's fork: GenerateStaticWebsite and Handler exist only outside
// WebAssembly (http.go and static.go are built with !wasm), so the wasm
// links neither net/http nor the crypto its initialisers pull in.

func wasmExecJS() string {
	return ""
}

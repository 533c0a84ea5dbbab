//go:build !(js && wasm)

package app

// selectField: natively there is no field to select.
func selectField(string) {}

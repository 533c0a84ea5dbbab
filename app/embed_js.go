//go:build js && wasm

package app

import "github.com/hack-pad/safejs"

// selectField focuses a text field and selects all its text, for a
// visitor to copy by hand.
func selectField(id string) {
	doc, err := safejs.Global().Get("document")
	if err != nil {
		return
	}
	el, err := doc.Call("getElementById", id)
	if err != nil || el.IsNull() || el.IsUndefined() {
		return
	}
	el.Call("focus")
	el.Call("select")
}

//go:build !(js && wasm)

package app

import "errors"

// mountCodeMirror fails outside the browser: the server prerenders the
// textarea, and native tests use it.
func mountCodeMirror(hostID, text string, onChange, onApply func(text string)) (codeMirror, error) {
	return nil, errors.New("there is no CodeMirror outside the browser")
}

// loadEditorScript has no script to load outside the browser.
func loadEditorScript(src string, done func(error)) {
	done(errors.New("there is no CodeMirror outside the browser"))
}

// whenNotFocused has no page to look at outside the browser.
func whenNotFocused(id string, f func()) { f() }

//go:build js && wasm

package app

import (
	"errors"

	"github.com/hack-pad/safejs"
)

// editorScriptState is the data-state of the page's editor <script>:
// "loading" until it runs or fails, then "loaded" or "failed".
const editorScriptState = "data-state"

// loadEditorScript adds web/codemirror.js to the page the first time an
// editor mounts (src is its URL as go-app resolves /web/ paths, so a site
// published under a path finds it) and calls done once, with nil when the
// script has run. The page does not list the script in its <head>: it
// would hold up the wasm's download, and an embed, which has no editor,
// would download it for nothing. done may run at once (the script ran or
// failed before) or later on JavaScript's event loop.
func loadEditorScript(src string, done func(error)) {
	script, state, err := editorScript(src)
	switch {
	case err != nil:
		done(err)
	case state == "loaded":
		done(nil)
	case state == "failed":
		done(errors.New("its script could not be downloaded"))
	default:
		if err := onceSettled(script, done); err != nil {
			done(err)
		}
	}
}

// editorScript finds the page's editor <script> or adds it, and says its
// state.
func editorScript(src string) (safejs.Value, string, error) {
	doc, err := safejs.Global().Get("document")
	if err != nil {
		return safejs.Value{}, "", err
	}
	script, err := doc.Call("querySelector", "script[data-stateflow-editor]")
	if err != nil {
		return safejs.Value{}, "", err
	}
	if !script.IsNull() {
		state, err := script.Call("getAttribute", editorScriptState)
		if err != nil {
			return safejs.Value{}, "", err
		}
		s, _ := state.String()
		return script, s, nil
	}
	if script, err = doc.Call("createElement", "script"); err != nil {
		return safejs.Value{}, "", err
	}
	for _, attr := range [][2]string{{"data-stateflow-editor", ""}, {editorScriptState, "loading"}, {"src", src}} {
		if _, err := script.Call("setAttribute", attr[0], attr[1]); err != nil {
			return safejs.Value{}, "", err
		}
	}
	// The state is set by listeners added before the element is in the
	// page, so they see its only load or error event.
	if err := markSettled(script); err != nil {
		return safejs.Value{}, "", err
	}
	head, err := doc.Get("head")
	if err == nil {
		_, err = head.Call("appendChild", script)
	}
	return script, "loading", err
}

// markSettled records on script whether it loaded or failed.
func markSettled(script safejs.Value) error {
	return onceSettled(script, func(err error) {
		state := "loaded"
		if err != nil {
			state = "failed"
		}
		script.Call("setAttribute", editorScriptState, state)
	})
}

// onceSettled calls done once, when script loads (nil) or fails, and
// removes its listeners then, or at once if adding them fails.
func onceSettled(script safejs.Value, done func(error)) error {
	var onLoad, onError safejs.Func
	release := func() {
		script.Call("removeEventListener", "load", onLoad.Value())
		script.Call("removeEventListener", "error", onError.Value())
		onLoad.Release()
		onError.Release()
	}
	var err error
	if onLoad, err = safejs.FuncOf(func(safejs.Value, []safejs.Value) any {
		release()
		done(nil)
		return nil
	}); err != nil {
		return err
	}
	if onError, err = safejs.FuncOf(func(safejs.Value, []safejs.Value) any {
		release()
		done(errors.New("its script could not be downloaded"))
		return nil
	}); err != nil {
		onLoad.Release()
		return err
	}
	if _, err = script.Call("addEventListener", "load", onLoad.Value()); err == nil {
		_, err = script.Call("addEventListener", "error", onError.Value())
	}
	if err != nil {
		release()
	}
	return err
}

// whenNotFocused calls f at once unless the element with id has the
// focus (someone is typing in the textarea); then f waits for it to lose
// the focus, so the editor is never swapped under their fingers.
func whenNotFocused(id string, f func()) {
	doc, err := safejs.Global().Get("document")
	if err != nil {
		f()
		return
	}
	active, err := doc.Get("activeElement")
	if err != nil || active.IsNull() {
		f()
		return
	}
	if activeID, err := active.Get("id"); err != nil {
		f()
		return
	} else if s, _ := activeID.String(); s != id {
		f()
		return
	}
	var onBlur safejs.Func
	onBlur, err = safejs.FuncOf(func(safejs.Value, []safejs.Value) any {
		active.Call("removeEventListener", "blur", onBlur.Value())
		onBlur.Release()
		f()
		return nil
	})
	if err != nil {
		f()
		return
	}
	if _, err := active.Call("addEventListener", "blur", onBlur.Value()); err != nil {
		onBlur.Release()
		f()
	}
}

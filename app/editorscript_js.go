//go:build js && wasm

package app

import (
	"errors"

	"github.com/hack-pad/safejs"
)

// loadEditorScript adds web/codemirror.js (its URL resolved as go-app
// resolves /web/ paths, so a site published under a path finds it) to
// the page the first time an editor mounts, and calls done once it has
// run or failed. The page does not list the script in its <head>: it
// would hold up the wasm's download, and an embed, which has no editor,
// would download it for nothing. done runs on JavaScript's event loop.
func loadEditorScript(src string, done func(error)) {
	if err := addEditorScript(src, done); err != nil {
		done(err)
	}
}

func addEditorScript(src string, done func(error)) error {
	api, err := safejs.Global().Get("stateflowEditor")
	if err == nil && !api.IsUndefined() && !api.IsNull() {
		done(nil)
		return nil
	}
	doc, err := safejs.Global().Get("document")
	if err != nil {
		return err
	}
	script, err := doc.Call("querySelector", "script[data-stateflow-editor]")
	if err != nil {
		return err
	}
	if script.IsNull() {
		if script, err = doc.Call("createElement", "script"); err != nil {
			return err
		}
		if err := script.Set("src", src); err != nil {
			return err
		}
		if _, err := script.Call("setAttribute", "data-stateflow-editor", ""); err != nil {
			return err
		}
		head, err := doc.Get("head")
		if err != nil {
			return err
		}
		if _, err := head.Call("appendChild", script); err != nil {
			return err
		}
	}
	var onLoad, onError safejs.Func
	finish := func(err error) {
		onLoad.Release()
		onError.Release()
		done(err)
	}
	if onLoad, err = safejs.FuncOf(func(safejs.Value, []safejs.Value) any { finish(nil); return nil }); err != nil {
		return err
	}
	if onError, err = safejs.FuncOf(func(safejs.Value, []safejs.Value) any {
		finish(errors.New("its script could not be downloaded"))
		return nil
	}); err != nil {
		onLoad.Release()
		return err
	}
	if _, err := script.Call("addEventListener", "load", onLoad.Value()); err != nil {
		return err
	}
	_, err = script.Call("addEventListener", "error", onError.Value())
	return err
}

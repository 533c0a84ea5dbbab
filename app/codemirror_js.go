//go:build js && wasm

package app

import (
	"errors"
	"fmt"
	"strings"

	"github.com/hack-pad/safejs"

	"github.com/stateflow/stateflow/scenario"
)

// jsCodeMirror is the editor of web/codemirror.js, reached through
// window.stateflowEditor with safejs: a JavaScript exception becomes an
// error, never a crash of the wasm.
type jsCodeMirror struct {
	api, handle       safejs.Value
	onChange, onApply safejs.Func
}

// mountCodeMirror creates CodeMirror in the element hostID with text.
// onChange gets the whole text after each edit made in the editor (not
// after SetText); onApply gets it on Ctrl/Cmd+Enter. Both are called on
// JavaScript's event loop: hand the work to the UI goroutine.
func mountCodeMirror(hostID, text string, onChange, onApply func(text string)) (cm codeMirror, err error) {
	defer func() {
		if r := recover(); r != nil {
			cm, err = nil, fmt.Errorf("%v", r)
		}
	}()
	api, err := safejs.Global().Get("stateflowEditor")
	if err != nil {
		return nil, err
	}
	if api.IsUndefined() || api.IsNull() {
		return nil, errors.New("its script did not load")
	}
	doc, err := safejs.Global().Get("document")
	if err != nil {
		return nil, err
	}
	host, err := doc.Call("getElementById", hostID)
	if err != nil {
		return nil, err
	}
	if host.IsNull() || host.IsUndefined() {
		return nil, errors.New("its place in the page is missing")
	}
	c := &jsCodeMirror{api: api}
	if c.onChange, err = textFunc(onChange); err != nil {
		return nil, err
	}
	if c.onApply, err = textFunc(onApply); err != nil {
		c.onChange.Release()
		return nil, err
	}
	opts, err := safejs.ValueOf(map[string]any{})
	if err == nil {
		err = opts.Set("onChange", c.onChange.Value())
	}
	if err == nil {
		err = opts.Set("onApply", c.onApply.Value())
	}
	if err == nil {
		c.handle, err = api.Call("create", host, text, opts)
	}
	if err != nil {
		c.release()
		return nil, err
	}
	return c, nil
}

// textFunc wraps f as a JavaScript function of one string.
func textFunc(f func(string)) (safejs.Func, error) {
	return safejs.FuncOf(func(_ safejs.Value, args []safejs.Value) any {
		if len(args) == 0 {
			return nil
		}
		if s, err := args[0].String(); err == nil {
			f(s)
		}
		return nil
	})
}

func (c *jsCodeMirror) SetText(text string) error {
	_, err := c.api.Call("setText", c.handle, text)
	return err
}

func (c *jsCodeMirror) SetProblems(ds []scenario.Diagnostic) error {
	list := make([]any, 0, len(ds))
	for _, d := range ds {
		msg := d.Message
		if d.Path != "" && !strings.HasPrefix(d.Message, d.Path) {
			msg = d.Path + ": " + d.Message
		}
		list = append(list, map[string]any{"line": d.Line, "column": d.Column, "severity": string(d.Severity), "message": msg})
	}
	_, err := c.api.Call("setDiagnostics", c.handle, list)
	return err
}

func (c *jsCodeMirror) RevealLine(line int) error {
	_, err := c.api.Call("revealLine", c.handle, line)
	return err
}

// Destroy removes the editor and its listeners.
func (c *jsCodeMirror) Destroy() {
	c.api.Call("destroy", c.handle)
	c.release()
}

func (c *jsCodeMirror) release() {
	c.onChange.Release()
	c.onApply.Release()
}

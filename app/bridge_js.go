//go:build js && wasm

package app

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/hack-pad/safejs"
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/stateflow/stateflow/engine/timezone"
)

// jsBridge talks to the browser through safejs: a JavaScript exception
// (disabled storage, a refused clipboard) becomes a Go error.
type jsBridge struct{}

func newBridge() bridge { return jsBridge{} }

func (jsBridge) storage() (safejs.Value, error) {
	return safejs.Global().Get("localStorage")
}

func (b jsBridge) StorageGet(key string) (string, bool, error) {
	s, err := b.storage()
	if err != nil || s.IsUndefined() || s.IsNull() {
		return "", false, errors.New("local storage is not available")
	}
	v, err := s.Call("getItem", key)
	if err != nil {
		return "", false, err
	}
	if v.IsNull() {
		return "", false, nil
	}
	str, err := v.String()
	return str, err == nil, err
}

func (b jsBridge) StorageSet(key, value string) error {
	s, err := b.storage()
	if err != nil || s.IsUndefined() || s.IsNull() {
		return errors.New("local storage is not available")
	}
	_, err = s.Call("setItem", key, value)
	return err
}

func (jsBridge) Fragment() string { return location("hash") }

func (jsBridge) Href() string { return location("href") }

// location is a property of window.location ("" where it cannot be read).
func location(property string) string {
	loc, err := safejs.Global().Get("location")
	if err != nil {
		return ""
	}
	v, err := loc.Get(property)
	if err != nil {
		return ""
	}
	s, _ := v.String()
	return s
}

// ReplaceFragment changes the URL's fragment without a history entry.
func (jsBridge) ReplaceFragment(fragment string) error {
	h, err := safejs.Global().Get("history")
	if err != nil {
		return err
	}
	_, err = h.Call("replaceState", safejs.Null(), "", "#"+fragment)
	return err
}

// CopyText writes text to the clipboard, waiting at most two seconds for
// the browser's promise. Call it off the UI goroutine.
func (jsBridge) CopyText(text string) error {
	nav, err := safejs.Global().Get("navigator")
	if err != nil {
		return err
	}
	clip, err := nav.Get("clipboard")
	if err != nil || clip.IsUndefined() {
		return errors.New("this browser gives no clipboard access here")
	}
	promise, err := clip.Call("writeText", text)
	if err != nil {
		return err
	}
	err = await(promise, 2*time.Second)
	if errors.Is(err, errNoAnswer) {
		return errors.New("the clipboard did not answer")
	}
	return err
}

// errNoAnswer is awaitValue's error for a promise still pending at its
// timeout.
var errNoAnswer = errors.New("no answer in time")

// await waits for a promise to settle.
func await(promise safejs.Value, timeout time.Duration) error {
	_, err := awaitValue(promise, timeout)
	return err
}

// awaitValue waits for a promise to settle and returns its value.
func awaitValue(promise safejs.Value, timeout time.Duration) (safejs.Value, error) {
	type settled struct {
		v   safejs.Value
		err error
	}
	done := make(chan settled, 1)
	ok, err := safejs.FuncOf(func(_ safejs.Value, args []safejs.Value) any {
		var v safejs.Value
		if len(args) > 0 {
			v = args[0]
		}
		done <- settled{v: v}
		return nil
	})
	if err != nil {
		return safejs.Value{}, err
	}
	defer ok.Release()
	fail, err := safejs.FuncOf(func(_ safejs.Value, args []safejs.Value) any {
		msg := "the browser refused"
		if len(args) > 0 {
			if m, err := args[0].Get("message"); err == nil {
				if s, err := m.String(); err == nil && s != "" {
					msg = s
				}
			}
		}
		done <- settled{err: errors.New(msg)}
		return nil
	})
	if err != nil {
		return safejs.Value{}, err
	}
	defer fail.Release()
	if _, err := promise.Call("then", ok.Value(), fail.Value()); err != nil {
		return safejs.Value{}, err
	}
	select {
	case s := <-done:
		return s.v, s.err
	case <-time.After(timeout):
		return safejs.Value{}, errNoAnswer
	}
}

// TimeZones loads the zones a scenario names from web/zoneinfo.zip,
// downloaded the first time one is needed (timezone.Lazy): app.wasm does
// not carry the database.
func (jsBridge) TimeZones() timezone.Loader {
	url := app.Getenv("GOAPP_STATIC_RESOURCES_URL") + "/zoneinfo.zip?v=" + app.Getenv("GOAPP_VERSION")
	return timezone.Lazy(func() ([]byte, error) {
		b, err := fetchBytes(url, 30*time.Second)
		if err != nil {
			return nil, fmt.Errorf("downloading %s: %w", url, err)
		}
		return b, nil
	})
}

// fetchBytes downloads url, giving up after timeout in all. It blocks
// its goroutine (not JavaScript's event loop) until the body has arrived,
// so it must not run inside a JavaScript callback; go-app's event
// handlers and lifecycle methods run on its own goroutine, and wait with
// it (the zone database is 50 KB with brotli: a fraction of a second).
func fetchBytes(url string, timeout time.Duration) ([]byte, error) {
	deadline := time.Now().Add(timeout)
	promise, err := safejs.Global().Call("fetch", url)
	if err != nil {
		return nil, err
	}
	resp, err := awaitValue(promise, time.Until(deadline))
	if err != nil {
		return nil, err
	}
	if ok, err := resp.Get("ok"); err != nil {
		return nil, err
	} else if fine, _ := ok.Bool(); !fine {
		status, _ := resp.Get("status")
		code, _ := status.Int()
		return nil, fmt.Errorf("HTTP %d", code)
	}
	promise, err = resp.Call("arrayBuffer")
	if err != nil {
		return nil, err
	}
	buf, err := awaitValue(promise, time.Until(deadline))
	if err != nil {
		return nil, err
	}
	array, err := safejs.Global().Get("Uint8Array")
	if err != nil {
		return nil, err
	}
	bytes, err := array.New(buf)
	if err != nil {
		return nil, err
	}
	n, err := bytes.Length()
	if err != nil {
		return nil, err
	}
	out := make([]byte, n)
	if _, err := safejs.CopyBytesToGo(out, bytes); err != nil {
		return nil, err
	}
	return out, nil
}

// OnKey calls f for key presses outside text fields; f reports whether it
// handled the key (then the browser's default is prevented).
func (jsBridge) OnKey(f func(key string) bool) (func(), error) {
	doc, err := safejs.Global().Get("document")
	if err != nil {
		return nil, err
	}
	fn, err := safejs.FuncOf(func(_ safejs.Value, args []safejs.Value) any {
		if len(args) == 0 {
			return nil
		}
		ev := args[0]
		target, _ := ev.Get("target")
		tag, _ := target.Get("tagName")
		name, _ := tag.String()
		ce, _ := target.Get("isContentEditable")
		editable, _ := ce.Truthy()
		role, _ := target.Call("getAttribute", "role")
		roleName, _ := role.String()
		if name == "TEXTAREA" || name == "INPUT" || name == "SELECT" || editable {
			return nil
		}
		k, _ := ev.Get("key")
		key, _ := k.String()
		if key == " " && (name == "BUTTON" || name == "SUMMARY" || name == "A" || roleName == "button") {
			return nil // Space presses the focused control, not Play
		}
		if f(key) {
			ev.Call("preventDefault")
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if _, err := doc.Call("addEventListener", "keydown", fn.Value()); err != nil {
		fn.Release()
		return nil, err
	}
	return func() {
		doc.Call("removeEventListener", "keydown", fn.Value())
		fn.Release()
	}, nil
}

// FocusLine puts the editor's caret at the start of a line.
func (jsBridge) FocusLine(id string, line int) {
	doc, err := safejs.Global().Get("document")
	if err != nil {
		return
	}
	el, err := doc.Call("getElementById", id)
	if err != nil || el.IsNull() {
		return
	}
	v, _ := el.Get("value")
	text, _ := v.String()
	pos := 0
	for l := 1; l < line && pos < len(text); pos++ {
		if text[pos] == '\n' {
			l++
		}
	}
	el.Call("focus")
	el.Call("setSelectionRange", pos, pos)
}

// query is the first element a selector matches, if any.
func query(selector string) (safejs.Value, bool) {
	doc, err := safejs.Global().Get("document")
	if err != nil {
		return safejs.Value{}, false
	}
	el, err := doc.Call("querySelector", selector)
	if err != nil || el.IsNull() || el.IsUndefined() {
		return safejs.Value{}, false
	}
	return el, true
}

// ScrollIntoView scrolls an element into view within its pane only (the
// page itself does not move).
func (jsBridge) ScrollIntoView(selector string) {
	if el, ok := query(selector); ok {
		opts, err := safejs.ValueOf(map[string]any{"block": "nearest", "inline": "nearest"})
		if err == nil {
			el.Call("scrollIntoView", opts)
		}
	}
}

// TellHeight posts the height the page needs to its framing page.
func (jsBridge) TellHeight(selector string, want, floor, ceiling int) int {
	win := safejs.Global()
	parent, err := win.Get("parent")
	if err != nil || parent.Equal(win) {
		return 0 // not in a frame
	}
	el, ok := query(selector)
	if !ok {
		return 0
	}
	page, err1 := intProp(win, "document", "documentElement", "clientHeight")
	box, err2 := intProp(el, "clientHeight")
	if err1 != nil || err2 != nil {
		return 0
	}
	h := min(page-box+want, ceiling)
	if h <= floor {
		return 0
	}
	msg, err := safejs.ValueOf(map[string]any{"type": "stateflow:resize", "height": h})
	if err != nil {
		return 0
	}
	if _, err := parent.Call("postMessage", msg, "*"); err != nil {
		return 0
	}
	return h
}

// intProp reads a number down a chain of properties.
func intProp(v safejs.Value, path ...string) (int, error) {
	var err error
	for _, name := range path {
		if v, err = v.Get(name); err != nil {
			return 0, err
		}
	}
	return v.Int()
}

// ScrollToEnd scrolls an element to its last line.
func (jsBridge) ScrollToEnd(selector string) {
	if el, ok := query(selector); ok {
		if h, err := el.Get("scrollHeight"); err == nil {
			el.Set("scrollTop", h)
		}
	}
}

// DragToScroll pans a scrolling pane with a mouse drag: the pane follows
// the pointer from where the button went down. A press that does not move
// stays a click (a box still opens the inspector).
func (jsBridge) DragToScroll(selector string) func() {
	el, ok := query(selector)
	if !ok {
		return func() {}
	}
	var down, moved bool
	var x0, y0, left0, top0 float64
	num := func(v safejs.Value, name string) float64 {
		f, err := v.Get(name)
		if err != nil {
			return 0
		}
		n, _ := f.Float()
		return n
	}
	onDown, err1 := safejs.FuncOf(func(_ safejs.Value, args []safejs.Value) any {
		ev := args[0]
		t, _ := ev.Get("pointerType")
		if kind, _ := t.String(); kind == "mouse" && num(ev, "button") == 0 {
			down, moved, x0, y0, left0, top0 = true, false, num(ev, "clientX"), num(ev, "clientY"), num(el, "scrollLeft"), num(el, "scrollTop")
		}
		return nil
	})
	onMove, err2 := safejs.FuncOf(func(_ safejs.Value, args []safejs.Value) any {
		if down {
			ev := args[0]
			dx, dy := num(ev, "clientX")-x0, num(ev, "clientY")-y0
			moved = moved || dx*dx+dy*dy > 16
			el.Set("scrollLeft", left0-dx)
			el.Set("scrollTop", top0-dy)
		}
		return nil
	})
	// A drag ends in a click on whatever is under the pointer: swallow it
	// before it reaches a box.
	onClick, err4 := safejs.FuncOf(func(_ safejs.Value, args []safejs.Value) any {
		if moved {
			moved = false
			args[0].Call("stopPropagation")
			args[0].Call("preventDefault")
		}
		return nil
	})
	onUp, err3 := safejs.FuncOf(func(safejs.Value, []safejs.Value) any { down = false; return nil })
	if err1 != nil || err2 != nil || err3 != nil || err4 != nil {
		return func() {}
	}
	listen := []struct {
		event string
		fn    safejs.Func
	}{{"pointerdown", onDown}, {"pointermove", onMove}, {"pointerup", onUp}, {"pointerleave", onUp}}
	for _, l := range listen {
		el.Call("addEventListener", l.event, l.fn.Value())
	}
	el.Call("addEventListener", "click", onClick.Value(), true)
	return func() {
		for _, l := range listen {
			el.Call("removeEventListener", l.event, l.fn.Value())
			l.fn.Release()
		}
		el.Call("removeEventListener", "click", onClick.Value(), true)
		onClick.Release()
	}
}

// ObserveSize reports an element's content box through a ResizeObserver.
func (jsBridge) ObserveSize(selector string, f func(w, h int)) func() {
	el, ok := query(selector)
	if !ok {
		return func() {}
	}
	report := func() {
		w, h := intOf(el, "clientWidth"), intOf(el, "clientHeight")
		if style, err := safejs.Global().Call("getComputedStyle", el); err == nil {
			w -= pxOf(style, "paddingLeft") + pxOf(style, "paddingRight")
			h -= pxOf(style, "paddingTop") + pxOf(style, "paddingBottom")
		}
		if w > 0 && h > 0 {
			f(w, h)
		}
	}
	cb, err := safejs.FuncOf(func(safejs.Value, []safejs.Value) any { report(); return nil })
	if err != nil {
		return func() {}
	}
	return observeResize(cb, el)
}

// MarkOverflow marks whether an element's content overflows it. The
// element's first child holds its content at its natural height: a
// ResizeObserver of both reports their heights after the browser's
// layout, so marking reads nothing that forces one.
func (jsBridge) MarkOverflow(selector string) func() {
	el, ok := query(selector)
	if !ok {
		return func() {}
	}
	inner, err := el.Get("firstElementChild")
	if err != nil || inner.IsNull() || inner.IsUndefined() {
		return func() {}
	}
	var outerH, innerH float64
	last := ""
	cb, err := safejs.FuncOf(func(_ safejs.Value, args []safejs.Value) any {
		entries := args[0]
		n, _ := entries.Length()
		for i := range n {
			e, err := entries.Index(i)
			if err != nil {
				continue
			}
			target, _ := e.Get("target")
			rect, _ := e.Get("contentRect")
			h, _ := rect.Get("height")
			height, _ := h.Float()
			if target.Equal(el) {
				outerH = height
			} else {
				innerH = height
			}
		}
		over := choose(innerH > outerH+1, "true", "false")
		if over != last {
			last = over
			if ds, err := el.Get("dataset"); err == nil {
				ds.Set("overflow", over)
			}
		}
		return nil
	})
	if err != nil {
		return func() {}
	}
	return observeResize(cb, el, inner)
}

// observeResize calls cb whenever one of els changes size, until the
// function it returns is called, which also releases cb. Where there is
// no ResizeObserver it never calls it.
func observeResize(cb safejs.Func, els ...safejs.Value) (stop func()) {
	obs, err := newObserver("ResizeObserver", cb)
	if err != nil {
		cb.Release()
		return func() {}
	}
	for _, el := range els {
		obs.Call("observe", el)
	}
	return func() {
		obs.Call("disconnect")
		cb.Release()
	}
}

// newObserver makes a ResizeObserver or MutationObserver calling cb.
func newObserver(kind string, cb safejs.Func) (safejs.Value, error) {
	ctor, err := safejs.Global().Get(kind)
	if err != nil {
		return safejs.Value{}, err
	}
	return ctor.New(cb.Value())
}

// intOf reads a numeric property, rounded down.
func intOf(v safejs.Value, name string) int {
	f, err := v.Get(name)
	if err != nil {
		return 0
	}
	n, _ := f.Float()
	return int(n)
}

// pxOf reads a computed style's length in pixels ("12px").
func pxOf(style safejs.Value, name string) int {
	v, err := style.Get(name)
	if err != nil {
		return 0
	}
	s, _ := v.String()
	n, _ := strconv.ParseFloat(strings.TrimSuffix(s, "px"), 64)
	return int(n + 0.5)
}

// Yield waits for a message posted to itself on a MessageChannel (which,
// unlike setTimeout, browsers do not clamp to 4 ms). While it waits no
// goroutine is runnable, so the Go runtime returns to the browser, which
// handles input and paints before the message brings us back.
func (jsBridge) Yield() {
	ch, err := safejs.Global().Get("MessageChannel")
	if err != nil {
		return
	}
	mc, err := ch.New()
	if err != nil {
		return
	}
	done := make(chan struct{})
	fn, err := safejs.FuncOf(func(safejs.Value, []safejs.Value) any { close(done); return nil })
	if err != nil {
		return
	}
	defer fn.Release()
	port1, err1 := mc.Get("port1")
	port2, err2 := mc.Get("port2")
	if err1 != nil || err2 != nil || port1.Set("onmessage", fn.Value()) != nil {
		return
	}
	if _, err := port2.Call("postMessage", safejs.Null()); err != nil {
		return
	}
	<-done
	port1.Call("close")
}

// Paint waits for the next animation frame, whose paint follows its
// callbacks, then for a message (a task after that paint). A hidden tab
// runs no animation frames: it waits 100 ms at most.
func (b jsBridge) Paint() {
	done := make(chan struct{})
	var once bool
	fn, err := safejs.FuncOf(func(safejs.Value, []safejs.Value) any {
		if !once {
			once = true
			close(done)
		}
		return nil
	})
	if err != nil {
		return
	}
	id, err := safejs.Global().Call("requestAnimationFrame", fn.Value())
	if err != nil {
		fn.Release()
		return
	}
	select {
	case <-done:
	case <-time.After(100 * time.Millisecond):
		// A frame that never came: cancel it before its callback goes.
		safejs.Global().Call("cancelAnimationFrame", id)
	}
	fn.Release()
	b.Yield()
}

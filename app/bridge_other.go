//go:build !(js && wasm)

package app

import (
	"errors"
	"runtime"

	"github.com/stateflow/stateflow/engine/timezone"
)

// memBridge stands in for the browser natively (tests, prerendering).
type memBridge struct {
	store    map[string]string
	fragment string
}

func newBridge() bridge { return &memBridge{store: map[string]string{}} }

func (b *memBridge) StorageGet(key string) (string, bool, error) {
	v, ok := b.store[key]
	return v, ok, nil
}

func (b *memBridge) StorageSet(key, value string) error { b.store[key] = value; return nil }
func (b *memBridge) Fragment() string                   { return b.fragment }
func (b *memBridge) TimeZones() timezone.Loader         { return timezone.Default }
func (b *memBridge) Href() string                       { return "http://localhost/" + b.fragment }
func (b *memBridge) ReplaceFragment(f string) error     { b.fragment = "#" + f; return nil }
func (b *memBridge) CopyText(string) error {
	return errors.New("there is no clipboard outside the browser")
}
func (b *memBridge) OnKey(func(string) bool) (func(), error)   { return func() {}, nil }
func (b *memBridge) FocusLine(string, int)                     {}
func (b *memBridge) ScrollIntoView(string)                     {}
func (b *memBridge) ScrollToEnd(string)                        {}
func (b *memBridge) DragToScroll(string) func()                { return func() {} }
func (b *memBridge) ObserveSize(string, func(w, h int)) func() { return func() {} }
func (b *memBridge) MarkOverflow(string) func()                { return func() {} }
func (b *memBridge) TellHeight(string, int, int, int) int      { return 0 }

// Yield lets other goroutines run; natively there is no event loop to wait for.
func (b *memBridge) Yield() { runtime.Gosched() }

// Paint: natively nothing is painted.
func (b *memBridge) Paint() { runtime.Gosched() }

// Package heapwalk measures what a value keeps reachable, by type, for
// the benchmarks' memory attribution. It walks with reflection, counting
// each object once, so a second root is charged only for what the first
// did not reach.
package heapwalk

import (
	"reflect"
	"unsafe"
)

// Walker accumulates the bytes reachable from the roots walked so far.
type Walker struct {
	seen   map[uintptr]bool
	ByType map[string]int64
	Total  int64
}

// New returns an empty walker.
func New() *Walker { return &Walker{seen: map[uintptr]bool{}, ByType: map[string]int64{}} }

// Walk charges what v reaches that no earlier root reached and returns it.
func (w *Walker) Walk(v any) int64 { return w.WalkValue(reflect.ValueOf(v)) }

// WalkValue is Walk of a reflected value (an unexported field too).
func (w *Walker) WalkValue(v reflect.Value) int64 {
	before := w.Total
	w.inline(v)
	return w.Total - before
}

func (w *Walker) charge(t string, n int64) {
	w.ByType[t] += n
	w.Total += n
}

// first reports whether p is reached for the first time, and marks it.
func (w *Walker) first(p unsafe.Pointer) bool {
	if w.seen[uintptr(p)] {
		return false
	}
	w.seen[uintptr(p)] = true
	return true
}

func (w *Walker) value(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return
		}
		if !w.first(v.UnsafePointer()) {
			return
		}
		e := v.Elem()
		w.charge(e.Type().String(), int64(e.Type().Size()))
		w.inline(e)
	case reflect.Interface:
		if v.IsNil() {
			return
		}
		e := v.Elem()
		if e.Kind() == reflect.Pointer {
			w.value(e)
			return
		}
		// A boxed non-pointer value: its box is not counted (reflection
		// does not say where it is), what it points to is.
		w.inline(e)
	case reflect.Slice:
		if v.IsNil() || v.Cap() == 0 {
			return
		}
		if !w.first(v.UnsafePointer()) {
			return // its array is counted already (a subslice of it too)
		}
		et := v.Type().Elem()
		w.charge("[]"+et.String(), int64(v.Cap())*int64(et.Size()))
		full := v.Slice3(0, v.Cap(), v.Cap())
		if hasPointers(et) {
			for i := 0; i < full.Len(); i++ {
				w.inline(full.Index(i))
			}
		}
	case reflect.Map:
		if v.IsNil() {
			return
		}
		if !w.first(v.UnsafePointer()) {
			return
		}
		kt, vt := v.Type().Key(), v.Type().Elem()
		// Swiss tables: slots of key+value plus a control byte, at 7/8 load.
		n := int64(v.Len())
		w.charge("map["+kt.String()+"]"+vt.String(), (n*(int64(kt.Size()+vt.Size())+1))*8/7+48)
		it := v.MapRange()
		for it.Next() {
			w.inline(it.Key())
			w.inline(it.Value())
		}
	case reflect.String:
		if v.Len() == 0 {
			return
		}
		if !w.first(unsafe.Pointer(unsafe.StringData(v.String()))) {
			return
		}
		w.charge("string", int64(v.Len()))
	}
}

// inline walks what a value held inline (a struct's fields, an array's
// elements) points to.
func (w *Walker) inline(v reflect.Value) {
	switch v.Kind() {
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			w.inline(v.Field(i))
		}
	case reflect.Array:
		if hasPointers(v.Type().Elem()) {
			for i := 0; i < v.Len(); i++ {
				w.inline(v.Index(i))
			}
		}
	case reflect.Pointer, reflect.Interface, reflect.Slice, reflect.Map, reflect.String:
		w.value(v)
	}
}

func hasPointers(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Pointer, reflect.Interface, reflect.Slice, reflect.Map, reflect.String, reflect.Func, reflect.Chan, reflect.UnsafePointer:
		return true
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if hasPointers(t.Field(i).Type) {
				return true
			}
		}
	case reflect.Array:
		return t.Len() > 0 && hasPointers(t.Elem())
	}
	return false
}

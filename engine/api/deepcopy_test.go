package api

import (
	"reflect"
	"testing"
)

// fill sets every settable field reachable from v to a value that is not
// zero and depends only on seed and the path to it: pointers point to
// filled values, slices hold two filled elements, maps two filled
// entries. Unexported fields (Quantity's, Time's) are set through their
// exported constructors where the type has them.
func fill(v reflect.Value, seed int, depth int) {
	if depth > 12 {
		return
	}
	switch v.Type() {
	case reflect.TypeOf(Quantity{}):
		v.Set(reflect.ValueOf(MilliQuantity(int64(1000 + seed))))
		return
	case reflect.TypeOf(Time{}):
		v.Set(reflect.ValueOf(Time{MS: int64(1000 + seed)}))
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString("s" + string(rune('a'+seed%26)))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(seed + 1))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(seed + 1))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(float64(seed) + 0.5)
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		fill(p.Elem(), seed+1, depth+1)
		v.Set(p)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), seed+i+1, depth+1)
			}
		}
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 2, 2)
		for i := range 2 {
			fill(s.Index(i), seed+i+1, depth+1)
		}
		v.Set(s)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		for i := range 2 {
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			fill(k, seed+i+1, depth+1)
			fill(e, seed+i+7, depth+1)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.Interface:
		// An interface field holds what the code puts there; leave it nil.
	}
}

// mutate changes every settable value reachable from v in place: through
// pointers, in slice elements and in map entries, so a copy that shares
// any of them with its original changes the original too.
func mutate(v reflect.Value, depth int) {
	if depth > 12 {
		return
	}
	switch v.Type() {
	case reflect.TypeOf(Quantity{}):
		v.Set(reflect.ValueOf(MilliQuantity(7)))
		return
	case reflect.TypeOf(Time{}):
		v.Set(reflect.ValueOf(Time{MS: 7}))
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(v.String() + "!")
	case reflect.Bool:
		v.SetBool(!v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(v.Int() + 100)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(v.Uint() + 100)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(v.Float() + 100)
	case reflect.Pointer:
		if !v.IsNil() {
			mutate(v.Elem(), depth+1)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				mutate(v.Field(i), depth+1)
			}
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			mutate(v.Index(i), depth+1)
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(v.MapIndex(k))
			// A map's values are not addressable: a value that is a
			// pointer, slice or map is changed where it points; a plain
			// value is replaced in this map only.
			mutate(e, depth+1)
			v.SetMapIndex(k, e)
		}
	}
}

// Every object's DeepCopy copies every field: changing anything reachable
// from the copy leaves the original as it was. The oracle is a second
// object filled the same way, not DeepCopy itself.
func TestDeepCopyCopiesEveryField(t *testing.T) {
	for _, newObject := range []func() Object{
		func() Object { return &Pod{} }, func() Object { return &Deployment{} }, func() Object { return &ReplicaSet{} },
		func() Object { return &Node{} }, func() Object { return &Event{} }, func() Object { return &Namespace{} },
		func() Object { return &Service{} }, func() Object { return &EndpointSlice{} }, func() Object { return &Endpoints{} },
		func() Object { return &DaemonSet{} }, func() Object { return &ControllerRevision{} },
		func() Object { return &StatefulSet{} }, func() Object { return &PersistentVolumeClaim{} },
		func() Object { return &Job{} }, func() Object { return &CronJob{} },
		func() Object { return &HorizontalPodAutoscaler{} }, func() Object { return &PodMetrics{} }, func() Object { return &NodeMetrics{} },
		func() Object { return &PodDisruptionBudget{} }, func() Object { return &ConfigMap{} }, func() Object { return &Secret{} },
	} {
		original, pristine := newObject(), newObject()
		fill(reflect.ValueOf(original).Elem(), 0, 0)
		fill(reflect.ValueOf(pristine).Elem(), 0, 0)
		if !reflect.DeepEqual(original, pristine) {
			t.Fatalf("%T: fill is not deterministic", original)
		}
		cp := original.DeepCopyObject()
		if !reflect.DeepEqual(cp, original) {
			t.Errorf("%T: the copy differs from its original before any change", original)
		}
		mutate(reflect.ValueOf(cp).Elem(), 0)
		if !reflect.DeepEqual(original, pristine) {
			t.Errorf("%T: changing the copy changed the original: DeepCopy shares a pointer, slice or map", original)
		}
	}
}

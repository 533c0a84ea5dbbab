package conformance

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"time"
	_ "unsafe" // go:linkname

	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientscheme "k8s.io/client-go/kubernetes/scheme"
	metricsapi "k8s.io/metrics/pkg/apis/metrics/v1beta1"

	"github.com/stateflow/stateflow/engine/api"
)

// clock maps the engine's virtual milliseconds onto wall-clock time so
// that upstream code which calls time.Now or metav1.Now directly (condition
// timestamps, the pod-age ranks of a scale-down) sees the tick's virtual
// time, give or take the microseconds the replay takes.
type clock struct {
	offset time.Duration // wall = epoch-based virtual time + offset
	now    time.Time     // the tick's virtual time on the wall clock
}

// newClock anchors virtual time nowMS at the current wall-clock instant.
func newClock(nowMS int64) clock {
	virtual := api.Time{MS: nowMS, Set: true}.Wall()
	wall := time.Now()
	return clock{offset: wall.Sub(virtual), now: wall}
}

// virtualClock is the clock of a replayed controller that reads the time
// only through a clock it is given (the Job, CronJob and
// TTL-after-finished controllers): wall-clock time is virtual time
// itself, so that cron schedules, which depend on the hour and minute,
// fall where the engine's do.
func virtualClock(nowMS int64) clock {
	return clock{now: api.Time{MS: nowMS, Set: true}.Wall()}
}

// toK8s converts an engine object into the typed k8s.io/api object, by its
// JSON (the engine's types use Kubernetes' field names), with every
// timestamp moved onto the wall clock.
func (c clock) toK8s(o api.Object) (runtime.Object, error) {
	b, err := json.Marshal(o)
	if err != nil {
		return nil, fmt.Errorf("marshal %s: %w", api.KeyOf(o), err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	c.shift(m, "")
	out, err := newK8sObject(o.GetKind())
	if err != nil {
		return nil, err
	}
	m["kind"] = o.GetKind()
	m["apiVersion"] = api.APIVersionOf(o.GetKind())
	b, err = json.Marshal(m)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, out); err != nil {
		return nil, fmt.Errorf("unmarshal %s into %T: %w", api.KeyOf(o), out, err)
	}
	if p, ok := out.(*core.Pod); ok && p.Status.PodIP != "" && len(p.Status.PodIPs) == 0 {
		// The engine's pods carry status.podIP only; the real API server
		// stores podIPs beside it (Convert_v1_PodStatus_To_core_PodStatus
		// fills one from the other), and the endpoint controllers read
		// podIPs.
		p.Status.PodIPs = []core.PodIP{{IP: p.Status.PodIP}}
	}
	if r, ok := out.(*apps.ControllerRevision); ok {
		if err := encodeRevision(r); err != nil {
			return nil, fmt.Errorf("revision %s: %w", api.KeyOf(o), err)
		}
	}
	return out, nil
}

// k8sTypes are the upstream API types the harness converts the engine's
// objects into: client-go's scheme (every built-in group) and the
// metrics API's.
var k8sTypes = func() *runtime.Scheme {
	s := runtime.NewScheme()
	utilruntime.Must(clientscheme.AddToScheme(s))
	utilruntime.Must(metricsapi.AddToScheme(s))
	return s
}()

// newK8sObject is a new upstream object of kind, at the group and
// version engine/api's kind registry serves it.
func newK8sObject(kind string) (runtime.Object, error) {
	gv, err := schema.ParseGroupVersion(api.APIVersionOf(kind))
	if err != nil {
		return nil, fmt.Errorf("kind %s: %w", kind, err)
	}
	out, err := k8sTypes.New(gv.WithKind(kind))
	if err != nil {
		return nil, fmt.Errorf("no conversion for kind %s: %w", kind, err)
	}
	return out, nil
}

// The DaemonSet and StatefulSet controllers store a revision's template
// as the JSON patch their unexported getPatch encodes, and find the
// revision of a template by comparing those bytes (daemon.Match,
// history.EqualRevision); the harness encodes the engine's revisions the
// same way.
//
//go:linkname daemonSetPatch k8s.io/kubernetes/pkg/controller/daemon.getPatch
func daemonSetPatch(ds *apps.DaemonSet) ([]byte, error)

//go:linkname statefulSetPatch k8s.io/kubernetes/pkg/controller/statefulset.getPatch
func statefulSetPatch(set *apps.StatefulSet) ([]byte, error)

// encodeRevision rewrites a converted revision's data as its owner's
// controller encodes it: the engine stores the same patch ({"spec":
// {"template": {"$patch": "replace", …}}}) as a typed value, whose JSON
// differs from upstream's in key order and empty fields only. The
// template is decoded and encoded again, so whatever it says survives.
func encodeRevision(r *apps.ControllerRevision) error {
	if len(r.Data.Raw) == 0 {
		return nil
	}
	var data struct {
		Spec struct {
			Template core.PodTemplateSpec `json:"template"`
		} `json:"spec"`
	}
	if err := json.Unmarshal(r.Data.Raw, &data); err != nil {
		return err
	}
	var patch []byte
	var err error
	if ref := metav1.GetControllerOf(r); ref != nil && ref.Kind == api.KindStatefulSet {
		patch, err = statefulSetPatch(&apps.StatefulSet{Spec: apps.StatefulSetSpec{Template: data.Spec.Template}})
	} else {
		patch, err = daemonSetPatch(&apps.DaemonSet{Spec: apps.DaemonSetSpec{Template: data.Spec.Template}})
	}
	if err != nil {
		return err
	}
	r.Data.Raw = patch
	return nil
}

// shift moves every RFC 3339 timestamp in a JSON tree by the offset:
// the values of keys named like times, and of a PodDisruptionBudget's
// status.disruptedPods (pod name → time).
func (c clock) shift(v any, key string) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if key == "disruptedPods" {
				x[k] = c.shift(e, "timestamp")
				continue
			}
			x[k] = c.shift(e, k)
		}
	case []any:
		for i, e := range x {
			x[i] = c.shift(e, key)
		}
	case string:
		if isTimeKey(key) {
			if t, err := time.Parse(time.RFC3339, x); err == nil {
				return t.Add(c.offset).Format(time.RFC3339Nano)
			}
		}
	}
	return v
}

func isTimeKey(k string) bool {
	return strings.HasSuffix(k, "Time") || strings.HasSuffix(k, "Timestamp") || k == "startedAt" || k == "finishedAt" || k == "timestamp"
}

// toK8sAll converts a list of objects.
func (c clock) toK8sAll(objs []api.Object) ([]runtime.Object, error) {
	out := make([]runtime.Object, 0, len(objs))
	for _, o := range objs {
		k, err := c.toK8s(o)
		if err != nil {
			return nil, err
		}
		out = append(out, k)
	}
	return out, nil
}

// metaNow is the tick's time as the API server would stamp it.
func (c clock) metaNow() metav1.Time { return metav1.NewTime(c.now) }

var metaTimeType = reflect.TypeOf(metav1.Time{})

// toVirtual returns a copy of o with every metav1.Time moved back from the
// wall clock to virtual time and truncated to the second. Upstream stamps
// metav1.Now() a few milliseconds after the tick's instant (the replay
// takes time): with upstream set, times after the tick's instant are the
// tick's time. The engine's objects are never clamped, so an engine time
// in the future shows as a difference.
func (c clock) toVirtual(o runtime.Object, upstream bool) runtime.Object {
	if o == nil {
		return nil
	}
	cp := o.DeepCopyObject()
	c.unshift(reflect.ValueOf(cp), upstream)
	return cp
}

func (c clock) unshift(v reflect.Value, clamp bool) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			c.unshift(v.Elem(), clamp)
		}
	case reflect.Struct:
		if v.Type() == metaTimeType {
			t := v.Addr().Interface().(*metav1.Time)
			if !t.IsZero() {
				if clamp && t.Time.After(c.now) && t.Time.Sub(c.now) < time.Second {
					t.Time = c.now
				}
				t.Time = t.Time.Add(-c.offset).Truncate(time.Second).UTC()
			}
			return
		}
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				c.unshift(v.Field(i), clamp)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			c.unshift(v.Index(i), clamp)
		}
	case reflect.Map:
		// Maps in the API types hold strings and quantities, and times
		// only in a PodDisruptionBudget's status.disruptedPods.
		if v.Type().Elem() != metaTimeType || v.IsNil() {
			return
		}
		for _, k := range v.MapKeys() {
			t := reflect.New(metaTimeType).Elem()
			t.Set(v.MapIndex(k))
			c.unshift(t, clamp)
			v.SetMapIndex(k, t)
		}
	}
}

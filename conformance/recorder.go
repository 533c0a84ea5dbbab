package conformance

import (
	"fmt"
	"sync"

	core "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/stateflow/stateflow/engine/api"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2"
)

// recorder is a record.EventRecorderLogger that keeps every Event the
// upstream controller emits, as "Kind/name: Type Reason message", before
// any client-side correlation (safe for the replica set controller's
// concurrent pod creations).
type recorder struct {
	mu     sync.Mutex
	events []*core.Event
}

var _ record.EventRecorderLogger = (*recorder)(nil)

// add keeps the Event as record's makeEvent would build it; the harness
// gives it the source and the time, then correlates it.
func (r *recorder) add(obj runtime.Object, typ, reason, msg string) {
	ev := &core.Event{Reason: reason, Message: msg, Type: typ, Count: 1}
	if m, err := meta.Accessor(obj); err == nil {
		kind := kindOfObject(obj)
		ev.InvolvedObject = core.ObjectReference{Kind: kind, Namespace: m.GetNamespace(), Name: m.GetName(), UID: m.GetUID(),
			APIVersion: api.APIVersionOf(kind), ResourceVersion: m.GetResourceVersion()}
		ev.Namespace = m.GetNamespace()
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, ev)
}

// correlator is client-go's EventCorrelator for one component, on a clock
// that reads the run's virtual time: it aggregates similar Events and
// drops spam as the real recorder does before anything reaches the API
// server, so the harness compares the Events both sides actually write.
type correlator struct {
	clock *clocktesting.FakeClock
	c     *record.EventCorrelator
	// seen counts, per aggregation key (EventAggregatorByReasonFunc), the
	// distinct messages since the key's 10-minute window began: from 10
	// on, client-go's aggregator forgets one of them at random at every
	// new message.
	seen map[string]*distinct
}

type distinct struct {
	messages map[string]bool
	last     int64
}

func newCorrelator() *correlator {
	clk := clocktesting.NewFakeClock(api.Time{Set: true}.Wall())
	return &correlator{clock: clk, c: record.NewEventCorrelatorWithOptions(record.CorrelatorOptions{Clock: clk}), seen: map[string]*distinct{}}
}

// random reports whether client-go's aggregation of ev's key is in its
// random regime, counting ev (at virtual time ms).
func (c *correlator) random(ev *core.Event, ms int64) bool {
	o := ev.InvolvedObject
	key := ev.Source.Component + "|" + o.Kind + "|" + o.Namespace + "|" + o.Name + "|" + string(o.UID) + "|" + ev.Type + "|" + ev.Reason
	d := c.seen[key]
	if d == nil || ms-d.last > 600_000 {
		d = &distinct{messages: map[string]bool{}}
		c.seen[key] = d
	}
	d.messages[ev.Message] = true
	d.last = ms
	return len(d.messages) >= 10
}

// correlate passes a sync's Events through the correlator at virtual time
// ms and returns those written, as lines, and the lines' "Kind/name: Type
// Reason" prefixes whose aggregation is in its random regime.
func (c *correlator) correlate(source string, ms int64, evs []*core.Event) ([]string, map[string]bool) {
	c.clock.SetTime(api.Time{MS: ms, Set: true}.Wall())
	var out []string
	random := map[string]bool{}
	for _, ev := range evs {
		ev = ev.DeepCopy()
		ev.Source = core.EventSource{Component: source}
		now := metav1.NewTime(c.clock.Now())
		ev.FirstTimestamp, ev.LastTimestamp = now, now
		if c.random(ev, ms) {
			random[eventLine(ev.InvolvedObject.Kind, ev.InvolvedObject.Name, ev.Type, ev.Reason, "")] = true
		}
		res, err := c.c.EventCorrelate(ev)
		if err != nil || res.Skip {
			continue
		}
		c.c.UpdateState(res.Event)
		out = append(out, eventLine(res.Event.InvolvedObject.Kind, res.Event.InvolvedObject.Name, res.Event.Type, res.Event.Reason, res.Event.Message))
	}
	return out, random
}

func eventLine(kind, name, typ, reason, msg string) string {
	return fmt.Sprintf("%s/%s: %s %s %s", kind, name, typ, reason, msg)
}

func (r *recorder) Event(obj runtime.Object, typ, reason, msg string) { r.add(obj, typ, reason, msg) }

func (r *recorder) Eventf(obj runtime.Object, typ, reason, format string, args ...any) {
	r.add(obj, typ, reason, fmt.Sprintf(format, args...))
}

func (r *recorder) AnnotatedEventf(obj runtime.Object, _ map[string]string, typ, reason, format string, args ...any) {
	r.add(obj, typ, reason, fmt.Sprintf(format, args...))
}

func (r *recorder) WithLogger(klog.Logger) record.EventRecorderLogger { return r }

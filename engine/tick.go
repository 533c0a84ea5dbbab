package engine

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/events"
	"github.com/stateflow/stateflow/engine/informer"
	"github.com/stateflow/stateflow/engine/trace"
)

// liveTick is the reconcile.Tick of one tick: every write goes through
// the API server and is recorded as an effect of the tick.
type liveTick struct {
	w    *world
	tick *trace.Tick
	host string
	name string
}

func (c *liveTick) Now() int64       { return c.w.now }
func (c *liveTick) Rand() *rand.Rand { return c.w.rng }

// Explain sets the tick's explanation. A plain string (format "%s" and
// one string, as Notes.Explain writes it, or a format without verbs) is
// kept as it is, without formatting it again; the line is kept as the
// rest after the tick's object's name when it begins with it
// (trace.Lines).
func (c *liveTick) Explain(format string, args ...any) {
	var s string
	switch {
	case len(args) == 1 && format == "%s":
		if a, ok := args[0].(string); ok {
			s = a
			break
		}
		s = fmt.Sprintf(format, args...)
	case len(args) == 0 && strings.IndexByte(format, '%') < 0:
		s = format
	default:
		s = fmt.Sprintf(format, args...)
	}
	c.tick.SetExplanation(c.w.lines.About(c.tick.Object, s))
}

// ExplainSubject sets the tick's explanation to "subject: text" given in
// pieces (reconcile.Notes): when the subject is the tick's object's name
// and the rest is one the trace keeps already, it allocates nothing.
func (c *liveTick) ExplainSubject(subject string, text []byte) {
	c.tick.SetExplanation(c.w.lines.AboutSubject(c.tick.Object, subject, text))
}

func (c *liveTick) Program(change trace.RuleChange) {
	c.tick.AddRule(change)
}

// maxReads bounds the reads a component makes in a tick; the objects
// whose watch events queued the tick have room of their own
// (maxQueuedBy).
const maxReads = 32

func (c *liveTick) Read(obj api.Object) {
	if len(c.tick.Reads) >= maxReads {
		return
	}
	k := api.KeyOf(obj)
	c.tick.Reads = append(c.tick.Reads, trace.Read{Object: k, Cached: obj.Meta().ResourceVersion, Live: c.live(k)})
}

// live is the API server's version of k, "<deleted>" when it holds none.
func (c *liveTick) live(k api.Key) string {
	if o, ok := c.w.store.Get(k); ok {
		return o.Meta().ResourceVersion
	}
	return deleted
}

// deleted stands for a version of an object that is gone: the API
// server's, or a cache's once the deletion reached it.
const deleted = "<deleted>"

// queuedReads are the reads of the objects whose watch events queued the
// tick's key (by), in out's room, taken before the component acts: the version its
// cache holds ("<deleted>" once the deletion reached it) and the API
// server's then.
func (c *liveTick) queuedReads(out []trace.Read, cache *informer.Cache, by []api.Key) []trace.Read {
	out = out[:0]
	if cache == nil {
		return out
	}
	for _, k := range by {
		cached := deleted
		if o, ok := cache.Get(k); ok {
			cached = o.Meta().ResourceVersion
		}
		out = append(out, trace.Read{Object: k, Cached: cached, Live: c.live(k), Queued: true})
	}
	return out
}

// addQueued adds the queued reads after the component's own: one it
// read itself is marked as queuing the tick.
func (c *liveTick) addQueued(reads []trace.Read) {
	own := len(c.tick.Reads)
	for _, q := range reads {
		i := slices.IndexFunc(c.tick.Reads[:own], func(r trace.Read) bool { return r.Object == q.Object })
		if i >= 0 {
			c.tick.Reads[i].Queued = true
			continue
		}
		c.tick.Reads = append(c.tick.Reads, q)
	}
}

func (c *liveTick) LiveGet(key api.Key) (api.Object, bool) { return c.w.store.Get(key) }

func (c *liveTick) LiveList(kind, ns string) []api.Object { return c.w.store.List(kind, ns) }

func (c *liveTick) record(class trace.Class, op trace.Op, before, after api.Object, summary string) {
	obj := after
	if obj == nil {
		obj = before
	}
	k := api.KeyOf(obj)
	c.tick.Effects = append(c.tick.Effects, trace.NewEffect(class, op, k, before, after, c.w.lines.About(k, summary)))
}

func (c *liveTick) Create(class trace.Class, obj api.Object, summary string) (api.Object, error) {
	out, err := c.w.store.Create(obj)
	if err != nil {
		return nil, err
	}
	c.record(class, trace.Create, nil, out, summary)
	return out, nil
}

func (c *liveTick) write(class trace.Class, obj api.Object, summary string, f func(api.Object) (api.Object, error)) (api.Object, error) {
	n, _ := c.w.store.Writes()
	out, err := f(obj)
	if err != nil {
		return nil, err
	}
	m, w := c.w.store.Writes()
	switch {
	case m == n:
		return out, nil // a no-op update: nothing was written
	case w.Type == apiserver.Deleted:
		// Removing the last finalizer completed a pending deletion.
		c.record(class, trace.Delete, w.Before(), nil, summary+"; the object is deleted")
		return out, nil
	}
	c.record(class, trace.Update, w.Before(), out, summary)
	return out, nil
}

func (c *liveTick) Update(class trace.Class, obj api.Object, summary string) (api.Object, error) {
	return c.write(class, obj, summary, c.w.store.Update)
}

func (c *liveTick) UpdateStatus(class trace.Class, obj api.Object, summary string) (api.Object, error) {
	return c.write(class, obj, summary, c.w.store.UpdateStatus)
}

func (c *liveTick) PatchStatus(class trace.Class, obj api.Object, summary string) (api.Object, error) {
	return c.write(class, obj, summary, c.w.store.PatchStatus)
}

func (c *liveTick) Delete(class trace.Class, key api.Key, opts apiserver.DeleteOptions, summary string) error {
	n, _ := c.w.store.Writes()
	_, gone, err := c.w.store.Delete(key, opts)
	if err != nil {
		return err
	}
	m, w := c.w.store.Writes()
	switch {
	case m == n:
		// Already being deleted: nothing was written.
	case gone:
		c.record(class, trace.Delete, w.Before(), nil, summary)
	default:
		c.record(class, trace.Delete, w.Before(), w.After(), summary)
	}
	return nil
}

func (c *liveTick) Bind(pod *api.Pod, node, summary string) error {
	n, _ := c.w.store.Writes()
	out, err := c.w.store.Bind(api.KeyOf(pod), pod.UID, node)
	if err != nil {
		return err
	}
	if m, w := c.w.store.Writes(); m != n {
		c.record(trace.Bind, trace.Update, w.Before(), out, summary)
	} else {
		before, _ := c.w.store.Get(api.KeyOf(pod))
		c.record(trace.Bind, trace.Update, before, out, summary) // a bind that changed nothing, as before
	}
	return nil
}

func (c *liveTick) Event(obj api.Object, fieldPath, eventType, reason, message string) {
	m := obj.Meta()
	e := events.Emitted{
		Involved: api.ObjectReference{Kind: obj.GetKind(), Namespace: m.Namespace, Name: m.Name, UID: m.UID,
			APIVersion: api.APIVersionOf(obj.GetKind()), ResourceVersion: m.ResourceVersion, FieldPath: fieldPath},
		Reason: reason, Message: message, Type: eventType,
		Source: api.EventSource{Component: c.w.eventSource(c.name), Host: c.host},
	}
	w, ok, err := c.w.recorder.Record(c.w.store, &e)
	if err != nil || !ok {
		return
	}
	if w.Before == nil {
		c.record(trace.Event, trace.Create, nil, w.After, "") // trace.Effect.Text says it
		return
	}
	c.record(trace.Event, trace.Update, w.Before, w.After, "")
}

package nodelifecycle

import (
	"fmt"
	"sort"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/informer"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
)

// EvictionName is the taint eviction controller's component name.
const EvictionName = "taint-eviction-controller"

// Evictor is the taint eviction controller.
type Evictor struct {
	reconcile.Base
	scheduled map[api.Key]int64 // pod → when it will be evicted
}

// NewEvictor returns an empty taint eviction controller.
func NewEvictor() *Evictor {
	return &Evictor{Base: reconcile.NewBase(EvictionName, "", informer.New(api.KindNode, api.KindPod)), scheduled: map[api.Key]int64{}}
}

// Clone implements reconcile.Component.
func (e *Evictor) Clone() reconcile.Component {
	s := make(map[api.Key]int64, len(e.scheduled))
	for k, v := range e.scheduled {
		s[k] = v
	}
	return &Evictor{Base: e.CloneBase(), scheduled: s}
}

// Observe queues a node when its taints change or a pod lands on it.
func (e *Evictor) Observe(ev apiserver.WatchEvent, q reconcile.Queue) {
	switch o := ev.Object.(type) {
	case *api.Node:
		if old, ok := ev.Old.(*api.Node); !ok || !sameNoExecute(old.Spec.Taints, o.Spec.Taints) {
			q.Add(api.KeyOf(o))
		}
	case *api.Pod:
		// Like the taint manager's taintedNodes lookup: a pod landing on a
		// node without NoExecute taints needs no work.
		bound := o.Spec.NodeName != "" && (ev.Type == apiserver.Added || ev.Old != nil && ev.Old.(*api.Pod).Spec.NodeName == "")
		if bound && e.tainted(o.Spec.NodeName) {
			q.Add(api.Key{Kind: api.KindNode, Name: o.Spec.NodeName})
		}
	}
}

func (e *Evictor) tainted(node string) bool {
	n, ok := e.Informer.Get(api.Key{Kind: api.KindNode, Name: node})
	return ok && len(noExecute(n.(*api.Node).Spec.Taints)) > 0
}

func sameNoExecute(a, b []api.Taint) bool {
	return fmt.Sprint(noExecute(a)) == fmt.Sprint(noExecute(b))
}

func noExecute(ts []api.Taint) []api.Taint {
	var out []api.Taint
	for _, t := range ts {
		if t.Effect == api.TaintNoExecute {
			out = append(out, t)
		}
	}
	return out
}

// Reconcile works out, for every pod on the node, when its tolerations of
// the node's NoExecute taints run out: evict now, schedule, or cancel.
func (e *Evictor) Reconcile(tick reconcile.Tick, key api.Key) (reconcile.Result, error) {
	n, ok := informer.Get[*api.Node](e.Informer, key)
	if !ok {
		return reconcile.Gone(tick, key, "")
	}
	taints := noExecute(n.Spec.Taints)
	now := tick.Now()
	next := int64(-1)
	var evicted, cancelled []string
	for _, po := range e.Informer.OnNode(n.Name) {
		p := po.(*api.Pod)
		pk := api.KeyOf(p)
		if p.DeletionTimestamp != nil {
			delete(e.scheduled, pk)
			continue
		}
		at, evict := evictionTime(p, taints)
		if !evict {
			if _, was := e.scheduled[pk]; was {
				delete(e.scheduled, pk)
				tick.Event(p, "", api.EventNormal, "TaintManagerEviction", fmt.Sprintf("Cancelling deletion of Pod %s/%s", p.Namespace, p.Name))
				cancelled = append(cancelled, p.Name)
			}
			continue
		}
		if at > now {
			e.scheduled[pk] = at
			if next < 0 || at < next {
				next = at
			}
			continue
		}
		delete(e.scheduled, pk)
		tick.Event(p, "", api.EventNormal, "TaintManagerEviction", fmt.Sprintf("Marking for deletion Pod %s/%s", p.Namespace, p.Name))
		if err := tick.Delete(trace.Translate, pk, apiserver.DeleteOptions{UID: p.UID}, fmt.Sprintf("evicted pod/%s: it no longer tolerates node/%s's taints", p.Name, n.Name)); err != nil && !apiserver.IsReason(err, apiserver.ReasonNotFound) {
			return reconcile.Result{}, err
		}
		evicted = append(evicted, p.Name)
	}
	tick.Explain("%s", e.explain(n, evicted, cancelled, next, now))
	if next > now {
		return reconcile.Result{RequeueAfter: next - now}, nil
	}
	return reconcile.Result{}, nil
}

func (e *Evictor) explain(n *api.Node, evicted, cancelled []string, next, now int64) string {
	sort.Strings(evicted)
	msg := fmt.Sprintf("node/%s: %d NoExecute taints", n.Name, len(noExecute(n.Spec.Taints)))
	if len(evicted) > 0 {
		msg += fmt.Sprintf("; evicted %d pods", len(evicted))
	}
	if len(cancelled) > 0 {
		msg += fmt.Sprintf("; cancelled %d scheduled evictions", len(cancelled))
	}
	if next > now {
		msg += fmt.Sprintf("; next eviction when tolerations expire in %s", trace.FormatTime(next-now))
	}
	return msg
}

// evictionTime is when p must go: at once if a NoExecute taint is not
// tolerated, else the earliest TimeAdded + tolerationSeconds; false when
// every taint is tolerated forever (or there is none).
func evictionTime(p *api.Pod, taints []api.Taint) (int64, bool) {
	at, evict := int64(-1), false
	for _, t := range taints {
		added := int64(0)
		if t.TimeAdded != nil {
			added = t.TimeAdded.MS
		}
		limit, tolerated := int64(-1), false
		for _, tol := range p.Spec.Tolerations {
			if !tol.Tolerates(t) {
				continue
			}
			tolerated = true
			if tol.TolerationSeconds == nil {
				limit = -1
				break
			}
			if s := max(*tol.TolerationSeconds, 0) * 1000; limit < 0 || s < limit {
				limit = s
			}
		}
		switch {
		case !tolerated:
			return added, true
		case limit >= 0:
			if !evict || added+limit < at {
				at = added + limit
			}
			evict = true
		}
	}
	return at, evict
}

package lesson

import (
	"fmt"
	"slices"
	"sort"
	"strconv"

	"github.com/stateflow/stateflow/engine/api/labels"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/trace"
	"github.com/stateflow/stateflow/provenance"
	"github.com/stateflow/stateflow/scenario"
)

// choices is how many choices a question offers (fewer when the world
// has fewer plausible ones).
const choices = 4

// ask generates the step's question at tick t from the world w then and
// the ticks after it.
func (l *Lesson) ask(q *scenario.QuestionSpec, t int, w *world) (*Question, error) {
	var out *Question
	var err error
	switch q.Ask {
	case scenario.AskNextComponent:
		out, err = l.askNextComponent(t)
	case scenario.AskFieldAfter:
		out, err = l.askFieldAfter(q, t, w)
	case scenario.AskMaxPods:
		out, err = l.askMaxPods(q, t, w)
	case scenario.AskBindNode:
		out, err = l.askBindNode(q, t, w)
	case scenario.AskWhyWriter:
		out, err = l.askWhyWriter(q, t, w)
	default:
		return nil, fmt.Errorf("unknown question %q", q.Ask)
	}
	if err != nil {
		return nil, err
	}
	if len(out.Choices) < 2 {
		return nil, fmt.Errorf("%s has one possible answer only (%s): ask something the world at tick %d leaves open", q.Ask, out.Choices[0], t)
	}
	if q.Prompt != "" {
		out.Prompt = q.Prompt
	}
	out.Ask = q.Ask
	return out, nil
}

// writes reports whether a tick changed the API server, leaving out the
// metrics-server's scrapes (every 15 s, they would answer every
// next-component question).
func writes(t *trace.Tick) bool { return len(t.Effects) > 0 && t.Component != engine.MetricsServer }

// askNextComponent: which component writes next? The others offered are
// those that write soon after, then the usual suspects.
func (l *Lesson) askNextComponent(t int) (*Question, error) {
	n := l.find(t, writes)
	if n == 0 {
		return nil, fmt.Errorf("nothing writes after tick %d, so no component acts next", t)
	}
	right := l.tick(n).Component
	var others []string
	for m := n + 1; m <= n+200 && l.ensure(m); m++ {
		if c := l.tick(m).Component; writes(l.tick(m)) && c != right && !slices.Contains(others, c) {
			others = append(others, c)
		}
	}
	for _, c := range []string{engine.DeploymentController, engine.ReplicaSetController, engine.Scheduler, engine.Kubelet, engine.GarbageCollector, engine.EndpointSliceController} {
		if c != right && !slices.Contains(others, c) {
			others = append(others, c)
		}
	}
	prompt := "Which component writes to the API server next?"
	for m := t + 1; m < n; m++ {
		if len(l.tick(m).Effects) > 0 {
			prompt = "Which component writes to the API server next, leaving out the metrics-server's scrapes?"
			break
		}
	}
	return offer(prompt, right, others, false, n, l.tick(n)), nil
}

// askFieldAfter: what will the field read after the object's next
// aggregate write?
func (l *Lesson) askFieldAfter(q *scenario.QuestionSpec, t int, w *world) (*Question, error) {
	r, _ := scenario.ParseRef(q.Object)
	k, ok := w.newest(r, nil)
	if !ok {
		return nil, fmt.Errorf("no object matches %s at tick %d", q.Object, t)
	}
	now := field(w.objs[k], q.Field)
	var after string
	n := l.find(t, func(tk *trace.Tick) bool {
		for _, e := range tk.Effects {
			if e.Object == k && e.Class == trace.Aggregate && e.After != nil {
				after = field(e.After, q.Field)
				return true
			}
		}
		return false
	})
	if n == 0 {
		return nil, fmt.Errorf("nothing aggregates into %s after tick %d", short(k), t)
	}
	// A count of zero is omitted from a status: it reads 0.
	_, errNow := strconv.Atoi(now)
	_, errAfter := strconv.Atoi(after)
	switch {
	case now == "<none>" && errAfter == nil:
		now = "0"
	case after == "<none>" && errNow == nil:
		after = "0"
	}
	others := []string{now}
	if v, err := strconv.Atoi(after); err == nil {
		others = append(others, numbers(v, []int{v + 1, v - 1, v + 2, v - 2})...)
	}
	prompt := fmt.Sprintf("What will %s of %s be after its next aggregate write (it is %s now)?", q.Field, short(k), now)
	out := offer(prompt, after, others, true, n, l.tick(n))
	out.Object = k
	return out, nil
}

// askMaxPods: how many of the Deployment's pods exist at most, from the
// tick until its rollout completes, leaving out terminating pods (those
// are what maxSurge bounds: a terminating pod no longer counts, though it
// exists until its kubelet confirms).
func (l *Lesson) askMaxPods(q *scenario.QuestionSpec, t int, w *world) (*Question, error) {
	r, _ := scenario.ParseRef(q.Object)
	k, ok := w.newest(r, nil)
	if !ok {
		return nil, fmt.Errorf("no Deployment matches %s at tick %d", q.Object, t)
	}
	d := w.objs[k].(*api.Deployment)
	sel := d.Spec.Selector.AsSelector()
	count := func() int {
		n := 0
		for pk, o := range w.objs {
			if pk.Kind == api.KindPod && pk.Namespace == k.Namespace && o.Meta().DeletionTimestamp == nil && sel.Matches(labels.Set(o.Meta().Labels)) {
				n++
			}
		}
		return n
	}
	most, proof := count(), t
	end := 0
	for n := t + 1; l.ensure(n); n++ {
		tk := l.tick(n)
		w.apply(tk)
		if c := count(); c > most {
			most, proof = c, n
		}
		if cur, ok := w.objs[k].(*api.Deployment); ok && rolledOut(cur) && n > t {
			end = n
			break
		}
	}
	if end == 0 {
		return nil, fmt.Errorf("the rollout of %s does not complete after tick %d", short(k), t)
	}
	replicas := int(d.Replicas())
	others := numbers(most, []int{replicas, most + 1, most - 1, replicas + 2, most + 2})
	prompt := fmt.Sprintf("How many pods of %s exist at most, not counting terminating ones, until its rollout completes?", short(k))
	out := offer(prompt, strconv.Itoa(most), others, true, proof, l.tick(max(proof, 1)))
	out.Object = k
	return out, nil
}

// rolledOut is kubectl rollout status's "successfully rolled out": the
// controller has seen the latest spec and every replica is updated and
// available, with no old ones left.
func rolledOut(d *api.Deployment) bool {
	st, r := d.Status, d.Replicas()
	return st.ObservedGeneration >= d.Generation && st.UpdatedReplicas == r && st.Replicas == r && st.AvailableReplicas == r
}

// askBindNode: which node will the scheduler bind the pod to? The pod is
// the newest one the reference names that is not bound yet.
func (l *Lesson) askBindNode(q *scenario.QuestionSpec, t int, w *world) (*Question, error) {
	r, _ := scenario.ParseRef(q.Object)
	k, ok := w.newest(r, func(o api.Object) bool { return o.(*api.Pod).Spec.NodeName == "" })
	if !ok {
		return nil, fmt.Errorf("no unbound pod matches %s at tick %d", q.Object, t)
	}
	var node string
	n := l.find(t, func(tk *trace.Tick) bool {
		for _, e := range tk.Effects {
			if p, ok := e.After.(*api.Pod); ok && e.Object == k && e.Class == trace.Bind && p.Spec.NodeName != "" {
				node = p.Spec.NodeName
				return true
			}
		}
		return false
	})
	if n == 0 {
		return nil, fmt.Errorf("%s is never bound after tick %d", short(k), t)
	}
	var nodes []string
	for nk := range w.objs {
		if nk.Kind == api.KindNode {
			nodes = append(nodes, nk.Name)
		}
	}
	sort.Strings(nodes)
	out := offer(fmt.Sprintf("Which node will the scheduler bind %s to?", short(k)), node, nodes, false, n, l.tick(n))
	out.Object = k
	return out, nil
}

// askWhyWriter: which component's write gave the field the value it has
// now? The answer is the first step of the field's provenance (package
// provenance); the other choices are the components of its later steps,
// then the usual ones. The feedback shows the chain.
func (l *Lesson) askWhyWriter(q *scenario.QuestionSpec, t int, w *world) (*Question, error) {
	r, _ := scenario.ParseRef(q.Object)
	k, ok := w.newest(r, nil)
	if !ok {
		return nil, fmt.Errorf("no object matches %s at tick %d", q.Object, t)
	}
	c, err := provenance.Why(l.e, provenance.Query{Object: k, Field: q.Field, At: t})
	if err != nil {
		return nil, fmt.Errorf("why %s %s at tick %d: %v", short(k), q.Field, t, err)
	}
	if !c.Set {
		return nil, fmt.Errorf("%s has no %s at tick %d: ask about a field it has", short(k), q.Field, t)
	}
	first := c.Steps[0]
	var others []string
	for _, s := range c.Steps[1:] {
		if s.Component != "" && s.Component != first.Component && !slices.Contains(others, s.Component) {
			others = append(others, s.Component)
		}
	}
	for _, comp := range []string{engine.Kubelet, engine.DeploymentController, engine.ReplicaSetController, engine.Scheduler, engine.KubectlActor} {
		if comp != first.Component && !slices.Contains(others, comp) {
			others = append(others, comp)
		}
	}
	prompt := fmt.Sprintf("Which component's write made %s of %s %s?", q.Field, short(k), provenance.FormatValue(c.Value, c.Set))
	out := offer(prompt, first.Component, others, false, first.Ticks[0], l.tick(first.Ticks[0]))
	out.Object, out.Chain = k, c
	return out, nil
}

// numbers keeps the candidates that are non-negative and not right,
// as strings.
func numbers(right int, candidates []int) []string {
	var out []string
	for _, c := range candidates {
		if c >= 0 && c != right {
			out = append(out, strconv.Itoa(c))
		}
	}
	return out
}

// offer builds a question: the right answer and up to choices−1 of the
// others (distinct, in their order of plausibility), sorted (numerically
// when numeric), so the right one's place says nothing.
func offer(prompt, right string, others []string, numeric bool, proof int, t *trace.Tick) *Question {
	cs := []string{right}
	for _, o := range others {
		if len(cs) == choices {
			break
		}
		if !slices.Contains(cs, o) {
			cs = append(cs, o)
		}
	}
	sort.SliceStable(cs, func(i, j int) bool {
		if numeric {
			a, errA := strconv.Atoi(cs[i])
			b, errB := strconv.Atoi(cs[j])
			if errA == nil && errB == nil {
				return a < b
			}
		}
		return cs[i] < cs[j]
	})
	return &Question{Prompt: prompt, Choices: cs, Answer: slices.Index(cs, right), Proof: proof, Why: tickWords(t)}
}

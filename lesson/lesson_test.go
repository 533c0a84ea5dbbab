package lesson

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine/api/labels"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/fieldpath"
	"github.com/stateflow/stateflow/engine/trace"
	"github.com/stateflow/stateflow/examples"
	"github.com/stateflow/stateflow/kubectl"
	"github.com/stateflow/stateflow/scenario"
)

// Every lesson plays from its first step to its last, and every question
// has exactly one right answer at its tick. The oracle is a second
// simulation of the scenario, read at the proving tick through kubectl's
// JSONPath and the API server, not the lesson's own reading of the
// trace.
func TestEveryLessonPlays(t *testing.T) {
	lessons := examples.Lessons()
	if len(lessons) < 3 {
		t.Fatalf("%d lessons", len(lessons))
	}
	questions := 0
	for _, ex := range lessons {
		t.Run(ex.Name, func(t *testing.T) {
			sc, err := scenario.Parse([]byte(ex.Source))
			if err != nil {
				t.Fatal(err)
			}
			l, err := New(sc)
			if err != nil {
				t.Fatal(err)
			}
			if l.Title() == "" || l.Len() == 0 {
				t.Fatalf("title %q, %d steps", l.Title(), l.Len())
			}
			prev := -1
			for i := 0; i < l.Len(); i++ {
				s, err := l.Step(i)
				if err != nil {
					t.Fatal(err)
				}
				if sc.Lesson.Steps[i].Goto.Next != nil && s.Tick <= prev {
					t.Errorf("step %d goes to tick %d, not after step %d's %d", i+1, s.Tick, i, prev)
				}
				prev = s.Tick
				if q := s.Question; q != nil {
					questions++
					checkQuestion(t, sc, i, s, q)
				}
			}
		})
	}
	if questions < 8 {
		t.Errorf("only %d questions in all the lessons", questions)
	}
}

// checkQuestion checks the choices are distinct, exactly one is the
// right one, and the right one is what the world shows.
func checkQuestion(t *testing.T, sc *scenario.Scenario, i int, s Step, q *Question) {
	t.Helper()
	if len(q.Choices) < 2 || q.Answer < 0 || q.Answer >= len(q.Choices) {
		t.Fatalf("step %d: choices %v, answer %d", i+1, q.Choices, q.Answer)
	}
	for j, c := range q.Choices {
		if slices.Index(q.Choices, c) != j {
			t.Errorf("step %d: choice %q offered twice", i+1, c)
		}
	}
	if q.Ask == scenario.AskWhyWriter {
		if q.Proof > s.Tick || q.Chain == nil {
			t.Errorf("step %d: why-writer's proof (tick %d) is after the step's tick %d, or it has no chain", i+1, q.Proof, s.Tick)
		}
	} else if q.Proof <= s.Tick && q.Ask != scenario.AskMaxPods {
		t.Errorf("step %d: the proof (tick %d) is not after the step's tick %d", i+1, q.Proof, s.Tick)
	}
	e, err := engine.New(sc.Config)
	if err != nil {
		t.Fatal(err)
	}
	right := q.Choices[q.Answer]
	k := &kubectl.Session{Cluster: e, Namespace: q.Object.Namespace}
	switch q.Ask {
	case scenario.AskNextComponent:
		e.Seek(q.Proof)
		tr := e.Trace()
		for n := s.Tick + 1; n < q.Proof; n++ {
			if tk := tr[n-1]; len(tk.Effects) > 0 && tk.Component != engine.MetricsServer {
				t.Errorf("step %d: tick %d (%s) writes before the answer's tick %d", i+1, n, tk.Component, q.Proof)
			}
		}
		if got := tr[q.Proof-1].Component; got != right {
			t.Errorf("step %d: tick %d is %s's, the answer says %s", i+1, q.Proof, got, right)
		}
	case scenario.AskFieldAfter:
		e.Seek(q.Proof)
		field := sc.Lesson.Steps[i].Question.Field
		got := k.Run("get " + strings.ToLower(q.Object.Kind) + " " + q.Object.Name + " -o jsonpath={." + field + "}").Stdout
		if got == "" {
			got = "0"
		}
		if got != right {
			t.Errorf("step %d: %s of %s at tick %d is %q, the answer says %q", i+1, field, q.Object.Short(), q.Proof, got, right)
		}
	case scenario.AskBindNode:
		e.Seek(s.Tick)
		if p := pod(t, e, q.Object); p.Spec.NodeName != "" {
			t.Errorf("step %d: %s is bound already at tick %d", i+1, q.Object.Short(), s.Tick)
		}
		e.Seek(q.Proof)
		if got := pod(t, e, q.Object).Spec.NodeName; got != right {
			t.Errorf("step %d: %s bound to %q, the answer says %q", i+1, q.Object.Short(), got, right)
		}
	case scenario.AskWhyWriter:
		// The right answer is the component of the last tick at or before
		// the step's that changed the field, read from the trace.
		e.Seek(s.Tick)
		field := sc.Lesson.Steps[i].Question.Field
		last := lastChange(e, q.Object, field)
		if last == nil || last.Seq != q.Proof || last.Component != right {
			t.Errorf("step %d: the last change of %s %s is %v, the answer says %s at tick %d", i+1, q.Object.Short(), field, last, right, q.Proof)
		}
	case scenario.AskMaxPods:
		e.Seek(s.Tick)
		o, _ := e.Store().Get(q.Object)
		sel := o.(*api.Deployment).Spec.Selector.AsSelector()
		count := func() int {
			n := 0
			for _, p := range e.Store().List(api.KindPod, q.Object.Namespace) {
				if p.Meta().DeletionTimestamp == nil && sel.Matches(labels.Set(p.Meta().Labels)) {
					n++
				}
			}
			return n
		}
		most := count()
		for e.Step() != nil {
			most = max(most, count())
			if out := k.Run("rollout status deploy/" + q.Object.Name + " --watch=false").Stdout; strings.Contains(out, "successfully rolled out") {
				break
			}
		}
		if strconv.Itoa(most) != right {
			t.Errorf("step %d: at most %d pods of %s, the answer says %s", i+1, most, q.Object.Short(), right)
		}
	}
}

// lastChange is the last tick that changed k's field (or a field inside
// it, or the field it lies in), or created k.
func lastChange(e *engine.Engine, k api.Key, field string) *trace.Tick {
	tr := e.Trace()
	for i := len(tr) - 1; i >= 0; i-- {
		for _, ef := range tr[i].Effects {
			if ef.Object != k {
				continue
			}
			if ef.Op == trace.Create {
				return tr[i]
			}
			for _, ch := range ef.Changes() {
				if fieldpath.Within(ch.Path, field) || fieldpath.Within(field, ch.Path) {
					return tr[i]
				}
			}
		}
	}
	return nil
}

func pod(t *testing.T, e *engine.Engine, k api.Key) *api.Pod {
	t.Helper()
	o, ok := e.Store().Get(k)
	if !ok {
		t.Fatalf("no %s", k.Short())
	}
	return o.(*api.Pod)
}

// StepWithin resolves a step in slices of the simulation, each call
// going on from the last, to the same step as Step.
func TestStepWithinSlices(t *testing.T) {
	ex, _ := examples.Lesson("node-failure")
	sc, err := scenario.Parse([]byte(ex.Source))
	if err != nil {
		t.Fatal(err)
	}
	whole, _ := New(sc)
	sliced, _ := New(sc)
	last := whole.Len() - 1
	want, err := whole.Step(last)
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	for {
		calls++
		got, err := sliced.StepWithin(last, 5)
		if err == ErrNotYet {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if got.Tick != want.Tick || len(got.Objects) != len(want.Objects) {
			t.Errorf("sliced step %+v, whole %+v", got, want)
		}
		break
	}
	if calls < 5 {
		t.Errorf("%d calls of 5 ticks resolved a step at tick %d", calls, want.Tick)
	}
}

// A lesson keeps its whole trace whatever the scenario's trace limit:
// with a tiny one every lesson still plays (a trimmed trace used to make
// the world at an early tick unreadable).
func TestLessonsIgnoreTheTraceLimit(t *testing.T) {
	for _, ex := range examples.Lessons() {
		sc, err := scenario.Parse([]byte(ex.Source))
		if err != nil {
			t.Fatal(err)
		}
		sc.Config.MaxTraceTicks, sc.Config.CheckpointEvery = 20, 5
		l, err := New(sc)
		if err != nil {
			t.Fatal(err)
		}
		for i := range l.Len() {
			if _, err := l.Step(i); err != nil {
				t.Fatalf("%s: %v", ex.Name, err)
			}
		}
	}
}

// field reads what kubectl's custom columns would: a list item by its
// type or name, by its index, a map key, and <none> for what is absent.
func TestField(t *testing.T) {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "web-1", Labels: map[string]string{"app.kubernetes.io/name": "web"}},
		Spec:   &api.PodSpec{Containers: []api.Container{{Name: "web", Image: "nginx:1"}}},
		Status: api.PodStatus{Phase: "Running", Conditions: []api.PodCondition{{Type: "Ready", Status: "True"}}}}
	for _, tc := range []struct{ path, want string }{
		{"status.phase", "Running"},
		{"status.conditions[Ready].status", "True"},
		{"spec.containers[web].image", "nginx:1"},
		{"spec.containers[0].image", "nginx:1"},
		{`metadata.labels["app.kubernetes.io/name"]`, "web"},
		{"status.conditions[Initialized].status", "<none>"},
		{"status.podIP", "<none>"},
	} {
		if got := field(p, tc.path); got != tc.want {
			t.Errorf("field(%s) = %q, want %q", tc.path, got, tc.want)
		}
	}
}

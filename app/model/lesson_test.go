package model

import (
	"reflect"
	"strings"
	"testing"

	"github.com/stateflow/stateflow/app/share"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/examples"
	"github.com/stateflow/stateflow/lesson"
	"github.com/stateflow/stateflow/scenario"
)

// resolve drives LessonResolve as the page does, one call per turn of
// the browser, and returns the tick to seek to (-1: none) after seeking
// there.
func resolve(t *testing.T, m *Model) int {
	t.Helper()
	for range 200 {
		if done, seek := m.LessonResolve(); done {
			if seek >= 0 {
				m.Seek(seek)
			}
			return seek
		}
	}
	t.Fatal("the step did not resolve in 200 calls")
	return 0
}

// oracle plays a lesson with package lesson alone.
func oracle(t *testing.T, source string) *lesson.Lesson {
	t.Helper()
	sc, err := scenario.Parse([]byte(source))
	if err != nil {
		t.Fatal(err)
	}
	l, err := lesson.New(sc)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func firstRollout(t *testing.T) (*Model, string) {
	t.Helper()
	ex, ok := examples.Lesson("first-rollout")
	if !ok {
		t.Fatal("no first-rollout lesson")
	}
	m := seed(t)
	if !m.OpenLesson(ex.Source, -1) {
		t.Fatalf("the lesson does not open: %v", m.Problems)
	}
	return m, ex.Source
}

// Opening a lesson loads its scenario and shows its first step's text at
// once; resolving it seeks to its tick and selects its first object.
func TestOpenLesson(t *testing.T) {
	m, src := firstRollout(t)
	if m.Applied != src || m.Source != src {
		t.Fatal("the lesson's scenario is not the one running and in the editor")
	}
	v, ok := m.Lesson()
	if !ok || v.Index != 0 || v.Len != 8 || !v.Busy || v.Title != "How one manifest becomes running containers" || len(v.Text) == 0 || v.Question != nil {
		t.Fatalf("before resolving: %+v", v)
	}
	want, _ := oracle(t, src).Step(0)
	if seek := resolve(t, m); seek != want.Tick || m.Status().Tick != want.Tick {
		t.Fatalf("resolving seeks to %d (tick %d), want %d", seek, m.Status().Tick, want.Tick)
	}
	v, _ = m.Lesson()
	if v.Busy || v.Err != "" || v.Tick != want.Tick || !reflect.DeepEqual(v.Objects, want.Objects) || v.Field != "spec.replicas" {
		t.Fatalf("resolved: %+v", v)
	}
	if m.Selected != want.Objects[0] {
		t.Fatalf("selected %v, want %v", m.Selected, want.Objects[0])
	}
	if q := v.Question; q == nil || q.Chosen != -1 || !reflect.DeepEqual(q.Choices, want.Question.Choices) || q.Why != want.Question.Why {
		t.Fatalf("question %+v", v.Question)
	}
	if m.Progress().Open != "first-rollout" {
		t.Fatalf("progress %+v", m.Progress())
	}
}

// Next and Back stay within the lesson; each step goes to its own tick,
// as the lesson's own simulation resolves it.
func TestLessonStepsAndBounds(t *testing.T) {
	m, src := firstRollout(t)
	o := oracle(t, src)
	for i := range 8 {
		m.LessonGo(m.LessonStep() + 1)
		if i == 7 {
			if m.LessonStep() != 7 {
				t.Fatalf("Next at the last step went to %d", m.LessonStep())
			}
			break
		}
		resolve(t, m)
		want, _ := o.Step(i + 1)
		if v, _ := m.Lesson(); v.Index != i+1 || v.Tick != want.Tick || m.Status().Tick != want.Tick {
			t.Fatalf("step %d: view %d at tick %d, page at tick %d; want tick %d", i+2, v.Index, v.Tick, m.Status().Tick, want.Tick)
		}
	}
	m.LessonGo(-3)
	if m.LessonStep() != 0 {
		t.Fatalf("Back before the first step went to %d", m.LessonStep())
	}
	if !m.LessonCached() {
		t.Fatal("a step seen before resolves at once")
	}
	gen := m.LessonGen()
	m.LessonGo(2)
	if m.LessonGen() == gen {
		t.Fatal("a move makes a resolution under way stale")
	}
}

// Answers: wrong, then right; the view says which, keeps the first
// answer for the score, and a choice out of range is ignored.
func TestLessonAnswers(t *testing.T) {
	m, src := firstRollout(t)
	o := oracle(t, src)
	resolve(t, m)
	v, _ := m.Lesson()
	q := v.Question
	wrong := (q.Answer + 1) % len(q.Choices)
	m.LessonAnswer(wrong)
	v, _ = m.Lesson()
	if v.Question.Chosen != wrong || v.Question.FirstRight {
		t.Fatalf("after a wrong answer: %+v", v.Question)
	}
	m.LessonAnswer(q.Answer)
	m.LessonAnswer(99)
	m.LessonAnswer(-1)
	v, _ = m.Lesson()
	if v.Question.Chosen != q.Answer || v.Question.FirstRight {
		t.Fatalf("after the right answer: %+v (the first answer was wrong)", v.Question)
	}
	if proof, ok := m.LessonProof(); !ok || proof != q.Proof {
		t.Fatalf("proof %d %v", proof, ok)
	}
	// The other questions right at the first try: the score at the end.
	questions := 1
	for i := 1; i < o.Len(); i++ {
		m.LessonGo(i)
		resolve(t, m)
		if v, _ := m.Lesson(); v.Question != nil {
			m.LessonAnswer(v.Question.Answer)
			questions++
		}
	}
	v, _ = m.Lesson()
	if v.Score == nil || v.Score.Questions != questions || v.Score.Answered != questions || v.Score.FirstRight != questions-1 {
		t.Fatalf("score %+v", v.Score)
	}
}

// The progress survives a visit: encoded, decoded in a new page, the
// lesson resumes at its step with its answers.
func TestLessonProgressRoundTrip(t *testing.T) {
	m, src := firstRollout(t)
	resolve(t, m)
	m.LessonAnswer(0)
	m.LessonGo(3)
	resolve(t, m)
	kept := m.ProgressJSON()

	n := seed(t)
	n.RestoreProgress(kept)
	if n.ResumeLesson() {
		t.Fatal("the default example has no lesson to resume")
	}
	n.Apply(src)
	if !n.ResumeLesson() || n.LessonStep() != 3 {
		t.Fatalf("resumed at %d", n.LessonStep())
	}
	resolve(t, n)
	n.LessonGo(0)
	resolve(t, n)
	v, _ := n.Lesson()
	if v.Question == nil || v.Question.Chosen != 0 {
		t.Fatalf("the answer was not kept: %+v", v.Question)
	}
	if !reflect.DeepEqual(DecodeProgress(kept), DecodeProgress(DecodeProgress(kept).Encode())) {
		t.Fatal("progress does not round-trip")
	}
	// A closed lesson is not resumed, but its place is kept.
	n.CloseLesson()
	o := seed(t)
	o.RestoreProgress(n.ProgressJSON())
	o.Apply(src)
	if o.ResumeLesson() || o.Progress().Lessons["first-rollout"].Step != 0 {
		t.Fatalf("a closed lesson: resumed %v, progress %+v", o.LessonOpen(), o.Progress())
	}
}

// Whatever another visit (or a hand) left in storage reads as some
// progress, never a failure.
func TestDecodeProgressTolerates(t *testing.T) {
	for _, s := range []string{"", "null", "{", `{"open":5}`, strings.Repeat("x", maxProgress+1), `[1,2]`} {
		if p := DecodeProgress(s); p.Open != "" || len(p.Lessons) != 0 {
			t.Errorf("%.20q: %+v", s, p)
		}
	}
	p := DecodeProgress(`{"open":"x","lessons":{"x":{"step":-4,"answers":{"-1":{"c":"a"},"2":{"c":"b","f":"a"},"100":{"c":"z"}}}}}`)
	if lp := p.Lessons["x"]; lp.Step != 0 || len(lp.Answers) != 1 || lp.Answers[2].Choice != "b" {
		t.Fatalf("%+v", p)
	}
	m, _ := firstRollout(t)
	m.CloseLesson()
	m.RestoreProgress(`{"open":"first-rollout","lessons":{"first-rollout":{"step":500}}}`)
	m.Apply(m.Applied)
	if !m.ResumeLesson() || m.LessonStep() != 7 {
		t.Fatalf("a step beyond the lesson opens %d, want the last", m.LessonStep())
	}
}

// Applying another scenario closes the player; applying the lesson's
// scenario again keeps its step.
func TestApplyClosesOrKeepsTheLesson(t *testing.T) {
	m, src := firstRollout(t)
	m.LessonGo(2)
	resolve(t, m)
	m.Apply(src)
	if m.LessonStep() != 2 {
		t.Fatalf("re-applied, the lesson is at step %d", m.LessonStep())
	}
	if v, _ := m.Lesson(); !v.Busy {
		t.Fatal("re-applied, the step resolves again (on the new simulation)")
	}
	ex, _ := examples.Get("recreate")
	m.Apply(ex.Source)
	if m.LessonOpen() || m.Progress().Open != "" {
		t.Fatal("a scenario without a lesson closes the player")
	}
	if m.OpenLesson(ex.Source, 0) {
		t.Fatal("a scenario without a Lesson document opens no player")
	}
	if m.OpenLesson("kind: [", 0) || m.Applied != ex.Source {
		t.Fatal("a broken scenario opens nothing and the running one keeps running")
	}
}

// A step that cannot resolve says so in the view, and the steps before
// it still work.
func TestLessonStepError(t *testing.T) {
	_, src := firstRollout(t)
	bad := strings.Replace(src, "goto: {at: 11s}", "goto: {tick: 100000}", 1)
	if bad == src {
		t.Fatal("the lesson changed: update the test")
	}
	m := seed(t)
	if !m.OpenLesson(bad, 7) {
		t.Fatalf("%v", m.Problems)
	}
	if seek := resolve(t, m); seek != -1 {
		t.Fatalf("a failed step seeks to %d", seek)
	}
	v, _ := m.Lesson()
	if v.Busy || !strings.Contains(v.Err, "This step cannot be shown: step 8 (line ") || !strings.Contains(v.Err, "tick 100000") {
		t.Fatalf("error %q busy %v", v.Err, v.Busy)
	}
	m.LessonGo(6)
	resolve(t, m)
	if v, _ := m.Lesson(); v.Err != "" || v.Busy {
		t.Fatalf("the step before: %+v", v)
	}
}

// The diagram marks the objects the step points at, and only those.
func TestFlowMarksTheLessonsObjects(t *testing.T) {
	m, _ := firstRollout(t)
	m.LessonGo(2)
	resolve(t, m)
	v, _ := m.Lesson()
	if len(v.Objects) != 3 {
		t.Fatalf("step 3 points at %v", v.Objects)
	}
	want := map[api.Key]bool{}
	for _, k := range v.Objects {
		want[k] = true
	}
	marked := 0
	for _, b := range m.Flow(wide).Boxes {
		if b.Lesson != want[b.Key] {
			t.Errorf("%s marked %v", b.ID, b.Lesson)
		}
		if b.Lesson {
			marked++
		}
	}
	if marked != 3 {
		t.Fatalf("%d boxes marked", marked)
	}
	m.CloseLesson()
	for _, b := range m.Flow(wide).Boxes {
		if b.Lesson {
			t.Fatalf("closed, %s is still marked", b.ID)
		}
	}
}

// A share link made at a step opens the player at that step, at the
// link's own tick.
func TestLessonShareRoundTrip(t *testing.T) {
	m, src := firstRollout(t)
	m.LessonGo(4)
	resolve(t, m)
	proof, _ := m.LessonProof()
	m.Seek(proof) // "Show me", then Share
	frag := share.EncodeState(share.State{Scenario: m.Applied, Tick: m.Status().Tick, Lesson: m.LessonStep() + 1})

	st, err := share.Decode("#" + frag)
	if err != nil || st.Lesson != 5 || st.Scenario != src {
		t.Fatalf("%+v %v", st, err)
	}
	n := seed(t)
	if !n.OpenLesson(st.Scenario, st.Lesson-1) {
		t.Fatal("the link's lesson does not open")
	}
	n.Seek(st.Tick)
	n.KeepTick()
	if seek := resolve(t, n); seek != -1 || n.Status().Tick != proof || n.LessonStep() != 4 {
		t.Fatalf("opened at step %d, tick %d (seek %d); want step 5 at tick %d", n.LessonStep()+1, n.Status().Tick, seek, proof)
	}
	n.LessonGo(5)
	if seek := resolve(t, n); seek <= 0 {
		t.Fatal("after the link's step, steps seek again")
	}
}

// The menu's titles, read from the lines of the Lesson documents
// (examples.Lessons), are the ones the scenario parser reads.
func TestLessonTitle(t *testing.T) {
	for _, ex := range examples.Lessons() {
		sc, err := scenario.Parse([]byte(ex.Source))
		if err != nil {
			t.Errorf("%s: %v", ex.Name, err)
			continue
		}
		if want := lessonTitle(sc.Lesson); ex.Title != want || want == "" {
			t.Errorf("%s: title %q, want %q", ex.Name, ex.Title, want)
		}
	}
	for _, ex := range examples.All() {
		if ex.Title != "" {
			t.Errorf("%s, an example without a lesson, has the title %q", ex.Name, ex.Title)
		}
	}
}

// The inspector marks the field a lesson's step points at, on the
// objects it points at: a plain path (status.readyReplicas) and a
// condition by its type (status.conditions[Ready].status), each on the
// lines of that field and no other.
func TestInspectorMarksTheLessonsField(t *testing.T) {
	ex, ok := examples.Lesson("eventual-consistency")
	if !ok {
		t.Fatal("no eventual-consistency lesson")
	}
	m := seed(t)
	if !m.OpenLesson(ex.Source, -1) {
		t.Fatalf("the lesson does not open: %v", m.Problems)
	}
	seen := map[string]bool{}
	for i := 0; ; i++ {
		resolve(t, m)
		v, _ := m.Lesson()
		if v.Field != "" && len(v.Objects) > 0 {
			m.Select(v.Objects[0])
			in := m.Inspect()
			if in.LessonField != v.Field {
				t.Errorf("step %d: the inspector names field %q, the step %q", i+1, in.LessonField, v.Field)
			}
			var marked []string
			for _, s := range in.Sections {
				for _, l := range s.Lines {
					if l.Lesson {
						marked = append(marked, strings.TrimSpace(l.Text))
					}
				}
			}
			// Both fields are scalars: one line each.
			leaf := v.Field[strings.LastIndexAny(v.Field, ".]")+1:]
			if len(marked) != 1 || !strings.HasPrefix(marked[0], leaf+":") {
				t.Errorf("step %d: field %s of %s marks %q", i+1, v.Field, v.Objects[0], marked)
			}
			seen[v.Field] = true
		}
		if i+1 >= v.Len {
			break
		}
		m.LessonGo(i + 1)
	}
	for _, f := range []string{"status.readyReplicas", "status.conditions[Ready].status"} {
		if !seen[f] {
			t.Errorf("no step pointed at %s", f)
		}
	}
	m.Select(api.Key{Kind: api.KindNode, Name: "node-1"})
	if in := m.Inspect(); in.LessonField != "" {
		t.Errorf("an object the step does not point at is marked at %q", in.LessonField)
	}
}

// A step that points at a field its object does not have yet (a pod's
// spec.nodeName before the scheduler binds it) says so, and marks no
// line.
func TestInspectorSaysTheLessonsFieldIsUnset(t *testing.T) {
	m, _ := firstRollout(t)
	for i := 0; ; i++ {
		resolve(t, m)
		v, _ := m.Lesson()
		if v.Field == "spec.nodeName" {
			m.Select(v.Objects[0])
			in := m.Inspect()
			p, _ := m.Engine().Store().Get(v.Objects[0])
			unbound := p.(*api.Pod).Spec.NodeName == ""
			if in.LessonUnset != unbound {
				t.Fatalf("step %d: %s bound %v, the inspector says unset %v", i+1, v.Objects[0], !unbound, in.LessonUnset)
			}
			for _, s := range in.Sections {
				for _, l := range s.Lines {
					if l.Lesson && unbound {
						t.Errorf("step %d: an unbound pod's line %q is marked", i+1, l.Text)
					}
				}
			}
			return
		}
		if i+1 >= v.Len {
			t.Fatal("no step of first-rollout points at spec.nodeName")
		}
		m.LessonGo(i + 1)
	}
}

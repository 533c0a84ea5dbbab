package model

import (
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/lesson"
	"github.com/stateflow/stateflow/scenario"
)

// This file is the lesson player's state: the lesson being played (on
// its own simulation, package lesson), the step shown, and the learner's
// progress in every lesson (the step reached and the answers given),
// which the page keeps between visits. Steps resolve lazily, one per
// LessonResolve call, so the page can render between them; the page
// then seeks its own simulation to the step's tick (the engine is
// deterministic: the page's ticks are the lesson's).

// player is the lesson open in the page.
type player struct {
	l    *lesson.Lesson // nil when the lesson could not start (err says why)
	spec *scenario.Lesson
	// index is the step shown; resolved counts the steps resolved (0 to
	// resolved-1), and step is step index once resolved.
	index, resolved int
	step            *lesson.Step
	err             string
	// keepTick says the resolution under way must not seek: the page
	// opened at a shared link's tick.
	keepTick bool
	text     []Paragraph // step index's text, read once
}

// Answer is a learner's answer to a step's question, by the choice's
// text (so that it still means the same choice if the choices move).
type Answer struct {
	Choice string `json:"c"`           // the latest choice
	First  string `json:"f,omitempty"` // the first choice given
}

// LessonProgress is where a learner is in one lesson.
type LessonProgress struct {
	Step    int            `json:"step"`
	Answers map[int]Answer `json:"answers,omitempty"`
}

// Progress is the learner's progress in every lesson, by the Lesson
// document's name, and the lesson open (kept between visits).
type Progress struct {
	Open    string                    `json:"open,omitempty"`
	Lessons map[string]LessonProgress `json:"lessons,omitempty"`
}

// maxProgress bounds the progress read back from storage.
const maxProgress = 256 << 10

// DecodeProgress reads progress kept by a previous visit; anything it
// cannot read (another version's, damaged, too large) is no progress.
func DecodeProgress(s string) Progress {
	var p Progress
	if len(s) > maxProgress || json.Unmarshal([]byte(s), &p) != nil {
		return Progress{}
	}
	for name, lp := range p.Lessons {
		lp.Step = max(lp.Step, 0)
		for i := range lp.Answers {
			if i < 0 || i >= scenario.MaxLessonSteps {
				delete(lp.Answers, i)
			}
		}
		p.Lessons[name] = lp
	}
	return p
}

// Encode is the progress as kept between visits.
func (p Progress) Encode() string {
	b, _ := json.Marshal(p)
	return string(b)
}

// RestoreProgress takes the progress kept by a previous visit.
func (m *Model) RestoreProgress(s string) { m.progress = DecodeProgress(s) }

// ProgressJSON is the learner's progress, to keep for the next visit.
func (m *Model) ProgressJSON() string { return m.progress.Encode() }

// Progress is the learner's progress in every lesson.
func (m *Model) Progress() Progress { return m.progress }

func (m *Model) lessonProgress(name string) LessonProgress {
	return m.progress.Lessons[name]
}

func (m *Model) setLessonProgress(name string, lp LessonProgress) {
	if m.progress.Lessons == nil {
		m.progress.Lessons = map[string]LessonProgress{}
	}
	m.progress.Lessons[name] = lp
}

// OpenLesson applies source, a scenario with a Lesson document, and
// opens the player at step (counting from 0; -1: where the learner left
// it). It reports false, leaving the running lesson as it was, when the
// scenario does not apply (Problems say why) or has no Lesson document.
func (m *Model) OpenLesson(source string, step int) bool {
	old := m.lesson
	m.lesson = nil
	if !m.Apply(source) {
		m.lesson = old
		return false
	}
	return m.StartLesson(step)
}

// ResumeLesson opens the player on the running scenario's lesson if the
// learner had it open at the last visit; it reports whether it did.
func (m *Model) ResumeLesson() bool {
	if m.sc == nil || m.sc.Lesson == nil || m.progress.Open == "" || m.sc.Lesson.Name != m.progress.Open {
		return false
	}
	return m.StartLesson(-1)
}

// KeepTick makes the step being resolved leave the simulation where it
// is (a shared link opened at its own tick).
func (m *Model) KeepTick() {
	if m.lesson != nil {
		m.lesson.keepTick = true
	}
}

// StartLesson opens the player on the running scenario's lesson at step
// (counting from 0; -1: where the learner left it); with no Lesson
// document it closes the player and reports false.
func (m *Model) StartLesson(step int) bool {
	if m.sc == nil || m.sc.Lesson == nil {
		m.CloseLesson()
		return false
	}
	spec := m.sc.Lesson
	p := &player{spec: spec}
	func() {
		defer func() {
			if r := recover(); r != nil {
				p.err = internalError("starting the lesson", r)
			}
		}()
		l, err := lesson.New(m.sc)
		if err != nil {
			p.err = "This lesson cannot start: " + err.Error()
			return
		}
		p.l = l
	}()
	m.lesson = p
	m.progress.Open = spec.Name
	if step < 0 {
		step = m.lessonProgress(spec.Name).Step
	}
	m.goStep(step)
	return true
}

// internalError is a recovered panic, in words and with its stack.
func internalError(what string, r any) string {
	return fmt.Sprintf("Stateflow hit an internal error while %s: %v. The rest of the page still works. Please report it with the scenario and this text:\n%s", what, r, debug.Stack())
}

// CloseLesson closes the player; the learner's progress is kept.
func (m *Model) CloseLesson() {
	m.lesson = nil
	m.progress.Open = ""
	m.lessonGen++
}

// LessonOpen reports whether the player is open.
func (m *Model) LessonOpen() bool { return m.lesson != nil }

// LessonGo goes to step i (counting from 0, kept within the lesson):
// the step is resolved by LessonResolve.
func (m *Model) LessonGo(i int) {
	if m.lesson != nil {
		m.goStep(i)
	}
}

func (m *Model) goStep(i int) {
	p := m.lesson
	i = min(max(i, 0), len(p.spec.Steps)-1)
	p.index, p.step, p.keepTick = i, nil, false
	if p.l != nil {
		p.err = ""
	}
	p.text = Markdown(p.spec.Steps[i].Text)
	lp := m.lessonProgress(p.spec.Name)
	lp.Step = i
	m.setLessonProgress(p.spec.Name, lp)
	m.lessonGen++
}

// LessonGen changes whenever the player goes to another step, opens or
// closes: a resolution scheduled before is stale.
func (m *Model) LessonGen() int { return m.lessonGen }

// LessonCached reports whether the step shown resolves at once (it was
// resolved before).
func (m *Model) LessonCached() bool {
	p := m.lesson
	return p != nil && p.l != nil && p.index < p.resolved
}

// lessonSliceTicks bounds how far one LessonResolve runs the lesson's
// simulation (about 40 ms of ticks at a few µs to 100 µs each), so a
// step that needs a long run resolves over several slices.
const lessonSliceTicks = 2_000

// LessonResolve resolves one more step toward the step shown, running
// the lesson's simulation at most lessonSliceTicks further, and reports
// whether it is over: the step is resolved (its first object is selected, and seek is
// its tick, for the page to go to; -1 not to move) or failed (the view's
// Err says why; a panic is caught and reported the same way).
func (m *Model) LessonResolve() (done bool, seek int) {
	p := m.lesson
	if p == nil || p.step != nil || p.err != "" || p.l == nil {
		return true, -1
	}
	done, seek = true, -1
	defer func() {
		if r := recover(); r != nil {
			p.err = internalError(fmt.Sprintf("working out step %d of the lesson", p.index+1), r)
			done, seek = true, -1
		}
	}()
	i := min(p.resolved, p.index)
	st, err := p.l.StepWithin(i, lessonSliceTicks)
	if errors.Is(err, lesson.ErrNotYet) {
		return false, -1 // the simulation goes on in the next slice
	}
	if err != nil {
		p.err = "This step cannot be shown: " + err.Error()
		return true, -1
	}
	p.resolved = max(p.resolved, i+1)
	if i < p.index {
		return false, -1
	}
	p.step = &st
	if len(st.Objects) > 0 {
		m.Selected = st.Objects[0]
	}
	seek = st.Tick
	if p.keepTick {
		seek, p.keepTick = -1, false
	}
	return true, seek
}

// LessonAnswer answers the step's question with choice (an index into
// its choices); the learner may answer again.
func (m *Model) LessonAnswer(choice int) {
	p := m.lesson
	if p == nil || p.step == nil || p.step.Question == nil || choice < 0 || choice >= len(p.step.Question.Choices) {
		return
	}
	text := p.step.Question.Choices[choice]
	lp := m.lessonProgress(p.spec.Name)
	a, ok := lp.Answers[p.index]
	if !ok || a.First == "" {
		a.First = text
	}
	a.Choice = text
	if lp.Answers == nil {
		lp.Answers = map[int]Answer{}
	}
	lp.Answers[p.index] = a
	m.setLessonProgress(p.spec.Name, lp)
}

// LessonStep is the step the player shows, counting from 0 (-1: no
// player open).
func (m *Model) LessonStep() int {
	if m.lesson == nil {
		return -1
	}
	return m.lesson.index
}

// LessonProof is the tick that proves the answer to the step's question.
func (m *Model) LessonProof() (int, bool) {
	p := m.lesson
	if p == nil || p.step == nil || p.step.Question == nil {
		return 0, false
	}
	return p.step.Question.Proof, true
}

// LessonView is what the player shows.
type LessonView struct {
	Name, Title string
	// Index is the step shown, counting from 0, of Len.
	Index, Len int
	// Text is the step's text (known before it is resolved).
	Text []Paragraph
	// Busy says the step is being resolved; Err that it cannot be.
	Busy bool
	Err  string
	// Tick is the step's tick, Objects what it points at (those that
	// exist at its tick), Field and Component the rest of its highlight;
	// set once resolved.
	Tick             int
	Objects          []api.Key
	Field, Component string
	Question         *QuestionView
	// Score is the learner's record, at the last step.
	Score *Score
}

// QuestionView is a step's question and the learner's answer.
type QuestionView struct {
	Prompt  string
	Choices []string
	// Chosen is the latest choice (-1: not answered yet), Answer the
	// right one, FirstRight whether the first choice given was right.
	Chosen, Answer int
	FirstRight     bool
	// Proof is the tick that shows the answer, Why that tick in words.
	Proof int
	Why   string
	// Chain is a why-writer question's provenance, a line per step,
	// newest first.
	Chain []string
}

// Score counts the questions of a lesson and those answered right at
// the first try.
type Score struct {
	Questions, Answered, FirstRight int
}

// Lesson is the player's view; false when no lesson is open.
func (m *Model) Lesson() (LessonView, bool) {
	p := m.lesson
	if p == nil {
		return LessonView{}, false
	}
	v := LessonView{
		Name: p.spec.Name, Title: lessonTitle(p.spec), Index: p.index, Len: len(p.spec.Steps),
		Text: p.text, Busy: p.step == nil && p.err == "", Err: p.err,
	}
	st := p.step
	if st == nil {
		return v, true
	}
	v.Tick, v.Objects, v.Field, v.Component = st.Tick, st.Objects, st.Field, st.Component
	answers := m.lessonProgress(p.spec.Name).Answers
	if q := st.Question; q != nil {
		v.Question = questionView(q, answers[p.index])
	}
	if p.index == len(p.spec.Steps)-1 && p.resolved == len(p.spec.Steps) {
		v.Score = m.score(answers)
	}
	return v, true
}

func questionView(q *lesson.Question, a Answer) *QuestionView {
	v := &QuestionView{
		Prompt: q.Prompt, Choices: q.Choices, Chosen: slices.Index(q.Choices, a.Choice), Answer: q.Answer,
		FirstRight: a.First != "" && a.First == q.Choices[q.Answer], Proof: q.Proof, Why: q.Why,
	}
	if q.Chain != nil {
		for _, s := range q.Chain.Steps {
			v.Chain = append(v.Chain, s.Summary())
		}
	}
	return v
}

// score counts the lesson's questions and the learner's answers (every
// step is resolved).
func (m *Model) score(answers map[int]Answer) *Score {
	s := &Score{}
	for i := range m.lesson.resolved {
		st, err := m.lesson.l.Step(i)
		if err != nil || st.Question == nil {
			continue
		}
		s.Questions++
		if a, ok := answers[i]; ok && slices.Contains(st.Question.Choices, a.Choice) {
			s.Answered++
			if a.First == st.Question.Choices[st.Question.Answer] {
				s.FirstRight++
			}
		}
	}
	return s
}

func lessonTitle(l *scenario.Lesson) string {
	if l.Title != "" {
		return l.Title
	}
	return l.Name
}

// LessonMarks are the objects the step shown points at, for the diagram.
func (m *Model) LessonMarks() []api.Key {
	if m.lesson == nil || m.lesson.step == nil {
		return nil
	}
	return m.lesson.step.Objects
}

// ScenarioLesson is the title of the running scenario's Lesson document
// ("" when it has none), which the page offers to open.
func (m *Model) ScenarioLesson() (name, title string) {
	if m.sc == nil || m.sc.Lesson == nil {
		return "", ""
	}
	return m.sc.Lesson.Name, lessonTitle(m.sc.Lesson)
}

package lesson

import (
	"strings"
	"testing"

	"github.com/stateflow/stateflow/examples"
	"github.com/stateflow/stateflow/scenario"
)

// FuzzLesson: any Lesson document over a small scenario either fails to
// parse with positioned errors, or plays: every step resolves or says
// why it cannot (never a panic), and every question it asks has distinct
// choices with its answer among them.
func FuzzLesson(f *testing.F) {
	ex, _ := examples.Lesson("first-rollout")
	manifests, lessonDoc, _ := strings.Cut(ex.Source, "kind: Lesson")
	manifests = strings.TrimSuffix(manifests, "apiVersion: stateflow/v1alpha1\n")
	f.Add("kind: Lesson" + lessonDoc)
	f.Add("kind: Lesson\nspec:\n  steps:\n  - {text: a, goto: {next: {class: bind}}, question: {ask: bind-node, object: \"pod/*\"}}\n  - {text: b, goto: {at: 1h}, question: {ask: next-component}}\n")
	f.Add("kind: Lesson\nspec:\n  steps:\n  - {text: a, goto: {tick: 0}, question: {ask: max-pods, object: deploy/codartium-api}}\n  - {text: b, goto: {tick: 99999}}\n")
	f.Add("kind: Lesson\nspec:\n  steps:\n  - {text: a, goto: {tick: 3}, question: {ask: field-after, object: \"rs/*\", field: \"status.conditions[0].type\"}}\n")
	f.Fuzz(func(t *testing.T, doc string) {
		sc, err := scenario.Parse([]byte(manifests + "apiVersion: stateflow/v1alpha1\n" + doc))
		if err != nil || sc.Lesson == nil {
			return
		}
		l, err := New(sc)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < l.Len(); i++ {
			s, err := l.Step(i)
			if err != nil {
				if !strings.HasPrefix(err.Error(), "step ") {
					t.Fatalf("step %d: the error does not say where: %v", i+1, err)
				}
				return
			}
			if q := s.Question; q != nil {
				if q.Answer < 0 || q.Answer >= len(q.Choices) {
					t.Fatalf("step %d: answer %d of %v", i+1, q.Answer, q.Choices)
				}
				seen := map[string]bool{}
				for _, c := range q.Choices {
					if seen[c] {
						t.Fatalf("step %d: %q offered twice", i+1, c)
					}
					seen[c] = true
				}
			}
		}
	})
}

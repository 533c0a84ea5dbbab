package examples

import "testing"

// The title reader reads the one-line forms a lesson writes, and gives
// up ("") on the others rather than reading them wrong.
func TestLessonTitleForms(t *testing.T) {
	for _, tc := range []struct{ name, source, want string }{
		{"plain", "kind: Lesson\nmetadata:\n  name: n\nspec:\n  title: A crash loop, layer by layer\n", "A crash loop, layer by layer"},
		{"comment", "kind: Lesson\nspec:\n  title: Rollouts # the first\n", "Rollouts"},
		{"double-quoted", "kind: Lesson\nspec:\n  title: \"Why: the \\\"top\\\"\"\n", `Why: the "top"`},
		{"single-quoted", "kind: Lesson\nspec:\n  title: 'It''s late'\n", "It's late"},
		{"name when no title", "kind: Lesson\nmetadata:\n  name: crash-loop\nspec:\n  steps: []\n", "crash-loop"},
		{"a step's title is not the lesson's", "kind: Lesson\nspec:\n  steps:\n    - title: step\n  title: lesson\n", "lesson"},
		{"second document", "kind: Deployment\nspec:\n  title: no\n---\nkind: Lesson\nspec:\n  title: yes\n", "yes"},
		{"indented by four", "kind: Lesson\nspec:\n    title: four\n", "four"},
		{"a comment after spec:", "kind: Lesson\nspec: # the lesson\n  title: commented\n", "commented"},
		{"block scalar", "kind: Lesson\nspec:\n  title: >-\n    folded\n", ""},
		{"no lesson", "kind: Deployment\nmetadata:\n  name: web\n", ""},
		{"kind in a nested map", "kind: Scenario\nspec:\n  kind: Lesson\n  title: no\n", ""},
	} {
		if got := lessonTitle(tc.source); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

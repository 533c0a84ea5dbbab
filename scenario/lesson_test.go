package scenario

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
)

const lessonBase = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: web:1}]
---
apiVersion: stateflow/v1alpha1
kind: Lesson
metadata: {name: l}
spec:
  title: A lesson
  steps:
`

// A Lesson document is read with its steps; each mistake is reported at
// its line and column, with the field's path.
func TestLessonDocument(t *testing.T) {
	sc, err := Parse([]byte(lessonBase + `    - text: one
      goto: {tick: 1}
      highlight: {objects: [deploy/web, rs/web-*], field: spec.replicas, component: deployment-controller}
      question: {ask: next-component}
    - text: two
      goto: {at: 1.5s}
    - text: three
      goto: {next: {component: replicaset-controller, object: "pod/web-*", class: translate}}
      question: {ask: bind-node, object: "pod/web-*"}
`))
	if err != nil {
		t.Fatal(err)
	}
	l := sc.Lesson
	if l == nil || l.Name != "l" || l.Title != "A lesson" || len(l.Steps) != 3 {
		t.Fatalf("lesson %+v", l)
	}
	if l.Steps[1].Goto.AtMS != 1500 || l.Steps[0].Line != 18 || l.Steps[2].Question.Ask != AskBindNode || l.Steps[2].Goto.Next.Class != "translate" {
		t.Errorf("steps %+v", l.Steps)
	}
	for _, c := range []struct{ steps, want string }{
		{"", "line 17:9: spec.steps: Required value: a lesson has at least one step"},
		{"    - goto: {tick: 1}\n", "line 18:7: spec.steps[0].text: Required value: a step says something"},
		{"    - text: x\n      goto: {tick: 1, at: 2s}\n", "line 19:13: spec.steps[0].goto: a step goes to exactly one of tick, at (a time) or next (a matching tick)"},
		{"    - text: x\n      goto: {tick: -2}\n", "line 19:20: spec.steps[0].goto.tick: Invalid value: -2: must be 0 or more"},
		{"    - text: x\n      goto: {at: soon}\n", "line 19:18: spec.steps[0].goto.at: \"soon\" is not a duration"},
		{"    - text: x\n      goto: {next: {component: etcd}}\n", `line 19:32: spec.steps[0].goto.next.component: unknown component "etcd"`},
		{"    - text: x\n      goto: {next: {class: up}}\n", `line 19:28: spec.steps[0].goto.next.class: Unsupported value: "up"`},
		{"    - text: x\n      goto: {next: {object: web}}\n", `line 19:29: spec.steps[0].goto.next.object: "web" is not an object reference`},
		{"    - text: x\n      goto: {next: {}}\n", "spec.steps[0].goto.next: Required value: next names a component, an object or a class"},
		{"    - text: x\n      goto: {tick: 1}\n      highlight: {objects: [widget/x]}\n", `line 20:29: spec.steps[0].highlight.objects[0]: unknown resource type "widget"`},
		{"    - text: x\n      goto: {tick: 1}\n      question: {ask: why}\n", `line 20:23: spec.steps[0].question.ask: Unsupported value: "why"`},
		{"    - text: x\n      goto: {tick: 1}\n      question: {ask: field-after, object: deploy/web}\n", "spec.steps[0].question.field: Required value: field-after needs a field path"},
		{"    - text: x\n      goto: {tick: 1}\n      question: {ask: max-pods, object: pod/web-1}\n", "line 20:41: spec.steps[0].question.object: max-pods asks about a Deployment, not pod/web-1"},
		{"    - text: x\n      goto: {tick: 1}\n      question: {ask: bind-node}\n", "spec.steps[0].question.object: Required value: bind-node needs the pod"},
	} {
		_, err := Parse([]byte(lessonBase + c.steps))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q:\n got %v\nwant %s", c.steps, err, c.want)
		}
	}
	if _, err := Parse([]byte(lessonBase + "    - text: x\n      goto: {tick: 1}\n---\napiVersion: stateflow/v1alpha1\nkind: Lesson\nspec: {steps: [{text: y, goto: {tick: 2}}]}\n")); err == nil || !strings.Contains(err.Error(), "only one Lesson document") {
		t.Errorf("two lessons: %v", err)
	}
}

// A Lesson document's claims are read with the place their text begins
// (a column only where the text stands on its line as written), a claim
// that is not a string is an error at its line, and the document's own
// keys draw no warning while a misspelt one does.
func TestLessonClaims(t *testing.T) {
	sc, err := Parse([]byte(lessonBase + `    - text: one
      goto: {tick: 1}
      claims:
        - deploy/web {.spec.replicas} = 2
        - "never, count pods = 9"
        - 'at 1s, count pods >= 0'
        - >-
          at the end,
          count pods = 2
  claims:
    - at the end, deploy/web {.status.readyReplicas} = 2
`))
	if err != nil {
		t.Fatal(err)
	}
	if len(sc.Warnings) != 0 {
		t.Errorf("warnings %v", sc.Warnings)
	}
	got := sc.Lesson.Steps[0].Claims
	want := []Claim{
		{Text: "deploy/web {.spec.replicas} = 2", Line: 21, Column: 11},
		{Text: "never, count pods = 9", Line: 22, Column: 12},
		{Text: "at 1s, count pods >= 0", Line: 23, Column: 12},
		{Text: "at the end, count pods = 2", Line: 24},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("step claims\n got %+v\nwant %+v", got, want)
	}
	if l := sc.Lesson.Claims; len(l) != 1 || l[0].Line != 28 || l[0].Column != 7 {
		t.Errorf("lesson claims %+v", l)
	}
	_, err = Parse([]byte(lessonBase + "    - text: one\n      goto: {tick: 1}\n      claims:\n        - events {.items[*].message} contains \"Error: ErrImagePull\"\n"))
	if err == nil || !strings.Contains(err.Error(), "line 21: a claim is a string") || !strings.Contains(err.Error(), "quote a claim") {
		t.Errorf("a claim that YAML reads as a mapping: %v", err)
	}
	_, err = Parse([]byte(lessonBase + "    - text: one\n      goto: {tick: 1}\n      claims: [3]\n"))
	if err == nil || !strings.Contains(err.Error(), "line 20: a claim is a string") {
		t.Errorf("a claim that is a number: %v", err)
	}
	sc, err = Parse([]byte(lessonBase + "    - text: one\n      goto: {tick: 1}\n      claim: [x]\n"))
	if err != nil || len(sc.Warnings) != 1 || sc.Warnings[0].String() != `line 20:7: spec.steps[0].claim: unknown field "claim" is ignored` {
		t.Errorf("a misspelt key: %v %v", err, sc.Warnings)
	}
}

// docs/lesson.schema.json documents exactly the keys the parser reads.
func TestLessonSchemaMatchesSpec(t *testing.T) {
	b, err := os.ReadFile("../docs/lesson.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var schema struct {
		Properties struct {
			Spec *schemaNode `json:"spec"`
		} `json:"properties"`
		Defs map[string]*schemaNode `json:"$defs"`
	}
	if err := json.Unmarshal(b, &schema); err != nil {
		t.Fatal(err)
	}
	spec := schema.Properties.Spec
	if spec == nil || spec.Properties["steps"] == nil {
		t.Fatal("the schema has no spec.steps")
	}
	// The steps' items are a $ref: put the definition in its place.
	spec.Properties["steps"].Items = schema.Defs["step"]
	for _, p := range compareSchema("spec", reflect.TypeOf(LessonSpec{}), spec) {
		t.Error(p)
	}
}

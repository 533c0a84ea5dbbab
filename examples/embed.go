// Package examples holds Stateflow's example scenarios, embedded so the
// playground and the tests read the same files.
package examples

import (
	"embed"
	"sort"
	"strings"
)

//go:embed *.yaml
var files embed.FS

//go:embed lessons/*.yaml
var lessonFiles embed.FS

// Example is one scenario file.
type Example struct {
	// Name is the file name without .yaml, such as "rolling-update".
	Name string
	// Source is the file's text.
	Source string
	// Title is a lesson's title (its Lesson document's spec.title, else
	// its metadata.name, else Name); "" for the other examples.
	Title string
}

// All returns every example, the default (what a new visitor sees) first,
// then by name.
func All() []Example {
	entries, _ := files.ReadDir(".")
	var out []Example
	for _, e := range entries {
		b, err := files.ReadFile(e.Name())
		if err != nil {
			continue
		}
		out = append(out, Example{Name: strings.TrimSuffix(e.Name(), ".yaml"), Source: string(b)})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if (out[i].Name == Default) != (out[j].Name == Default) {
			return out[i].Name == Default
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// Default is the example a new visitor sees first: one Deployment rolling
// out from nothing, the whole flow down and back up in about 10 s.
const Default = "codartium-api"

// Get returns the example called name, among All and Large (generated
// only when name is not one of All).
func Get(name string) (Example, bool) {
	for _, e := range All() {
		if e.Name == name {
			return e, true
		}
	}
	for _, l := range largeExamples {
		if l.name == name {
			return l.example(), true
		}
	}
	return Example{}, false
}

// NameOf names the example (of All and Large) whose text is source, ""
// for none. A Large example is generated only when source begins as it
// does.
func NameOf(source string) string {
	for _, e := range All() {
		if e.Source == source {
			return e.Name
		}
	}
	for _, l := range largeExamples {
		if strings.HasPrefix(source, largeHeader(l.title)) && l.example().Source == source {
			return l.name
		}
	}
	return ""
}

// Lessons returns the lessons (scenarios with a Lesson document, in
// lessons/), in the order a learner takes them: Order first, then by
// name.
func Lessons() []Example {
	entries, _ := lessonFiles.ReadDir("lessons")
	var out []Example
	for _, e := range entries {
		b, err := lessonFiles.ReadFile("lessons/" + e.Name())
		if err != nil {
			continue
		}
		name := strings.TrimSuffix(e.Name(), ".yaml")
		title := lessonTitle(string(b))
		if title == "" {
			title = name
		}
		out = append(out, Example{Name: name, Source: string(b), Title: title})
	}
	rank := func(name string) int {
		for i, n := range LessonOrder {
			if n == name {
				return i
			}
		}
		return len(LessonOrder)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if ri, rj := rank(out[i].Name), rank(out[j].Name); ri != rj {
			return ri < rj
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// LessonOrder is the order of the lessons that build on each other.
var LessonOrder = []string{"first-rollout", "eventual-consistency", "rolling-update-arithmetic", "crash-loop", "image-pull-failure", "node-failure", "service-endpoints", "hpa-loop", "pdb-drain"}

// Lesson returns the lesson called name.
func Lesson(name string) (Example, bool) {
	for _, e := range Lessons() {
		if e.Name == name {
			return e, true
		}
	}
	return Example{}, false
}

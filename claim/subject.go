package claim

// This file reads a fact's subject: which objects (a reference or a
// resource type with kubectl's selection flags) and what of them (how
// many, a JSONPath template, a condition's status), and checks a claim
// as a whole.

import (
	"path"
	"regexp"
	"strings"

	"k8s.io/client-go/util/jsonpath"

	"github.com/stateflow/stateflow/scenario"
)

// selection are the kubectl get flags a subject may carry, and whether
// each takes a value.
var selection = map[string]bool{
	"-l": true, "--selector": true, "--field-selector": true,
	"-n": true, "--namespace": true,
	"-A": false, "--all-namespaces": false,
}

// listOnly are the flags that select a list, which a reference (one
// object by name) cannot take.
var listOnly = map[string]bool{"-l": true, "--selector": true, "--field-selector": true, "-A": true, "--all-namespaces": true}

// resourceRE is a resource type as kubectl reads one (pods, deploy,
// endpointslices.discovery.k8s.io).
var resourceRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9.-]*$`)

const objectsHelp = "say which objects: TYPE/NAME (deploy/web, pod/web-*) or a resource type with kubectl's flags (pods -l app=web)"

// subject reads ["count" ["non-terminating"]] objects [JSONPath |
// "condition" TYPE].
func (p *parser) subject() (*Subject, error) {
	s := &Subject{}
	if p.words("count") {
		s.Count = true
		s.NonTerminating = p.words("non-terminating")
	}
	col := p.col()
	if p.done() || p.toks[p.i].kind != tWord {
		return nil, errAt(col, "%s", objectsHelp)
	}
	if err := s.objects(p.toks[p.i].text, col); err != nil {
		return nil, err
	}
	p.i++
	if err := p.flags(s); err != nil {
		return nil, err
	}
	return s, p.reading(s, col)
}

// objects reads TYPE or TYPE/NAME.
func (s *Subject) objects(word string, col int) error {
	res, name, isRef := strings.Cut(word, "/")
	switch {
	case !resourceRE.MatchString(res):
		return errAt(col, "%q is not a resource type: %s", res, objectsHelp)
	case isRef && name == "":
		return errAt(col, "%q names no object: write TYPE/NAME", word)
	}
	if _, err := path.Match(name, ""); err != nil {
		return errAt(col, "bad name pattern %q: %v", name, err)
	}
	s.Resource, s.Name = res, name
	return nil
}

// flags reads the selection flags after the objects.
func (p *parser) flags(s *Subject) error {
	for strings.HasPrefix(p.peek(0), "-") {
		col, word := p.col(), p.peek(0)
		name, _, inline := strings.Cut(word, "=")
		takes, known := selection[name]
		switch {
		case !known:
			return errAt(col, "%s is not a selection flag: a subject takes -l, --field-selector, -n or -A (what to read comes after: a JSONPath, condition TYPE, or count before it)", word)
		case s.single() && listOnly[name]:
			return errAt(col, "%s/%s names its object; %s selects a list: write %s %s …", s.Resource, s.Name, name, s.Resource, name)
		}
		p.i++
		s.Flags = append(s.Flags, word)
		if !takes || inline {
			continue
		}
		if p.done() || p.toks[p.i].kind == tPath || p.toks[p.i].kind == tComma {
			return errAt(p.col(), "%s needs a value", name)
		}
		s.Flags = append(s.Flags, p.toks[p.i].text)
		p.i++
	}
	return nil
}

// reading reads what of the objects the subject reads.
func (p *parser) reading(s *Subject, col int) error {
	switch {
	case p.i < len(p.toks) && p.toks[p.i].kind == tPath:
		t := p.toks[p.i]
		if s.Count {
			return errAt(t.col, "count reads how many objects there are: drop the JSONPath, or drop count")
		}
		if err := jsonpath.New("claim").AllowMissingKeys(true).Parse(t.text); err != nil {
			return errAt(t.col, "the JSONPath %s does not read: %v", t.text, err)
		}
		s.JSONPath = t.text
		p.i++
	case p.peek(0) == "condition":
		c := p.col()
		p.i++
		typ := p.peek(0)
		switch {
		case s.Count:
			return errAt(c, "count reads how many objects there are: drop condition, or drop count")
		case !s.single():
			return errAt(c, "condition reads one object's: name it (%s/NAME)", s.Resource)
		case typ == "" || !resourceRE.MatchString(typ):
			return errAt(p.col(), "condition needs a condition type, such as Available or Ready")
		}
		s.Condition = typ
		p.i++
	case !s.Count:
		return errAt(p.col(), "say what to read of %s: a JSONPath such as {.status.replicas}, condition TYPE, or count before it", s.Ref())
	}
	return nil
}

// validate checks what the grammar alone does not: the facts a timing
// needs. col is where the facts begin.
func validate(c *Claim, col int) error {
	t := c.When.Timing
	if (t == SameTick || t == SameWrite) && len(c.Facts) < 2 {
		return errAt(col, "%s needs two facts or more, joined by and", c.When)
	}
	if t != SameWrite {
		return nil
	}
	first := c.Facts[0].Subject
	if first != nil && first.single() {
		if _, err := scenario.ParseRef(first.Ref()); err != nil {
			return errAt(c.Facts[0].Col, "in the same write counts the writes of its object: %v", err)
		}
	}
	for _, f := range c.Facts {
		s := f.Subject
		if s == nil || !s.single() || s.Count {
			return errAt(f.Col, "in the same write reads one object's fields: each fact reads TYPE/NAME with a JSONPath or a condition")
		}
		if s.Ref() != first.Ref() || strings.Join(s.Flags, " ") != strings.Join(first.Flags, " ") {
			return errAt(f.Col, "in the same write reads one object: %s is not %s", s.Ref(), first.Ref())
		}
	}
	return nil
}

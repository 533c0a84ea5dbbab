package examples

import (
	"strconv"
	"strings"
)

// lessonTitle reads a lesson's title from the lines of its Lesson
// document: spec.title, else metadata.name; "" when there is none or its
// form is not one this reader knows (a plain, double- or single-quoted
// scalar on the key's line). The page lists the lessons at load, and
// decoding the Lesson documents, steps and all, cost a tenth of a second
// there; app/model's tests check this reading against the YAML decoder's
// for every lesson.
func lessonTitle(source string) string {
	for _, doc := range strings.Split(source, "\n---") {
		lines := strings.Split(doc, "\n")
		if !hasTopLevel(lines, "kind", "Lesson") {
			continue
		}
		if t := childValue(lines, "spec", "title"); t != "" {
			return t
		}
		return childValue(lines, "metadata", "name")
	}
	return ""
}

// hasTopLevel reports whether a line of the document is key: value, at
// the top level.
func hasTopLevel(lines []string, key, value string) bool {
	for _, l := range lines {
		if k, v, ok := keyValue(l); ok && k == key && v == value {
			return true
		}
	}
	return false
}

// childValue is the scalar of key in the top-level mapping parent: the
// first line under parent's line, indented, that is key: value at the
// indentation of parent's first child.
func childValue(lines []string, parent, key string) string {
	indent := -1
	in := false
	for _, l := range lines {
		trimmed := strings.TrimLeft(l, " ")
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		depth := len(l) - len(trimmed)
		switch {
		case depth == 0:
			k, v, ok := keyValue(l)
			in = ok && k == parent && v == ""
		case in && indent < 0:
			indent = depth
			fallthrough
		case in && depth == indent:
			if k, v, ok := keyValue(trimmed); ok && k == key {
				return v
			}
		}
	}
	return ""
}

// keyValue splits "key: value" (a plain key), reading the value as a
// YAML scalar; ok is false for anything else.
func keyValue(l string) (key, value string, ok bool) {
	key, rest, found := strings.Cut(l, ":")
	if !found || key == "" || strings.ContainsAny(key, " \"'{[#") {
		return "", "", false
	}
	if rest != "" && rest[0] != ' ' {
		return "", "", false
	}
	value, ok = scalar(strings.TrimSpace(rest))
	return key, value, ok
}

// scalar reads a one-line YAML scalar: plain (up to a comment), or
// double- or single-quoted; block and flow forms are not read.
func scalar(s string) (string, bool) {
	switch {
	case s == "":
		return "", true
	case s[0] == '#':
		return "", true // a comment: no value on the line
	case s[0] == '"':
		v, err := strconv.Unquote(s)
		return v, err == nil
	case s[0] == '\'':
		if len(s) < 2 || s[len(s)-1] != '\'' {
			return "", false
		}
		return strings.ReplaceAll(s[1:len(s)-1], "''", "'"), true
	case strings.ContainsRune("|>{[&*!", rune(s[0])):
		return "", false
	}
	if i := strings.Index(s, " #"); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	return s, true
}

package scenario

import (
	"fmt"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"
)

// yaml.v3 reports a value of the wrong type as
// "cannot unmarshal !!str `two` into int32".
var mismatchRE = regexp.MustCompile("^cannot unmarshal !!(\\w+)(?: `(.*)`)? into (\\S+)$")

// typeMismatch rewrites a yaml.v3 type error at line into a diagnostic
// with the field's path and column and without Go type names, such as
// "line 6:13: spec.replicas: expected an integer, got the string \"two\"".
func typeMismatch(doc *yaml.Node, line int, msg string) (Diagnostic, bool) {
	m := mismatchRE.FindStringSubmatch(msg)
	if m == nil {
		return Diagnostic{}, false
	}
	if hasAlias(doc) {
		// Through an alias the line is the anchor's, not the field's.
		return Diagnostic{}, false
	}
	tag, value, goType := m[1], m[2], m[3]
	path, node := valueAt(doc, "", line, "!!"+tag)
	if node == nil {
		return Diagnostic{}, false
	}
	want := goTypeWords(goType)
	var detail string
	switch {
	case tag == "int" && want == "an integer":
		detail = fmt.Sprintf("Invalid value: %s: out of range for %s", value, goType)
	case value != "":
		detail = fmt.Sprintf("expected %s, got %s %s", want, tagWords(tag), quoteIfText(tag, value))
	default:
		detail = fmt.Sprintf("expected %s, got %s", want, tagWords(tag))
	}
	return Diagnostic{Severity: Error, Line: node.Line, Column: node.Column, Path: path, Message: detail}, true
}

// valueAt finds the first value node on line with tag, and its path.
func valueAt(n *yaml.Node, path string, line int, tag string) (string, *yaml.Node) {
	switch n.Kind {
	case yaml.DocumentNode:
		for _, c := range n.Content {
			if p, f := valueAt(c, path, line, tag); f != nil {
				return p, f
			}
		}
		return "", nil
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			child := n.Content[i].Value
			if path != "" {
				child = path + "." + child
			}
			if p, f := valueAt(n.Content[i+1], child, line, tag); f != nil {
				return p, f
			}
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			if p, f := valueAt(c, fmt.Sprintf("%s[%d]", path, i), line, tag); f != nil {
				return p, f
			}
		}
	}
	if n.Line == line && n.ShortTag() == tag && path != "" {
		return path, n
	}
	return "", nil
}

func hasAlias(n *yaml.Node) bool {
	if n.Kind == yaml.AliasNode {
		return true
	}
	for _, c := range n.Content {
		if hasAlias(c) {
			return true
		}
	}
	return false
}

func goTypeWords(t string) string {
	switch {
	case strings.HasPrefix(t, "[]"):
		return "a list"
	case strings.HasPrefix(t, "map["), strings.Contains(t, "."):
		return "a mapping"
	case strings.HasPrefix(t, "int"), strings.HasPrefix(t, "uint"):
		return "an integer"
	case strings.HasPrefix(t, "float"):
		return "a number"
	case t == "bool":
		return "true or false"
	case t == "string":
		return "a string"
	}
	return t
}

func tagWords(tag string) string {
	switch tag {
	case "str":
		return "the string"
	case "int":
		return "the integer"
	case "float":
		return "the number"
	case "bool":
		return "the boolean"
	case "seq":
		return "a list"
	case "map":
		return "a mapping"
	case "null":
		return "null"
	}
	return "!!" + tag
}

func quoteIfText(tag, v string) string {
	if tag == "str" {
		return fmt.Sprintf("%q", v)
	}
	return v
}

// pathAtPosition is the path of the value node at line:col, or "".
func pathAtPosition(n *yaml.Node, path string, line, col int) string {
	if col == 0 {
		return ""
	}
	switch n.Kind {
	case yaml.DocumentNode:
		for _, c := range n.Content {
			if p := pathAtPosition(c, path, line, col); p != "" {
				return p
			}
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			child := n.Content[i].Value
			if path != "" {
				child = path + "." + child
			}
			if p := pathAtPosition(n.Content[i+1], child, line, col); p != "" {
				return p
			}
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			if p := pathAtPosition(c, fmt.Sprintf("%s[%d]", path, i), line, col); p != "" {
				return p
			}
		}
	}
	if n.Line == line && n.Column == col {
		return path
	}
	return ""
}

// Package fieldpath is Stateflow's one notation for a field of an object,
// shared by the trace's diff, kubectl's YAML line map (the inspector marks
// the lines a tick changed by it) and the scenario schema check:
//
//	spec.replicas                                  a field
//	metadata.labels["app.kubernetes.io/name"]      a map key with . / [ or ] in it
//	status.conditions[Available].status            a list item by its type or name
//	spec.template.spec.containers[0].image         a list item by its index
package fieldpath

import (
	"fmt"
	"strconv"
	"strings"
)

// Child is the field or map key name under path: joined with a dot, or
// quoted in brackets when the name holds a dot, a slash or a bracket.
func Child(path, name string) string {
	if strings.ContainsAny(name, "./[]") {
		return fmt.Sprintf("%s[%q]", path, name)
	}
	if path == "" {
		return name
	}
	return path + "." + name
}

// Item is the list element under path whose type or name is key.
func Item(path, key string) string { return path + "[" + key + "]" }

// Index is the i-th list element under path.
func Index(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

// Split splits a path into its segments: a.b[0].c["x.y"] gives a, b, 0,
// c, x.y.
func Split(path string) []string {
	var out []string
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			out = append(out, cur.String())
			cur.Reset()
		}
	}
	for i := 0; i < len(path); i++ {
		switch c := path[i]; c {
		case '.':
			flush()
		case '[':
			flush()
			seg, n := bracket(path[i:])
			if n < 0 {
				return out
			}
			out = append(out, seg)
			i += n
		default:
			cur.WriteByte(c)
		}
	}
	flush()
	return out
}

// bracket reads a bracketed segment at the start of s: a quoted key (with
// Go escapes) or a bare one. It returns the segment and the index of its
// closing bracket, or -1.
func bracket(s string) (string, int) {
	if len(s) > 1 && s[1] == '"' {
		if q, err := strconv.QuotedPrefix(s[1:]); err == nil && len(s) > len(q)+1 && s[len(q)+1] == ']' {
			key, _ := strconv.Unquote(q)
			return key, len(q) + 1
		}
	}
	end := strings.IndexByte(s, ']')
	if end < 0 {
		return "", -1
	}
	return s[1:end], end
}

// Lookup is the value at path in v, an object as encoding/json decodes it
// into an any (maps, lists and leaves): a map's key, or a list's item by
// its index or by its type or name. False when the path reaches nothing.
func Lookup(v any, path string) (any, bool) {
	for _, seg := range Split(path) {
		switch t := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = t[seg]; !ok {
				return nil, false
			}
		case []any:
			var ok bool
			if v, ok = listItem(t, seg); !ok {
				return nil, false
			}
		default:
			return nil, false
		}
	}
	return v, true
}

// listItem is list[key]: by index, or the item whose type or name is key.
func listItem(list []any, key string) (any, bool) {
	if i, err := strconv.Atoi(key); err == nil {
		if i >= 0 && i < len(list) {
			return list[i], true
		}
		return nil, false
	}
	for _, e := range list {
		if m, ok := e.(map[string]any); ok && (m["type"] == key || m["name"] == key) {
			return e, true
		}
	}
	return nil, false
}

// Within reports whether path is field or lies inside it
// ("status.conditions[Ready].status" lies inside "status.conditions").
func Within(path, field string) bool {
	if !strings.HasPrefix(path, field) {
		return false
	}
	rest := path[len(field):]
	return rest == "" || rest[0] == '.' || rest[0] == '['
}

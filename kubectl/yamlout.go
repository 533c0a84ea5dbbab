package kubectl

import (
	"sort"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/stateflow/stateflow/engine/fieldpath"
)

// YAMLLine is one line of kubectl-style YAML with the field path it shows,
// in the trace's notation ("spec.replicas",
// "status.conditions[Available].status").
type YAMLLine struct {
	Text string
	Path string
}

// toYAML renders a generic value (maps, slices, scalars from JSON) the way
// kubectl -o yaml does: keys sorted, two-space indent, list items at their
// parent's indentation.
func toYAML(v any) string {
	var b strings.Builder
	for _, l := range YAMLLines(v) {
		b.WriteString(l.Text + "\n")
	}
	return b.String()
}

// YAMLLines renders v as kubectl -o yaml does, line by line with paths.
func YAMLLines(v any) []YAMLLine {
	w := &yamlWriter{}
	w.value(v, 0, "", false)
	return w.lines
}

type yamlWriter struct {
	lines []YAMLLine
	cur   strings.Builder
	path  string
}

func (w *yamlWriter) emit(s, path string) {
	w.cur.WriteString(s)
	w.lines = append(w.lines, YAMLLine{Text: w.cur.String(), Path: path})
	w.cur.Reset()
}

func (w *yamlWriter) value(v any, indent int, path string, inList bool) {
	pad := strings.Repeat(" ", indent)
	switch x := v.(type) {
	case map[string]any:
		if len(x) == 0 {
			w.emit("{}", path)
			return
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for i, k := range keys {
			if !(inList && i == 0) {
				w.cur.WriteString(pad)
			}
			w.cur.WriteString(scalar(k) + ":")
			w.child(x[k], indent, fieldpath.Child(path, k))
		}
	case []any:
		if len(x) == 0 {
			w.emit("[]", path)
			return
		}
		for i, item := range x {
			p := itemPath(path, item, i)
			w.cur.WriteString(pad + "- ")
			switch it := item.(type) {
			case map[string]any:
				if len(it) == 0 {
					w.emit("{}", p)
					continue
				}
				w.value(it, indent+2, p, true)
			case []any:
				w.emit("", p)
				w.value(it, indent+2, p, false)
			default:
				w.emit(scalar(it), p)
			}
		}
	default:
		w.emit(pad+scalar(x), path)
	}
}

func (w *yamlWriter) child(v any, indent int, path string) {
	switch x := v.(type) {
	case map[string]any:
		if len(x) == 0 {
			w.emit(" {}", path)
			return
		}
		w.emit("", path)
		w.value(x, indent+2, path, false)
	case []any:
		if len(x) == 0 {
			w.emit(" []", path)
			return
		}
		w.emit("", path)
		w.value(x, indent, path, false)
	default:
		w.emit(" "+scalar(x), path)
	}
}

func itemPath(path string, item any, i int) string {
	if m, ok := item.(map[string]any); ok {
		for _, k := range []string{"type", "name"} {
			if s, ok := m[k].(string); ok {
				return fieldpath.Item(path, s)
			}
		}
	}
	return fieldpath.Index(path, i)
}

// scalar renders one scalar with the quoting YAML needs. Names, images and
// numbers, nearly every scalar of an object, take a fast path; the rest go
// through yaml.v3, whose quoting the fast path matches (TestScalarFastPath).
func scalar(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(x)
	case int:
		return strconv.Itoa(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case string:
		if plainSafe(x) {
			return x
		}
		if isTimestamp(x) {
			return `"` + x + `"` // YAML would read it as a timestamp
		}
		if strings.ContainsAny(x, "\n\t") {
			return strconv.Quote(x)
		}
	}
	out, err := yaml.Marshal(v)
	if err != nil {
		return strconv.Quote(toString(v))
	}
	return strings.TrimSuffix(string(out), "\n")
}

// plainSafe reports whether yaml.v3 writes s unquoted. It does when s
// starts with a letter (so it cannot read as a number, a timestamp or an
// indicator) or is a quantity such as 16Mi or 250m; has only letters,
// digits, spaces, quotes and ". _ / - : , ( ) = +", never ": ", " #" or a
// trailing space or colon; and is not a word YAML 1.1 reads as a bool or
// null. Names, images, reasons and messages qualify.
func plainSafe(s string) bool {
	if s == "" || s[len(s)-1] == ':' || s[len(s)-1] == ' ' || !(isLetter(s[0]) || isQuantity(s)) {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case isLetter(c), c >= '0' && c <= '9', strings.IndexByte("._/-,()=+\"'", c) >= 0:
		case c == ':':
			if s[i+1] == ' ' {
				return false
			}
		case c == ' ':
			if s[i+1] == '#' {
				return false
			}
		default:
			return false
		}
	}
	switch strings.ToLower(s) {
	case "y", "n", "yes", "no", "on", "off", "true", "false", "null":
		return false
	}
	return true
}

// isQuantity reports whether s starts with a digit and has only digits,
// dots and letters, one of which no number or timestamp YAML knows can
// hold (so not a-f, e, o, x, b, t, z): 16Mi and 250m, not 1e3 or 0x1F.
func isQuantity(s string) bool {
	if s[0] < '0' || s[0] > '9' {
		return false
	}
	sure := false
	for i := 0; i < len(s); i++ {
		c := s[i] | 0x20 // lower case for letters
		switch {
		case s[i] >= '0' && s[i] <= '9', s[i] == '.':
		case c >= 'a' && c <= 'z':
			if strings.IndexByte("abcdefotxz", c) < 0 {
				sure = true
			}
		default:
			return false
		}
	}
	return sure
}

// isTimestamp reports whether s is an RFC 3339 time in UTC to the second,
// as metadata.creationTimestamp and condition times are written, and a
// valid time (yaml.v3 quotes only what it would read back as a time).
func isTimestamp(s string) bool {
	const layout = "0000-00-00T00:00:00Z"
	if len(s) != len(layout) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if layout[i] == '0' && (s[i] < '0' || s[i] > '9') || layout[i] != '0' && s[i] != layout[i] {
			return false
		}
	}
	_, err := time.Parse(time.RFC3339, s) // as yaml.v3's resolver does
	return err == nil
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

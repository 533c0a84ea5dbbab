package kubectl

import (
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// toYAML renders a generic value (maps, slices, scalars from JSON) the way
// kubectl -o yaml does: keys sorted, two-space indent, list items at their
// parent's indentation.
func toYAML(v any) string {
	var b strings.Builder
	writeYAML(&b, v, 0, false)
	return b.String()
}

func writeYAML(b *strings.Builder, v any, indent int, inList bool) {
	pad := strings.Repeat(" ", indent)
	switch x := v.(type) {
	case map[string]any:
		if len(x) == 0 {
			b.WriteString("{}\n")
			return
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for i, k := range keys {
			if !(inList && i == 0) {
				b.WriteString(pad)
			}
			b.WriteString(scalar(k) + ":")
			writeChild(b, x[k], indent)
		}
	case []any:
		if len(x) == 0 {
			b.WriteString("[]\n")
			return
		}
		for _, item := range x {
			b.WriteString(pad + "- ")
			switch item.(type) {
			case map[string]any:
				if len(item.(map[string]any)) == 0 {
					b.WriteString("{}\n")
					continue
				}
				writeYAML(b, item, indent+2, true)
			case []any:
				b.WriteString("\n")
				writeYAML(b, item, indent+2, false)
			default:
				b.WriteString(scalar(item) + "\n")
			}
		}
	default:
		b.WriteString(pad + scalar(x) + "\n")
	}
}

func writeChild(b *strings.Builder, v any, indent int) {
	switch x := v.(type) {
	case map[string]any:
		if len(x) == 0 {
			b.WriteString(" {}\n")
			return
		}
		b.WriteString("\n")
		writeYAML(b, x, indent+2, false)
	case []any:
		if len(x) == 0 {
			b.WriteString(" []\n")
			return
		}
		b.WriteString("\n")
		writeYAML(b, x, indent, false)
	default:
		b.WriteString(" " + scalar(x) + "\n")
	}
}

// scalar renders one scalar with the quoting YAML needs.
func scalar(v any) string {
	if v == nil {
		return "null"
	}
	if s, ok := v.(string); ok && strings.ContainsAny(s, "\n\t") {
		return strconv.Quote(s)
	}
	out, err := yaml.Marshal(v)
	if err != nil {
		return strconv.Quote(toString(v))
	}
	return strings.TrimSuffix(string(out), "\n")
}

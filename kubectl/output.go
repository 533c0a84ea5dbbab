package kubectl

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"k8s.io/client-go/util/jsonpath"

	"github.com/stateflow/stateflow/engine/api"
)

func toJSON(v any) string {
	b, err := json.MarshalIndent(v, "", "    ")
	if err != nil {
		return fmt.Sprintf("error: %v\n", err)
	}
	return string(b) + "\n"
}

// jsonPath runs a kubectl -o jsonpath template with client-go's
// implementation, missing keys allowed as kubectl allows them.
func jsonPath(template string, data any, asJSON bool) (string, error) {
	j := jsonpath.New("out").AllowMissingKeys(true)
	if asJSON {
		j.EnableJSONOutput(true)
	}
	if err := j.Parse(template); err != nil {
		return "", errorf("error parsing jsonpath %s, %v", template, err)
	}
	var b bytes.Buffer
	if err := j.Execute(&b, data); err != nil {
		return "", errorf("error executing jsonpath %q: %v. Printing more information for debugging the template:\n\ttemplate was:\n\t\t%s\n\tobject given to jsonpath engine was:\n\t\t%s", template, err, template, toString(data))
	}
	return b.String(), nil
}

// evalJSONPath returns the values a template selects.
func evalJSONPath(template string, data any) ([]any, error) {
	j := jsonpath.New("eval").AllowMissingKeys(true)
	if err := j.Parse(template); err != nil {
		return nil, errorf("error parsing jsonpath %s, %v", template, err)
	}
	results, err := j.FindResults(data)
	if err != nil {
		return nil, errorf("%v", err)
	}
	var out []any
	for _, r := range results {
		for _, v := range r {
			out = append(out, plain(v))
		}
	}
	return out, nil
}

func plain(v reflect.Value) any {
	if !v.IsValid() {
		return nil
	}
	if v.Kind() == reflect.Interface && v.IsNil() {
		return nil
	}
	return v.Interface()
}

// relaxed turns ".metadata.name" or "metadata.name" into "{.metadata.name}"
// (RelaxedJSONPathExpression).
func relaxed(expr string) string {
	expr = strings.TrimSpace(expr)
	if strings.HasPrefix(expr, "{") && strings.HasSuffix(expr, "}") {
		return expr
	}
	if !strings.HasPrefix(expr, ".") {
		expr = "." + expr
	}
	return "{" + expr + "}"
}

// customColumns prints -o custom-columns=HEADER:PATH,….
func customColumns(spec string, objs []api.Object, noHeaders bool) (string, error) {
	if spec == "" {
		return "", errorf("custom-columns format specified but no custom columns given")
	}
	t := &table{}
	var paths []string
	for _, col := range strings.Split(spec, ",") {
		h, path, ok := strings.Cut(col, ":")
		if !ok {
			return "", errorf("unexpected custom-columns spec: %s, expected <header>:<json-path-expr>", col)
		}
		t.header = append(t.header, h)
		paths = append(paths, relaxed(path))
	}
	for _, o := range objs {
		m := toMap(o)
		var cells []string
		for _, p := range paths {
			vals, err := evalJSONPath(p, m)
			if err != nil {
				return "", err
			}
			var parts []string
			for _, v := range vals {
				parts = append(parts, toString(v))
			}
			if len(parts) == 0 {
				parts = []string{"<none>"}
			}
			cells = append(cells, strings.Join(parts, ","))
		}
		t.rows = append(t.rows, cells)
	}
	return t.String(noHeaders), nil
}

package kubectl

import "testing"

// FuzzJSONPath: any template on a real object either prints or errors.
func FuzzJSONPath(f *testing.F) {
	for _, s := range []string{"{.spec.template}", "{.items[0].status}", `{range .items[*]}{.metadata.name}{"\n"}{end}`,
		`{.status.conditions[?(@.type=="Ready")].status}`, "{.a[", "{{}}", "{.items[-1:]}", "{$}"} {
		f.Add(s)
	}
	data := map[string]any{"items": []any{map[string]any{"metadata": map[string]any{"name": "a"}, "spec": map[string]any{"replicas": 2},
		"status": map[string]any{"conditions": []any{map[string]any{"type": "Ready", "status": "True"}}}}}}
	f.Fuzz(func(t *testing.T, tpl string) {
		_, _ = jsonPath(tpl, data, false)
		_, _ = evalJSONPath(tpl, data)
	})
}

package kubectl

import (
	"fmt"
	"sort"
	"strings"
)

// config supports the kubeconfig commands that matter for a single
// simulated cluster: the current namespace.
func (s *Session) config(args []string) (string, error) {
	if len(args) == 0 {
		return "", usageErr("config", "a subcommand is required (set-context, view, current-context, get-contexts)")
	}
	switch args[0] {
	case "set-context":
		p, err := parseFlags("config set-context", args[1:], []flagSpec{{"current", "", false}, {"cluster", "", true}, {"user", "", true}})
		if err != nil {
			return "", err
		}
		if !p.bool("current") && (len(p.args) == 0 || p.args[0] != ContextName) {
			return "", errorf("Stateflow has one context, %q: use --current or %s", ContextName, ContextName)
		}
		if p.has("namespace") {
			s.Namespace = p.str("namespace")
		}
		return fmt.Sprintf("Context %q modified.\n", ContextName), nil
	case "current-context":
		return ContextName + "\n", nil
	case "get-contexts":
		t := &table{header: []string{"CURRENT", "NAME", "CLUSTER", "AUTHINFO", "NAMESPACE"}, rows: [][]string{{"*", ContextName, ContextName, ContextName, s.Namespace}}}
		return t.String(false), nil
	case "view":
		return fmt.Sprintf(`apiVersion: v1
clusters:
- cluster:
    server: https://stateflow.local:6443
  name: %[1]s
contexts:
- context:
    cluster: %[1]s
    namespace: %[2]s
    user: %[1]s
  name: %[1]s
current-context: %[1]s
kind: Config
preferences: {}
users:
- name: %[1]s
  user: {}
`, ContextName, s.Namespace), nil
	}
	return "", usageErr("config", "unknown command %q for \"kubectl config\"", args[0])
}

func (s *Session) version(args []string) (string, error) {
	if _, err := parseFlags("version", args, []flagSpec{{"client", "", false}, {"output", "o", true}}); err != nil {
		return "", err
	}
	return "Client Version: v1.34.4\nKustomize Version: v5.7.1\nServer Version: v1.34.4 (simulated by Stateflow)\n", nil
}

// apiResources lists the simulated types as kubectl api-resources does:
// sorted by API group (the core group first), then by name
// (pkg/cmd/apiresources sortableResource).
func (s *Session) apiResources(args []string) (string, error) {
	p, err := parseFlags("api-resources", args, []flagSpec{{"namespaced", "", true}, {"output", "o", true}, {"no-headers", "", false}})
	if err != nil {
		return "", err
	}
	out := p.str("output")
	if out != "" && out != "name" {
		return "", errorf("--output %v is not available", out)
	}
	rs := resourceTypes()
	sort.SliceStable(rs, func(i, j int) bool {
		if rs[i].group != rs[j].group {
			return rs[i].group < rs[j].group
		}
		return rs[i].plural < rs[j].plural
	})
	t := &table{header: []string{"NAME", "SHORTNAMES", "APIVERSION", "NAMESPACED", "KIND"}}
	var names strings.Builder
	for _, r := range rs {
		if !s.served(r) {
			continue
		}
		if p.has("namespaced") && p.str("namespaced") != fmt.Sprint(!r.cluster) {
			continue
		}
		names.WriteString(r.pluralQualified() + "\n")
		t.rows = append(t.rows, []string{r.plural, r.short, r.apiVersion(), fmt.Sprint(!r.cluster), r.kind})
	}
	if out == "name" {
		return names.String(), nil
	}
	return t.String(p.bool("no-headers")), nil
}

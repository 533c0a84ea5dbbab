package model

import "strings"

// Events renders the Events table as kubectl get events prints it, in all
// namespaces, narrowed by a field selector ("" for none).
func (m *Model) Events(fieldSelector string) (out string, failed bool) {
	defer m.guard("listing events")
	if m.kubectl == nil {
		return "", false
	}
	args := []string{"get", "events", "-A"}
	if s := strings.TrimSpace(fieldSelector); s != "" {
		args = append(args, "--field-selector", s)
	}
	res := m.kubectl.RunArgs(args)
	return res.Output(), res.Code != 0
}

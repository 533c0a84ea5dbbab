package model

import "strings"

// EventsShown is how many Events the panel lists at most: beyond it, the
// most recent ones (kubectl.Session.RecentEvents).
const EventsShown = 300

// Events renders the Events table as kubectl get events prints it, in all
// namespaces, narrowed by a field selector ("" for none); on a cluster
// with more than EventsShown of them, the most recent.
func (m *Model) Events(fieldSelector string) (out string, failed bool) {
	defer m.guard("listing events")
	if m.kubectl == nil {
		return "", false
	}
	res := m.kubectl.RecentEvents(strings.TrimSpace(fieldSelector), EventsShown)
	return res.Output(), res.Code != 0
}

package model

import (
	"strings"

	"github.com/stateflow/stateflow/engine/api"
)

// EventsShown is how many Events the panel lists at most: beyond it, the
// most recent ones (kubectl.Session.RecentEvents).
const EventsShown = 300

// EventCount is how many Events the cluster holds.
func (m *Model) EventCount() int {
	if m.eng == nil {
		return 0
	}
	return m.eng.Store().Count(api.KindEvent)
}

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

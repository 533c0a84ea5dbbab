package model

import (
	"strings"

	"github.com/stateflow/stateflow/engine/trace"
)

// LogWindow is how many tick-log rows are rendered at once: the log is
// windowed so the page stays light however long the run.
const LogWindow = 150

// LogRow is one explained tick.
type LogRow struct {
	Seq         int
	Clock       string
	Actor       string
	Component   string
	Object      string
	Classes     []trace.Class
	Arrows      string
	Explanation string
	Error       string
	Current     bool
}

// LogFilter narrows the tick log.
type LogFilter struct {
	Component string      // "" for all
	Class     trace.Class // "" for all
}

// Matches reports whether t passes the filter.
func (f LogFilter) Matches(t *trace.Tick) bool {
	if f.Component != "" && t.Component != f.Component {
		return false
	}
	if f.Class == "" {
		return true
	}
	for _, e := range t.Effects {
		if e.Class == f.Class {
			return true
		}
	}
	return false
}

// Log returns the rows that pass the filter, newest first, at most
// LogWindow of them starting at the current tick, and how many matched in all.
func (m *Model) Log(f LogFilter) ([]LogRow, int) {
	if m.eng == nil {
		return nil, 0
	}
	tr := m.eng.Trace()
	var rows []LogRow
	total := 0
	for i := len(tr) - 1; i >= 0; i-- {
		t := tr[i]
		if !f.Matches(t) {
			continue
		}
		total++
		if len(rows) < LogWindow {
			rows = append(rows, row(t, i == len(tr)-1))
		}
	}
	return rows, total
}

func row(t *trace.Tick, current bool) LogRow {
	var arrows strings.Builder
	for _, c := range t.Classes() {
		arrows.WriteString(c.Symbol())
	}
	return LogRow{Seq: t.Seq, Clock: trace.FormatTime(t.Time), Actor: t.Actor(), Component: t.Component, Object: t.Object.String(),
		Classes: t.Classes(), Arrows: arrows.String(), Explanation: t.Explanation, Error: t.Error, Current: current}
}

// Components are the component names the tick log can be filtered by.
var Components = []string{"kubectl", "scenario", "deployment-controller", "replicaset-controller", "scheduler", "kubelet",
	"garbage-collector", "node-lifecycle-controller", "taint-eviction-controller"}

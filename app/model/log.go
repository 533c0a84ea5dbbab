package model

import (
	"slices"
	"strings"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/trace"
)

// LogWindow is the most tick-log rows rendered at once: the log is
// windowed so the page stays light however long the run.
const LogWindow = 150

// logPage is how far the window's start moves when it moves: it moves in
// jumps rather than one row per tick, so between jumps a step only
// appends a row and the page's DOM diff stays one row long.
const logPage = LogWindow / 2

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
	// Refusal says, for an error the component retries (a conflict, an
	// object its cache had not seen), why the write was refused and that
	// this is normal ("" for none, or for an error that needs acting on).
	Refusal string
	Tone    Tone
	Current bool
}

// LogFilter narrows the tick log.
type LogFilter struct {
	Component string      // "" for all
	Class     trace.Class // 0 for all
}

// Matches reports whether t passes the filter.
func (f LogFilter) Matches(t *trace.Tick) bool {
	if f.Component != "" && t.Component != f.Component {
		return false
	}
	return f.Class == 0 || slices.Contains(t.Classes(), f.Class)
}

// Log returns the rows that pass the filter, oldest first (the page shows
// them newest first with CSS), and how many matched in all. The rows are
// the matching ticks from a start that moves in steps of logPage, so
// between LogWindow-logPage and LogWindow rows, the newest included.
func (m *Model) Log(f LogFilter) ([]LogRow, int) {
	if m.eng == nil {
		return nil, 0
	}
	tr := m.eng.Trace()
	var matched []int
	for i, t := range tr {
		if f.Matches(t) {
			matched = append(matched, i)
		}
	}
	start := 0
	if n := len(matched); n > LogWindow {
		start = (n - LogWindow + logPage - 1) / logPage * logPage
	}
	rows := make([]LogRow, 0, len(matched)-start)
	for _, i := range matched[start:] {
		rows = append(rows, row(tr[i], i == len(tr)-1))
	}
	return rows, len(matched)
}

func row(t *trace.Tick, current bool) LogRow {
	var arrows strings.Builder
	for _, c := range t.Classes() {
		arrows.WriteString(c.Symbol())
	}
	r := LogRow{Seq: t.Seq, Clock: trace.FormatTime(t.Time), Actor: t.Actor(), Component: t.Component, Object: t.Object.String(),
		Classes: t.Classes(), Arrows: arrows.String(), Explanation: t.Explanation(), Error: t.Err(), Tone: ToneOf(t), Current: current}
	if r.Error != "" && r.Tone != ToneAlert {
		r.Refusal = "refused, and normal: " + retryReason(r.Error) + "; the component retries from a fresh copy"
	}
	return r
}

// Components are the component names the tick log can be filtered by.
func Components() []string { return engine.ComponentNames() }

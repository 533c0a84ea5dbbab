package model

import (
	"strings"
)

// MaxConsoleEntries bounds the console transcript.
const MaxConsoleEntries = 200

// Entry is one command and what kubectl printed.
type Entry struct {
	Command string
	Output  string
	Failed  bool
	Tick    int
}

// Console is the transcript and the command history.
type Console struct {
	Entries []Entry
	History []string
	// cursor walks History with ↑/↓; len(History) means "new command".
	cursor int
}

// SeedCommands are the commands of the article Stateflow grew from, about
// the default example (codartium-api); the console offers them as
// examples to try.
var SeedCommands = []string{
	"kubectl get deployment codartium-api -o jsonpath='{.spec.template}'",
	"kubectl get replicaset -l app=codartium-api -o jsonpath='{.items[0].spec.template}'",
	"kubectl get deployment codartium-api -o jsonpath='{.status}'",
	"kubectl get replicaset -l app=codartium-api -o jsonpath='{.items[0].status}'",
	"kubectl rollout status deployment/codartium-api --timeout=90s",
	"kubectl get events --field-selector involvedObject.kind=Pod -n codartium-team",
}

// Run runs one kubectl command line against the cluster at the current
// tick (mutating commands become ticks; rollout status and --watch advance
// the simulation). A command clears the controls' Notice ("Settled at
// …"): what it said may no longer hold.
func (m *Model) Run(line string) (e Entry) {
	line = strings.TrimSpace(line)
	defer func() {
		m.Console.add(e)
	}()
	defer m.guard("running " + line)
	e = Entry{Command: line}
	if line == "" || m.kubectl == nil {
		return e
	}
	m.Notice = ""
	res := m.kubectl.Run(line)
	e.Output, e.Failed, e.Tick = res.Output(), res.Code != 0, m.eng.Tick()
	m.reached()
	return e
}

func (c *Console) add(e Entry) {
	if e.Command == "" {
		return
	}
	c.Entries = append(c.Entries, e)
	if len(c.Entries) > MaxConsoleEntries {
		c.Entries = c.Entries[len(c.Entries)-MaxConsoleEntries:]
	}
	if n := len(c.History); n == 0 || c.History[n-1] != e.Command {
		c.History = append(c.History, e.Command)
	}
	c.cursor = len(c.History)
}

// Previous returns the previous command in the history (↑).
func (c *Console) Previous() string {
	if len(c.History) == 0 {
		return ""
	}
	c.cursor = max(c.cursor-1, 0)
	return c.History[c.cursor]
}

// Next returns the next command in the history (↓), or "" past the end.
func (c *Console) Next() string {
	if c.cursor >= len(c.History)-1 {
		c.cursor = len(c.History)
		return ""
	}
	c.cursor++
	return c.History[c.cursor]
}

// Clear empties the transcript (the history stays).
func (c *Console) Clear() { c.Entries = nil }

package kubectl

import (
	"strings"
)

// A verb is one kubectl command, registered once in verbTable.
type verb struct {
	// name is the command as typed: "get", or a group's subcommand such
	// as "rollout undo" or "set image".
	name string
	// run prints what kubectl prints, against the cluster at the current
	// tick. Nil for a command that only changes the cluster: it runs its
	// mutation as a tick of its own (Session.do).
	run command
	// mutation builds the change a command makes, which a scenario action
	// schedules (ParseMutation); nil for a command that reads.
	mutation builder
}

type command func(s *Session, args []string) (string, error)

type builder func(s *Session, args []string) (*Mutation, error)

// groups are the commands whose first argument names a subcommand of
// the table (rollout status, set image).
var groups = map[string]bool{"rollout": true, "set": true}

// verbTable is every command Stateflow runs: the reads, then the
// commands that change the cluster, in the order a scenario's error lists
// them. A new command is one entry here and a file of its own.
var verbTable = []verb{
	{name: "get", run: (*Session).get},
	{name: "describe", run: (*Session).describe},
	{name: "rollout status", run: (*Session).rolloutStatus},
	{name: "rollout history", run: (*Session).rolloutHistory},
	{name: "top", run: (*Session).top},
	{name: "api-resources", run: (*Session).apiResources},
	{name: "config", run: (*Session).config},
	{name: "version", run: (*Session).version},
	{name: "apply", run: (*Session).apply},
	{name: "create", run: (*Session).create, mutation: buildCreate},
	{name: "scale", mutation: buildScale},
	{name: "autoscale", run: (*Session).autoscale, mutation: buildAutoscale},
	{name: "set image", mutation: buildSetImage},
	{name: "set selector", mutation: buildSetSelector},
	{name: "patch", mutation: buildPatch},
	{name: "rollout pause", mutation: buildPause(true)},
	{name: "rollout resume", mutation: buildPause(false)},
	{name: "rollout restart", mutation: buildRestart},
	{name: "rollout undo", mutation: buildUndo},
	{name: "delete", mutation: buildDelete},
	{name: "cordon", mutation: buildCordon(true)},
	{name: "uncordon", mutation: buildCordon(false)},
	{name: "drain", run: (*Session).drain, mutation: buildDrain},
	{name: "label", mutation: buildMeta("label")},
	{name: "annotate", mutation: buildMeta("annotate")},
	{name: "taint", mutation: buildTaint},
}

// verbNamed is the command called name in verbTable.
func verbNamed(name string) (verb, bool) {
	for _, v := range verbTable {
		if v.name == name {
			return v, true
		}
	}
	return verb{}, false
}

// lookupVerb finds the command args start with; rest is what follows
// its name. A group without a known subcommand is not found; group says
// which group it was.
func lookupVerb(args []string) (v verb, rest []string, group string, ok bool) {
	if len(args) == 0 {
		return verb{}, nil, "", false
	}
	if groups[args[0]] {
		if len(args) < 2 {
			return verb{}, nil, args[0], false
		}
		v, ok = verbNamed(args[0] + " " + args[1])
		return v, args[2:], args[0], ok
	}
	v, ok = verbNamed(args[0])
	return v, args[1:], "", ok
}

// runVerb runs a command found by lookupVerb.
func (s *Session) runVerb(v verb, args []string) (string, error) {
	if v.run != nil {
		return v.run(s, args)
	}
	m, err := v.mutation(s, args)
	if err != nil {
		return "", err
	}
	return s.do(m, v.name+" "+strings.Join(args, " "))
}

// mutatingVerbs lists the commands that change the cluster, a group's
// subcommands together ("rollout pause|resume|restart|undo").
func mutatingVerbs() string {
	var out []string
	for _, v := range verbTable {
		if v.mutation == nil {
			continue
		}
		group, sub, grouped := strings.Cut(v.name, " ")
		if last := len(out) - 1; grouped && last >= 0 && strings.HasPrefix(out[last], group+" ") {
			out[last] += "|" + sub
			continue
		}
		out = append(out, v.name)
	}
	return strings.Join(out, ", ")
}

// groupErr is kubectl's answer to a group without a known subcommand.
func groupErr(group string, args []string) error {
	switch {
	case group == "rollout" && len(args) == 0:
		return usageErr("rollout", "Required resource not specified.")
	case group == "rollout":
		return usageErr("rollout", "unknown command %q for \"kubectl rollout\"", args[0])
	}
	return usageErr(group, "unknown command %q for \"kubectl %s\" (Stateflow supports %s)", strings.Join(args[:min(1, len(args))], ""), group, subcommands(group))
}

// subcommands lists a group's subcommands: "set image and set selector".
func subcommands(group string) string {
	var names []string
	for _, v := range verbTable {
		if strings.HasPrefix(v.name, group+" ") {
			names = append(names, v.name)
		}
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

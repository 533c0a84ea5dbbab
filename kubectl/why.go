package kubectl

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/provenance"
)

// WhyCommand is the name of Stateflow's own command that asks why a
// field has its value: not a kubectl verb, so it is typed without
// "kubectl".
const WhyCommand = "why"

// whyUsage is the command's usage line.
const whyUsage = "why TYPE/NAME FIELD [--at TICK] [-o text|json] [-n NAMESPACE]"

var whyFlags = []flagSpec{{"at", "", true}, {"output", "o", true}}

// why answers "why does this field have this value?" from the trace
// (package provenance): the writes and reads that made it, newest first,
// back to the user's action.
func (s *Session) why(args []string) (string, error) {
	p, err := parseFlags(WhyCommand, args, whyFlags)
	if err != nil {
		return "", err
	}
	if len(p.args) != 2 {
		return "", whyErr("needs an object and a field, as in: why deploy/web .status.availableReplicas")
	}
	r, key, err := s.whyObject(p, p.args[0])
	if err != nil {
		return "", err
	}
	field := whyField(p.args[1])
	if field == "" {
		return "", whyErr("%q is not a field path: write one as .status.availableReplicas or .status.conditions[Available].status", p.args[1])
	}
	at, err := s.whyTick(p)
	if err != nil {
		return "", err
	}
	c, err := s.whyChain(r, key, field, at)
	if err != nil {
		return "", err
	}
	switch p.str("output") {
	case "", "text":
		return c.Text(), nil
	case "json":
		b, err := json.MarshalIndent(c, "", "  ")
		if err != nil {
			return "", err
		}
		return string(b) + "\n", nil
	}
	return "", whyErr("-o: unknown output format %q (text or json)", p.str("output"))
}

// whyChain is the chain for key's field at tick at, or what is wrong.
func (s *Session) whyChain(r resource, key api.Key, field string, at int) (*provenance.Chain, error) {
	c, err := provenance.Why(s.Cluster, provenance.Query{Object: key, Field: field, At: at})
	if !errors.Is(err, provenance.ErrNoWrites) {
		return c, err
	}
	o, ok := s.Cluster.Store().Get(key)
	if !ok {
		return nil, serverErr("NotFound", fmt.Sprintf("%s %q not found", r.pluralQualified(), key.Name))
	}
	return provenance.Before(o, field, at, s.Cluster.FirstTick()), nil
}

// whyObject resolves TYPE/NAME in the command's namespace.
func (s *Session) whyObject(p *parsed, ref string) (resource, api.Key, error) {
	typ, name, ok := strings.Cut(ref, "/")
	if !ok || name == "" {
		return resource{}, api.Key{}, whyErr("%q is not TYPE/NAME, as in deploy/web or pod/web-1", ref)
	}
	r, err := resolve(typ)
	if err != nil {
		return resource{}, api.Key{}, err
	}
	k := api.Key{Kind: r.kind, Name: name}
	if !r.cluster {
		k.Namespace = s.namespace(p)
	}
	return r, k, nil
}

// whyField is the field path asked about in the trace's notation: a
// leading dot and a JSONPath's braces are optional.
func whyField(s string) string {
	s = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(s), "{"), "}")
	return strings.TrimPrefix(s, ".")
}

// whyTick is --at, the current tick when it is not given.
func (s *Session) whyTick(p *parsed) (int, error) {
	if s.Cluster.Tick() == 0 {
		return 0, whyErr("nothing has happened yet: step the simulation, then ask")
	}
	if !p.has("at") {
		return s.Cluster.Tick(), nil
	}
	n, err := strconv.Atoi(strings.TrimPrefix(p.str("at"), "#"))
	if err != nil || n < 1 {
		return 0, whyErr("--at: %q is not a tick number", p.str("at"))
	}
	if n > s.Cluster.Tick() {
		return 0, whyErr("--at: tick %d has not happened yet (the simulation is at tick %d)", n, s.Cluster.Tick())
	}
	return n, nil
}

// whyErr is a usage error of the why command.
func whyErr(format string, args ...any) error {
	return &cmdError{msg: "error: " + fmt.Sprintf(format, args...) + "\nUsage: " + whyUsage + " (Stateflow's command, not kubectl's)", code: 1}
}

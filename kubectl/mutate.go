package kubectl

import (
	"errors"
	"fmt"
	"strings"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/reconcile"
)

// Mutation is a parsed kubectl command that changes the cluster. Run
// performs it as one tick, reading live objects, and returns what kubectl
// prints.
type Mutation struct {
	// Object is the object the command is about.
	Object api.Key
	// Line is the command, for the tick's explanation.
	Line string
	run  func(tick reconcile.Tick) (string, error)
	// client, when set, is a command that runs on after its first tick
	// (kubectl drain); run is then unused.
	client engine.Client
	// check is an error the API server answers whatever the object is
	// (a patch it cannot decode): the command fails when it runs, and a
	// scenario action fails when the scenario loads.
	check error
}

// Client is the command as a client of the simulation when it goes on
// after its first tick (kubectl drain), else nil: a scenario action then
// starts it (engine.Action.Client) instead of calling Run.
func (m *Mutation) Client() engine.Client { return m.client }

// Run performs the mutation within a tick.
func (m *Mutation) Run(tick reconcile.Tick) (string, error) {
	out, err := m.run(tick)
	if err != nil {
		tick.Explain("kubectl %s: %s", m.Line, strings.TrimPrefix(err.Error(), "error: "))
		return out, err
	}
	tick.Explain("kubectl %s: %s", m.Line, strings.TrimSpace(strings.ReplaceAll(out, "\n", "; ")))
	return out, nil
}

// ParseMutation parses a mutating kubectl command line (create, scale,
// autoscale, set image, set selector, patch, rollout pause|resume|restart|undo,
// delete, cordon, uncordon, drain, label, annotate, taint) for a scenario
// action, in namespace ns.
func ParseMutation(line, ns string) (*Mutation, error) {
	words, err := Split(line)
	if err != nil {
		return nil, err
	}
	if len(words) > 0 && words[0] == "kubectl" {
		words = words[1:]
	}
	if len(words) == 0 {
		return nil, errorf("a command is required")
	}
	s := &Session{Namespace: ns}
	line = strings.Join(words, " ")
	v, rest, _, ok := lookupVerb(words)
	if !ok || v.mutation == nil {
		return nil, errorf("%q does not change the cluster; a scenario action needs one of: %s", strings.Join(words[:min(2, len(words))], " "), mutatingVerbs())
	}
	m, err := v.mutation(s, rest)
	if err != nil {
		return nil, err
	}
	if m.check != nil {
		return nil, m.check
	}
	m.Line = line
	return m, nil
}

// do runs a mutation now, as a tick of the engine.
func (s *Session) do(m *Mutation, line string) (string, error) {
	m.Line = line
	s.warnFor(m.Object.Kind)
	var out string
	var runErr error
	s.Cluster.Act(engine.KubectlActor, m.Object, func(tick reconcile.Tick) error {
		out, runErr = m.Run(tick)
		return runErr
	})
	return out, runErr
}

// target resolves "TYPE NAME" or "TYPE/NAME" to one key in ns.
func target(cmd string, args []string, ns string, kinds ...string) (api.Key, resource, []string, error) {
	if len(args) == 0 {
		return api.Key{}, resource{}, nil, usageErr(cmd, "you must specify the type of resource and its name")
	}
	var r resource
	var name string
	rest := args[1:]
	if t, n, ok := strings.Cut(args[0], "/"); ok {
		var err error
		if r, err = resolve(t); err != nil {
			return api.Key{}, r, nil, err
		}
		name = n
	} else {
		var err error
		if r, err = resolve(args[0]); err != nil {
			return api.Key{}, r, nil, err
		}
		if len(args) < 2 {
			return api.Key{}, r, nil, usageErr(cmd, "resource(s) were provided, but no name was specified")
		}
		name, rest = args[1], args[2:]
	}
	if len(kinds) > 0 && !contains(kinds, r.kind) {
		return api.Key{}, r, nil, errorf("%s is not supported for %s (only %s)", cmd, r.plural, strings.ToLower(strings.Join(kinds, ", ")))
	}
	k := api.Key{Kind: r.kind, Namespace: ns, Name: name}
	if r.cluster {
		k.Namespace = ""
	}
	return k, r, rest, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// live is the object a command changes, as it is now; the metrics API
// refuses every write.
func live(tick reconcile.Tick, k api.Key) (api.Object, error) {
	r := resourceFor(k.Kind)
	o, ok := tick.LiveGet(k)
	switch {
	case !ok && r.group == metricsGroup:
		return nil, metricsNotFound(tick.LiveGet, k)
	case !ok:
		return nil, serverErr("NotFound", fmt.Sprintf("%s %q not found", r.pluralQualified(), k.Name))
	case r.group == metricsGroup:
		return nil, serverErr("MethodNotAllowed", "the server does not allow this method on the requested resource")
	}
	return o.DeepCopyObject(), nil
}

// invalidMessage is the message of the API server's 422 for ie, which
// names the kind with its group ("Job.batch \"pi\" is invalid: …"), as
// kubectl prints it when it wraps the error in one of its own.
func invalidMessage(ie *apiserver.InvalidError) string {
	rest := strings.TrimPrefix(strings.TrimPrefix(ie.Error(), ie.Kind), ".apps")
	if g := resourceFor(ie.Kind).group; g != "" {
		return ie.Kind + "." + g + rest
	}
	return ie.Kind + rest
}

func apiErr(err error) error {
	if se := (*apiserver.StatusError)(nil); errors.As(err, &se) {
		return serverErr(string(se.Reason), se.Message)
	}
	if ie := (*apiserver.InvalidError)(nil); errors.As(err, &ie) {
		return &cmdError{msg: "The " + strings.Replace(ie.Error(), ".apps \"", " \"", 1), code: 1}
	}
	return err
}

package kubectl

// This file is kubectl cordon and uncordon (pkg/cmd/drain); drain.go is
// kubectl drain.

import (
	"fmt"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
)

func buildCordon(on bool) builder {
	verb := cordonVerb(on)
	return func(s *Session, args []string) (*Mutation, error) {
		p, err := parseFlags(verb, args, []flagSpec{{"dry-run", "", true}})
		if err != nil {
			return nil, err
		}
		if len(p.args) != 1 {
			return nil, usageErr(verb, "USAGE: %s NODE [flags]", verb)
		}
		k := api.Key{Kind: api.KindNode, Name: strings.TrimPrefix(strings.TrimPrefix(p.args[0], "node/"), "nodes/")}
		dry, err := dryRunStrategy(p.str("dry-run"))
		if err != nil {
			return nil, err
		}
		if dry != "" {
			return &Mutation{Object: k, run: func(tick reconcile.Tick) (string, error) { return dryRunCordon(tick, k, on, dry) }}, nil
		}
		return &Mutation{Object: k, run: func(tick reconcile.Tick) (string, error) { return setUnschedulable(tick, k, on) }}, nil
	}
}

// dryRunCordon prints what cordon or uncordon would do: "(dry run)" or
// "(server dry run)" after the usual line, and changes nothing.
func dryRunCordon(tick reconcile.Tick, k api.Key, on bool, dry string) (string, error) {
	o, err := live(tick, k)
	if err != nil {
		return "", err
	}
	word := cordonVerb(on) + "ed"
	if o.(*api.Node).Spec.Unschedulable == on {
		word = "already " + word
	}
	suffix := " (dry run)"
	if dry == "server" {
		suffix = " (server dry run)"
	}
	return "node/" + k.Name + " " + word + suffix + "\n", nil
}

func setUnschedulable(tick reconcile.Tick, k api.Key, on bool) (string, error) {
	o, err := live(tick, k)
	if err != nil {
		return "", err
	}
	n := o.(*api.Node)
	word := cordonVerb(on) + "ed"
	if n.Spec.Unschedulable == on {
		return "node/" + k.Name + " already " + word + "\n", nil
	}
	n.Spec.Unschedulable = on
	if _, err := tick.Update(trace.Translate, n, fmt.Sprintf("kubectl: node/%s spec.unschedulable=%v", k.Name, on)); err != nil {
		return "", apiErr(err)
	}
	return "node/" + k.Name + " " + word + "\n", nil
}

// cordonVerb is the command that makes a node unschedulable or not.
func cordonVerb(on bool) string {
	if on {
		return "cordon"
	}
	return "uncordon"
}

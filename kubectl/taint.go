package kubectl

// This file is kubectl taint (pkg/cmd/taint).

import (
	"fmt"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
)

// buildTaint is kubectl taint nodes NODE key[=value]:Effect[-].
func buildTaint(s *Session, args []string) (*Mutation, error) {
	p, err := parseFlags("taint", args, []flagSpec{{"overwrite", "", false}})
	if err != nil {
		return nil, err
	}
	k, _, rest, err := target("taint", p.args, "", api.KindNode)
	if err != nil {
		return nil, err
	}
	if len(rest) == 0 {
		return nil, usageErr("taint", "at least one taint update is required")
	}
	type change struct {
		taint  api.Taint
		remove bool
	}
	var changes []change
	for _, a := range rest {
		spec, remove := strings.CutSuffix(a, "-")
		kv, effect, _ := strings.Cut(spec, ":")
		key, val, _ := strings.Cut(kv, "=")
		if !remove && effect == "" {
			return nil, errorf("invalid taint spec: %s, unknown taint effect", a)
		}
		if effect != "" && effect != api.TaintNoSchedule && effect != api.TaintPreferNoSchedule && effect != api.TaintNoExecute {
			return nil, errorf("invalid taint spec: %s, invalid taint effect: %s, unsupported taint effect", a, effect)
		}
		changes = append(changes, change{api.Taint{Key: key, Value: val, Effect: effect}, remove})
	}
	return &Mutation{Object: k, run: func(tick reconcile.Tick) (string, error) {
		o, err := live(tick, k)
		if err != nil {
			return "", err
		}
		n := o.(*api.Node)
		verb := "tainted"
		for _, c := range changes {
			var kept []api.Taint
			found := false
			for _, t := range n.Spec.Taints {
				match := t.Key == c.taint.Key && (c.taint.Effect == "" || t.Effect == c.taint.Effect)
				if match {
					found = true
					if c.remove || p.bool("overwrite") {
						continue
					}
					return "", errorf("node %s already has %s taint(s) with same effect(s) and --overwrite is false", k.Name, c.taint.Key)
				}
				kept = append(kept, t)
			}
			if c.remove && !found {
				return "", errorf("taint %q not found", c.taint.Key)
			}
			if c.remove {
				verb = "untainted"
			} else {
				now := api.At(tick.Now())
				c.taint.TimeAdded = nil
				if c.taint.Effect == api.TaintNoExecute {
					c.taint.TimeAdded = &now
				}
				kept = append(kept, c.taint)
			}
			n.Spec.Taints = kept
		}
		if _, err := tick.Update(trace.Translate, n, fmt.Sprintf("kubectl taint node/%s %s", k.Name, strings.Join(rest, " "))); err != nil {
			return "", apiErr(err)
		}
		return "node/" + k.Name + " " + verb + "\n", nil
	}}, nil
}

package kubectl

// This file is kubectl set selector (pkg/cmd/set/set_selector.go): the
// last argument is a label selector that replaces a Service's
// spec.selector. kubectl sets it on Services only.

import (
	"fmt"
	"maps"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/api/labels"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
	"k8s.io/apimachinery/pkg/selection"
)

func buildSetSelector(s *Session, args []string) (*Mutation, error) {
	p, err := parseFlags("set selector", args, []flagSpec{{"resource-version", "", true}})
	if err != nil {
		return nil, err
	}
	if len(p.args) == 0 {
		return nil, errorf("one selector is required")
	}
	expr := p.args[len(p.args)-1]
	matchLabels, expressions, err := parseToLabelSelector(expr)
	if err != nil {
		return nil, errorf("%v", err)
	}
	k, r, rest, err := target("set selector", p.args[:len(p.args)-1], s.namespace(p))
	if err != nil {
		return nil, err
	}
	if len(rest) > 0 {
		return nil, usageErr("set selector", "the simulated kubectl sets the selector of one object at a time, got the extra arguments %q", strings.Join(rest, " "))
	}
	rv := p.str("resource-version")
	return &Mutation{Object: k, run: func(tick reconcile.Tick) (string, error) {
		o, err := live(tick, k)
		if err != nil {
			return "", err
		}
		svc, ok := o.(*api.Service)
		if !ok {
			return "", errorf("setting a selector is only supported for Services")
		}
		if len(expressions) > 0 {
			return "", errorf("match expression %v not supported on this object", expressions)
		}
		if rv != "" {
			svc.ResourceVersion = rv // a precondition the update must meet
		}
		// An empty selector is no selector, as the API server stores it.
		svc.Spec.Selector = nil
		if len(matchLabels) > 0 {
			svc.Spec.Selector = maps.Clone(matchLabels)
		}
		if _, err := tick.Update(trace.Translate, svc, fmt.Sprintf("kubectl set selector: %s %s", k.Short(), expr)); err != nil {
			return "", apiErr(err)
		}
		return r.qualified() + "/" + k.Name + " selector updated\n", nil
	}}, nil
}

// selectorRequirement prints as a metav1.LabelSelectorRequirement value
// does in kubectl's message.
type selectorRequirement struct {
	Key      string
	Operator string
	Values   []string
}

// parseToLabelSelector is metav1.ParseToLabelSelector: equality
// requirements become matchLabels, set-based ones matchExpressions.
func parseToLabelSelector(expr string) (map[string]string, []selectorRequirement, error) {
	reqs, err := labels.ParseToRequirements(expr)
	if err != nil {
		return nil, nil, fmt.Errorf("couldn't parse the selector string \"%s\": %v", expr, err)
	}
	matchLabels := map[string]string{}
	expressions := []selectorRequirement{}
	for _, req := range reqs {
		var op string
		switch req.Operator() {
		case selection.Equals, selection.DoubleEquals:
			vals := req.Values()
			if vals.Len() != 1 {
				return nil, nil, fmt.Errorf("equals operator must have exactly one value")
			}
			matchLabels[req.Key()] = vals.List()[0]
			continue
		case selection.In:
			op = "In"
		case selection.NotIn:
			op = "NotIn"
		case selection.Exists:
			op = "Exists"
		case selection.DoesNotExist:
			op = "DoesNotExist"
		case selection.GreaterThan, selection.LessThan:
			return nil, nil, fmt.Errorf("%q isn't supported in label selectors", req.Operator())
		default:
			return nil, nil, fmt.Errorf("%q is not a valid label selector operator", req.Operator())
		}
		expressions = append(expressions, selectorRequirement{Key: req.Key(), Operator: op, Values: req.Values().List()})
	}
	return matchLabels, expressions, nil
}

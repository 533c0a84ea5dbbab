package kubectl

// This file is PodDisruptionBudgets (policy/v1) in kubectl: their get
// columns (pkg/printers/internalversion printPodDisruptionBudget), their
// describe (k8s.io/kubectl pkg/describe describePodDisruptionBudgetV1)
// and kubectl create poddisruptionbudget (pkg/cmd/create/create_pdb.go).

import (
	"fmt"
	"regexp"
	"strconv"

	"github.com/stateflow/stateflow/engine/api"
)

// pdbRow is printPodDisruptionBudget: the budget as written ("N/A" for
// the one that is unset), the disruptions the status allows and the age.
// It has no wide columns.
func pdbRow(p *api.PodDisruptionBudget, name string, now int64) []string {
	return []string{name, intOrStringOrNA(p.Spec.MinAvailable), intOrStringOrNA(p.Spec.MaxUnavailable),
		fmt.Sprint(p.Status.DisruptionsAllowed), age(p.CreationTimestamp, now)}
}

// intOrStringOrNA is an IntOrString as String() prints it, "N/A" when
// unset.
func intOrStringOrNA(v *api.IntOrString) string {
	if v == nil {
		return "N/A"
	}
	return v.String()
}

// describePDB is describePodDisruptionBudgetV1: no labels, annotations
// or creation time; minAvailable, else maxUnavailable, else neither; the
// status counts two levels in.
func describePDB(w *prefixWriter, p *api.PodDisruptionBudget) {
	w.line(0, "Name:\t%s", p.Name)
	w.line(0, "Namespace:\t%s", p.Namespace)
	if v := p.Spec.MinAvailable; v != nil {
		w.line(0, "Min available:\t%s", v.String())
	} else if v := p.Spec.MaxUnavailable; v != nil {
		w.line(0, "Max unavailable:\t%s", v.String())
	}
	if p.Spec.Selector != nil {
		w.line(0, "Selector:\t%s", p.Spec.Selector.String())
	} else {
		w.line(0, "Selector:\t<unset>")
	}
	w.line(0, "Status:")
	st := p.Status
	w.line(2, "Allowed disruptions:\t%d", st.DisruptionsAllowed)
	w.line(2, "Current:\t%d", st.CurrentHealthy)
	w.line(2, "Desired:\t%d", st.DesiredHealthy)
	w.line(2, "Total:\t%d", st.ExpectedPods)
}

// pdbBudget is the regular expression create pdb's Validate checks
// --min-available and --max-unavailable with: a number or a percentage.
var pdbBudget = regexp.MustCompile(`^[0-9]+%?$`)

// createPDB is create poddisruptionbudget (alias pdb): a budget over
// --selector of --min-available or --max-unavailable pods. cobra requires
// no flag; Validate checks them in this order after Complete.
func (s *Session) createPDB(args []string) (*createArgs, api.Object, error) {
	c, err := parseCreate("create poddisruptionbudget", args, []flagSpec{{"min-available", "", true}, {"max-unavailable", "", true},
		{"selector", "", true}, {"dry-run", "", true}, {"output", "o", true}})
	if err != nil {
		return nil, nil, err
	}
	minAvailable, maxUnavailable, selector := c.p.str("min-available"), c.p.str("max-unavailable"), c.p.str("selector")
	switch {
	case c.name == "":
		return nil, nil, errorf("name must be specified")
	case selector == "":
		return nil, nil, errorf("a selector must be specified")
	case maxUnavailable == "" && minAvailable == "":
		return nil, nil, errorf("one of min-available or max-unavailable must be specified")
	case maxUnavailable != "" && minAvailable != "":
		return nil, nil, errorf("min-available and max-unavailable cannot be both specified")
	case minAvailable != "" && !pdbBudget.MatchString(minAvailable):
		return nil, nil, errorf("invalid format specified for min-available")
	case maxUnavailable != "" && !pdbBudget.MatchString(maxUnavailable):
		return nil, nil, errorf("invalid format specified for max-unavailable")
	}
	matchLabels, expressions, err := parseToLabelSelector(selector)
	if err != nil {
		return nil, nil, errorf("%v", err)
	}
	sel := &api.LabelSelector{MatchLabels: matchLabels}
	for _, e := range expressions {
		sel.MatchExpressions = append(sel.MatchExpressions, api.LabelSelectorRequirement{Key: e.Key, Operator: e.Operator, Values: e.Values})
	}
	pdb := &api.PodDisruptionBudget{TypeMeta: api.TypeMeta{APIVersion: "policy/v1", Kind: api.KindPodDisruptionBudget},
		ObjectMeta: api.ObjectMeta{Name: c.name, Namespace: c.namespace()}}
	pdb.Spec.Selector = sel
	if minAvailable != "" {
		pdb.Spec.MinAvailable = parseIntOrString(minAvailable)
	} else {
		pdb.Spec.MaxUnavailable = parseIntOrString(maxUnavailable)
	}
	return c, pdb, nil
}

// parseIntOrString is intstr.Parse: an int32, or else the string as it
// is (a number too big for an int32 stays a string, which the API server
// then refuses as a percentage).
func parseIntOrString(v string) *api.IntOrString {
	i, err := strconv.ParseInt(v, 10, 32)
	if err != nil {
		s := api.FromString(v)
		return &s
	}
	n := api.FromInt(int32(i))
	return &n
}

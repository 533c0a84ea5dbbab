package claim

// This file compares what a subject reads with a claim's value: as
// numbers when both are numbers, as Kubernetes quantities (500m, 8Gi)
// when both are quantities, else as text.

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
)

// compare reports whether got op want holds. An absent value ("", as
// kubectl prints a missing field) compared with a number reads as 0: the
// API server omits counts that are zero (status.readyReplicas).
func compare(got string, op Op, want string) (bool, error) {
	switch op {
	case Contains:
		return strings.Contains(got, want), nil
	case Lacks:
		return !strings.Contains(got, want), nil
	}
	if got == "" && isNumber(want) {
		got = "0"
	}
	c, ok := order(got, want)
	switch op {
	case Eq:
		return ok && c == 0 || !ok && got == want, nil
	case Ne:
		return ok && c != 0 || !ok && got != want, nil
	}
	if !ok {
		return false, fmt.Errorf("%s compares numbers or quantities, and %s %s %s does not", op, show(got), op, show(want))
	}
	switch op {
	case Lt:
		return c < 0, nil
	case Le:
		return c <= 0, nil
	case Gt:
		return c > 0, nil
	}
	return c >= 0, nil // Ge
}

// order compares a and b as numbers, or as quantities: -1, 0 or 1, and
// false when they are neither.
func order(a, b string) (int, bool) {
	if isNumber(a) && isNumber(b) {
		x, _ := strconv.ParseFloat(a, 64)
		y, _ := strconv.ParseFloat(b, 64)
		switch {
		case x < y:
			return -1, true
		case x > y:
			return 1, true
		}
		return 0, true
	}
	qa, errA := api.ParseQuantity(a)
	qb, errB := api.ParseQuantity(b)
	if errA != nil || errB != nil {
		return 0, false
	}
	return cmp.Compare(qa.MilliValue(), qb.MilliValue()), true
}

// isNumber reports whether s is a plain decimal number.
func isNumber(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil && !strings.ContainsAny(s, "xXpPnN_")
}

// show is a value as a message quotes it.
func show(v string) string {
	if v == "" {
		return `"" (empty)`
	}
	return strconv.Quote(v)
}

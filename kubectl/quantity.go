package kubectl

// This file prints quantities as kubectl does once it has decoded them
// from the API server, which sends them in canonical form
// (k8s.io/apimachinery/pkg/api/resource Quantity.CanonicalizeBytes):
// Stateflow's API server keeps the text as written.

import (
	"strconv"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
)

// quantityFormat is resource.Format: how a quantity's suffix was written.
type quantityFormat int

const (
	decimalSI quantityFormat = iota
	binarySI
	decimalExponent
)

// formatOf is the format ParseQuantity reads from q's suffix.
func formatOf(q api.Quantity) quantityFormat {
	s := q.String()
	suffix := strings.TrimLeft(strings.TrimLeft(s, "+-"), "0123456789.")
	switch {
	case strings.HasSuffix(suffix, "i"):
		return binarySI
	case strings.HasPrefix(suffix, "e"), strings.HasPrefix(suffix, "E"):
		return decimalExponent
	}
	return decimalSI
}

// canonicalString is CanonicalizeBytes for a value of milli thousandths
// in format f: a binary quantity of at least 1024 whole units in powers
// of 1024 ("8Mi", "123456Ki"), anything else in powers of 1000
// ("500m", "8388608k", "1").
func canonicalString(milli int64, f quantityFormat) string {
	if milli == 0 {
		return "0"
	}
	if f == binarySI && (milli <= -1024_000 || milli >= 1024_000) && milli%1000 == 0 {
		amount, exp := removeFactors(milli/1000, 1024)
		return strconv.FormatInt(amount, 10) + binarySuffix(exp)
	}
	amount, times := removeFactors(milli, 10)
	exp := times - 3
	switch ((exp % 3) + 3) % 3 {
	case 1:
		amount, exp = amount*10, exp-1
	case 2:
		amount, exp = amount*100, exp-2
	}
	return strconv.FormatInt(amount, 10) + decimalSuffix(exp, f)
}

// removeFactors divides value by base as often as it divides evenly.
func removeFactors(value, base int64) (int64, int) {
	times := 0
	for value != 0 && value%base == 0 {
		value /= base
		times++
	}
	return value, times
}

func binarySuffix(exp int) string {
	return [...]string{"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"}[exp]
}

// decimalSuffix is the suffix of a power of ten, a multiple of 3.
func decimalSuffix(exp int, f quantityFormat) string {
	if f == decimalExponent {
		if exp == 0 {
			return ""
		}
		return "e" + strconv.Itoa(exp)
	}
	return map[int]string{-9: "n", -6: "u", -3: "m", 0: "", 3: "k", 6: "M", 9: "G", 12: "T", 15: "P", 18: "E"}[exp]
}

// quantityString is a quantity as kubectl prints one it decoded from the
// API server ("8388608000" becomes "8388608k", "8192Ki" "8Mi"); a nil
// one prints "<nil>", as *resource.Quantity's String does.
func quantityString(q *api.Quantity) string {
	if q == nil {
		return "<nil>"
	}
	c := canonicalString(q.MilliValue(), formatOf(*q))
	if strings.EqualFold(c, q.String()) {
		return q.String() // ParseQuantity keeps canonical text as written ("1E6")
	}
	return c
}

// quantitySum is resource.Quantity's Add over qs, printed: the sum takes
// the format of the first addend added to a zero sum.
func quantitySum(qs []api.Quantity) string {
	var milli int64
	f := decimalSI
	for _, q := range qs {
		if milli == 0 {
			f = formatOf(q)
		}
		milli += q.MilliValue()
	}
	return canonicalString(milli, f)
}

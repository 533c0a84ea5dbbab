package api

import (
	"encoding/json"
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"strings"
)

// Quantity is a Kubernetes resource quantity such as "500m", "2" or
// "128Mi": its value in thousandths of a unit, and its text in
// apimachinery's canonical form (CanonicalizeBytes), which the API server
// stores and kubectl prints: 0.1 is 100m, 1000m is 1, 1.5Gi is 1536Mi. A
// value finer than a thousandth (1n, 1u), which the thousandths round up,
// keeps the text as written.
type Quantity struct {
	text  string
	milli int64
}

var binarySuffixes = map[string]int64{"Ki": 1 << 10, "Mi": 1 << 20, "Gi": 1 << 30, "Ti": 1 << 40, "Pi": 1 << 50, "Ei": 1 << 60}

var decimalExp = map[string]int{"n": -9, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}

// ParseQuantity parses s with the grammar of resource.ParseQuantity:
// a signed decimal number followed by a binary suffix (Ki…Ei), a decimal
// suffix (n u m k M G T P E) or a decimal exponent (e3, E-2). The value
// is kept in thousandths, rounded up (towards +∞) as Kubernetes rounds
// up, and computed exactly on the number's decimal digits.
func ParseQuantity(s string) (Quantity, error) {
	num, suffix := splitQuantity(s)
	neg, digits, exp, ok := parseDecimal(num)
	if !ok {
		return Quantity{}, fmt.Errorf("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'")
	}
	if m, ok := binarySuffixes[suffix]; ok {
		digits = mulDigits(digits, uint64(m))
	} else if e, ok := decimalExponent(suffix); ok {
		exp += e
	} else {
		return Quantity{}, fmt.Errorf("unable to parse quantity's suffix")
	}
	milli, rounded, ok := thousandths(digits, exp+3, neg)
	if !ok {
		return Quantity{}, fmt.Errorf("quantity is too large")
	}
	if rounded {
		// apimachinery keeps nanos: a value that is whole thousandths once
		// rounded up to nanos (0.0009999999) prints canonical; finer
		// ones keep their text here.
		nano, _, ok := thousandths(digits, exp+9, neg)
		rounded = !ok || nano != milli*1_000_000
	}
	if rounded || keepsText(s) {
		return Quantity{text: s, milli: milli}, nil
	}
	return Quantity{text: canonical(milli, suffix), milli: milli}, nil
}

// keepsText says apimachinery's ParseQuantity keeps s as its text: s is
// "0", or its fast path finds it canonical already (a decimal whose
// scale is a multiple of 3, whose digits start with no zero and end in
// no 000: "+3", "1.500", "2E3"; a whole number of a binary suffix that
// is not a multiple of 8: "12Mi", "1Ki").
func keepsText(s string) bool {
	if s == "0" {
		return true
	}
	num, suffix := splitQuantity(s)
	num = strings.TrimLeft(strings.TrimLeft(num, "+-"), "0")
	num, denom, _ := strings.Cut(num, ".")
	if num == "" {
		num = "0"
	}
	shifted := num + denom
	value, err := strconv.ParseInt(shifted, 10, 64)
	if err != nil {
		return false
	}
	if m, binary := binarySuffixes[suffix]; binary {
		exponent := bits.TrailingZeros64(uint64(m))
		precision := 15 - len(num) - int(float32(exponent)*3/10) - 1
		hi, lo := bits.Mul64(uint64(value), uint64(m)) // int64Multiply must not overflow
		return denom == "" && precision >= 0 && hi == 0 && lo>>63 == 0 && value&7 != 0
	}
	exp, _ := decimalExponent(suffix)
	scale := exp - len(denom)
	return 18-len(num)-len(denom) >= 0 && scale >= -9 && scale%3 == 0 && !strings.HasSuffix(shifted, "000") && shifted[0] != '0'
}

// canonical is CanonicalizeBytes for a value of milli thousandths
// written with suffix: a binary suffix gives the largest binary suffix
// the value is a whole multiple of (a value under 1024, or not whole,
// is written as a decimal); a decimal exponent gives e3, e6 …; anything
// else the largest of m, k, M, G, T, P, E that keeps the number whole.
func canonical(milli int64, suffix string) string {
	if _, binary := binarySuffixes[suffix]; binary && milli%1000 == 0 && (milli >= 1024_000 || milli <= -1024_000) {
		v, k := milli/1000, 0
		for v%1024 == 0 && k < len(binaryOrder) {
			v, k = v/1024, k+1
		}
		if k == 0 {
			return strconv.FormatInt(v, 10)
		}
		return strconv.FormatInt(v, 10) + binaryOrder[k-1]
	}
	if milli == 0 {
		return "0"
	}
	v, exp := milli, -3
	for v%1000 == 0 && exp < 18 {
		v, exp = v/1000, exp+3
	}
	if len(suffix) > 1 && (suffix[0] == 'e' || suffix[0] == 'E') { // an exponent, not the E suffix
		if exp == 0 {
			return strconv.FormatInt(v, 10)
		}
		return strconv.FormatInt(v, 10) + "e" + strconv.Itoa(exp)
	}
	return strconv.FormatInt(v, 10) + decimalSuffixes[exp/3+1]
}

// binaryOrder are the binary suffixes, smallest first.
var binaryOrder = [...]string{"Ki", "Mi", "Gi", "Ti", "Pi", "Ei"}

// decimalSuffixes are the decimal suffixes from m (10^-3) to E (10^18).
var decimalSuffixes = [...]string{"m", "", "k", "M", "G", "T", "P", "E"}

// maxMilli bounds a quantity's thousandths.
const maxMilli = 9e18

// parseDecimal reads [+-]digits[.digits] (either side of the point may
// be empty, not both): the sign, the significant digits without leading
// zeros, and the power of ten they are multiplied by.
func parseDecimal(num string) (neg bool, digits []byte, exp int, ok bool) {
	if num != "" && (num[0] == '+' || num[0] == '-') {
		neg, num = num[0] == '-', num[1:]
	}
	whole, frac, _ := strings.Cut(num, ".")
	if whole == "" && frac == "" || strings.ContainsRune(frac, '.') {
		return false, nil, 0, false
	}
	digits = []byte(strings.TrimLeft(whole+frac, "0"))
	return neg, digits, -len(frac), true
}

// mulDigits multiplies a number written in decimal digits by m (at most
// 2^60, so a digit times m plus the carry fits in 64 bits).
func mulDigits(digits []byte, m uint64) []byte {
	out := make([]byte, len(digits), len(digits)+20)
	var carry uint64
	for i := len(digits) - 1; i >= 0; i-- {
		t := uint64(digits[i]-'0')*m + carry
		out[i], carry = byte('0'+t%10), t/10
	}
	var head []byte
	for ; carry > 0; carry /= 10 {
		head = append(head, byte('0'+carry%10))
	}
	slices.Reverse(head)
	return []byte(strings.TrimLeft(string(head)+string(out), "0"))
}

// thousandths is digits × 10^exp, rounded up, as an int64 no larger in
// magnitude than maxMilli (ok false when it is); rounded says it had a
// part finer than a thousandth.
func thousandths(digits []byte, exp int, neg bool) (v64 int64, rounded, ok bool) {
	whole, fracNonZero := string(digits), false
	if exp >= 0 {
		if len(whole) > 0 {
			whole += strings.Repeat("0", min(exp, 20))
		}
	} else {
		cut := max(len(whole)+exp, 0)
		fracNonZero = strings.Trim(whole[cut:], "0") != ""
		whole = whole[:cut]
	}
	if len(whole) > 19 {
		return 0, false, false
	}
	var v uint64
	for _, d := range []byte(whole) {
		v = v*10 + uint64(d-'0')
	}
	if v > maxMilli || v == maxMilli && fracNonZero {
		return 0, false, false
	}
	if neg {
		return -int64(v), fracNonZero, true // rounding a negative number up drops its fraction
	}
	if fracNonZero {
		v++
	}
	return int64(v), fracNonZero, true
}

func splitQuantity(s string) (num, suffix string) {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.') {
		i++
	}
	return s[:i], s[i:]
}

func decimalExponent(suffix string) (int, bool) {
	if e, ok := decimalExp[suffix]; ok {
		return e, true
	}
	if len(suffix) > 1 && (suffix[0] == 'e' || suffix[0] == 'E') {
		// An integer written plainly: an optional sign, no leading zeros.
		digits := strings.TrimPrefix(suffix[1:], "+")
		if len(digits) < len(suffix[1:]) && strings.HasPrefix(digits, "-") {
			return 0, false // "+-3"
		}
		if e, err := strconv.Atoi(digits); err == nil && strconv.Itoa(e) == digits && e > -30 && e < 30 {
			return e, true
		}
	}
	return 0, false
}

// MustQuantity parses s and panics on error; for constants in code.
func MustQuantity(s string) Quantity {
	q, err := ParseQuantity(s)
	if err != nil {
		panic(err)
	}
	return q
}

// MilliQuantity returns a quantity of m thousandths, printed like "250m".
func MilliQuantity(m int64) Quantity {
	if m%1000 == 0 {
		return Quantity{text: fmt.Sprint(m / 1000), milli: m}
	}
	return Quantity{text: fmt.Sprintf("%dm", m), milli: m}
}

// MilliValue returns the quantity in thousandths of a unit.
func (q Quantity) MilliValue() int64 { return q.milli }

// Value returns the quantity in whole units, rounded up.
func (q Quantity) Value() int64 { return (q.milli + 999) / 1000 }

// IsZero reports whether the quantity is zero.
func (q Quantity) IsZero() bool { return q.milli == 0 }

// String returns the quantity in canonical form.
func (q Quantity) String() string {
	if q.text == "" {
		return "0"
	}
	return q.text
}

// MarshalJSON writes the quantity as a string, as Kubernetes does.
func (q Quantity) MarshalJSON() ([]byte, error) { return json.Marshal(q.String()) }

// MarshalYAML writes the quantity as a string.
func (q Quantity) MarshalYAML() (any, error) { return q.String(), nil }

// UnmarshalJSON reads a string or a number.
func (q *Quantity) UnmarshalJSON(b []byte) error {
	s := strings.Trim(string(b), `"`)
	p, err := ParseQuantity(s)
	if err != nil {
		return err
	}
	*q = p
	return nil
}

// ResourceList maps a resource name (cpu, memory, pods, …) to a quantity.
type ResourceList map[string]Quantity

package api

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strings"
)

// Quantity is a Kubernetes resource quantity such as "500m", "2" or
// "128Mi". It keeps the text the user wrote, which kubectl prints back,
// and the value in thousandths of a unit, which is exact for every suffix
// the simulator accepts. A real API server canonicalises the text (0.5
// becomes 500m, 1000m becomes 1); this one does not.
type Quantity struct {
	text  string
	milli int64
}

var binarySuffixes = map[string]int64{"Ki": 1 << 10, "Mi": 1 << 20, "Gi": 1 << 30, "Ti": 1 << 40, "Pi": 1 << 50, "Ei": 1 << 60}

var decimalExp = map[string]int{"n": -9, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}

// ParseQuantity parses s with the grammar of resource.ParseQuantity:
// a signed decimal number followed by a binary suffix (Ki…Ei), a decimal
// suffix (n u m k M G T P E) or a decimal exponent (e3, E-2).
func ParseQuantity(s string) (Quantity, error) {
	num, suffix := splitQuantity(s)
	if num == "" || num == "+" || num == "-" || num == "." {
		return Quantity{}, fmt.Errorf("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'")
	}
	r, ok := new(big.Rat).SetString(num)
	if !ok {
		return Quantity{}, fmt.Errorf("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'")
	}
	if m, ok := binarySuffixes[suffix]; ok {
		r.Mul(r, new(big.Rat).SetInt64(m))
	} else if e, ok := decimalExponent(suffix); ok {
		r.Mul(r, pow10(e))
	} else {
		return Quantity{}, fmt.Errorf("unable to parse quantity's suffix")
	}
	r.Mul(r, big.NewRat(1000, 1))
	f, _ := r.Float64()
	if math.Abs(f) > 9e18 {
		return Quantity{}, fmt.Errorf("quantity is too large")
	}
	// Round up fractions of a milli-unit, as Kubernetes rounds up.
	q := new(big.Int).Quo(r.Num(), r.Denom())
	if new(big.Rat).SetInt(q).Cmp(r) < 0 {
		q.Add(q, big.NewInt(1))
	}
	return Quantity{text: s, milli: q.Int64()}, nil
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
		var e int
		if _, err := fmt.Sscanf(suffix[1:], "%d", &e); err == nil && fmt.Sprint(e) == strings.TrimPrefix(suffix[1:], "+") && e > -30 && e < 30 {
			return e, true
		}
	}
	return 0, false
}

func pow10(e int) *big.Rat {
	p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs(e))), nil)
	if e < 0 {
		return new(big.Rat).SetFrac(big.NewInt(1), p)
	}
	return new(big.Rat).SetInt(p)
}

func abs(i int) int {
	if i < 0 {
		return -i
	}
	return i
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

// String returns the quantity as written.
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

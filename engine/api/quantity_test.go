package api

import (
	"fmt"
	"math"
	"math/big"
	"strings"
	"testing"
)

// ratQuantity is ParseQuantity as it was written on math/big (kept as
// the oracle of the integer version, which keeps math/big out of the
// wasm): the number as an exact rational, times its suffix, times 1000,
// rounded up. ok is false where ParseQuantity must fail; near is true
// when the value lies within a float64 rounding of the ±9e18 bound,
// where the two may decide differently.
func ratQuantity(s string) (milli int64, ok, near bool) {
	num, suffix := splitQuantity(s)
	if num == "" || num == "+" || num == "-" || num == "." {
		return 0, false, false
	}
	r, ok := new(big.Rat).SetString(num)
	if !ok {
		return 0, false, false
	}
	if m, ok := binarySuffixes[suffix]; ok {
		r.Mul(r, new(big.Rat).SetInt64(m))
	} else if e, ok := scanExponent(suffix); ok {
		p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(max(e, -e))), nil)
		if e < 0 {
			r.Quo(r, new(big.Rat).SetInt(p))
		} else {
			r.Mul(r, new(big.Rat).SetInt(p))
		}
	} else {
		return 0, false, false
	}
	r.Mul(r, big.NewRat(1000, 1))
	f, _ := r.Float64()
	near = math.Abs(math.Abs(f)-9e18) <= 2048
	if math.Abs(f) > 9e18 {
		return 0, false, near
	}
	q := new(big.Int).Quo(r.Num(), r.Denom())
	if new(big.Rat).SetInt(q).Cmp(r) < 0 {
		q.Add(q, big.NewInt(1))
	}
	return q.Int64(), true, near
}

// scanExponent is decimalExponent as it was written with fmt's scanner.
func scanExponent(suffix string) (int, bool) {
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

// checkAgainstRat fails when ParseQuantity and the rational oracle
// disagree about s.
func checkAgainstRat(t *testing.T, s string) {
	t.Helper()
	want, wantOK, near := ratQuantity(s)
	q, err := ParseQuantity(s)
	if near {
		return
	}
	if (err == nil) != wantOK || err == nil && q.MilliValue() != want {
		t.Errorf("ParseQuantity(%q) = %d, %v; exactly: %d, ok %v", s, q.MilliValue(), err, want, wantOK)
	}
}

// The integer arithmetic agrees with exact rational arithmetic on the
// quantities people write and on the corners: fractions of a
// thousandth, long digit strings, every suffix, signs, the bound.
func TestParseQuantityIsExact(t *testing.T) {
	nums := []string{"0", "1", "-1", "+1", "0.5", ".5", "5.", "-0.0001", "0.0005", "0.0001", "1.0001", "123.456789",
		"000012", "0000.000", "9000000000000000", "9000000000000001", "8999999999999999.999", "-9000000000000000",
		"12345678901234567890", "0.000000000000000000000000001", "1" + strings.Repeat("0", 25), "3.14159265358979323846264338327950288",
		"1.2.3", "..", "+.", "-.", "", "+", "-", ".", "1..", "4611686018427387904", "0.1", "-0.5", "-1.5", "2.5"}
	suffixes := []string{"", "n", "u", "m", "k", "M", "G", "T", "P", "E", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei",
		"e3", "E-2", "e+5", "e-29", "e29", "e30", "K", "mi", "x", "e+-3", "e-0", "e+0", "e007", "e3x", "e 3", "e", "E+"}
	for _, n := range nums {
		for _, sfx := range suffixes {
			checkAgainstRat(t, n+sfx)
		}
	}
}

func FuzzParseQuantity(f *testing.F) {
	for _, s := range []string{"500m", "2", "128Mi", "1.5Gi", "-0.0001", "1e3", ".5Ei", "9000000000000000", "1.2.3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 64 {
			return
		}
		checkAgainstRat(t, s)
	})
}

// BenchmarkParseQuantity compares ParseQuantity with the math/big version
// it replaced (the oracle above), on the quantities manifests hold.
func BenchmarkParseQuantity(b *testing.B) {
	qs := []string{"250m", "128Mi", "2", "1.5Gi", "500m", "4", "8Gi", "110"}
	b.Run("digits", func(b *testing.B) {
		b.ReportAllocs()
		for i := range b.N {
			ParseQuantity(qs[i%len(qs)])
		}
	})
	b.Run("math-big", func(b *testing.B) {
		b.ReportAllocs()
		for i := range b.N {
			ratQuantity(qs[i%len(qs)])
		}
	})
}

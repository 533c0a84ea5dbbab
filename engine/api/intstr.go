package api

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// IntOrString is intstr.IntOrString: an integer or a string such as "25%".
type IntOrString struct {
	IsString bool
	IntVal   int32
	StrVal   string
}

// FromInt returns an integer IntOrString.
func FromInt(i int32) IntOrString { return IntOrString{IntVal: i} }

// FromString returns a string IntOrString.
func FromString(s string) IntOrString { return IntOrString{IsString: true, StrVal: s} }

// String renders the value as kubectl prints it.
func (v IntOrString) String() string {
	if v.IsString {
		return v.StrVal
	}
	return strconv.Itoa(int(v.IntVal))
}

// MarshalJSON writes a number or a string.
func (v IntOrString) MarshalJSON() ([]byte, error) {
	if v.IsString {
		return json.Marshal(v.StrVal)
	}
	return json.Marshal(v.IntVal)
}

// MarshalYAML writes a number or a string.
func (v IntOrString) MarshalYAML() (any, error) {
	if v.IsString {
		return v.StrVal, nil
	}
	return v.IntVal, nil
}

// UnmarshalJSON reads a number or a string.
func (v *IntOrString) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		v.IsString = true
		return json.Unmarshal(b, &v.StrVal)
	}
	v.IsString = false
	return json.Unmarshal(b, &v.IntVal)
}

// ScaledValue resolves v against total as
// intstr.GetScaledValueFromIntOrPercent does: integers are taken as they
// are, "N%" is N*total/100 rounded up or down.
func (v IntOrString) ScaledValue(total int, roundUp bool) (int, error) {
	if !v.IsString {
		return int(v.IntVal), nil
	}
	s := v.StrVal
	if !strings.HasSuffix(s, "%") {
		return 0, fmt.Errorf("invalid value for IntOrString: invalid type: string is not a percentage")
	}
	p, err := strconv.Atoi(strings.TrimSuffix(s, "%"))
	if err != nil {
		return 0, fmt.Errorf("invalid value %q: %v", s, err)
	}
	f := float64(p) * float64(total) / 100
	if roundUp {
		return int(math.Ceil(f)), nil
	}
	return int(math.Floor(f)), nil
}

package api

import (
	"fmt"

	"gopkg.in/yaml.v3"
)

// UnmarshalYAML reads a number or a string.
func (v *IntOrString) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode {
		return fmt.Errorf("line %d:%d: expected an integer or a percentage string", n.Line, n.Column)
	}
	if n.Tag == "!!int" {
		var i int32
		if err := n.Decode(&i); err != nil {
			return err
		}
		*v = FromInt(i)
		return nil
	}
	if n.Tag != "!!str" {
		return fmt.Errorf("line %d:%d: %q is neither an integer nor a string", n.Line, n.Column, n.Value)
	}
	*v = FromString(n.Value)
	return nil
}

// UnmarshalYAML reads a quantity written as a string or a number.
func (q *Quantity) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode {
		return fmt.Errorf("line %d:%d: expected a quantity", n.Line, n.Column)
	}
	p, err := ParseQuantity(n.Value)
	if err != nil {
		return fmt.Errorf("line %d:%d: %q is not a quantity: %v", n.Line, n.Column, n.Value, err)
	}
	*q = p
	return nil
}

// UnmarshalYAML reads an RFC 3339 timestamp or null.
func (t *Time) UnmarshalYAML(n *yaml.Node) error {
	if n.Tag == "!!null" {
		*t = Time{}
		return nil
	}
	p, err := ParseTime(n.Value)
	if err != nil {
		return fmt.Errorf("line %d:%d: %q is not an RFC 3339 time", n.Line, n.Column, n.Value)
	}
	*t = p
	return nil
}

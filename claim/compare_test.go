package claim

import (
	"strings"
	"testing"
)

// Values compare as numbers when both are, as quantities when both are,
// else as text; a count the API server omits (it reads empty) is 0 next
// to a number; an order between words is an error, not false.
func TestCompare(t *testing.T) {
	for _, c := range []struct {
		got  string
		op   Op
		want string
		ok   bool
		err  string
	}{
		{"3", Eq, "3", true, ""},
		{"3", Eq, "3.0", true, ""},
		{"3", Ne, "4", true, ""},
		{"6", Le, "5", false, ""},
		{"5", Le, "5", true, ""},
		{"2", Lt, "10", true, ""},
		{"10", Gt, "2", true, ""},
		{"3", Ge, "3", true, ""},
		{"", Eq, "0", true, ""},
		{"", Lt, "1", true, ""},
		{"", Eq, "", true, ""},
		{"0", Eq, "", false, ""},
		{"500m", Lt, "1", true, ""},
		{"1Gi", Gt, "1G", true, ""},
		{"150Mi", Eq, "150Mi", true, ""},
		{"True", Eq, "True", true, ""},
		{"True", Eq, "true", false, ""},
		{"Running Running", Eq, "Running", false, ""},
		{"node-1 node-2", Contains, "node-2", true, ""},
		{"node-1 node-2", Lacks, "node-3", true, ""},
		{"node-1 node-2", Lacks, "node-2", false, ""},
		{"Running", Lt, "Pending", false, `< compares numbers or quantities, and "Running" < "Pending" does not`},
		{"1 3", Ge, "1", false, `>= compares numbers or quantities`},
		{"0x10", Eq, "16", false, ""},
	} {
		ok, err := compare(c.got, c.op, c.want)
		switch {
		case c.err != "" && (err == nil || !strings.HasPrefix(err.Error(), c.err)):
			t.Errorf("%q %s %q: error %v, want %s", c.got, c.op, c.want, err, c.err)
		case c.err == "" && err != nil:
			t.Errorf("%q %s %q: %v", c.got, c.op, c.want, err)
		case ok != c.ok:
			t.Errorf("%q %s %q = %v, want %v", c.got, c.op, c.want, ok, c.ok)
		}
	}
}

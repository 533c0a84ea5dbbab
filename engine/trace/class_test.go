package trace

import (
	"encoding/json"
	"testing"
)

// An effect's class and operation are bytes in memory and their names
// everywhere they are read: the JSON trace, the filters, the CSS classes.
func TestClassAndOpNames(t *testing.T) {
	for _, c := range Classes {
		b, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		var back Class
		if err := json.Unmarshal(b, &back); err != nil || back != c {
			t.Errorf("%s: JSON %s reads back as %v (%v)", c, b, back, err)
		}
		if p, ok := ParseClass(c.String()); !ok || p != c {
			t.Errorf("ParseClass(%q) = %v, %v", c.String(), p, ok)
		}
	}
	want := map[Class]string{Translate: "translate", Bind: "bind", Realize: "realize", Aggregate: "aggregate", Event: "event", 0: ""}
	for c, name := range want {
		if c.String() != name {
			t.Errorf("class %d is %q, want %q", c, c.String(), name)
		}
	}
	if _, ok := ParseClass(""); ok {
		t.Error(`ParseClass("") names a class`)
	}
	for op, name := range map[Op]string{Create: "create", Update: "update", Delete: "delete"} {
		b, _ := json.Marshal(op)
		var back Op
		if op.String() != name || string(b) != `"`+name+`"` || json.Unmarshal(b, &back) != nil || back != op {
			t.Errorf("op %d: %q, JSON %s, back %v", op, op.String(), b, back)
		}
	}
	var c Class
	if err := json.Unmarshal([]byte(`"sideways"`), &c); err == nil {
		t.Error("an unknown class reads without an error")
	}
}

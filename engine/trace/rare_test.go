package trace

import (
	"testing"
	"unsafe"
)

// A tick keeps its rare parts (an error, a kube-proxy's rules, a traffic
// report, a command's output) apart: the trace keeps a tick for every
// step, and most have none of them. Setting nothing allocates nothing.
func TestTickKeepsRarePartsApart(t *testing.T) {
	if size := unsafe.Sizeof(Tick{}); size > 176 {
		t.Errorf("a tick is %d bytes; 176 or fewer keeps it in the allocator's 176-byte class", size)
	}
	var tk Tick
	if n := testing.AllocsPerRun(10, func() {
		tk.SetErr("")
		tk.SetOutput("")
		tk.SetTraffic(nil)
	}); n != 0 || tk.rare != nil {
		t.Errorf("setting nothing allocated %v times (rare part %v)", n, tk.rare)
	}
	tk.SetErr("boom")
	tk.AddRule(RuleChange{Port: "http"})
	tk.SetOutput("node/n1 cordoned\n")
	tr := &Traffic{Sent: 3}
	tk.SetTraffic(tr)
	if tk.Err() != "boom" || len(tk.Rules()) != 1 || tk.Output() != "node/n1 cordoned\n" || tk.Traffic() != tr {
		t.Errorf("read back %q %v %q %v", tk.Err(), tk.Rules(), tk.Output(), tk.Traffic())
	}
	var none Tick
	if none.Err() != "" || none.Rules() != nil || none.Output() != "" || none.Traffic() != nil {
		t.Error("a tick with no rare part reads something")
	}
}

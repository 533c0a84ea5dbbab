package api

import (
	"testing"
	"unsafe"
)

// A cluster keeps five or more Event records per pod for an hour, so a
// record stays in the allocator's 128-byte class: what the Events of one
// object or one origin share sits behind pointers.
func TestEventRecordIsSmall(t *testing.T) {
	if size := unsafe.Sizeof(EventRecord{}); size > 128 {
		t.Errorf("an Event record is %d bytes, want 128 or fewer", size)
	}
	r := &EventRecord{Name: "web-1.1", Namespace: "default", Involved: &ObjectReference{Kind: KindPod, Namespace: "default", Name: "web-1"},
		InvolvedRV: 42, Message: "m", Count: 1, Origin: &EventOrigin{Source: EventSource{Component: "kubelet", Host: "n1"}, Reason: "Pulled", FieldPath: "spec.containers{web}", Warning: true}}
	ev := r.Event()
	if ev.Reason != "Pulled" || ev.Type != EventWarning || ev.Source.Host != "n1" || ev.ReportingInstance != "n1" ||
		ev.InvolvedObject.ResourceVersion != "42" || ev.InvolvedObject.FieldPath != "spec.containers{web}" {
		t.Errorf("the record reads as %+v", ev)
	}
}

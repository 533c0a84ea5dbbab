package kubelet

import (
	"testing"

	"github.com/stateflow/stateflow/engine/api"
)

// A clone and the kubelet it was cloned from share their pod runtimes
// until one changes them: killing a pod's containers in either leaves the
// other's as they were, whichever side is changed first.
func TestCloneSharesRuntimesCopyOnWrite(t *testing.T) {
	key := api.Key{Kind: api.KindPod, Namespace: "default", Name: "web-1"}
	running := func() *Kubelet {
		k := New("node-1", "10.0.0.1", "10.244.1.0/24", nil)
		k.pods.put(&podRuntime{namespace: "default", name: "web-1", uid: "u1", gen: k.gen, containers: []*container{{name: "web", stage: stageRunning}}})
		return k
	}
	stage := func(k *Kubelet) stage {
		rt, _ := k.pods.get(key)
		return rt.containers[0].stage
	}
	for _, changeOriginal := range []bool{true, false} {
		orig := running()
		clone := orig.Clone().(*Kubelet)
		changed, kept := clone, orig
		if changeOriginal {
			changed, kept = orig, clone
		}
		if !changed.Kill(key, 1000) {
			t.Fatal("Kill found no running container")
		}
		if stage(changed) != stageExited {
			t.Fatalf("the killed side's container is at %v", stage(changed))
		}
		if stage(kept) != stageRunning {
			t.Errorf("changing the original=%v also changed the other side: its container is at %v", changeOriginal, stage(kept))
		}
	}
}

// A copied runtime has probe cursors of its own: probing in the copy
// leaves the original's cursors where they were, and a container never
// probed gets none.
func TestRuntimeCloneCopiesProbeCursors(t *testing.T) {
	probed := &container{name: "web"}
	probed.probeCursors().ready.next = 5000
	orig := &podRuntime{containers: []*container{probed, {name: "sidecar"}}}
	c := orig.clone()
	c.containers[0].probeCursors().ready.next = 9000
	if got := orig.containers[0].cursors.ready.next; got != 5000 {
		t.Errorf("probing in the copy moved the original's cursor to %d", got)
	}
	if c.containers[1].cursors != nil || orig.containers[1].cursors != nil {
		t.Error("a container never probed has cursors")
	}
}

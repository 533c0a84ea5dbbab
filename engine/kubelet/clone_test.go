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
		k.pods[key] = &podRuntime{uid: "u1", gen: k.gen, containers: []*container{{name: "web", stage: stageRunning}}}
		return k
	}
	stage := func(k *Kubelet) stage { return k.pods[key].containers[0].stage }
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

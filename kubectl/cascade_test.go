package kubectl_test

import (
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
)

func count(s interface {
	List(string, string) []api.Object
}, kind string) int {
	return len(s.List(kind, "codartium-team"))
}

// kubectl delete with each --cascade: background removes the owner at
// once and the garbage collector removes the ReplicaSet and then the pods;
// foreground keeps the owner (with a deletionTimestamp) until its
// dependents are gone; orphan leaves the ReplicaSet and pods running
// without an owner.
func TestCascadeDeletion(t *testing.T) {
	t.Run("background", func(t *testing.T) {
		s := seedSession(t, true)
		if res := run(t, s, "delete deployment codartium-api"); res.Stdout != "deployment.apps \"codartium-api\" deleted from codartium-team namespace\n" {
			t.Fatalf("%+v", res)
		}
		st := s.Cluster.Store()
		if _, ok := st.Get(api.Key{Kind: api.KindDeployment, Namespace: "codartium-team", Name: "codartium-api"}); ok {
			t.Fatal("background deletion removes the owner at once")
		}
		if err := s.Cluster.RunUntilSettled(engine.SettleLimits{}); err != nil {
			t.Fatal(err)
		}
		if count(st, api.KindReplicaSet) != 0 || count(st, api.KindPod) != 0 {
			t.Fatalf("%d ReplicaSets and %d pods left", count(st, api.KindReplicaSet), count(st, api.KindPod))
		}
		var gcTicks int
		for _, tk := range s.Cluster.Trace() {
			if tk.Component == "garbage-collector" && len(tk.Effects) > 0 {
				gcTicks++
			}
		}
		if gcTicks < 2 {
			t.Errorf("the garbage collector should delete the ReplicaSet, then the pods (%d ticks)", gcTicks)
		}
	})
	t.Run("foreground", func(t *testing.T) {
		s := seedSession(t, true)
		run(t, s, "delete deployment codartium-api --cascade=foreground")
		st := s.Cluster.Store()
		o, ok := st.Get(api.Key{Kind: api.KindDeployment, Namespace: "codartium-team", Name: "codartium-api"})
		if !ok || o.Meta().DeletionTimestamp == nil || o.Meta().Finalizers[0] != "foregroundDeletion" {
			t.Fatalf("foreground deletion keeps the owner with a finalizer: %+v", o)
		}
		sawOwnerWithoutDependents := false
		for s.Cluster.Step() != nil {
			_, owner := st.Get(api.Key{Kind: api.KindDeployment, Namespace: "codartium-team", Name: "codartium-api"})
			if owner && count(st, api.KindReplicaSet) == 0 && count(st, api.KindPod) == 0 {
				sawOwnerWithoutDependents = true
			}
			if !owner && (count(st, api.KindReplicaSet) > 0 || count(st, api.KindPod) > 0) {
				t.Fatalf("tick %d: the owner went before its dependents", s.Cluster.Tick())
			}
		}
		if _, ok := st.Get(api.Key{Kind: api.KindDeployment, Namespace: "codartium-team", Name: "codartium-api"}); ok || !sawOwnerWithoutDependents {
			t.Fatal("the owner must go last")
		}
	})
	t.Run("orphan", func(t *testing.T) {
		s := seedSession(t, true)
		run(t, s, "delete deployment codartium-api --cascade=orphan")
		if err := s.Cluster.RunUntilSettled(engine.SettleLimits{}); err != nil {
			t.Fatal(err)
		}
		st := s.Cluster.Store()
		if _, ok := st.Get(api.Key{Kind: api.KindDeployment, Namespace: "codartium-team", Name: "codartium-api"}); ok {
			t.Fatal("the orphaned owner is deleted")
		}
		rss := st.List(api.KindReplicaSet, "codartium-team")
		if len(rss) != 1 || len(rss[0].Meta().OwnerReferences) != 0 || count(st, api.KindPod) != 3 {
			t.Fatalf("the ReplicaSet and its pods stay, without an owner: %d rs, %d pods", len(rss), count(st, api.KindPod))
		}
		if out := run(t, s, "get pods").Stdout; strings.Count(out, "Running") != 3 {
			t.Errorf("pods:\n%s", out)
		}
	})
	t.Run("pod", func(t *testing.T) {
		s := seedSession(t, true)
		name := strings.TrimPrefix(strings.Fields(run(t, s, "get pods -o name").Stdout)[0], "pod/")
		if res := run(t, s, "delete pod "+name); res.Stdout != "pod \""+name+"\" deleted from codartium-team namespace\n" {
			t.Fatalf("%+v", res)
		}
		if out := run(t, s, "get pod "+name).Stdout; !strings.Contains(out, "Terminating") {
			t.Errorf("a deleted pod is Terminating until its kubelet confirms:\n%s", out)
		}
		if err := s.Cluster.RunUntilSettled(engine.SettleLimits{}); err != nil {
			t.Fatal(err)
		}
		if out := run(t, s, "get pods").Stdout; strings.Count(out, "Running") != 3 || strings.Contains(out, name) {
			t.Errorf("the ReplicaSet replaces the deleted pod:\n%s", out)
		}
	})
	t.Run("bad cascade", func(t *testing.T) {
		s := seedSession(t, true)
		if res := run(t, s, "delete deployment codartium-api --cascade=sideways"); !strings.Contains(res.Stderr, `invalid cascade value (sideways)`) {
			t.Fatalf("%+v", res)
		}
	})
}

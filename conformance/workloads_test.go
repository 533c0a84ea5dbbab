package conformance

import (
	"fmt"
	"sort"
	"testing"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
)

// daemonScenario is a DaemonSet "agent" on four nodes, with the given
// update strategy, extra spec lines (indented two spaces), extra pod
// spec lines (six) and actions.
func daemonScenario(strategy, spec, podSpec, actions string) string {
	return fmt.Sprintf(`apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  updateStrategy: %s
%s  template:
    metadata: {labels: {app: agent}}
    spec:
%s      containers: [{name: agent, image: "agent:1", resources: {requests: {cpu: 1m, memory: 1Mi}}}]
---
apiVersion: stateflow/v1alpha1
kind: Scenario
spec:
  seed: 2
  nodes: {count: 4}
  images:
    "agent:1": {pull: 1s, start: 1s, ready: 2s}
    "agent:2": {pull: 1s, start: 1s, ready: 2s}
    "agent:3": {pull: 1s, start: 1s, ready: 2s}
    "agent:bad": {pullError: "manifest unknown"}
  actions:
%s`, strategy, spec, podSpec, actions)
}

// statefulScenario is a StatefulSet "db" of three pods with a claim each,
// with the given pod management policy, update strategy, extra spec
// lines and actions.
func statefulScenario(policy, strategy, spec, actions string) string {
	return fmt.Sprintf(`apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  serviceName: db
  replicas: 3
  podManagementPolicy: %s
  updateStrategy: %s
%s  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers:
        - name: db
          image: "db:1"
          resources: {requests: {cpu: 1m, memory: 1Mi}}
  volumeClaimTemplates:
    - metadata: {name: data}
      spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
---
apiVersion: stateflow/v1alpha1
kind: Scenario
spec:
  seed: 4
  nodes: {count: 3}
  images:
    "db:1": {pull: 1s, start: 1s, ready: 1s}
    "db:2": {pull: 1s, start: 1s, ready: 1s}
    "db:bad": {pullError: "manifest unknown"}
  actions:
%s`, policy, strategy, spec, actions)
}

// timed is an action the harness takes itself, between ticks, at a
// virtual time: one a scenario cannot state (deleting a pod whose name
// the API server drew).
type timed struct {
	at int64
	do func(t *testing.T, e *engine.Engine)
}

// runActing checks a scenario until maxMS, taking the timed actions as
// their time comes.
func runActing(t *testing.T, src string, maxMS int64, acts ...timed) *Report {
	t.Helper()
	e := load(t, []byte(src))
	rep, err := Check(e, acting(t, maxMS, acts))
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// acting is a stop function for Check that takes the timed actions as
// their time comes, and stops after maxMS.
func acting(t *testing.T, maxMS int64, acts []timed) func(e *engine.Engine) bool {
	sort.Slice(acts, func(i, j int) bool { return acts[i].at < acts[j].at })
	return func(e *engine.Engine) bool {
		// An action is due once the next tick would come after it (or
		// none would come at all): the clock moves on to it first.
		for len(acts) > 0 {
			if next, ok := e.NextTime(); ok && next <= acts[0].at {
				break
			}
			e.RunUntil(acts[0].at)
			acts[0].do(t, e)
			acts = acts[1:]
		}
		return e.Now() > maxMS
	}
}

// deleteDaemonPod deletes, as kubectl delete pod would, the DaemonSet's
// pod on a node.
func deleteDaemonPod(node string) func(t *testing.T, e *engine.Engine) {
	return func(t *testing.T, e *engine.Engine) {
		t.Helper()
		for _, o := range e.Store().List(api.KindPod, "default") {
			p := o.(*api.Pod)
			if p.Spec.NodeName != node || p.DeletionTimestamp != nil {
				continue
			}
			tk := e.Act(engine.KubectlActor, api.KeyOf(p), func(tick reconcile.Tick) error {
				return tick.Delete(trace.Translate, api.KeyOf(p), apiserver.DeleteOptions{}, "kubectl delete pod "+p.Name)
			})
			if tk.Err() != "" {
				t.Fatal(tk.Err())
			}
			return
		}
		t.Fatalf("no pod to delete on %s", node)
	}
}

// DaemonSet scenarios: every DaemonSet controller tick (and every other
// replayed one) agrees with upstream's syncDaemonSet, or differs only as
// allowances.go allows.
func TestDaemonSets(t *testing.T) {
	const setImage2 = "    - {at: 20s, kubectl: set image daemonset/agent agent=agent:2}\n"
	for _, tc := range []struct {
		name, strategy, spec, podSpec, actions string
		acts                                   []timed
	}{{
		name:     "max-unavailable-1",
		strategy: "{type: RollingUpdate}",
		actions: setImage2 +
			"    - {at: 60s, kubectl: rollout undo daemonset/agent}\n",
	}, {
		// Two at a time, and a short history: the revisions of agent:1
		// and agent:2 go once no pod runs them.
		name:     "max-unavailable-2",
		strategy: "{type: RollingUpdate, rollingUpdate: {maxUnavailable: 2}}",
		spec:     "  revisionHistoryLimit: 1\n",
		actions: setImage2 +
			"    - {at: 50s, kubectl: set image daemonset/agent agent=agent:3}\n" +
			"    - {at: 80s, kubectl: set image daemonset/agent agent=agent:1}\n",
	}, {
		// A new pod beside each old one, the old one deleted once the
		// new one is available; a pod deleted mid-story is replaced at
		// once; an image that cannot be pulled holds the surge at one
		// node until the undo.
		name:     "max-surge-1",
		strategy: "{type: RollingUpdate, rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}",
		spec:     "  minReadySeconds: 3\n",
		actions: setImage2 +
			"    - {at: 70s, kubectl: set image daemonset/agent agent=agent:bad}\n" +
			"    - {at: 100s, kubectl: rollout undo daemonset/agent}\n",
		acts: []timed{{at: 50_000, do: deleteDaemonPod("node-2")}},
	}, {
		// Nothing replaced until a pod is deleted; then the DaemonSet
		// itself goes, in the foreground (kept, being deleted, while the
		// garbage collector deletes its pods).
		name:     "on-delete",
		strategy: "{type: OnDelete}",
		actions: setImage2 +
			"    - {at: 80s, kubectl: delete daemonset/agent --cascade=foreground}\n",
		acts: []timed{{at: 40_000, do: deleteDaemonPod("node-3")}, {at: 60_000, do: deleteDaemonPod("node-1")}},
	}, {
		// NoExecute sends the pod away, NoSchedule keeps it (and counts
		// it misscheduled); taints gone, the pods come back.
		name:     "no-execute-taint",
		strategy: "{type: RollingUpdate}",
		actions: "    - {at: 20s, kubectl: taint nodes node-2 dedicated=db:NoExecute}\n" +
			"    - {at: 25s, kubectl: taint nodes node-3 dedicated=db:NoSchedule}\n" +
			"    - {at: 50s, kubectl: taint nodes node-2 dedicated-}\n" +
			"    - {at: 55s, kubectl: taint nodes node-3 dedicated-}\n",
	}, {
		// Only labelled nodes run the pod; relabelling moves it; a
		// deleted node loses it.
		name:     "node-selector",
		strategy: "{type: RollingUpdate}",
		podSpec:  "      nodeSelector: {disk: ssd}\n",
		actions: "    - {at: 1s, kubectl: label nodes node-1 disk=ssd}\n" +
			"    - {at: 1s, kubectl: label nodes node-2 disk=ssd}\n" +
			"    - {at: 30s, kubectl: label nodes node-1 disk-}\n" +
			"    - {at: 35s, kubectl: label nodes node-3 disk=ssd}\n" +
			"    - {at: 50s, kubectl: label nodes node-4 disk=ssd}\n" +
			"    - {at: 60s, kubectl: delete node node-4}\n",
	}, {
		// Template changes 50 ms apart, closer than the controller's
		// watch delay (100 ms): syncs on a DaemonSet, and revisions,
		// their cache has not caught up with.
		name:     "rapid-template-changes",
		strategy: "{type: RollingUpdate, rollingUpdate: {maxSurge: 2, maxUnavailable: 0}}",
		actions: setImage2 +
			"    - {at: 20050ms, kubectl: set image daemonset/agent agent=agent:3}\n" +
			"    - {at: 21s, kubectl: rollout undo daemonset/agent}\n",
	}, {
		// No history kept, and templates changing faster than the cache
		// sees the revisions go.
		name:     "no-history",
		strategy: "{type: RollingUpdate, rollingUpdate: {maxUnavailable: 3}}",
		spec:     "  revisionHistoryLimit: 0\n",
		actions: setImage2 +
			"    - {at: 20120ms, kubectl: set image daemonset/agent agent=agent:3}\n" +
			"    - {at: 20200ms, kubectl: taint nodes node-1 dedicated=db:NoExecute}\n",
	}, {
		// A node deleted mid-rollout, its pod still bound to it: a
		// candidate like any other without surge; with surge, upstream
		// cannot look the node up.
		name:     "deleted-node",
		strategy: "{type: RollingUpdate}",
		actions: "    - {at: 20s, kubectl: set image daemonset/agent agent=agent:bad}\n" +
			"    - {at: 40s, kubectl: set image daemonset/agent agent=agent:2}\n" +
			"    - {at: 40030ms, kubectl: delete node node-2}\n",
	}, {
		name:     "deleted-node-surge",
		strategy: "{type: RollingUpdate, rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}",
		actions: "    - {at: 20s, kubectl: delete node node-4}\n" +
			"    - {at: 20030ms, kubectl: set image daemonset/agent agent=agent:2}\n",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			src := daemonScenario(tc.strategy, tc.spec, tc.podSpec, tc.actions)
			reportFor(t, runActing(t, src, 20*60_000, tc.acts...), "daemonset-controller", "scheduler")
		})
	}
}

// StatefulSet scenarios: every StatefulSet controller tick agrees with
// upstream's sync (UpdateStatefulSet), or differs only as allowances.go
// allows.
func TestStatefulSets(t *testing.T) {
	const scaleUpDown = "    - {at: 60s, kubectl: scale statefulset/db --replicas=5}\n" +
		"    - {at: 100s, kubectl: scale statefulset/db --replicas=1}\n"
	for _, tc := range []struct {
		name, policy, strategy, spec, actions string
	}{{
		name:     "ordered-ready",
		policy:   "OrderedReady",
		strategy: "{type: RollingUpdate}",
		actions:  "    - {at: 30s, kubectl: set image statefulset/db db=db:2}\n" + scaleUpDown,
	}, {
		name:     "parallel",
		policy:   "Parallel",
		strategy: "{type: RollingUpdate}",
		actions:  "    - {at: 30s, kubectl: set image statefulset/db db=db:2}\n" + scaleUpDown,
	}, {
		// Ordinals below the partition keep the old revision, also
		// when one is deleted and recreated; those a scale-up adds get
		// the new one.
		name:     "partition",
		policy:   "OrderedReady",
		strategy: "{type: RollingUpdate, rollingUpdate: {partition: 2}}",
		actions: "    - {at: 30s, kubectl: set image statefulset/db db=db:2}\n" +
			"    - {at: 60s, kubectl: delete pod db-0}\n" + scaleUpDown,
	}, {
		// Scale-ups and a deletion while the controller's cache lags its
		// own writes (its watch delay is 100 ms): syncs that find claims
		// and pods in the API server their cache does not hold yet.
		name:     "parallel-stale-cache",
		policy:   "Parallel",
		strategy: "{type: RollingUpdate}",
		actions: "    - {at: 2050ms, kubectl: scale statefulset/db --replicas=5}\n" +
			"    - {at: 3020ms, kubectl: scale statefulset/db --replicas=8}\n" +
			"    - {at: 3080ms, kubectl: delete pod db-1}\n",
	}, {
		// minReadySeconds: each pod waits to be available.
		name:     "min-ready-seconds",
		policy:   "OrderedReady",
		strategy: "{type: RollingUpdate}",
		spec:     "  minReadySeconds: 4\n",
		actions:  "    - {at: 40s, kubectl: set image statefulset/db db=db:2}\n",
	}, {
		// An image that cannot be pulled: the rollout stops at db-2;
		// the undo does not replace it, deleting it does.
		name:     "unpullable-image",
		policy:   "OrderedReady",
		strategy: "{type: RollingUpdate}",
		actions: "    - {at: 30s, kubectl: set image statefulset/db db=db:bad}\n" +
			"    - {at: 60s, kubectl: rollout undo statefulset/db}\n" +
			"    - {at: 80s, kubectl: delete pod db-2}\n",
	}, {
		// The same in Parallel: the rolling update still replaces one
		// pod at a time and the broken one blocks it; a scale-up
		// meanwhile adds a pod of the update revision.
		name:     "unpullable-image-parallel",
		policy:   "Parallel",
		strategy: "{type: RollingUpdate}",
		actions: "    - {at: 30s, kubectl: set image statefulset/db db=db:bad}\n" +
			"    - {at: 50s, kubectl: scale statefulset/db --replicas=4}\n" +
			"    - {at: 70s, kubectl: rollout undo statefulset/db}\n" +
			"    - {at: 90s, kubectl: delete pod db-2}\n",
	}, {
		// Nothing replaced until a pod is deleted; a scale-up creates
		// the new ordinal from the update revision; then the set goes,
		// in the foreground.
		name:     "on-delete",
		policy:   "OrderedReady",
		strategy: "{type: OnDelete}",
		actions: "    - {at: 30s, kubectl: set image statefulset/db db=db:2}\n" +
			"    - {at: 50s, kubectl: delete pod db-1}\n" +
			"    - {at: 70s, kubectl: scale statefulset/db --replicas=4}\n" +
			"    - {at: 100s, kubectl: delete statefulset/db --cascade=foreground}\n",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			reportFor(t, run(t, []byte(statefulScenario(tc.policy, tc.strategy, tc.spec, tc.actions)), 20*60_000), "statefulset-controller", "scheduler")
		})
	}
}

package engine_test

import (
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/trace"
	"github.com/stateflow/stateflow/internal/testkit"
)

// rule says what one component may write: which kinds, with which class,
// and (for updates) which fields.
type rule struct {
	kind   string
	class  trace.Class
	ops    []trace.Op
	fields []string // allowed path prefixes of changed fields; nil = any
}

// layers is the architecture under test: each component writes only its
// own layer's status or the desired state of the layer directly below.
var layers = map[string][]rule{
	"deployment-controller": {
		{api.KindReplicaSet, trace.Translate, []trace.Op{trace.Create, trace.Update, trace.Delete}, []string{"spec.replicas", "spec.minReadySeconds", "metadata.annotations", "metadata.ownerReferences", "metadata.generation"}},
		{api.KindDeployment, trace.Aggregate, []trace.Op{trace.Update}, []string{"status", "metadata.annotations"}},
		{api.KindEvent, trace.Event, []trace.Op{trace.Create, trace.Update}, nil},
	},
	"replicaset-controller": {
		{api.KindPod, trace.Translate, []trace.Op{trace.Create, trace.Delete, trace.Update}, []string{"metadata.ownerReferences", "metadata.deletionTimestamp", "metadata.deletionGracePeriodSeconds"}},
		{api.KindReplicaSet, trace.Aggregate, []trace.Op{trace.Update}, []string{"status"}},
		{api.KindEvent, trace.Event, []trace.Op{trace.Create, trace.Update}, nil},
	},
	"replication-controller": {
		{api.KindPod, trace.Translate, []trace.Op{trace.Create, trace.Delete, trace.Update}, []string{"metadata.ownerReferences", "metadata.deletionTimestamp", "metadata.deletionGracePeriodSeconds"}},
		{api.KindReplicationController, trace.Aggregate, []trace.Op{trace.Update}, []string{"status"}},
		{api.KindEvent, trace.Event, []trace.Op{trace.Create, trace.Update}, nil},
	},
	"scheduler": {
		{api.KindPod, trace.Bind, []trace.Op{trace.Update}, []string{"spec.nodeName", "status.conditions[PodScheduled]"}},
		{api.KindEvent, trace.Event, []trace.Op{trace.Create, trace.Update}, nil},
	},
	"garbage-collector": {
		{api.KindReplicaSet, trace.Translate, []trace.Op{trace.Delete, trace.Update}, []string{"metadata.ownerReferences", "metadata.finalizers", "metadata.deletionTimestamp", "metadata.deletionGracePeriodSeconds", "metadata.generation"}},
		{api.KindPod, trace.Translate, []trace.Op{trace.Delete, trace.Update}, []string{"metadata.ownerReferences"}},
		{api.KindDeployment, trace.Translate, []trace.Op{trace.Update, trace.Delete}, []string{"metadata.finalizers"}},
		{api.KindEndpointSlice, trace.Translate, []trace.Op{trace.Delete}, nil},
		{api.KindPod, trace.Translate, []trace.Op{trace.Delete}, nil},
		{api.KindControllerRevision, trace.Translate, []trace.Op{trace.Delete}, nil},
		{api.KindPersistentVolumeClaim, trace.Translate, []trace.Op{trace.Delete}, nil},
		{api.KindJob, trace.Translate, []trace.Op{trace.Delete, trace.Update}, []string{"metadata.ownerReferences", "metadata.finalizers", "metadata.deletionTimestamp", "metadata.deletionGracePeriodSeconds", "metadata.generation"}},
	},
	"node-lifecycle-controller": {
		{api.KindNode, trace.Aggregate, []trace.Op{trace.Update}, []string{"status.conditions"}},
		{api.KindNode, trace.Translate, []trace.Op{trace.Update}, []string{"spec.taints"}},
		{api.KindPod, trace.Aggregate, []trace.Op{trace.Update}, []string{"status.conditions[Ready]"}},
		{api.KindEvent, trace.Event, []trace.Op{trace.Create, trace.Update}, nil},
	},
	"taint-eviction-controller": {
		{api.KindPod, trace.Translate, []trace.Op{trace.Delete}, nil},
		{api.KindEvent, trace.Event, []trace.Op{trace.Create, trace.Update}, nil},
	},
	"daemonset-controller": {
		{api.KindPod, trace.Translate, []trace.Op{trace.Create, trace.Delete}, nil},
		{api.KindControllerRevision, trace.Translate, []trace.Op{trace.Create, trace.Update, trace.Delete}, []string{"revision"}},
		{api.KindDaemonSet, trace.Aggregate, []trace.Op{trace.Update}, []string{"status"}},
		{api.KindEvent, trace.Event, []trace.Op{trace.Create, trace.Update}, nil},
	},
	"statefulset-controller": {
		{api.KindPod, trace.Translate, []trace.Op{trace.Create, trace.Delete, trace.Update}, []string{"metadata.labels", "spec.hostname", "spec.subdomain", "spec.volumes"}},
		{api.KindPersistentVolumeClaim, trace.Translate, []trace.Op{trace.Create, trace.Update}, []string{"metadata.ownerReferences"}},
		{api.KindControllerRevision, trace.Translate, []trace.Op{trace.Create, trace.Update, trace.Delete}, []string{"revision"}},
		{api.KindStatefulSet, trace.Aggregate, []trace.Op{trace.Update}, []string{"status"}},
		{api.KindEvent, trace.Event, []trace.Op{trace.Create, trace.Update}, nil},
	},
	// The Job controller creates and deletes its pods, adopts orphans and
	// removes the tracking finalizer of the pods it has counted.
	"job-controller": {
		{api.KindPod, trace.Translate, []trace.Op{trace.Create, trace.Delete, trace.Update}, []string{"metadata.finalizers", "metadata.ownerReferences"}},
		{api.KindJob, trace.Aggregate, []trace.Op{trace.Update}, []string{"status"}},
		{api.KindEvent, trace.Event, []trace.Op{trace.Create, trace.Update}, nil},
	},
	"cronjob-controller": {
		{api.KindJob, trace.Translate, []trace.Op{trace.Create, trace.Delete}, nil},
		{api.KindCronJob, trace.Aggregate, []trace.Op{trace.Update}, []string{"status"}},
		{api.KindEvent, trace.Event, []trace.Op{trace.Create, trace.Update}, nil},
	},
	"ttl-after-finished-controller": {
		{api.KindJob, trace.Translate, []trace.Op{trace.Delete, trace.Update}, []string{"metadata.finalizers", "metadata.deletionTimestamp", "metadata.deletionGracePeriodSeconds", "metadata.generation"}},
	},
	// The HPA writes its target's spec.replicas (the scale subresource)
	// and summarises the metrics it read into its own status.
	"horizontal-pod-autoscaler": {
		{api.KindDeployment, trace.Translate, []trace.Op{trace.Update}, []string{"spec.replicas", "metadata.generation"}},
		{api.KindReplicaSet, trace.Translate, []trace.Op{trace.Update}, []string{"spec.replicas", "metadata.generation"}},
		{api.KindStatefulSet, trace.Translate, []trace.Op{trace.Update}, []string{"spec.replicas", "metadata.generation"}},
		{api.KindHorizontalPodAutoscaler, trace.Aggregate, []trace.Op{trace.Update}, []string{"status"}},
		{api.KindEvent, trace.Event, []trace.Op{trace.Create, trace.Update}, nil},
	},
	// The metrics-server summarises what the kubelets measure into the
	// metrics API.
	"metrics-server": {
		{api.KindPodMetrics, trace.Aggregate, []trace.Op{trace.Create, trace.Update, trace.Delete}, nil},
		{api.KindNodeMetrics, trace.Aggregate, []trace.Op{trace.Create, trace.Update, trace.Delete}, nil},
	},
	"persistentvolume-binder": {
		{api.KindPersistentVolumeClaim, trace.Realize, []trace.Op{trace.Update}, []string{"spec.volumeName", "metadata.annotations", "status"}},
	},
	"endpointslice-controller": {
		{api.KindEndpointSlice, trace.Aggregate, []trace.Op{trace.Create, trace.Update, trace.Delete}, nil},
		{api.KindEvent, trace.Event, []trace.Op{trace.Create, trace.Update}, nil},
	},
	"endpoints-controller": {
		{api.KindEndpoints, trace.Aggregate, []trace.Op{trace.Create, trace.Update, trace.Delete}, nil},
		{api.KindEvent, trace.Event, []trace.Op{trace.Create, trace.Update}, nil},
	},
	// The disruption controller summarises the pods a budget selects into
	// its status, and withdraws a DisruptionTarget condition no deletion
	// followed.
	"disruption-controller": {
		{api.KindPodDisruptionBudget, trace.Aggregate, []trace.Op{trace.Update}, []string{"status"}},
		{api.KindPod, trace.Realize, []trace.Op{trace.Update}, []string{"status.conditions[DisruptionTarget]"}},
		{api.KindEvent, trace.Event, []trace.Op{trace.Create, trace.Update}, nil},
	},
	"pod-garbage-collector": {
		{api.KindPod, trace.Realize, []trace.Op{trace.Update}, []string{"status.phase", "status.conditions[DisruptionTarget]"}},
		{api.KindPod, trace.Translate, []trace.Op{trace.Delete}, nil},
	},
	// A node joining (add-node): its kubelet registers the Node, the one
	// write a scenario action makes itself.
	"scenario": {
		{api.KindNode, trace.Realize, []trace.Op{trace.Create}, nil},
	},
	"kubelet": {
		{api.KindPod, trace.Realize, []trace.Op{trace.Update, trace.Delete}, []string{"status"}},
		{api.KindNode, trace.Realize, []trace.Op{trace.Update}, []string{"status"}},
		{api.KindEvent, trace.Event, []trace.Op{trace.Create, trace.Update}, nil},
	},
}

// ownLayer is where each component's status summaries may go: its own
// objects (the node lifecycle controller summarises node health into the
// Node and into its pods' Ready condition).
var ownLayer = map[string]map[string]bool{
	"deployment-controller":     {api.KindDeployment: true},
	"replicaset-controller":     {api.KindReplicaSet: true},
	"replication-controller":    {api.KindReplicationController: true},
	"node-lifecycle-controller": {api.KindNode: true, api.KindPod: true},
	"daemonset-controller":      {api.KindDaemonSet: true},
	"statefulset-controller":    {api.KindStatefulSet: true},
	"job-controller":            {api.KindJob: true},
	"cronjob-controller":        {api.KindCronJob: true},
	"horizontal-pod-autoscaler": {api.KindHorizontalPodAutoscaler: true},
	"metrics-server":            {api.KindPodMetrics: true, api.KindNodeMetrics: true},
	"disruption-controller":     {api.KindPodDisruptionBudget: true},
	// The endpoint controllers summarise their pods' readiness sideways,
	// into the Service's EndpointSlices and Endpoints.
	"endpointslice-controller": {api.KindEndpointSlice: true},
	"endpoints-controller":     {api.KindEndpoints: true},
}

func allowed(comp string, e *trace.Effect) (bool, string) {
	if comp == "kubectl" {
		return true, ""
	}
	for _, r := range layers[comp] {
		if r.kind != e.Object.Kind || r.class != e.Class || !hasOp(r.ops, e.Op) {
			continue
		}
		if e.Op != trace.Update || r.fields == nil {
			return true, ""
		}
		for _, ch := range e.Changes() {
			if !hasPrefix(r.fields, ch.Path) {
				return false, "changed " + ch.Path
			}
		}
		return true, ""
	}
	return false, "no rule allows it"
}

func hasOp(ops []trace.Op, op trace.Op) bool {
	for _, o := range ops {
		if o == op {
			return true
		}
	}
	return false
}

func hasPrefix(prefixes []string, path string) bool {
	for _, p := range prefixes {
		if path == p || strings.HasPrefix(path, p+".") || strings.HasPrefix(path, p+"[") {
			return true
		}
	}
	return false
}

// No component writes an object two layers away, the scheduler only binds,
// the kubelet only reports Pod status, and every status write is an
// aggregate of the component's own kind. Checked over the whole trace of
// every example and of a rolling update.
func TestLayering(t *testing.T) {
	check := func(t *testing.T, e *engine.Engine) {
		effects := 0
		for _, tk := range e.Trace() {
			for i := range tk.Effects {
				eff := &tk.Effects[i]
				effects++
				if ok, why := allowed(tk.Component, eff); !ok {
					t.Errorf("tick %d: %s made a %s %s of %s: %s", tk.Seq, tk.Component, eff.Class, eff.Op, eff.Object, why)
				}
				if eff.Class == trace.Aggregate && !ownLayer[tk.Component][eff.Object.Kind] {
					t.Errorf("tick %d: %s aggregated into %s, which is not its own layer", tk.Seq, tk.Component, eff.Object)
				}
			}
		}
		if effects == 0 {
			t.Fatal("no effects to check")
		}
	}
	for _, path := range testkit.Examples(t, "../examples") {
		t.Run(path, func(t *testing.T) {
			e, _ := testkit.LoadFile(t, path)
			_ = e.RunUntilSettled(engine.SettleLimits{MaxTicks: 20000})
			check(t, e)
		})
	}
	t.Run("rolling update", func(t *testing.T) {
		e, _ := testkit.LoadFile(t, seed)
		_ = e.RunUntilSettled(engine.SettleLimits{})
		setImage(e, "codartium-team", "codartium-api", "codartium/api:2.0.0")
		_ = e.RunUntilSettled(engine.SettleLimits{})
		check(t, e)
	})
}

// The layering check itself rejects a violation (so it cannot pass vacuously).
func TestLayeringRejectsTwoLayerWrites(t *testing.T) {
	bad := &trace.Effect{Class: trace.Translate, Op: trace.Create, Object: api.Key{Kind: api.KindPod, Namespace: "a", Name: "p"}}
	if ok, _ := allowed("deployment-controller", bad); ok {
		t.Fatal("a deployment controller creating a Pod must be rejected")
	}
	spec := &trace.Effect{Class: trace.Bind, Op: trace.Update, Object: api.Key{Kind: api.KindPod, Namespace: "a", Name: "p"},
		Before: &api.Pod{}, After: &api.Pod{Spec: &api.PodSpec{RestartPolicy: "Never"}}}
	if ok, _ := allowed("scheduler", spec); ok {
		t.Fatal("a scheduler changing anything but the binding must be rejected")
	}
}

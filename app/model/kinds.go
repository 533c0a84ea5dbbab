package model

import (
	"github.com/stateflow/stateflow/engine/api"
)

// A kindView is what the view-model needs of one kind beyond what every
// object has, registered once in kindViews: the diagram's lane for an
// orphan that owns pods, its edges beyond ownership, the template whose
// labels a budget's selector matches, whose pods the inspector's picker
// lists, and what in its change needs acting on. A nil field is what the
// kind does not have.
type kindView struct {
	kind string
	// lane draws an object without a drawn owner over its own pods (an
	// orphaned ReplicaSet or Job).
	lane func(s *scene, o api.Object, children []api.Object) *owner
	// edge links a drawn box to what it acts on beyond its owner: an
	// autoscaler to what it scales, a pod to its node.
	edge func(l *layout, b *Box, o api.Object, pods int)
	// template is the pod template of a workload drawn at the top row,
	// whose labels a PodDisruptionBudget's selector is matched against.
	template func(o api.Object) *api.PodTemplateSpec
	// podOwner is the controller whose pods the inspector's pod picker
	// lists when the object is selected: itself, or a pod's owner.
	podOwner func(o api.Object) (uid, name string)
	// alerts reports a change a user must act on (a Warning Event, a
	// Deployment that has just exceeded its progress deadline).
	alerts func(before, after api.Object) bool
}

// selfOwner is podOwner for a controller of pods.
func selfOwner(o api.Object) (string, string) { return o.Meta().UID, o.Meta().Name }

var kindViews = []kindView{
	{kind: api.KindDeployment,
		template: func(o api.Object) *api.PodTemplateSpec { return &o.(*api.Deployment).Spec.Template },
		alerts:   func(before, after api.Object) bool { return timedOut(after) && !timedOut(before) }},
	{kind: api.KindReplicaSet,
		lane: func(s *scene, o api.Object, children []api.Object) *owner {
			return s.replicaSet(o.(*api.ReplicaSet), children)
		},
		podOwner: selfOwner},
	{kind: api.KindDaemonSet,
		template: func(o api.Object) *api.PodTemplateSpec { return &o.(*api.DaemonSet).Spec.Template },
		podOwner: selfOwner},
	{kind: api.KindStatefulSet,
		template: func(o api.Object) *api.PodTemplateSpec { return &o.(*api.StatefulSet).Spec.Template },
		podOwner: selfOwner},
	{kind: api.KindReplicationController,
		template: func(o api.Object) *api.PodTemplateSpec { return o.(*api.ReplicationController).Spec.Template },
		podOwner: selfOwner},
	{kind: api.KindJob,
		lane: func(s *scene, o api.Object, children []api.Object) *owner { return s.job(o.(*api.Job), children) }},
	{kind: api.KindPod,
		edge: func(l *layout, b *Box, o api.Object, pods int) {
			p := o.(*api.Pod)
			node := "Node/" + p.Spec.NodeName
			if _, drawn := l.boxes[node]; drawn && p.Spec.NodeName != "" && (pods <= boundEdgesUpTo || l.s.focus[b.Key]) {
				l.f.Edges = append(l.f.Edges, Edge{From: b.ID, To: node, Kind: "bound"})
			}
		},
		podOwner: func(o api.Object) (string, string) {
			if ref := o.Meta().ControllerRef(); ref != nil {
				return ref.UID, ref.Name
			}
			return "", ""
		}},
	{kind: api.KindHorizontalPodAutoscaler,
		edge: func(l *layout, b *Box, o api.Object, _ int) {
			h := o.(*api.HorizontalPodAutoscaler)
			target := api.Key{Kind: h.Spec.ScaleTargetRef.Kind, Namespace: h.Namespace, Name: h.Spec.ScaleTargetRef.Name}.String()
			if _, drawn := l.boxes[target]; drawn {
				l.f.Edges = append(l.f.Edges, Edge{From: b.ID, To: target, Kind: "scales"})
			}
		}},
	{kind: api.KindEvent,
		alerts: func(_, after api.Object) bool {
			if r, ok := after.(*api.EventRecord); ok {
				return r.Type() == api.EventWarning
			}
			return after.(*api.Event).Type == api.EventWarning
		}},
}

// noView is the view of a kind without one.
var noView = kindView{}

// viewOf is kind's view.
func viewOf(kind string) *kindView {
	for i := range kindViews {
		if kindViews[i].kind == kind {
			return &kindViews[i]
		}
	}
	return &noView
}

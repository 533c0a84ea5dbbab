package kubectl

import (
	"reflect"

	"github.com/stateflow/stateflow/engine/api"
)

// A kindHelper is what kubectl's commands need of one kind beyond its
// names (resources.go) and its get printer (printers.go): its describer
// (upstream's DescriberFor map) and what upstream's polymorphichelpers
// find in it. A nil field is what the kind does not have. Each kind's
// functions live in its file; kindHelpers registers them, one entry per
// kind, so no command switches on kinds.
type kindHelper struct {
	kind string
	// describe writes kubectl describe's lines, before the Events.
	describe func(s *Session, w *prefixWriter, o api.Object)
	// podSpec is the pod spec set image changes (UpdatePodSpecForObject).
	podSpec func(o api.Object) *api.PodSpec
	// replicas is the field the scale subresource sets: the kinds that
	// have one (discovery's scale subresources, which autoscale needs).
	replicas func(o api.Object) **int32
	// statusViewer is rollout status's (StatusViewerFor).
	statusViewer func(o api.Object, revision int64) (string, bool, error)
	// restartTemplate is the template rollout restart annotates, or why
	// it cannot (ObjectRestarter).
	restartTemplate func(o api.Object) (*api.PodTemplateSpec, error)
	// revisions are the selector and template of a workload whose history
	// is ControllerRevisions (HistoryViewerFor, Rollbacker).
	revisions func(o api.Object) (*api.LabelSelector, *api.PodTemplateSpec)
	// selectable reads a field selector's field of the kind beyond the
	// metadata's (its strategy's SelectableFields); nil if none.
	selectable func(field string) func(api.Object) string
	// noEvents says describe lists no Events after the kind's lines (an
	// Event's, a Secret's).
	noEvents bool
	// applySpec is the spec part of apply's merge: cur takes applied's
	// spec, keeping what the server filled in that the manifest leaves
	// out; it reports whether the spec changed. Kinds without one keep
	// their spec.
	applySpec func(cur, applied api.Object) bool
}

// kindHelpers is every kind's helper.
var kindHelpers = []kindHelper{
	{kind: api.KindDeployment,
		describe: func(s *Session, w *prefixWriter, o api.Object) { s.describeDeployment(w, o.(*api.Deployment)) },
		podSpec:  func(o api.Object) *api.PodSpec { return &o.(*api.Deployment).Spec.Template.Spec },
		replicas: func(o api.Object) **int32 { return &o.(*api.Deployment).Spec.Replicas },
		statusViewer: func(o api.Object, revision int64) (string, bool, error) {
			return rolloutMessage(o.(*api.Deployment), revision)
		},
		restartTemplate: func(o api.Object) (*api.PodTemplateSpec, error) {
			d := o.(*api.Deployment)
			if d.Spec.Paused {
				return nil, errorf("deployments.apps %q can't restart paused deployment (run rollout resume first)", d.Name)
			}
			return &d.Spec.Template, nil
		},
		applySpec: func(cur, applied api.Object) bool {
			return takeSpec(&cur.(*api.Deployment).Spec, &applied.(*api.Deployment).Spec)
		}},
	{kind: api.KindReplicaSet,
		selectable: replicaSetField,
		describe:   func(s *Session, w *prefixWriter, o api.Object) { s.describeReplicaSet(w, o.(*api.ReplicaSet)) },
		podSpec:    func(o api.Object) *api.PodSpec { return &o.(*api.ReplicaSet).Spec.Template.Spec },
		replicas:   func(o api.Object) **int32 { return &o.(*api.ReplicaSet).Spec.Replicas },
		applySpec: func(cur, applied api.Object) bool {
			return takeSpec(&cur.(*api.ReplicaSet).Spec, &applied.(*api.ReplicaSet).Spec)
		}},
	{kind: api.KindPod,
		selectable: podField,
		describe:   func(s *Session, w *prefixWriter, o api.Object) { s.describePod(w, o.(*api.Pod)) },
		podSpec:    func(o api.Object) *api.PodSpec { return o.(*api.Pod).Spec }},
	{kind: api.KindNode,
		selectable: nodeField,
		describe:   func(s *Session, w *prefixWriter, o api.Object) { s.describeNode(w, o.(*api.Node)) },
		applySpec: func(cur, applied api.Object) bool {
			return takeSpec(&cur.(*api.Node).Spec, &applied.(*api.Node).Spec)
		}},
	{kind: api.KindService,
		selectable: serviceField,
		describe:   func(s *Session, w *prefixWriter, o api.Object) { s.describeService(w, o.(*api.Service)) },
		applySpec: func(cur, applied api.Object) bool {
			c, a := cur.(*api.Service), applied.(*api.Service)
			keepAllocations(&a.Spec, &c.Spec)
			return takeSpec(&c.Spec, &a.Spec)
		}},
	{kind: api.KindEvent, selectable: eventField, noEvents: true},
	{kind: api.KindEndpoints,
		describe: func(_ *Session, w *prefixWriter, o api.Object) { describeEndpoints(w, o.(*api.Endpoints)) }},
	{kind: api.KindEndpointSlice,
		describe: func(_ *Session, w *prefixWriter, o api.Object) { describeEndpointSlice(w, o.(*api.EndpointSlice)) }},
	{kind: api.KindDaemonSet,
		describe:     func(s *Session, w *prefixWriter, o api.Object) { s.describeDaemonSet(w, o.(*api.DaemonSet)) },
		podSpec:      func(o api.Object) *api.PodSpec { return &o.(*api.DaemonSet).Spec.Template.Spec },
		statusViewer: func(o api.Object, _ int64) (string, bool, error) { return daemonSetStatus(o.(*api.DaemonSet)) },
		restartTemplate: func(o api.Object) (*api.PodTemplateSpec, error) {
			return &o.(*api.DaemonSet).Spec.Template, nil
		},
		revisions: func(o api.Object) (*api.LabelSelector, *api.PodTemplateSpec) {
			d := o.(*api.DaemonSet)
			return d.Spec.Selector, &d.Spec.Template
		}},
	{kind: api.KindControllerRevision, describe: func(_ *Session, w *prefixWriter, o api.Object) { describeGeneric(w, o) }},
	{kind: api.KindStatefulSet,
		describe:     func(s *Session, w *prefixWriter, o api.Object) { s.describeStatefulSet(w, o.(*api.StatefulSet)) },
		podSpec:      func(o api.Object) *api.PodSpec { return &o.(*api.StatefulSet).Spec.Template.Spec },
		replicas:     func(o api.Object) **int32 { return &o.(*api.StatefulSet).Spec.Replicas },
		statusViewer: func(o api.Object, _ int64) (string, bool, error) { return statefulSetStatus(o.(*api.StatefulSet)) },
		restartTemplate: func(o api.Object) (*api.PodTemplateSpec, error) {
			return &o.(*api.StatefulSet).Spec.Template, nil
		},
		revisions: func(o api.Object) (*api.LabelSelector, *api.PodTemplateSpec) {
			set := o.(*api.StatefulSet)
			return set.Spec.Selector, &set.Spec.Template
		},
		applySpec: func(cur, applied api.Object) bool {
			return takeSpec(&cur.(*api.StatefulSet).Spec, &applied.(*api.StatefulSet).Spec)
		}},
	{kind: api.KindPersistentVolumeClaim,
		selectable: claimField,
		describe:   func(s *Session, w *prefixWriter, o api.Object) { s.describeClaim(w, o.(*api.PersistentVolumeClaim)) },
		applySpec: func(cur, applied api.Object) bool {
			c, a := cur.(*api.PersistentVolumeClaim), applied.(*api.PersistentVolumeClaim)
			// The volume the binder wrote stays, as the merge keeps what
			// the manifest does not mention.
			if a.Spec.VolumeName == "" {
				a.Spec.VolumeName = c.Spec.VolumeName
			}
			return takeSpec(&c.Spec, &a.Spec)
		}},
	{kind: api.KindJob,
		selectable: jobField,
		describe:   func(s *Session, w *prefixWriter, o api.Object) { s.describeJob(w, o.(*api.Job)) },
		podSpec:    func(o api.Object) *api.PodSpec { return &o.(*api.Job).Spec.Template.Spec },
		applySpec: func(cur, applied api.Object) bool {
			c, a := cur.(*api.Job), applied.(*api.Job)
			keepGeneratedSelector(&a.Spec, &c.Spec)
			return takeSpec(&c.Spec, &a.Spec)
		}},
	{kind: api.KindCronJob,
		describe: func(s *Session, w *prefixWriter, o api.Object) { s.describeCronJob(w, o.(*api.CronJob)) },
		podSpec:  func(o api.Object) *api.PodSpec { return &o.(*api.CronJob).Spec.JobTemplate.Spec.Template.Spec },
		applySpec: func(cur, applied api.Object) bool {
			return takeSpec(&cur.(*api.CronJob).Spec, &applied.(*api.CronJob).Spec)
		}},
	{kind: api.KindHorizontalPodAutoscaler,
		describe: func(_ *Session, w *prefixWriter, o api.Object) { describeHPA(w, o.(*api.HorizontalPodAutoscaler)) },
		applySpec: func(cur, applied api.Object) bool {
			return takeSpec(&cur.(*api.HorizontalPodAutoscaler).Spec, &applied.(*api.HorizontalPodAutoscaler).Spec)
		}},
	{kind: api.KindPodDisruptionBudget,
		describe: func(_ *Session, w *prefixWriter, o api.Object) { describePDB(w, o.(*api.PodDisruptionBudget)) },
		applySpec: func(cur, applied api.Object) bool {
			return takeSpec(&cur.(*api.PodDisruptionBudget).Spec, &applied.(*api.PodDisruptionBudget).Spec)
		}},
	{kind: api.KindConfigMap, applySpec: applyConfigMap,
		describe: func(_ *Session, w *prefixWriter, o api.Object) { describeConfigMap(w, o.(*api.ConfigMap)) }},
	{kind: api.KindSecret, applySpec: applySecret, noEvents: true,
		describe: func(_ *Session, w *prefixWriter, o api.Object) { describeSecret(w, o.(*api.Secret)) }},
	{kind: api.KindPodMetrics, describe: func(_ *Session, w *prefixWriter, o api.Object) { describeGeneric(w, o) }},
	{kind: api.KindNodeMetrics, describe: func(_ *Session, w *prefixWriter, o api.Object) { describeGeneric(w, o) }},
}

// noHelper is the helper of a kind without one.
var noHelper = kindHelper{}

// helperFor is kind's helper.
func helperFor(kind string) *kindHelper {
	for i := range kindHelpers {
		if kindHelpers[i].kind == kind {
			return &kindHelpers[i]
		}
	}
	return &noHelper
}

// takeSpec sets *cur to *applied (two pointers to one spec type) and
// reports whether it changed.
func takeSpec(cur, applied any) bool {
	changed := !reflect.DeepEqual(cur, applied)
	reflect.ValueOf(cur).Elem().Set(reflect.ValueOf(applied).Elem())
	return changed
}

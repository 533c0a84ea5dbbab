package kubectl

import (
	"reflect"

	"github.com/stateflow/stateflow/engine/api"
)

// A kindHelper is everything kubectl's commands know of one kind, its
// one entry in kindHelpers: its discovery short name (the rest of its
// names come from engine/api's registry: resources.go), its get printer
// (upstream's printers.go registers a TableHandler per type), its
// describer (upstream's DescriberFor map) and what upstream's
// polymorphichelpers find in it. A nil field is what the kind does not
// have. Each kind's functions live in its file; no command switches on
// kinds.
type kindHelper struct {
	kind string
	// short is the short name discovery lists ("deploy"), or "".
	short string
	// columns are get's column definitions, the -o wide ones marked
	// (upstream's priority 1); row prints one object's cells, its wide
	// cells included when asked. A kind without them prints its name.
	columns []column
	row     func(o api.Object, name string, wide bool, now int64) []string
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

// kindHelpers is every kind's helper, in the order kubectl's error
// message lists the simulated types (simulatedList); the core kinds come
// before the metrics API's, whose resources share their plurals
// ("pods", "nodes").
var kindHelpers = []kindHelper{
	{kind: api.KindDeployment, short: "deploy",
		columns: []column{{"NAME", always}, {"READY", always}, {"UP-TO-DATE", always}, {"AVAILABLE", always}, {"AGE", always}, {"CONTAINERS", wideOnly}, {"IMAGES", wideOnly}, {"SELECTOR", wideOnly}},
		row: func(o api.Object, name string, wide bool, now int64) []string {
			return deploymentRow(o.(*api.Deployment), name, wide, now)
		},
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
	{kind: api.KindReplicaSet, short: "rs",
		columns: []column{{"NAME", always}, {"DESIRED", always}, {"CURRENT", always}, {"READY", always}, {"AGE", always}, {"CONTAINERS", wideOnly}, {"IMAGES", wideOnly}, {"SELECTOR", wideOnly}},
		row: func(o api.Object, name string, wide bool, now int64) []string {
			return replicaSetRow(o.(*api.ReplicaSet), name, wide, now)
		},
		selectable: replicaSetField,
		describe:   func(s *Session, w *prefixWriter, o api.Object) { s.describeReplicaSet(w, o.(*api.ReplicaSet)) },
		podSpec:    func(o api.Object) *api.PodSpec { return &o.(*api.ReplicaSet).Spec.Template.Spec },
		replicas:   func(o api.Object) **int32 { return &o.(*api.ReplicaSet).Spec.Replicas },
		applySpec: func(cur, applied api.Object) bool {
			return takeSpec(&cur.(*api.ReplicaSet).Spec, &applied.(*api.ReplicaSet).Spec)
		}},
	{kind: api.KindReplicationController, short: "rc",
		columns: []column{{"NAME", always}, {"DESIRED", always}, {"CURRENT", always}, {"READY", always}, {"AGE", always}, {"CONTAINERS", wideOnly}, {"IMAGES", wideOnly}, {"SELECTOR", wideOnly}},
		row: func(o api.Object, name string, wide bool, now int64) []string {
			return replicationControllerRow(o.(*api.ReplicationController), name, wide, now)
		},
		describe: func(s *Session, w *prefixWriter, o api.Object) {
			s.describeReplicationController(w, o.(*api.ReplicationController))
		},
		podSpec: func(o api.Object) *api.PodSpec {
			if t := o.(*api.ReplicationController).Spec.Template; t != nil {
				return &t.Spec
			}
			return nil
		},
		replicas: func(o api.Object) **int32 { return &o.(*api.ReplicationController).Spec.Replicas },
		applySpec: func(cur, applied api.Object) bool {
			return takeSpec(&cur.(*api.ReplicationController).Spec, &applied.(*api.ReplicationController).Spec)
		}},
	{kind: api.KindDaemonSet, short: "ds",
		columns: []column{{"NAME", always}, {"DESIRED", always}, {"CURRENT", always}, {"READY", always}, {"UP-TO-DATE", always}, {"AVAILABLE", always}, {"NODE SELECTOR", always}, {"AGE", always}, {"CONTAINERS", wideOnly}, {"IMAGES", wideOnly}, {"SELECTOR", wideOnly}},
		row: func(o api.Object, name string, wide bool, now int64) []string {
			return daemonSetRow(o.(*api.DaemonSet), name, wide, now)
		},
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
	{kind: api.KindStatefulSet, short: "sts",
		columns: []column{{"NAME", always}, {"READY", always}, {"AGE", always}, {"CONTAINERS", wideOnly}, {"IMAGES", wideOnly}},
		row: func(o api.Object, name string, wide bool, now int64) []string {
			return statefulSetRow(o.(*api.StatefulSet), name, wide, now)
		},
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
	{kind: api.KindControllerRevision,
		columns: []column{{"NAME", always}, {"CONTROLLER", always}, {"REVISION", always}, {"AGE", always}},
		row: func(o api.Object, name string, wide bool, now int64) []string {
			return controllerRevisionRow(o.(*api.ControllerRevision), name, now)
		},
		describe: func(_ *Session, w *prefixWriter, o api.Object) { describeGeneric(w, o) }},
	{kind: api.KindJob,
		columns: []column{{"NAME", always}, {"STATUS", always}, {"COMPLETIONS", always}, {"DURATION", always}, {"AGE", always}, {"CONTAINERS", wideOnly}, {"IMAGES", wideOnly}, {"SELECTOR", wideOnly}},
		row: func(o api.Object, name string, wide bool, now int64) []string {
			return jobRow(o.(*api.Job), name, wide, now)
		},
		selectable: jobField,
		describe:   func(s *Session, w *prefixWriter, o api.Object) { s.describeJob(w, o.(*api.Job)) },
		podSpec:    func(o api.Object) *api.PodSpec { return &o.(*api.Job).Spec.Template.Spec },
		applySpec: func(cur, applied api.Object) bool {
			c, a := cur.(*api.Job), applied.(*api.Job)
			keepGeneratedSelector(&a.Spec, &c.Spec)
			return takeSpec(&c.Spec, &a.Spec)
		}},
	{kind: api.KindCronJob, short: "cj",
		columns: []column{{"NAME", always}, {"SCHEDULE", always}, {"TIMEZONE", always}, {"SUSPEND", always}, {"ACTIVE", always}, {"LAST SCHEDULE", always}, {"AGE", always}, {"CONTAINERS", wideOnly}, {"IMAGES", wideOnly}, {"SELECTOR", wideOnly}},
		row: func(o api.Object, name string, wide bool, now int64) []string {
			return cronJobRow(o.(*api.CronJob), name, wide, now)
		},
		describe: func(s *Session, w *prefixWriter, o api.Object) { s.describeCronJob(w, o.(*api.CronJob)) },
		podSpec:  func(o api.Object) *api.PodSpec { return &o.(*api.CronJob).Spec.JobTemplate.Spec.Template.Spec },
		applySpec: func(cur, applied api.Object) bool {
			return takeSpec(&cur.(*api.CronJob).Spec, &applied.(*api.CronJob).Spec)
		}},
	{kind: api.KindHorizontalPodAutoscaler, short: "hpa",
		columns: []column{{"NAME", always}, {"REFERENCE", always}, {"TARGETS", always}, {"MINPODS", always}, {"MAXPODS", always}, {"REPLICAS", always}, {"AGE", always}},
		row: func(o api.Object, name string, wide bool, now int64) []string {
			return hpaRow(o.(*api.HorizontalPodAutoscaler), name, now)
		},
		describe: func(_ *Session, w *prefixWriter, o api.Object) { describeHPA(w, o.(*api.HorizontalPodAutoscaler)) },
		applySpec: func(cur, applied api.Object) bool {
			return takeSpec(&cur.(*api.HorizontalPodAutoscaler).Spec, &applied.(*api.HorizontalPodAutoscaler).Spec)
		}},
	{kind: api.KindPodDisruptionBudget, short: "pdb",
		columns: []column{{"NAME", always}, {"MIN AVAILABLE", always}, {"MAX UNAVAILABLE", always}, {"ALLOWED DISRUPTIONS", always}, {"AGE", always}},
		row: func(o api.Object, name string, wide bool, now int64) []string {
			return pdbRow(o.(*api.PodDisruptionBudget), name, now)
		},
		describe: func(_ *Session, w *prefixWriter, o api.Object) { describePDB(w, o.(*api.PodDisruptionBudget)) },
		applySpec: func(cur, applied api.Object) bool {
			return takeSpec(&cur.(*api.PodDisruptionBudget).Spec, &applied.(*api.PodDisruptionBudget).Spec)
		}},
	{kind: api.KindPod, short: "po",
		columns: []column{{"NAME", always}, {"READY", always}, {"STATUS", always}, {"RESTARTS", always}, {"AGE", always}, {"IP", wideOnly}, {"NODE", wideOnly}, {"NOMINATED NODE", wideOnly}, {"READINESS GATES", wideOnly}},
		row: func(o api.Object, name string, wide bool, now int64) []string {
			return podRow(o.(*api.Pod), name, wide, now)
		},
		selectable: podField,
		describe:   func(s *Session, w *prefixWriter, o api.Object) { s.describePod(w, o.(*api.Pod)) },
		podSpec:    func(o api.Object) *api.PodSpec { return o.(*api.Pod).Spec }},
	{kind: api.KindPersistentVolumeClaim, short: "pvc",
		columns: []column{{"NAME", always}, {"STATUS", always}, {"VOLUME", always}, {"CAPACITY", always}, {"ACCESS MODES", always}, {"STORAGECLASS", always}, {"VOLUMEATTRIBUTESCLASS", always}, {"AGE", always}, {"VOLUMEMODE", wideOnly}},
		row: func(o api.Object, name string, wide bool, now int64) []string {
			return claimRow(o.(*api.PersistentVolumeClaim), name, wide, now)
		},
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
	{kind: api.KindConfigMap, short: "cm",
		columns: []column{{"NAME", always}, {"DATA", always}, {"AGE", always}},
		row: func(o api.Object, name string, wide bool, now int64) []string {
			return configMapRow(o.(*api.ConfigMap), name, now)
		},
		applySpec: applyConfigMap,
		describe:  func(_ *Session, w *prefixWriter, o api.Object) { describeConfigMap(w, o.(*api.ConfigMap)) }},
	{kind: api.KindSecret,
		columns: []column{{"NAME", always}, {"TYPE", always}, {"DATA", always}, {"AGE", always}},
		row: func(o api.Object, name string, wide bool, now int64) []string {
			return secretRow(o.(*api.Secret), name, now)
		},
		applySpec: applySecret, noEvents: true,
		describe: func(_ *Session, w *prefixWriter, o api.Object) { describeSecret(w, o.(*api.Secret)) }},
	{kind: api.KindPriorityClass, short: "pc",
		columns: []column{{"NAME", always}, {"VALUE", always}, {"GLOBAL-DEFAULT", always}, {"AGE", always}, {"PREEMPTIONPOLICY", always}},
		row: func(o api.Object, name string, wide bool, now int64) []string {
			return priorityClassRow(o.(*api.PriorityClass), name, now)
		},
		applySpec: applyPriorityClass,
		describe:  func(_ *Session, w *prefixWriter, o api.Object) { describePriorityClass(w, o.(*api.PriorityClass)) }},
	{kind: api.KindNode, short: "no",
		columns: []column{{"NAME", always}, {"STATUS", always}, {"ROLES", always}, {"AGE", always}, {"VERSION", always}, {"INTERNAL-IP", wideOnly}, {"EXTERNAL-IP", wideOnly}, {"OS-IMAGE", wideOnly}, {"KERNEL-VERSION", wideOnly}, {"CONTAINER-RUNTIME", wideOnly}},
		row: func(o api.Object, name string, wide bool, now int64) []string {
			return nodeRow(o.(*api.Node), name, wide, now)
		},
		selectable: nodeField,
		describe:   func(s *Session, w *prefixWriter, o api.Object) { s.describeNode(w, o.(*api.Node)) },
		applySpec: func(cur, applied api.Object) bool {
			return takeSpec(&cur.(*api.Node).Spec, &applied.(*api.Node).Spec)
		}},
	{kind: api.KindEvent, short: "ev",
		columns: []column{{"LAST SEEN", always}, {"TYPE", always}, {"REASON", always}, {"OBJECT", always}, {"SUBOBJECT", wideOnly}, {"SOURCE", wideOnly}, {"MESSAGE", always}, {"FIRST SEEN", wideOnly}, {"COUNT", wideOnly}, {"NAME", wideOnly}},
		row: func(o api.Object, name string, wide bool, now int64) []string {
			e, _ := api.EventOf(o) // a stored record reads as its Event
			return eventRow(e, wide, now)
		},
		selectable: eventField, noEvents: true},
	{kind: api.KindNamespace, short: "ns",
		columns: []column{{"NAME", always}, {"STATUS", always}, {"AGE", always}},
		row: func(o api.Object, name string, wide bool, now int64) []string {
			return namespaceRow(o.(*api.Namespace), name, now)
		}},
	{kind: api.KindService, short: "svc",
		columns: []column{{"NAME", always}, {"TYPE", always}, {"CLUSTER-IP", always}, {"EXTERNAL-IP", always}, {"PORT(S)", always}, {"AGE", always}, {"SELECTOR", wideOnly}},
		row: func(o api.Object, name string, wide bool, now int64) []string {
			return serviceRow(o.(*api.Service), name, wide, now)
		},
		selectable: serviceField,
		describe:   func(s *Session, w *prefixWriter, o api.Object) { s.describeService(w, o.(*api.Service)) },
		applySpec: func(cur, applied api.Object) bool {
			c, a := cur.(*api.Service), applied.(*api.Service)
			keepAllocations(&a.Spec, &c.Spec)
			return takeSpec(&c.Spec, &a.Spec)
		}},
	{kind: api.KindEndpoints, short: "ep",
		columns: []column{{"NAME", always}, {"ENDPOINTS", always}, {"AGE", always}},
		row: func(o api.Object, name string, wide bool, now int64) []string {
			return endpointsRow(o.(*api.Endpoints), name, now)
		},
		describe: func(_ *Session, w *prefixWriter, o api.Object) { describeEndpoints(w, o.(*api.Endpoints)) }},
	{kind: api.KindEndpointSlice,
		columns: []column{{"NAME", always}, {"ADDRESSTYPE", always}, {"PORTS", always}, {"ENDPOINTS", always}, {"AGE", always}},
		row: func(o api.Object, name string, wide bool, now int64) []string {
			return endpointSliceRow(o.(*api.EndpointSlice), name, now)
		},
		describe: func(_ *Session, w *prefixWriter, o api.Object) { describeEndpointSlice(w, o.(*api.EndpointSlice)) }},
	{kind: api.KindPodMetrics,
		columns: []column{{"NAME", always}, {"CPU", always}, {"MEMORY", always}, {"WINDOW", always}},
		row: func(o api.Object, name string, wide bool, now int64) []string {
			return podMetricsRow(o.(*api.PodMetrics), name)
		},
		describe: func(_ *Session, w *prefixWriter, o api.Object) { describeGeneric(w, o) }},
	{kind: api.KindNodeMetrics,
		columns: []column{{"NAME", always}, {"CPU", always}, {"MEMORY", always}, {"WINDOW", always}},
		row: func(o api.Object, name string, wide bool, now int64) []string {
			return nodeMetricsRow(o.(*api.NodeMetrics), name)
		},
		describe: func(_ *Session, w *prefixWriter, o api.Object) { describeGeneric(w, o) }},
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

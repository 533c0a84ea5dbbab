package kubectl

import "github.com/stateflow/stateflow/engine/api"

// A printer is how kubectl get prints one kind, as upstream's
// pkg/printers/internalversion/printers.go registers a TableHandler per
// type in AddHandlers: the column definitions, the -o wide ones marked
// (upstream's priority 1), and the function that prints one object's
// row, its wide cells included when asked. The table is static data: it
// costs app.wasm no initialisation code.
type printer struct {
	kind    string
	columns []column
	row     func(o api.Object, name string, wide bool, now int64) []string
}

// column is one column definition.
type column struct {
	name string
	wide bool
}

// Whether a column is shown always or with -o wide only.
const (
	always   = false
	wideOnly = true
)

// printers is every kind's printer (AddHandlers); a kind without one
// prints its name only. A workload's wide columns are its template's
// containers and images and its selector; the metrics-server's tables
// are the name, each resource of the first item's usage (sorted) and the
// window.
var printers = []printer{
	{kind: api.KindPod, columns: []column{{"NAME", always}, {"READY", always}, {"STATUS", always}, {"RESTARTS", always}, {"AGE", always}, {"IP", wideOnly}, {"NODE", wideOnly}, {"NOMINATED NODE", wideOnly}, {"READINESS GATES", wideOnly}},
		row: func(o api.Object, name string, wide bool, now int64) []string {
			return podRow(o.(*api.Pod), name, wide, now)
		}},
	{kind: api.KindReplicaSet, columns: []column{{"NAME", always}, {"DESIRED", always}, {"CURRENT", always}, {"READY", always}, {"AGE", always}, {"CONTAINERS", wideOnly}, {"IMAGES", wideOnly}, {"SELECTOR", wideOnly}},
		row: func(o api.Object, name string, wide bool, now int64) []string {
			return replicaSetRow(o.(*api.ReplicaSet), name, wide, now)
		}},
	{kind: api.KindDeployment, columns: []column{{"NAME", always}, {"READY", always}, {"UP-TO-DATE", always}, {"AVAILABLE", always}, {"AGE", always}, {"CONTAINERS", wideOnly}, {"IMAGES", wideOnly}, {"SELECTOR", wideOnly}},
		row: func(o api.Object, name string, wide bool, now int64) []string {
			return deploymentRow(o.(*api.Deployment), name, wide, now)
		}},
	{kind: api.KindDaemonSet, columns: []column{{"NAME", always}, {"DESIRED", always}, {"CURRENT", always}, {"READY", always}, {"UP-TO-DATE", always}, {"AVAILABLE", always}, {"NODE SELECTOR", always}, {"AGE", always}, {"CONTAINERS", wideOnly}, {"IMAGES", wideOnly}, {"SELECTOR", wideOnly}},
		row: func(o api.Object, name string, wide bool, now int64) []string {
			return daemonSetRow(o.(*api.DaemonSet), name, wide, now)
		}},
	{kind: api.KindStatefulSet, columns: []column{{"NAME", always}, {"READY", always}, {"AGE", always}, {"CONTAINERS", wideOnly}, {"IMAGES", wideOnly}},
		row: func(o api.Object, name string, wide bool, now int64) []string {
			return statefulSetRow(o.(*api.StatefulSet), name, wide, now)
		}},
	{kind: api.KindJob, columns: []column{{"NAME", always}, {"STATUS", always}, {"COMPLETIONS", always}, {"DURATION", always}, {"AGE", always}, {"CONTAINERS", wideOnly}, {"IMAGES", wideOnly}, {"SELECTOR", wideOnly}},
		row: func(o api.Object, name string, wide bool, now int64) []string {
			return jobRow(o.(*api.Job), name, wide, now)
		}},
	{kind: api.KindCronJob, columns: []column{{"NAME", always}, {"SCHEDULE", always}, {"TIMEZONE", always}, {"SUSPEND", always}, {"ACTIVE", always}, {"LAST SCHEDULE", always}, {"AGE", always}, {"CONTAINERS", wideOnly}, {"IMAGES", wideOnly}, {"SELECTOR", wideOnly}},
		row: func(o api.Object, name string, wide bool, now int64) []string {
			return cronJobRow(o.(*api.CronJob), name, wide, now)
		}},
	{kind: api.KindService, columns: []column{{"NAME", always}, {"TYPE", always}, {"CLUSTER-IP", always}, {"EXTERNAL-IP", always}, {"PORT(S)", always}, {"AGE", always}, {"SELECTOR", wideOnly}},
		row: func(o api.Object, name string, wide bool, now int64) []string {
			return serviceRow(o.(*api.Service), name, wide, now)
		}},
	{kind: api.KindEndpoints, columns: []column{{"NAME", always}, {"ENDPOINTS", always}, {"AGE", always}},
		row: func(o api.Object, name string, wide bool, now int64) []string {
			return endpointsRow(o.(*api.Endpoints), name, now)
		}},
	{kind: api.KindEndpointSlice, columns: []column{{"NAME", always}, {"ADDRESSTYPE", always}, {"PORTS", always}, {"ENDPOINTS", always}, {"AGE", always}},
		row: func(o api.Object, name string, wide bool, now int64) []string {
			return endpointSliceRow(o.(*api.EndpointSlice), name, now)
		}},
	{kind: api.KindNode, columns: []column{{"NAME", always}, {"STATUS", always}, {"ROLES", always}, {"AGE", always}, {"VERSION", always}, {"INTERNAL-IP", wideOnly}, {"EXTERNAL-IP", wideOnly}, {"OS-IMAGE", wideOnly}, {"KERNEL-VERSION", wideOnly}, {"CONTAINER-RUNTIME", wideOnly}},
		row: func(o api.Object, name string, wide bool, now int64) []string {
			return nodeRow(o.(*api.Node), name, wide, now)
		}},
	{kind: api.KindNamespace, columns: []column{{"NAME", always}, {"STATUS", always}, {"AGE", always}},
		row: func(o api.Object, name string, wide bool, now int64) []string {
			return namespaceRow(o.(*api.Namespace), name, now)
		}},
	{kind: api.KindEvent, columns: []column{{"LAST SEEN", always}, {"TYPE", always}, {"REASON", always}, {"OBJECT", always}, {"SUBOBJECT", wideOnly}, {"SOURCE", wideOnly}, {"MESSAGE", always}, {"FIRST SEEN", wideOnly}, {"COUNT", wideOnly}, {"NAME", wideOnly}},
		row: func(o api.Object, name string, wide bool, now int64) []string {
			e, _ := api.EventOf(o) // a stored record reads as its Event
			return eventRow(e, wide, now)
		}},
	{kind: api.KindControllerRevision, columns: []column{{"NAME", always}, {"CONTROLLER", always}, {"REVISION", always}, {"AGE", always}},
		row: func(o api.Object, name string, wide bool, now int64) []string {
			return controllerRevisionRow(o.(*api.ControllerRevision), name, now)
		}},
	{kind: api.KindPersistentVolumeClaim, columns: []column{{"NAME", always}, {"STATUS", always}, {"VOLUME", always}, {"CAPACITY", always}, {"ACCESS MODES", always}, {"STORAGECLASS", always}, {"VOLUMEATTRIBUTESCLASS", always}, {"AGE", always}, {"VOLUMEMODE", wideOnly}},
		row: func(o api.Object, name string, wide bool, now int64) []string {
			return claimRow(o.(*api.PersistentVolumeClaim), name, wide, now)
		}},
	{kind: api.KindHorizontalPodAutoscaler, columns: []column{{"NAME", always}, {"REFERENCE", always}, {"TARGETS", always}, {"MINPODS", always}, {"MAXPODS", always}, {"REPLICAS", always}, {"AGE", always}},
		row: func(o api.Object, name string, wide bool, now int64) []string {
			return hpaRow(o.(*api.HorizontalPodAutoscaler), name, now)
		}},
	{kind: api.KindPodDisruptionBudget, columns: []column{{"NAME", always}, {"MIN AVAILABLE", always}, {"MAX UNAVAILABLE", always}, {"ALLOWED DISRUPTIONS", always}, {"AGE", always}},
		row: func(o api.Object, name string, wide bool, now int64) []string {
			return pdbRow(o.(*api.PodDisruptionBudget), name, now)
		}},
	{kind: api.KindConfigMap, columns: []column{{"NAME", always}, {"DATA", always}, {"AGE", always}},
		row: func(o api.Object, name string, wide bool, now int64) []string {
			return configMapRow(o.(*api.ConfigMap), name, now)
		}},
	{kind: api.KindSecret, columns: []column{{"NAME", always}, {"TYPE", always}, {"DATA", always}, {"AGE", always}},
		row: func(o api.Object, name string, wide bool, now int64) []string {
			return secretRow(o.(*api.Secret), name, now)
		}},
	{kind: api.KindPodMetrics, columns: []column{{"NAME", always}, {"CPU", always}, {"MEMORY", always}, {"WINDOW", always}},
		row: func(o api.Object, name string, wide bool, now int64) []string {
			return podMetricsRow(o.(*api.PodMetrics), name)
		}},
	{kind: api.KindNodeMetrics, columns: []column{{"NAME", always}, {"CPU", always}, {"MEMORY", always}, {"WINDOW", always}},
		row: func(o api.Object, name string, wide bool, now int64) []string {
			return nodeMetricsRow(o.(*api.NodeMetrics), name)
		}},
}

// printerFor is kind's printer.
func printerFor(kind string) (*printer, bool) {
	for i := range printers {
		if printers[i].kind == kind {
			return &printers[i], true
		}
	}
	return nil, false
}

package kubectl

import "github.com/stateflow/stateflow/engine/api"

// A printer is how kubectl get prints one kind, as upstream's
// pkg/printers/internalversion/printers.go registers a TableHandler per
// type in AddHandlers: the column definitions, the -o wide ones marked
// (upstream's priority 1), and the function that prints one object's
// row, its wide cells included when asked.
type printer struct {
	columns []column
	row     func(o api.Object, name string, wide bool, now int64) []string
}

// column is one column definition.
type column struct {
	name string
	wide bool // shown with -o wide only
}

// cols are columns always shown; wideCols those -o wide adds.
func cols(names ...string) []column     { return columnsOf(false, names) }
func wideCols(names ...string) []column { return columnsOf(true, names) }

func columnsOf(wide bool, names []string) []column {
	c := make([]column, len(names))
	for i, n := range names {
		c[i] = column{name: n, wide: wide}
	}
	return c
}

// workloadCols is a workload's header: with -o wide, its template's
// containers and images and its selector follow.
func workloadCols(names ...string) []column {
	return append(cols(names...), wideCols("CONTAINERS", "IMAGES", "SELECTOR")...)
}

// rowOf adapts a kind's row function to any object of that kind.
func rowOf[T api.Object](f func(T, string, bool, int64) []string) func(api.Object, string, bool, int64) []string {
	return func(o api.Object, name string, wide bool, now int64) []string { return f(o.(T), name, wide, now) }
}

// printers is every kind's printer (AddHandlers); a kind without one
// prints its name only.
var printers = map[string]printer{
	api.KindPod:           {append(cols("NAME", "READY", "STATUS", "RESTARTS", "AGE"), wideCols("IP", "NODE", "NOMINATED NODE", "READINESS GATES")...), rowOf(podRow)},
	api.KindReplicaSet:    {workloadCols("NAME", "DESIRED", "CURRENT", "READY", "AGE"), rowOf(replicaSetRow)},
	api.KindDeployment:    {workloadCols("NAME", "READY", "UP-TO-DATE", "AVAILABLE", "AGE"), rowOf(deploymentRow)},
	api.KindDaemonSet:     {workloadCols("NAME", "DESIRED", "CURRENT", "READY", "UP-TO-DATE", "AVAILABLE", "NODE SELECTOR", "AGE"), rowOf(daemonSetRow)},
	api.KindStatefulSet:   {append(cols("NAME", "READY", "AGE"), wideCols("CONTAINERS", "IMAGES")...), rowOf(statefulSetRow)},
	api.KindJob:           {workloadCols("NAME", "STATUS", "COMPLETIONS", "DURATION", "AGE"), rowOf(jobRow)},
	api.KindCronJob:       {workloadCols("NAME", "SCHEDULE", "TIMEZONE", "SUSPEND", "ACTIVE", "LAST SCHEDULE", "AGE"), rowOf(cronJobRow)},
	api.KindService:       {append(cols("NAME", "TYPE", "CLUSTER-IP", "EXTERNAL-IP", "PORT(S)", "AGE"), wideCols("SELECTOR")...), rowOf(serviceRow)},
	api.KindEndpoints:     {cols("NAME", "ENDPOINTS", "AGE"), rowOf(endpointsRow)},
	api.KindEndpointSlice: {cols("NAME", "ADDRESSTYPE", "PORTS", "ENDPOINTS", "AGE"), rowOf(endpointSliceRow)},
	api.KindNode: {append(cols("NAME", "STATUS", "ROLES", "AGE", "VERSION"),
		wideCols("INTERNAL-IP", "EXTERNAL-IP", "OS-IMAGE", "KERNEL-VERSION", "CONTAINER-RUNTIME")...), rowOf(nodeRow)},
	api.KindNamespace: {cols("NAME", "STATUS", "AGE"), rowOf(namespaceRow)},
	api.KindEvent: {[]column{{name: "LAST SEEN"}, {name: "TYPE"}, {name: "REASON"}, {name: "OBJECT"}, {name: "SUBOBJECT", wide: true},
		{name: "SOURCE", wide: true}, {name: "MESSAGE"}, {name: "FIRST SEEN", wide: true}, {name: "COUNT", wide: true}, {name: "NAME", wide: true}},
		rowOf(func(e *api.Event, _ string, wide bool, now int64) []string { return eventRow(e, wide, now) })},
	api.KindControllerRevision: {cols("NAME", "CONTROLLER", "REVISION", "AGE"), rowOf(controllerRevisionRow)},
	api.KindPersistentVolumeClaim: {append(cols("NAME", "STATUS", "VOLUME", "CAPACITY", "ACCESS MODES", "STORAGECLASS", "VOLUMEATTRIBUTESCLASS", "AGE"),
		wideCols("VOLUMEMODE")...), rowOf(claimRow)},
	api.KindHorizontalPodAutoscaler: {cols("NAME", "REFERENCE", "TARGETS", "MINPODS", "MAXPODS", "REPLICAS", "AGE"),
		rowOf(func(h *api.HorizontalPodAutoscaler, name string, _ bool, now int64) []string {
			return hpaRow(h, name, now)
		})},
	api.KindPodDisruptionBudget: {cols("NAME", "MIN AVAILABLE", "MAX UNAVAILABLE", "ALLOWED DISRUPTIONS", "AGE"),
		rowOf(func(p *api.PodDisruptionBudget, name string, _ bool, now int64) []string { return pdbRow(p, name, now) })},
	api.KindPodMetrics: {cols(metricsColumns...),
		rowOf(func(m *api.PodMetrics, name string, _ bool, _ int64) []string { return podMetricsRow(m, name) })},
	api.KindNodeMetrics: {cols(metricsColumns...),
		rowOf(func(m *api.NodeMetrics, name string, _ bool, _ int64) []string { return nodeMetricsRow(m, name) })},
}

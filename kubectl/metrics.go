package kubectl

// This file is the resource metrics API (metrics.k8s.io/v1beta1) as
// kubectl sees it through the metrics-server: whether it is served, the
// table the metrics-server converts PodMetrics and NodeMetrics to
// (sigs.k8s.io/metrics-server pkg/api addPodMetricsToTable,
// addNodeMetricsToTable), and its not-found errors.

import (
	"fmt"
	"time"

	"github.com/stateflow/stateflow/engine/api"
)

// metricsAPI reports whether the metrics-server serves the metrics API:
// in the simulation, once it has written its first scrape (it writes
// every node's NodeMetrics each time). Before, kubectl finds no
// metrics.k8s.io group in discovery, as without a metrics-server.
func (s *Session) metricsAPI() bool {
	st := s.Cluster.Store()
	return len(st.List(api.KindNodeMetrics, "")) > 0 || len(st.List(api.KindPodMetrics, "")) > 0
}

// served reports whether discovery lists r: the metrics API's types only
// while the metrics-server serves them.
func (s *Session) served(r resource) bool {
	return r.group != metricsGroup || s.metricsAPI()
}

// checkServed fails as the REST mapper does for a type discovery does
// not list.
func (s *Session) checkServed(qs []query) error {
	for _, q := range qs {
		if !s.served(q.res) {
			return errorf("the server doesn't have a resource type %q", q.typed)
		}
	}
	return nil
}

// podMetricsRow is addPodMetricsToTable's row: the containers' usage
// summed per resource.
func podMetricsRow(m *api.PodMetrics, name string) []string {
	var cpu, mem []api.Quantity
	for _, c := range m.Containers {
		cpu, mem = append(cpu, c.Usage["cpu"]), append(mem, c.Usage["memory"])
	}
	return []string{name, quantitySum(cpu), quantitySum(mem), window(m.Window)}
}

// nodeMetricsRow is addNodeMetricsToTable's row.
func nodeMetricsRow(m *api.NodeMetrics, name string) []string {
	cpu, mem := m.Usage["cpu"], m.Usage["memory"]
	return []string{name, quantityString(&cpu), quantityString(&mem), window(m.Window)}
}

// window is a metrics window as metav1.Duration prints it.
func window(w string) string {
	d, err := time.ParseDuration(w)
	if err != nil {
		return w
	}
	return d.String()
}

// metricsNotFound is the metrics-server's 404 for k: its listers' own
// when the pod (only Running pods are listed) or the node is unknown,
// else the metrics' ("default/web-1" for a pod).
func metricsNotFound(get func(api.Key) (api.Object, bool), k api.Key) error {
	if k.Kind == api.KindNodeMetrics {
		if _, ok := get(api.Key{Kind: api.KindNode, Name: k.Name}); !ok {
			return serverErr("NotFound", fmt.Sprintf("node %q not found", k.Name))
		}
		return serverErr("NotFound", fmt.Sprintf("nodemetrics.%s %q not found", metricsGroup, k.Name))
	}
	o, ok := get(api.Key{Kind: api.KindPod, Namespace: k.Namespace, Name: k.Name})
	if !ok || o.(*api.Pod).Status.Phase != api.PodRunning {
		return serverErr("NotFound", fmt.Sprintf("pods %q not found", k.Name))
	}
	return serverErr("NotFound", fmt.Sprintf("podmetrics.%s %q not found", metricsGroup, k.Namespace+"/"+k.Name))
}

// notFound is the API server's 404 for a get of k.
func (s *Session) notFound(r resource, k api.Key) error {
	if r.group == metricsGroup {
		return metricsNotFound(s.Cluster.Store().Get, k)
	}
	return serverErr("NotFound", fmt.Sprintf("%s %q not found", r.pluralQualified(), k.Name))
}

package metrics

import (
	"fmt"
	"maps"
	"slices"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/informer"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
)

// Name is the component name in the trace.
const Name = "metrics-server"

// Resolution is the metrics-server's scrape interval (--metric-resolution).
const Resolution = 15_000

// Scrape is the key of the metrics-server's periodic scrape of every
// node's kubelet.
var Scrape = api.Key{Kind: "Scrape", Name: "kubelets"}

// nodeOverhead is what a node's system daemons use besides its pods.
const (
	nodeOverheadCPU    = 100
	nodeOverheadMemory = (512 << 20) * 1000
)

// Server is the metrics-server. It scrapes while a HorizontalPodAutoscaler
// exists or the scenario's load has steps still to come (until 2 minutes
// after the last), and otherwise rests, so a run without either can
// settle.
type Server struct {
	reconcile.Base
	curves []Curve
	// until is when the load's last step is 2 minutes old.
	until int64
}

// New returns a metrics-server for the scenario's load.
func New(curves []Curve) *Server {
	s := &Server{Base: reconcile.NewBase(Name, "", informer.New(api.KindPod, api.KindNode, api.KindReplicaSet, api.KindHorizontalPodAutoscaler)), curves: curves}
	for _, c := range curves {
		for _, p := range append(slices.Clone(c.CPU), c.Memory...) {
			s.until = max(s.until, p.At+120_000)
		}
	}
	return s
}

// Clone implements reconcile.Component.
func (s *Server) Clone() reconcile.Component {
	c := *s
	c.Base = s.CloneBase()
	return &c
}

// Observe, when there is something to measure
// for, makes sure the next scrape on the 15 s grid is queued (the work
// queue keeps one).
func (s *Server) Observe(ev apiserver.WatchEvent, q reconcile.Queue) {
	if s.active(q.Now()) {
		q.AddAfter(Scrape, nextScrape(q.Now())-q.Now())
	}
}

func nextScrape(now int64) int64 { return now - now%Resolution + Resolution }

// active: an HPA exists, or load is still to come.
func (s *Server) active(now int64) bool {
	return now < s.until || s.Informer.Len(api.KindHorizontalPodAutoscaler) > 0
}

// Reconcile scrapes every node's kubelet and writes the metrics API;
// once nothing needs metrics any more, it withdraws them and rests.
func (s *Server) Reconcile(tick reconcile.Tick, key api.Key) (reconcile.Result, error) {
	now := tick.Now()
	if !s.active(now) {
		// Rather than leave them to go stale, the metrics-server withdraws
		// its metrics while it rests.
		if err := deleteStale(tick, map[string]bool{}); err != nil {
			return reconcile.Result{}, err
		}
		if err := deleteNodeMetrics(tick, nil); err != nil {
			return reconcile.Result{}, err
		}
		tick.Explain("no HorizontalPodAutoscaler and no load to come: withdraws its metrics and rests until one appears")
		return reconcile.Result{}, nil
	}
	pods, nodes, err := s.scrape(tick, now)
	if err != nil {
		return reconcile.Result{}, err
	}
	tick.Explain("scraped the kubelets of %d nodes: usage of %d pods over the last %ds", nodes, pods, Resolution/1000)
	return reconcile.Result{RequeueAfter: nextScrape(now) - now}, nil
}

// scrape writes the PodMetrics of every pod whose containers have run
// since the last scrape, the NodeMetrics of every node, and deletes the
// PodMetrics of pods no longer measured.
func (s *Server) scrape(tick reconcile.Tick, now int64) (pods, nodes int, err error) {
	ready := s.readyByWorkload()
	seen, seenNodes := map[string]bool{}, map[string]bool{}
	for _, o := range s.Informer.List(api.KindNode, "") {
		n := o.(*api.Node)
		if !api.IsNodeReady(n) {
			// A kubelet that does not report answers no scrape either:
			// its node and pods have no metrics.
			continue
		}
		seenNodes[n.Name] = true
		nodeCPU, nodeMem := int64(nodeOverheadCPU), int64(nodeOverheadMemory)
		for _, po := range s.Informer.OnNode(n.Name) {
			p := po.(*api.Pod)
			if !measured(p, now) {
				continue
			}
			w := s.workload(p)
			cpu, mem := s.usage(p, w, now, ready[w])
			nodeCPU, nodeMem = nodeCPU+cpu, nodeMem+mem
			if err := writePodMetrics(tick, p, cpu, mem, now); err != nil {
				return pods, nodes, err
			}
			seen[p.Namespace+"/"+p.Name] = true
			pods++
		}
		if err := writeNodeMetrics(tick, n.Name, nodeCPU, nodeMem, now); err != nil {
			return pods, nodes, err
		}
		nodes++
	}
	if err := deleteStale(tick, seen); err != nil {
		return pods, nodes, err
	}
	return pods, nodes, deleteNodeMetrics(tick, seenNodes)
}

// measured: the pod is Running, not going, and every container has run
// since before the last scrape (a rate needs two samples).
func measured(p *api.Pod, now int64) bool {
	if p.Status.Phase != api.PodRunning || p.DeletionTimestamp != nil || len(p.Status.ContainerStatuses) == 0 {
		return false
	}
	for _, cs := range p.Status.ContainerStatuses {
		r := cs.State.Running
		if r == nil || !r.StartedAt.Set || r.StartedAt.MS > now-Resolution {
			return false
		}
	}
	return true
}

// workload is the object a pod's load curve is keyed by: its controller,
// or a ReplicaSet's Deployment.
func (s *Server) workload(p *api.Pod) api.Key {
	ref := p.ControllerRef()
	if ref == nil {
		return api.KeyOf(p)
	}
	k := api.Key{Kind: ref.Kind, Namespace: p.Namespace, Name: ref.Name}
	if ref.Kind == api.KindReplicaSet {
		if rs, ok := s.Informer.Get(k); ok {
			if d := rs.Meta().ControllerRef(); d != nil {
				return api.Key{Kind: d.Kind, Namespace: p.Namespace, Name: d.Name}
			}
		}
	}
	return k
}

// readyByWorkload counts the Ready, running pods of each workload.
func (s *Server) readyByWorkload() map[api.Key]int {
	out := map[api.Key]int{}
	for _, o := range s.Informer.List(api.KindPod, "") {
		p := o.(*api.Pod)
		if p.Status.Phase == api.PodRunning && p.DeletionTimestamp == nil && api.IsPodReady(p) {
			out[s.workload(p)]++
		}
	}
	return out
}

// usage is the pod's CPU and memory from its workload's curve.
func (s *Server) usage(p *api.Pod, w api.Key, now int64, ready int) (cpu, mem int64) {
	for i := range s.curves {
		if s.curves[i].Workload == w {
			return s.curves[i].podUsage(now, api.IsPodReady(p), ready)
		}
	}
	return baselineCPU, baselineMemory
}

func writePodMetrics(tick reconcile.Tick, p *api.Pod, cpu, mem, now int64) error {
	containers := make([]api.ContainerMetrics, len(p.Spec.Containers))
	for i, c := range p.Spec.Containers {
		u := api.ResourceList{"cpu": api.MilliQuantity(baselineCPU), "memory": bytesQuantity(baselineMemory)}
		if i == 0 {
			u = api.ResourceList{"cpu": api.MilliQuantity(cpu), "memory": bytesQuantity(mem)}
		}
		containers[i] = api.ContainerMetrics{Name: c.Name, Usage: u}
	}
	m := &api.PodMetrics{ObjectMeta: api.ObjectMeta{Name: p.Name, Namespace: p.Namespace, Labels: maps.Clone(p.Labels)}, Timestamp: api.At(now), Window: "15s", Containers: containers}
	return upsert(tick, m, fmt.Sprintf("pod/%s uses %s CPU", p.Name, api.MilliQuantity(cpu)))
}

func writeNodeMetrics(tick reconcile.Tick, node string, cpu, mem, now int64) error {
	m := &api.NodeMetrics{ObjectMeta: api.ObjectMeta{Name: node}, Timestamp: api.At(now), Window: "15s",
		Usage: api.ResourceList{"cpu": api.MilliQuantity(cpu), "memory": bytesQuantity(mem)}}
	return upsert(tick, m, fmt.Sprintf("node/%s uses %s CPU", node, api.MilliQuantity(cpu)))
}

// bytesQuantity is thousandths of a byte in whole KiB, in the canonical
// binary form the API prints ("8Mi", "557056Ki": the largest suffix that
// keeps the number whole).
func bytesQuantity(milli int64) api.Quantity {
	kib := milli / 1000 / 1024
	n, suffix := kib, "Ki"
	for _, s := range []string{"Mi", "Gi", "Ti"} {
		if n == 0 || n%1024 != 0 {
			break
		}
		n, suffix = n/1024, s
	}
	q, err := api.ParseQuantity(fmt.Sprintf("%d%s", n, suffix))
	if err != nil {
		return api.MilliQuantity(milli)
	}
	return q
}

// upsert creates or replaces a metrics object.
func upsert(tick reconcile.Tick, m api.Object, summary string) error {
	k := api.KeyOf(m)
	if old, ok := tick.LiveGet(k); ok {
		m.Meta().ResourceVersion = old.Meta().ResourceVersion
		m.Meta().UID, m.Meta().CreationTimestamp = old.Meta().UID, old.Meta().CreationTimestamp
		_, err := tick.Update(trace.Aggregate, m, summary)
		return err
	}
	_, err := tick.Create(trace.Aggregate, m, summary)
	return err
}

// deleteNodeMetrics removes the NodeMetrics of the nodes not scraped.
func deleteNodeMetrics(tick reconcile.Tick, seen map[string]bool) error {
	for _, o := range tick.LiveList(api.KindNodeMetrics, "") {
		if seen[o.Meta().Name] {
			continue
		}
		if err := tick.Delete(trace.Aggregate, api.KeyOf(o), apiserver.DeleteOptions{}, "node/"+o.Meta().Name+" is no longer measured"); err != nil && !apiserver.IsReason(err, apiserver.ReasonNotFound) {
			return err
		}
	}
	return nil
}

// deleteStale removes the PodMetrics of pods this scrape did not measure.
func deleteStale(tick reconcile.Tick, seen map[string]bool) error {
	for _, o := range tick.LiveList(api.KindPodMetrics, "") {
		m := o.Meta()
		if seen[m.Namespace+"/"+m.Name] {
			continue
		}
		if err := tick.Delete(trace.Aggregate, api.KeyOf(o), apiserver.DeleteOptions{}, fmt.Sprintf("pod/%s is no longer measured", m.Name)); err != nil && !apiserver.IsReason(err, apiserver.ReasonNotFound) {
			return err
		}
	}
	return nil
}

package engine

import (
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/controller/cronjob"
	"github.com/stateflow/stateflow/engine/controller/daemon"
	"github.com/stateflow/stateflow/engine/controller/deployment"
	"github.com/stateflow/stateflow/engine/controller/disruption"
	"github.com/stateflow/stateflow/engine/controller/endpoint"
	"github.com/stateflow/stateflow/engine/controller/endpointslice"
	"github.com/stateflow/stateflow/engine/controller/job"
	"github.com/stateflow/stateflow/engine/controller/podautoscaler"
	"github.com/stateflow/stateflow/engine/controller/podgc"
	"github.com/stateflow/stateflow/engine/controller/pvcprotection"
	"github.com/stateflow/stateflow/engine/controller/replicaset"
	"github.com/stateflow/stateflow/engine/controller/statefulset"
	"github.com/stateflow/stateflow/engine/controller/ttlafterfinished"
	"github.com/stateflow/stateflow/engine/controller/volume"
	"github.com/stateflow/stateflow/engine/gc"
	"github.com/stateflow/stateflow/engine/kubelet"
	"github.com/stateflow/stateflow/engine/metrics"
	"github.com/stateflow/stateflow/engine/nodelifecycle"
	"github.com/stateflow/stateflow/engine/proxy"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/scheduler"
)

// The components, by the name each package gives itself (its Name): the
// actor of their ticks and the key of their watch latency.
const (
	DeploymentController    = deployment.Name
	ReplicaSetController    = replicaset.Name
	Scheduler               = scheduler.Name
	Kubelet                 = kubelet.Name
	GarbageCollector        = gc.Name
	NodeLifecycleController = nodelifecycle.Name
	TaintEvictionController = nodelifecycle.EvictionName
	EndpointSliceController = endpointslice.Name
	EndpointsController     = endpoint.Name
	DaemonSetController     = daemon.Name
	StatefulSetController   = statefulset.Name
	VolumeBinder            = volume.Name
	KubeProxy               = proxy.Name
	PodGarbageCollector     = podgc.Name
	JobController           = job.Name
	TTLAfterFinished        = ttlafterfinished.Name
	CronJobController       = cronjob.Name
	MetricsServer           = metrics.Name
	HPAController           = podautoscaler.Name
	DisruptionController    = disruption.Name
	ReplicationController   = replicaset.ReplicationName
	PVCProtectionController = pvcprotection.Name
)

// A descriptor registers one component, as kube-controller-manager's
// ControllerDescriptor does: the engine builds, names, delays and sources
// its components from descriptors alone (CONTRIBUTING.md lists the docs
// and tests that also name a new one).
type descriptor struct {
	// name is the component's Name: the actor of its ticks and the key of
	// its watch latency (Config.Latency).
	name string
	// eventSource is the source.component its Events carry, which
	// upstream does not always spell as the controller's name.
	eventSource string
	// latency is the default watch delay in virtual milliseconds: the
	// time from a write in the API server to the component's cache seeing
	// it. Real clusters see a few to a few hundred milliseconds; these are
	// large enough that the layers' lag is visible tick by tick.
	latency int64
	// new builds a cluster-wide component; nil for a node agent.
	new func(cfg *Config) reconcile.Component
	// newOnNode builds a node agent (the kubelet, kube-proxy) for a node,
	// one that joins later if joinsLater; nil for a cluster-wide one.
	newOnNode func(cfg *Config, node *api.Node, joinsLater bool) reconcile.Component
}

// descriptors lists every component in the order the tick log offers
// them. The engine starts the cluster-wide ones in this order, and a
// node's agents in this order when the node is added: the order decides
// ties in the agenda, so it is part of every golden trace.
func descriptors() []descriptor {
	return []descriptor{
		{name: deployment.Name, latency: 100, new: func(*Config) reconcile.Component { return deployment.New() }},
		{name: replicaset.Name, latency: 100, new: func(cfg *Config) reconcile.Component {
			rsc := replicaset.New()
			rsc.Verify(cfg.VerifyIncremental)
			return rsc
		}},
		{name: scheduler.Name, eventSource: "default-scheduler", latency: 50, new: func(*Config) reconcile.Component { return scheduler.New() }},
		{name: kubelet.Name, latency: 200, newOnNode: func(cfg *Config, node *api.Node, _ bool) reconcile.Component {
			return kubelet.New(node.Name, internalIP(node), node.Spec.PodCIDR, cfg.Images)
		}},
		{name: gc.Name, latency: 100, new: func(*Config) reconcile.Component { return gc.New() }},
		{name: nodelifecycle.Name, eventSource: "node-controller", latency: 100, new: func(cfg *Config) reconcile.Component {
			return nodelifecycle.New(cfg.NodeMonitorGracePeriodMS)
		}},
		{name: nodelifecycle.EvictionName, latency: 100, new: func(*Config) reconcile.Component { return nodelifecycle.NewEvictor() }},
		{name: endpointslice.Name, eventSource: endpointslice.EventSource, latency: 100, new: func(*Config) reconcile.Component { return endpointslice.New() }},
		{name: endpoint.Name, eventSource: endpoint.EventSource, latency: 100, new: func(*Config) reconcile.Component { return endpoint.New() }},
		{name: daemon.Name, latency: 100, new: func(*Config) reconcile.Component { return daemon.New() }},
		{name: statefulset.Name, latency: 100, new: func(*Config) reconcile.Component { return statefulset.New() }},
		{name: volume.Name, latency: 500, new: func(*Config) reconcile.Component { return volume.New() }},
		{name: podgc.Name, latency: 100, new: func(*Config) reconcile.Component { return podgc.New() }},
		{name: job.Name, latency: 100, new: func(*Config) reconcile.Component { return job.New() }},
		{name: ttlafterfinished.Name, latency: 100, new: func(*Config) reconcile.Component { return ttlafterfinished.New() }},
		{name: cronjob.Name, latency: 100, new: func(cfg *Config) reconcile.Component { return cronjob.New(cfg.TimeZones) }},
		{name: metrics.Name, latency: 100, new: func(cfg *Config) reconcile.Component { return metrics.New(cfg.Load) }},
		{name: podautoscaler.Name, latency: 100, new: func(*Config) reconcile.Component { return podautoscaler.New() }},
		{name: disruption.Name, eventSource: disruption.EventSource, latency: 100, new: func(*Config) reconcile.Component { return disruption.New() }},
		{name: proxy.Name, latency: 200, newOnNode: func(_ *Config, node *api.Node, joinsLater bool) reconcile.Component {
			if joinsLater {
				return proxy.NewWaiting(node.Name)
			}
			return proxy.New(node.Name)
		}},
		{name: replicaset.ReplicationName, latency: 100, new: func(cfg *Config) reconcile.Component {
			rc := replicaset.NewReplication()
			rc.Verify(cfg.VerifyIncremental)
			return rc
		}},
		{name: pvcprotection.Name, latency: 100, new: func(*Config) reconcile.Component { return pvcprotection.New() }},
	}
}

// internalIP is the node's InternalIP address, "" if it has none.
func internalIP(node *api.Node) string {
	ip := ""
	for _, a := range node.Status.Addresses {
		if a.Type == "InternalIP" {
			ip = a.Address
		}
	}
	return ip
}

// The actors of ticks that are not a component's: a kubectl command, a
// scenario action such as a fault, and the traffic report.
const (
	KubectlActor  = "kubectl"
	ScenarioActor = "scenario"
	TrafficActor  = "traffic"
)

// Components lists the components' names, in the order the tick log
// offers them; each has a default latency (DefaultLatency).
func Components() []string {
	ds := descriptors()
	names := make([]string, len(ds))
	for i, d := range ds {
		names[i] = d.name
	}
	return names
}

// ComponentNames lists every actor of a tick, in the order the tick log
// offers them: kubectl, the scenario, the components, the traffic.
func ComponentNames() []string {
	return append(append([]string{KubectlActor, ScenarioActor}, Components()...), TrafficActor)
}

// DefaultLatency is a component's default watch delay in virtual
// milliseconds (see descriptor.latency); false if component is not one.
func DefaultLatency(component string) (int64, bool) {
	for _, d := range descriptors() {
		if d.name == component {
			return d.latency, true
		}
	}
	return 0, false
}

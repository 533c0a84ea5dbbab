package scenario

import (
	"gopkg.in/yaml.v3"

	"github.com/stateflow/stateflow/engine/api"
)

// A kind is how a scenario reads one kind of manifest, registered once in
// kinds: the apiVersion it must carry, the object it decodes into, where
// it goes, and the pods it asks for, which the scenario's checks count.
type kind struct {
	name       string
	apiVersion string
	new        func() api.Object
	// record keeps the decoded object: nodes and namespaces make the
	// cluster; nil means an object applied at the start (with its
	// last-applied annotation, as kubectl apply writes it).
	record func(p *parser, obj api.Object, n *yaml.Node, doc int)
	// pods is what a workload asks for by itself: how many pods, the pod
	// spec and its path, and whether they are replicas; nil for a kind
	// whose pods the checks do not count.
	pods func(obj api.Object) (count int64, spec *api.PodSpec, prefix string, replicas bool)
}

// kinds are the kinds a scenario simulates.
var kinds = []kind{
	{name: api.KindDeployment, apiVersion: "apps/v1", new: func() api.Object { return &api.Deployment{} },
		pods: func(obj api.Object) (int64, *api.PodSpec, string, bool) {
			d := obj.(*api.Deployment)
			return replicasOrOne(d.Spec.Replicas), &d.Spec.Template.Spec, "spec.template.spec", true
		}},
	{name: api.KindReplicaSet, apiVersion: "apps/v1", new: func() api.Object { return &api.ReplicaSet{} },
		pods: func(obj api.Object) (int64, *api.PodSpec, string, bool) {
			rs := obj.(*api.ReplicaSet)
			return replicasOrOne(rs.Spec.Replicas), &rs.Spec.Template.Spec, "spec.template.spec", true
		}},
	{name: api.KindDaemonSet, apiVersion: "apps/v1", new: func() api.Object { return &api.DaemonSet{} }},
	{name: api.KindStatefulSet, apiVersion: "apps/v1", new: func() api.Object { return &api.StatefulSet{} }},
	{name: api.KindPod, apiVersion: "v1", new: func() api.Object { return &api.Pod{} },
		pods: func(obj api.Object) (int64, *api.PodSpec, string, bool) { return 1, obj.(*api.Pod).Spec, "spec", false }},
	{name: api.KindNode, apiVersion: "v1", new: func() api.Object { return &api.Node{} },
		record: func(p *parser, obj api.Object, _ *yaml.Node, _ int) { p.nodes = append(p.nodes, obj.(*api.Node)) }},
	{name: api.KindNamespace, apiVersion: "v1", new: func() api.Object { return &api.Namespace{} },
		record: func(p *parser, obj api.Object, _ *yaml.Node, _ int) {
			p.sc.Config.Namespaces = append(p.sc.Config.Namespaces, obj.Meta().Name)
		}},
	{name: api.KindService, apiVersion: "v1", new: func() api.Object { return &api.Service{} }},
	{name: api.KindPersistentVolumeClaim, apiVersion: "v1", new: func() api.Object { return &api.PersistentVolumeClaim{} }},
	{name: api.KindJob, apiVersion: "batch/v1", new: func() api.Object { return &api.Job{} }},
	{name: api.KindCronJob, apiVersion: "batch/v1", new: func() api.Object { return &api.CronJob{} }},
	{name: api.KindHorizontalPodAutoscaler, apiVersion: "autoscaling/v2", new: func() api.Object { return &api.HorizontalPodAutoscaler{} }},
	{name: api.KindPodDisruptionBudget, apiVersion: "policy/v1", new: func() api.Object { return &api.PodDisruptionBudget{} }},
	{name: api.KindConfigMap, apiVersion: "v1", new: func() api.Object { return &api.ConfigMap{} }},
	{name: api.KindSecret, apiVersion: "v1", new: func() api.Object { return &api.Secret{} }},
}

// kindNamed is the kind called name, nil if a scenario does not simulate
// it.
func kindNamed(name string) *kind {
	for i := range kinds {
		if kinds[i].name == name {
			return &kinds[i]
		}
	}
	return nil
}

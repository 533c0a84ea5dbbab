package scenario

import (
	"gopkg.in/yaml.v3"

	"github.com/stateflow/stateflow/engine/api"
)

// A kind is how a scenario reads one kind of manifest, registered once in
// kinds: the object it decodes into, where it goes, and the pods it asks
// for, which the scenario's checks count. The apiVersion it must carry is
// the one engine/api's kind registry serves it at.
type kind struct {
	name string
	new  func() api.Object
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
	{name: api.KindDeployment, new: func() api.Object { return &api.Deployment{} },
		pods: func(obj api.Object) (int64, *api.PodSpec, string, bool) {
			d := obj.(*api.Deployment)
			return replicasOrOne(d.Spec.Replicas), &d.Spec.Template.Spec, "spec.template.spec", true
		}},
	{name: api.KindReplicaSet, new: func() api.Object { return &api.ReplicaSet{} },
		pods: func(obj api.Object) (int64, *api.PodSpec, string, bool) {
			rs := obj.(*api.ReplicaSet)
			return replicasOrOne(rs.Spec.Replicas), &rs.Spec.Template.Spec, "spec.template.spec", true
		}},
	{name: api.KindDaemonSet, new: func() api.Object { return &api.DaemonSet{} }},
	{name: api.KindStatefulSet, new: func() api.Object { return &api.StatefulSet{} }},
	{name: api.KindPod, new: func() api.Object { return &api.Pod{} },
		pods: func(obj api.Object) (int64, *api.PodSpec, string, bool) { return 1, obj.(*api.Pod).Spec, "spec", false }},
	{name: api.KindNode, new: func() api.Object { return &api.Node{} },
		record: func(p *parser, obj api.Object, _ *yaml.Node, _ int) { p.nodes = append(p.nodes, obj.(*api.Node)) }},
	{name: api.KindNamespace, new: func() api.Object { return &api.Namespace{} },
		record: func(p *parser, obj api.Object, _ *yaml.Node, _ int) {
			p.sc.Config.Namespaces = append(p.sc.Config.Namespaces, obj.Meta().Name)
		}},
	{name: api.KindService, new: func() api.Object { return &api.Service{} }},
	{name: api.KindPersistentVolumeClaim, new: func() api.Object { return &api.PersistentVolumeClaim{} }},
	{name: api.KindJob, new: func() api.Object { return &api.Job{} }},
	{name: api.KindCronJob, new: func() api.Object { return &api.CronJob{} }},
	{name: api.KindHorizontalPodAutoscaler, new: func() api.Object { return &api.HorizontalPodAutoscaler{} }},
	{name: api.KindPodDisruptionBudget, new: func() api.Object { return &api.PodDisruptionBudget{} }},
	{name: api.KindConfigMap, new: func() api.Object { return &api.ConfigMap{} }},
	{name: api.KindSecret, new: func() api.Object { return &api.Secret{} }},
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

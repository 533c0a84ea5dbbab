package scenario

import (
	"gopkg.in/yaml.v3"

	"github.com/stateflow/stateflow/engine/api"
)

// A kind is how a scenario reads one kind of manifest, registered once in
// kinds: the object it decodes into, where it goes, the spec of its pods
// and how many it asks for, which the scenario's checks read. The apiVersion it must carry is
// the one engine/api's kind registry serves it at.
type kind struct {
	name string
	new  func() api.Object
	// record keeps the decoded object: nodes and namespaces make the
	// cluster; nil means an object applied at the start (with its
	// last-applied annotation, as kubectl apply writes it).
	record func(p *parser, obj api.Object, n *yaml.Node, doc int)
	// template is the spec of the pods the kind runs and its path in the
	// manifest; nil for a kind without pods.
	template func(obj api.Object) (spec *api.PodSpec, path string)
	// older reads a manifest of a version the API server still serves
	// besides the kind's own (autoscaling/v1 for an HPA): the object of
	// that version to decode into, whose fields the unknown-field check
	// reads, and its conversion to the kind's own; nil for a version it
	// does not serve.
	older func(apiVersion string) (versioned any, convert func() api.Object)
	// pods is how many pods a workload asks for by itself, and whether
	// they are replicas; nil for a kind whose pods the capacity check does
	// not count.
	pods func(obj api.Object) (count int64, replicas bool)
}

// kinds are the kinds a scenario simulates.
var kinds = []kind{
	{name: api.KindDeployment, new: func() api.Object { return &api.Deployment{} },
		template: func(obj api.Object) (*api.PodSpec, string) {
			return &obj.(*api.Deployment).Spec.Template.Spec, "spec.template.spec"
		},
		pods: func(obj api.Object) (int64, bool) { return replicasOrOne(obj.(*api.Deployment).Spec.Replicas), true }},
	{name: api.KindReplicaSet, new: func() api.Object { return &api.ReplicaSet{} },
		template: func(obj api.Object) (*api.PodSpec, string) {
			return &obj.(*api.ReplicaSet).Spec.Template.Spec, "spec.template.spec"
		},
		pods: func(obj api.Object) (int64, bool) { return replicasOrOne(obj.(*api.ReplicaSet).Spec.Replicas), true }},
	{name: api.KindReplicationController, new: func() api.Object { return &api.ReplicationController{} },
		template: func(obj api.Object) (*api.PodSpec, string) {
			if t := obj.(*api.ReplicationController).Spec.Template; t != nil {
				return &t.Spec, "spec.template.spec"
			}
			return &api.PodSpec{}, "spec.template.spec"
		},
		pods: func(obj api.Object) (int64, bool) {
			return replicasOrOne(obj.(*api.ReplicationController).Spec.Replicas), true
		}},
	{name: api.KindDaemonSet, new: func() api.Object { return &api.DaemonSet{} },
		template: func(obj api.Object) (*api.PodSpec, string) {
			return &obj.(*api.DaemonSet).Spec.Template.Spec, "spec.template.spec"
		}},
	{name: api.KindStatefulSet, new: func() api.Object { return &api.StatefulSet{} },
		template: func(obj api.Object) (*api.PodSpec, string) {
			return &obj.(*api.StatefulSet).Spec.Template.Spec, "spec.template.spec"
		}},
	{name: api.KindPod, new: func() api.Object { return &api.Pod{} },
		template: func(obj api.Object) (*api.PodSpec, string) { return obj.(*api.Pod).Spec, "spec" },
		pods:     func(obj api.Object) (int64, bool) { return 1, false }},
	{name: api.KindNode, new: func() api.Object { return &api.Node{} },
		record: func(p *parser, obj api.Object, _ *yaml.Node, _ int) { p.nodes = append(p.nodes, obj.(*api.Node)) }},
	{name: api.KindNamespace, new: func() api.Object { return &api.Namespace{} },
		record: func(p *parser, obj api.Object, _ *yaml.Node, _ int) {
			p.sc.Config.Namespaces = append(p.sc.Config.Namespaces, obj.Meta().Name)
		}},
	{name: api.KindService, new: func() api.Object { return &api.Service{} }},
	{name: api.KindPersistentVolumeClaim, new: func() api.Object { return &api.PersistentVolumeClaim{} }},
	{name: api.KindJob, new: func() api.Object { return &api.Job{} },
		template: func(obj api.Object) (*api.PodSpec, string) {
			return &obj.(*api.Job).Spec.Template.Spec, "spec.template.spec"
		}},
	{name: api.KindCronJob, new: func() api.Object { return &api.CronJob{} },
		template: func(obj api.Object) (*api.PodSpec, string) {
			return &obj.(*api.CronJob).Spec.JobTemplate.Spec.Template.Spec, "spec.jobTemplate.spec.template.spec"
		}},
	{name: api.KindHorizontalPodAutoscaler, new: func() api.Object { return &api.HorizontalPodAutoscaler{} },
		older: func(apiVersion string) (any, func() api.Object) {
			if apiVersion != "autoscaling/v1" {
				return nil, nil
			}
			h := &api.HorizontalPodAutoscalerV1{}
			return h, h.ToV2
		}},
	{name: api.KindPodDisruptionBudget, new: func() api.Object { return &api.PodDisruptionBudget{} }},
	{name: api.KindConfigMap, new: func() api.Object { return &api.ConfigMap{} }},
	{name: api.KindSecret, new: func() api.Object { return &api.Secret{} }},
	{name: api.KindPriorityClass, new: func() api.Object { return &api.PriorityClass{} }},
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

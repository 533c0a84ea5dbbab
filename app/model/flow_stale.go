package model

// This file says what a component's stale cache believes about an
// object, for the diagram's ◔ and the inspector: each kind names the
// controller whose cache it compares and what a version of the object
// says in a few words.

import (
	"fmt"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/kubectl"
)

// staleView is, for a kind, whose cache holds its objects and what a
// version of one says in a few words.
type staleView struct {
	component func(api.Object) string
	describe  func(api.Object) string
}

// by is a component that is the same for every object of a kind.
func by(component string) func(api.Object) string {
	return func(api.Object) string { return component }
}

// staleViews are the kinds the diagram notes a stale cache for.
var staleViews = map[string]staleView{
	api.KindDeployment: {by(engine.DeploymentController), func(o api.Object) string {
		d := o.(*api.Deployment)
		return fmt.Sprintf("%d/%d available", d.Status.AvailableReplicas, d.Replicas())
	}},
	api.KindReplicaSet: {by(engine.DeploymentController), func(o api.Object) string {
		rs := o.(*api.ReplicaSet)
		return fmt.Sprintf("%d/%d ready", rs.Status.ReadyReplicas, rs.Replicas())
	}},
	api.KindPod: {podReader, func(o api.Object) string {
		state, _ := podStatus(o.(*api.Pod))
		return state + " · " + readyLine(o.(*api.Pod))
	}},
	api.KindDaemonSet: {by(engine.DaemonSetController), func(o api.Object) string {
		return fmt.Sprintf("template generation %s", o.Meta().Annotations[api.AnnotationTemplateGeneration])
	}},
	api.KindStatefulSet: {by(engine.StatefulSetController), func(o api.Object) string {
		return fmt.Sprintf("%d replicas", o.(*api.StatefulSet).Replicas())
	}},
	api.KindReplicationController: {by(engine.ReplicationController), func(o api.Object) string {
		rc := o.(*api.ReplicationController)
		return fmt.Sprintf("%d/%d ready", rc.Status.ReadyReplicas, rc.Replicas())
	}},
	api.KindJob: {jobReader, func(o api.Object) string { return kubectl.JobStatus(o.(*api.Job)) }},
	api.KindCronJob: {by(engine.CronJobController), func(o api.Object) string {
		return fmt.Sprintf("%d active", len(o.(*api.CronJob).Status.Active))
	}},
	api.KindHorizontalPodAutoscaler: {by(engine.HPAController), func(o api.Object) string {
		return fmt.Sprintf("%d desired", o.(*api.HorizontalPodAutoscaler).Status.DesiredReplicas)
	}},
	api.KindPodDisruptionBudget: {by(engine.DisruptionController), func(o api.Object) string {
		return fmt.Sprintf("%d allowed", o.(*api.PodDisruptionBudget).Status.DisruptionsAllowed)
	}},
}

// podReader is the controller of a pod's owner (the ReplicaSet
// controller's for a pod without one).
func podReader(o api.Object) string {
	if ref := o.Meta().ControllerRef(); ref != nil {
		switch ref.Kind {
		case api.KindDaemonSet:
			return engine.DaemonSetController
		case api.KindStatefulSet:
			return engine.StatefulSetController
		case api.KindJob:
			return engine.JobController
		case api.KindReplicationController:
			return engine.ReplicationController
		}
	}
	return engine.ReplicaSetController
}

// jobReader is the CronJob controller for a CronJob's Job (it reads the
// Job's status), else the Job controller.
func jobReader(o api.Object) string {
	if ref := o.Meta().ControllerRef(); ref != nil && ref.Kind == api.KindCronJob {
		return engine.CronJobController
	}
	return engine.JobController
}

// staleNote is what the cache of the component that reads o believes
// when it lags the API server ("" when it does not, or for a kind the
// diagram notes no cache for); a Service's is its rules'.
func (m *Model) staleNote(o api.Object) string {
	if svc, ok := o.(*api.Service); ok {
		_, stale, _ := m.dataPlane(svc)
		return stale
	}
	v, ok := staleViews[o.GetKind()]
	if !ok {
		return ""
	}
	return m.stale(o, v.component(o), v.describe)
}

// stale describes what a component's cache holds for o when it lags the
// API server: the eventual consistency made visible. Its clauses (split
// at " · ") are the lines of the box's tip.
func (m *Model) stale(o api.Object, component string, describe func(api.Object) string) string {
	cached, ok, watched := m.eng.Cached(component, api.KeyOf(o))
	if !watched || ok && cached.Meta().ResourceVersion == o.Meta().ResourceVersion {
		return ""
	}
	// How far the component's whole view lags: its cache is the API
	// server's state as of the last watch event it received.
	lag := ""
	if rv, ok := m.eng.CacheVersion(component); ok {
		lag = fmt.Sprintf(" · its cache has seen writes up to resourceVersion %d · the API server is at %d", rv, m.eng.Store().ResourceVersion())
	}
	switch {
	case !ok:
		return component + " has not seen it yet" + lag
	case describe(cached) != describe(o):
		return fmt.Sprintf("%s still sees %s%s", component, describe(cached), lag)
	}
	return fmt.Sprintf("%s's copy is behind · its copy is resourceVersion %s · the API server's is %s", component, cached.Meta().ResourceVersion, o.Meta().ResourceVersion)
}

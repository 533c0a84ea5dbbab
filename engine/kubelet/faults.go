package kubelet

// This file is the kubelet's side of the scenario's faults: its health,
// images that disappear, containers killed.

import (
	"github.com/stateflow/stateflow/engine/api"
)

// Health is what a scenario's node fault has made of a kubelet.
type Health string

// The kubelet's health: running and reporting Ready; running but reporting
// Ready=False (its container runtime is down); gone (it neither reports,
// renews its lease nor syncs pods).
const (
	Ready       Health = "Ready"
	NotReady    Health = "NotReady"
	Unreachable Health = "Unreachable"
)

// Health is the kubelet's current health.
func (k *Kubelet) Health() Health { return k.health }

// SetHealth applies a fault (or its end) and returns the keys the kubelet
// must sync: its Node, to report the new condition, and, when it comes
// back, every pod it knows (a relist).
func (k *Kubelet) SetHealth(h Health) []api.Key {
	was := k.health
	k.health = h
	keys := []api.Key{{Kind: api.KindNode, Name: k.node}}
	if was != Ready && h == Ready {
		// A kubelet coming back reconciles every pod's status with the API
		// server's, which others (the node lifecycle controller) changed.
		for _, rt := range k.pods {
			rt, _ := k.runtime(api.Key{Kind: api.KindPod, Namespace: rt.namespace, Name: rt.name})
			rt.status = nil
		}
		for _, o := range k.Informer.List(api.KindPod, "") {
			keys = append(keys, api.KeyOf(o))
		}
	}
	return keys
}

// FailImage makes every later pull of image fail with msg.
func (k *Kubelet) FailImage(image, msg string) {
	if k.pullFailures == nil {
		k.pullFailures = map[string]string{}
	}
	k.pullFailures[image] = msg
}

// Kill ends the pod's running containers with exit code 137, as the OOM
// killer or a kill -9 would; it reports whether any was running.
func (k *Kubelet) Kill(pod api.Key, now int64) bool {
	rt, ok := k.runtime(pod)
	if !ok {
		return false
	}
	killed := false
	for _, c := range rt.containers {
		if c.stage == stageRunning {
			c.term = &api.ContainerStateTerminated{ExitCode: 137, Reason: "Error", StartedAt: api.At(c.startedAt), FinishedAt: api.At(now), ContainerID: c.id}
			c.stage, c.ready, c.finishedAt, c.killed = stageExited, false, now, true
			killed = true
		}
	}
	return killed
}

package kubelet

// This file is the kubelet's side of the scenario's faults: its health,
// images that disappear, containers killed.

import (
	"github.com/stateflow/stateflow/engine/api"
)

func (k *Kubelet) Health() string { return k.health }

func (k *Kubelet) SetHealth(h string) []api.Key {
	was := k.health
	k.health = h
	keys := []api.Key{{Kind: api.KindNode, Name: k.node}}
	if was != "Ready" && h == "Ready" {
		// A kubelet coming back reconciles every pod's status with the API
		// server's, which others (the node lifecycle controller) changed.
		for _, rt := range k.pods {
			rt.status = nil
		}
		for _, o := range k.cache.List(api.KindPod, "") {
			keys = append(keys, api.KeyOf(o))
		}
	}
	return keys
}

func (k *Kubelet) FailImage(image, msg string) {
	if k.pullFailures == nil {
		k.pullFailures = map[string]string{}
	}
	k.pullFailures[image] = msg
}

func (k *Kubelet) Kill(pod api.Key, now int64) bool {
	rt, ok := k.pods[pod]
	if !ok {
		return false
	}
	killed := false
	for _, c := range rt.containers {
		if c.stage == stageRunning {
			c.term = &api.ContainerStateTerminated{ExitCode: 137, Reason: "Error", StartedAt: api.At(c.startedAt), FinishedAt: api.At(now), ContainerID: "containerd://" + c.id}
			c.stage, c.ready, c.finishedAt = stageExited, false, now
			killed = true
		}
	}
	return killed
}

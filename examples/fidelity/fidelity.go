// Package fidelity holds the worked scenarios of docs/fidelity.md §10 as
// scenario files: the engine's fidelity tests assert their numbers, and
// the differential harness (conformance/) replays them through the
// upstream controllers.
package fidelity

import (
	"fmt"

	"github.com/stateflow/stateflow/examples/manifest"
)

// World is a one-Deployment scenario "web" (image web:v1) on a small
// cluster, with the Scenario document's seed 3.
type World struct {
	Replicas int
	Strategy string // extra spec lines, indented two spaces
	PodSpec  string // extra container lines
	CPU      string // the container's cpu request (default 100m)
	Nodes    string // the Scenario's nodes line (default three 16-CPU nodes)
	Images   string // the Scenario's images lines (default web:v1 and web:v2 instant)
	Actions  string // the Scenario's actions lines
}

// ImageUpdate is the action that rolls web out to web:v2 at 30 s.
const ImageUpdate = "    - at: 30s\n      kubectl: set image deployment/web web=web:v2\n"

// Source is the scenario file.
func (w World) Source() []byte {
	if w.CPU == "" {
		w.CPU = "100m"
	}
	if w.Nodes == "" {
		w.Nodes = "nodes: {count: 3, capacity: {cpu: \"16\", memory: 64Gi, pods: 110}}"
	}
	if w.Images == "" {
		w.Images = "    \"web:v1\": {pull: 0s, start: 0s}\n    \"web:v2\": {pull: 0s, start: 0s}\n"
	}
	d := manifest.Deployment{Name: "web", Replicas: w.Replicas, Spec: w.Strategy, Image: "web:v1", Lines: manifest.Requests(w.CPU, "32Mi") + w.PodSpec}
	src := d.YAML() + fmt.Sprintf(`---
apiVersion: stateflow/v1alpha1
kind: Scenario
spec:
  seed: 3
  %s
  images:
%s`, w.Nodes, w.Images)
	if w.Actions != "" {
		src += "  actions:\n" + w.Actions
	}
	return []byte(src)
}

// Scenarios are the worked scenarios, by the name of their section.
func Scenarios() map[string]World {
	return map[string]World{
		"S1 rolling update of 10": {Replicas: 10, Actions: ImageUpdate},
		"S2 maxSurge 0": {Replicas: 10, Strategy: "  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 0, maxUnavailable: 1}}\n",
			Actions: "    - at: 11m\n      kubectl: set image deployment/web web=web:v2\n"},
		"S3 rolling update of 3":   {Replicas: 3, Actions: ImageUpdate},
		"S4 Recreate":              {Replicas: 3, Strategy: "  strategy: {type: Recreate}\n", Actions: ImageUpdate},
		"S6 slow start":            {Replicas: 20, Nodes: "nodes: {count: 10, capacity: {cpu: \"200\", memory: 512Gi, pods: 110}}"},
		"S9 insufficient cpu":      {Replicas: 1, CPU: "\"3\"", Nodes: "nodes: {count: 3, capacity: {cpu: \"2\", memory: 8Gi, pods: 110}}"},
		"S10 crash loop":           {Replicas: 1, Images: "    \"web:v1\": {pull: 0s, start: 0s, exitAfter: 100ms, exitCode: 1}\n"},
		"S11-S14 fresh Deployment": {Replicas: 3, Images: "    \"web:v1\": {pull: 2s, start: 1s}\n"},
		"S16 minReadySeconds":      {Replicas: 1, Strategy: "  minReadySeconds: 10\n"},
		"S17 ImagePullBackOff":     {Replicas: 1, Images: "    \"web:v1\": {pull: 1s, pullError: \"manifest unknown\"}\n"},
		"S19 stuck rollout": {Replicas: 10, Strategy: "  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 3, maxUnavailable: 2}}\n",
			PodSpec: "          readinessProbe: {httpGet: {path: /, port: 80}, periodSeconds: 5}\n",
			Images:  "    \"web:v1\": {pull: 0s, start: 0s}\n    \"web:v2\": {pull: 0s, start: 0s, ready: 24h}\n", Actions: ImageUpdate},
		"S20 scale":            {Replicas: 3, Actions: "    - at: 20s\n      kubectl: scale deployment/web --replicas=5\n    - at: 40s\n      kubectl: scale deployment/web --replicas=2\n"},
		"quota ReplicaFailure": {Replicas: 5, Nodes: "nodes: {count: 3}\n  quota: {pods: 3}"},
	}
}

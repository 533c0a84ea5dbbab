package examples

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/stateflow/stateflow/examples/manifest"
)

// Scale is the scenario the benchmarks and scale tests share: one
// Deployment "web" of pods replicas, image web:1, spread over enough
// 64-CPU, 110-pod nodes, with images that pull in 1 s and start in 0.5 s
// (web:2 too, for a rolling update) so a run measures the control plane.
func Scale(pods int) string {
	return deployment("web", "web", pods) + "---\n" + scaleScenario(pods/100+1, true, "")
}

// Cluster is the scenario of the large-scale benchmark: deployments
// Deployments web-0, web-1, … of replicas pods each (image web:1, 10m CPU
// and 16Mi requested), on one 64-CPU, 110-pod node per 30 pods, so
// Cluster(100, 1500) is 150,000 pods on 5,000 nodes.
func Cluster(deployments, replicas int) string {
	return clusterDeployments(deployments, replicas) + scaleScenario(clusterNodes(deployments, replicas), false, "")
}

// clusterDeployments are Cluster's Deployments, each followed by ---.
func clusterDeployments(deployments, replicas int) string {
	var b strings.Builder
	for i := range deployments {
		name := fmt.Sprintf("web-%d", i)
		b.WriteString(deployment(name, "web", replicas) + "---\n")
	}
	return b.String()
}

// clusterNodes is Cluster's node count: one per 30 pods.
func clusterNodes(deployments, replicas int) int { return max(1, deployments*replicas/30) }

// Flapping never settles: one Deployment "flappy" of replicas pods whose
// readiness endpoint is up for 20 s and down for 20 s, probed every 5 s,
// on three nodes. The robustness tests run it to check that long runs,
// watches and links stay bounded and the page keeps answering.
func Flapping(replicas int) string { return FlappingOn(replicas, 3) }

// FlappingOn is Flapping on the given number of nodes (110 pods each). A
// run until settled of it ends at its bound, which grows with the
// objects the cluster holds (model.MaxRunTicks, or two ticks per
// object): 10,000 pods on 100 nodes run 130,000 ticks, measured at
// 13.8 s in the page (3.7 s natively), long enough for a person, or a
// browser test, to stop the run.
func FlappingOn(replicas, nodes int) string {
	d := manifest.Deployment{Name: "flappy", Replicas: replicas, Container: "web", Image: "flappy:1", Lines: manifest.ReadinessEvery5s}
	return d.YAML() + fmt.Sprintf(`---
apiVersion: stateflow/v1alpha1
kind: Scenario
spec:
  nodes: {count: %d}
  images:
    "flappy:1": {pull: 1s, start: 1s, ready: 2s, flap: {up: 20s, down: 20s}}
`, nodes)
}

// deployment is a Deployment of replicas pods of image <image>:1 whose
// container is named after the image and requests 10m CPU and 16Mi.
func deployment(name, image string, replicas int) string {
	d := manifest.Deployment{Name: name, Replicas: replicas, Container: image, Image: image + ":1", Lines: manifest.Requests("10m", "16Mi")}
	return d.YAML()
}

// scaleScenario is the Scenario document of Scale and Cluster: seed 7,
// nodes of 64 CPUs and 110 pods, and web images that pull in 1 s and
// start in 0.5 s (web:2 as well when update is set), with the
// description, if any.
func scaleScenario(nodes int, update bool, description string) string {
	images := `    "web:1": {pull: 1s, start: 500ms}` + "\n"
	if update {
		images += `    "web:2": {pull: 1s, start: 500ms}` + "\n"
	}
	if description != "" {
		description = "  description: " + strconv.Quote(description) + "\n"
	}
	return fmt.Sprintf(`apiVersion: stateflow/v1alpha1
kind: Scenario
spec:
%s  seed: 7
  nodes: {count: %d, capacity: {cpu: "64", memory: 256Gi, pods: 110}}
  images:
%s`, description, nodes, images)
}

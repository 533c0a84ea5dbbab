package examples

import "fmt"

// Large returns the generated examples of the sizes the engine is built
// for, which the page's examples menu lists apart ("Large clusters"):
// building them takes seconds to minutes, so the tests that run every
// example (All) leave them to the benchmarks, which run the same
// scenarios (Scale and Cluster).
func Large() []Example {
	out := make([]Example, len(largeExamples))
	for i, l := range largeExamples {
		out[i] = l.example()
	}
	return out
}

// LargeNames names the Large examples without generating them (the page
// lists them at load).
func LargeNames() []string {
	out := make([]string, len(largeExamples))
	for i, l := range largeExamples {
		out[i] = l.name
	}
	return out
}

// largeExamples are what Large generates: replicas per Deployment, and
// how many Deployments.
var largeExamples = []largeExample{
	{"large-10k-pods", "10,000 pods", 10000, 1, "One Deployment of 10,000 pods on 101 nodes, and web:2 ready for a rolling update (kubectl set image deployment/web web=web:2)."},
	{"large-150k-pods", "150,000 pods", 1500, 100, "100 Deployments of 1,500 pods each on 5,000 nodes: the largest cluster the page runs. Run until settled takes a few minutes, and seeking back replays up to 25,000 ticks."},
}

type largeExample struct {
	name, title           string
	replicas, deployments int
	description           string
}

func (l largeExample) example() Example {
	return Example{Name: l.name, Source: large(l.title, l.replicas, l.deployments, l.description)}
}

// largeHeader is the comment a Large example's text begins with.
func largeHeader(title string) string {
	return fmt.Sprintf("# %s, generated (examples.Large); the benchmarks run the same cluster.\n", title)
}

// large is a generated example: a comment that names it, the scenario
// (Scale for one Deployment, else Cluster) and its description.
func large(title string, replicas, deployments int, description string) string {
	header := largeHeader(title)
	if deployments == 1 {
		return header + deployment("web", "web", replicas) + "---\n" + scaleScenario(replicas/100+1, true, description)
	}
	return header + clusterDeployments(deployments, replicas) + scaleScenario(clusterNodes(deployments, replicas), false, description)
}

package kubelet

import (
	"fmt"
	"hash/fnv"

	"github.com/stateflow/stateflow/engine/api"
)

// Behavior is how an image behaves on this simulated cluster. Durations
// are virtual milliseconds.
type Behavior struct {
	// PullMS is how long a pull takes.
	PullMS int64
	// PullError, when set, makes every pull fail with this message.
	PullError string
	// StartMS is the time from the pulled image to a running container.
	StartMS int64
	// ReadyMS is the time from start until the app answers its readiness
	// probe (ignored when the pod has no readinessProbe: then it is ready
	// at start).
	ReadyMS int64
	// ExitAfterMS, when positive, makes the container exit after running
	// that long, with ExitCode.
	ExitAfterMS int64
	ExitCode    int32
	// FlapUpMS and FlapDownMS make readiness flap: once answering, the app
	// answers its readiness probe for FlapUpMS, then fails it for
	// FlapDownMS, over and over.
	FlapUpMS, FlapDownMS int64
	// LivenessFailAfterMS, when positive, makes the app stop answering its
	// liveness probe that long after it starts: the kubelet kills and
	// restarts it.
	LivenessFailAfterMS int64
	// StopMS is how long the app takes to exit after SIGTERM.
	StopMS int64
	// SizeBytes is the image size reported in the Pulled event.
	SizeBytes int64
	// Wait, when its Service is set, makes the app wait for that
	// Service's name to resolve before it goes on (wait.go): ExitAfterMS
	// is then unused.
	Wait Wait
}

// DefaultBehavior is the start of the behaviour of an image a scenario
// does not describe (Infer adds what the container's command says): a
// 1 s pull of a 50 MB image, 500 ms to start, ready as soon as it runs,
// and a prompt exit on SIGTERM.
var DefaultBehavior = Behavior{PullMS: 1000, StartMS: 500, StopMS: 500, SizeBytes: 52_428_800}

// Behaviors maps image references to behaviours.
type Behaviors map[string]Behavior

// Of returns the behaviour of container c of a pod with spec: its
// image's, if the scenario describes it, else what its command says
// (Infer).
func (b Behaviors) Of(spec *api.PodSpec, c *api.Container) Behavior {
	if v, ok := b[c.Image]; ok {
		return v
	}
	return Infer(spec, c).Behavior
}

// imageID is a stable fake digest reference for an image.
func imageID(image string) string {
	h := fnv.New64a()
	h.Write([]byte(image))
	sum := h.Sum64()
	name := image
	for i := len(image) - 1; i >= 0; i-- {
		if image[i] == ':' {
			name = image[:i]
			break
		}
		if image[i] == '/' {
			break
		}
	}
	return fmt.Sprintf("%s@sha256:%016x%016x%016x%016x", qualified(name), sum, sum^0x9e3779b97f4a7c15, sum*31, sum^0xdeadbeef)
}

// qualified expands "nginx" to "docker.io/library/nginx" as runtimes report.
func qualified(name string) string {
	first := name
	for i := 0; i < len(name); i++ {
		if name[i] == '/' {
			first = name[:i]
			break
		}
	}
	switch {
	case first == name:
		return "docker.io/library/" + name
	case containsAny(first, ".:") || first == "localhost":
		return name
	}
	return "docker.io/" + name
}

func containsAny(s, chars string) bool {
	for i := 0; i < len(s); i++ {
		for j := 0; j < len(chars); j++ {
			if s[i] == chars[j] {
				return true
			}
		}
	}
	return false
}

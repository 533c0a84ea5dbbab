package kubelet

import "github.com/stateflow/stateflow/engine/api"

// stage is where a container is in the runtime's lifecycle.
type stage int

const (
	stageWaiting  stage = iota // not started: waiting for earlier containers or a backoff
	stagePulling               // image pull in flight until due
	stageStarting              // created; running at due
	stageRunning
	stageExited
)

// Crash-loop and image-pull backoff (kuberuntime_manager.go backOffPeriod,
// MaxContainerBackOff; the entry expires after 2 × max without a failure).
const (
	backOffInitialMS = 10_000
	backOffMaxMS     = 300_000
	backOffResetMS   = 2 * backOffMaxMS
)

// neverStarted is the probesFrom of a sidecar whose startup probe never
// passes.
const neverStarted = int64(1<<63 - 1)

// container is one container in the node's runtime.
type container struct {
	name, image string
	// behavior is what the app does (Behaviors.Of), read once at
	// admission: a pod's containers do not change.
	behavior   *Behavior
	stage      stage
	due        int64 // end of the pull or the start
	startedAt  int64
	probesFrom int64 // when readiness and liveness probing starts (after the startup probe)
	// startupKillAt is when a startup probe that never passes has failed
	// failureThreshold times: the kubelet kills the container then. 0
	// when it passes, or there is none.
	startupKillAt int64
	ready         bool
	exitAt        int64 // when the app exits on its own; 0 never
	// resolvedAt is when a container waiting for a Service (Behavior.Wait)
	// found its name, 0 until it does; lookupAt is when the kubelet looks
	// again without a Service's change (a headless Service's endpoints).
	resolvedAt, lookupAt int64
	finishedAt           int64 // when it last exited
	restarts             int32
	id                   string // "containerd://" and a hex id, once created
	imageRef             string // the image's digest reference (imageID), once created
	waiting              string // waiting reason shown while not running
	waitingMsg           string
	term                 *api.ContainerStateTerminated // current terminated state
	lastTerm             *api.ContainerStateTerminated
	backoffMS            int64 // crash-loop backoff entry
	backoffAt            int64 // when the entry was last updated
	pullBackoff          int64
	pullRetryAt          int64
	// cursors remember how far the probes' evaluation got
	// (probeStateAt), so a long-running container is not re-probed from
	// its start at every tick; nil until a probe is evaluated (most
	// containers have none, and a container is copied whole each time a
	// checkpoint's runtime is first changed).
	cursors *probeCursors
	// sigtermAt is when the container gets SIGTERM (after its preStop
	// hook), once the pod is being killed; -1 if it was not running then.
	sigtermAt int64
	// killed says a fault killed the container (Kill) and the pod worker
	// has not yet noticed it.
	killed bool
	// init says the container is one of spec.initContainers; sidecar,
	// that it is a restartable one (restartPolicy Always).
	init, sidecar bool
	// stopAt is when a sidecar stops because its pod is done (every
	// regular container has exited for good, or an init container has
	// failed for good): it got SIGTERM then and is not restarted. 0 until
	// the kubelet decides to stop it.
	stopAt int64
}

// restartPolicy is the policy the kubelet restarts c by: a sidecar's
// Always; a regular init container's OnFailure, or Never in a pod that
// never restarts (computeInitContainerActions); otherwise the pod's.
func (c *container) restartPolicy(p *api.Pod) string {
	switch {
	case c.sidecar:
		return api.ContainerRestartPolicyAlways
	case c.init && p.Spec.RestartPolicy == "Never":
		return "Never"
	case c.init:
		return "OnFailure"
	}
	return p.Spec.RestartPolicy
}

// podRuntime is the node runtime's view of one pod.
type podRuntime struct {
	// namespace and name are the pod's (its place in the podTable).
	namespace, name string
	uid             string
	ip              string
	startTime       int64
	// mounted says the pod's volumes are set up (its sandbox and IP come
	// then); until they are, mountRetryAt is the next attempt, after
	// mountBackoffMS.
	mounted                      bool
	mountRetryAt, mountBackoffMS int64
	// start is startTime as the status's startTime, made once: every
	// status version of the pod shares it.
	start *api.Time
	// containers are the pod's init containers (the first inits), then
	// its containers, in the spec's order (podRuntime.spec).
	containers  []*container
	inits       int
	initialized bool // every init container has done its part (sticky, as HasAnyRegularContainerStarted)
	killing     bool
	stopAt      int64
	sigtermAt   int64          // when the first container got SIGTERM (after its preStop hook), once killing
	status      *api.PodStatus // last status reported, to keep transition times
	gen         uint64         // the Kubelet.gen of the kubelet that may change it in place
}

// spec is the spec of container i of r.containers.
func (r *podRuntime) spec(p *api.Pod, i int) *api.Container {
	if i < r.inits {
		return &p.Spec.InitContainers[i]
	}
	return &p.Spec.Containers[i-r.inits]
}

// regular is r's containers without its init containers.
func (r *podRuntime) regular() []*container { return r.containers[r.inits:] }

func (r *podRuntime) clone() *podRuntime {
	c := *r
	c.containers = make([]*container, len(r.containers))
	for i, x := range r.containers {
		cc := *x
		if x.cursors != nil {
			cur := *x.cursors
			cc.cursors = &cur
		}
		c.containers[i] = &cc
	}
	return &c
}

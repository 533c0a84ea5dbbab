package kubelet

import (
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/stateflow/stateflow/engine/api"
)

// A container whose image the scenario does not describe (spec.images)
// behaves as its command says, as far as Infer can read it:
//
//   - sleep N, exit N, true and false, and shell scripts (sh -c '…') made
//     of commands that finish at once (echo, date, env, touch, …) and
//     sleeps: the container exits with the last command's code (exit N's)
//     once the sleeps are over (at least 100 ms after it starts);
//   - until nslookup NAME; do …; sleep N; done (and while ! …, host,
//     dig, getent hosts), NAME a Service in the cluster: the container
//     waits until the Service's name resolves (wait.go), looking every
//     N seconds, then does what the rest of its script does;
//   - sleep infinity, tail -f, while true / while sleep / until false
//     loops, yes, nc -l, python -m http.server and the common servers
//     (nginx, httpd, redis-server, …; the same images without a
//     command): the container runs until it is stopped;
//   - a script that touches the file an exec probe reads (cat, test, ls,
//     stat) is ready from then, and one that removes it fails its
//     liveness probe from then (the Kubernetes documentation's
//     liveness-exec example); agnhost's liveness server answers /healthz
//     for 10 s, then fails it;
//   - anything else (the image's own entrypoint, a program Infer does not
//     know) runs until stopped in a pod that restarts its containers
//     (restartPolicy Always: a server; a sidecar), and is assumed to exit
//     0 after DefaultRunMS in a pod that does not (a Job's, a one-shot
//     pod's) and in an init container (which runs to completion):
//     Inference.Assumed says so, and the scenario warns once per image.
//
// The image's pull, start and stop times are DefaultBehavior's.

// DefaultRunMS is how long a container whose command says nothing of its
// end runs before it exits 0, in a pod that does not restart it.
const DefaultRunMS = 5_000

// quickMS is how long a command that finishes at once keeps its
// container running.
const quickMS = 100

// agnhostLivenessMS is how long agnhost's liveness server answers
// /healthz with 200 before it answers 500
// (test/images/agnhost/liveness/server.go).
const agnhostLivenessMS = 10_000

// Inference is what a container whose image has no behaviour does.
type Inference struct {
	Behavior Behavior
	// Assumed says its command does not tell how it ends and its pod does
	// not restart it: it exits 0 after DefaultRunMS, an assumption.
	Assumed bool
	// Reason says what decided it: "`sleep 30` exits 0 after 30s".
	Reason string
}

// Infer reads what container c of a pod with spec does, for an image
// the scenario does not describe.
func Infer(spec *api.PodSpec, c *api.Container) Inference {
	b := DefaultBehavior
	argv, own := commandLine(c)
	var r scriptRun
	switch {
	case own && isServerImage(c.Image, c.Args):
		r.forever(path.Base(imageName(c.Image)))
	case own:
		r.unknown("the image's own command")
	default:
		r.run(argv)
	}
	r.applyProbes(&b, c)
	if isAgnhostLiveness(c) {
		b.LivenessFailAfterMS = agnhostLivenessMS
		return Inference{Behavior: b, Reason: "agnhost liveness answers /healthz for 10s, then fails it"}
	}
	return r.inference(b, restarts(spec, c))
}

// restarts says the kubelet restarts container c of a pod with spec when
// it exits 0: a sidecar always, an init container never (it runs to
// completion), a container as its pod's restartPolicy says (Always by
// default).
func restarts(spec *api.PodSpec, c *api.Container) bool {
	if api.IsRestartableInitContainer(c) {
		return true
	}
	if IsInitContainer(spec, c) {
		return false
	}
	return spec == nil || spec.RestartPolicy == "" || spec.RestartPolicy == "Always"
}

// IsInitContainer says c is one of spec's init containers (names are
// unique across a pod's containers).
func IsInitContainer(spec *api.PodSpec, c *api.Container) bool {
	if spec == nil {
		return false
	}
	for i := range spec.InitContainers {
		if spec.InitContainers[i].Name == c.Name {
			return true
		}
	}
	return false
}

// commandLine is what the container runs: its command and args, or,
// without a command, its args when they start with a program (images such
// as busybox have no entrypoint, so the args are the command line); own
// says it runs the image's own entrypoint, which Infer cannot read.
func commandLine(c *api.Container) (argv []string, own bool) {
	if len(c.Command) > 0 {
		return append(append([]string(nil), c.Command...), c.Args...), false
	}
	if len(c.Args) > 0 && isProgram(c.Args[0]) {
		return c.Args, false
	}
	return nil, true
}

// ending is how a script ends.
type ending int8

const (
	ranToEnd ending = iota // it ran its last command
	exited                 // exit N
	runsForever
	notKnown
)

// scriptRun is the evaluation of a command line: how long it has run,
// the last command's exit code, how it ended, and when it created and
// removed the files it touched.
type scriptRun struct {
	// wait is a loop that waits for a Service (waitLoop); ms then counts
	// from the lookup that resolves its name.
	wait    Wait
	ms      int64
	code    int32
	end     ending
	what    string // the command that decided the ending
	steps   int    // commands read so far (maxSteps)
	created map[string]int64
	removed map[string]int64
}

func (r *scriptRun) forever(what string) { r.end, r.what = runsForever, what }
func (r *scriptRun) unknown(what string) { r.end, r.what = notKnown, what }

// inference turns the evaluation into the container's behaviour.
func (r *scriptRun) inference(b Behavior, restarts bool) Inference {
	if r.wait.Service != "" {
		return r.waitInference(b, restarts)
	}
	switch r.end {
	case runsForever:
		return Inference{Behavior: b, Reason: fmt.Sprintf("`%s` runs until it is stopped", r.what)}
	case notKnown:
		if restarts {
			return Inference{Behavior: b, Reason: r.what + " is taken to be a server: it runs until it is stopped"}
		}
		b.ExitAfterMS, b.ExitCode = r.ms+DefaultRunMS, 0
		return Inference{Behavior: b, Assumed: true,
			Reason: fmt.Sprintf("%s is assumed to exit 0 after %s", r.what, humanMS(b.ExitAfterMS))}
	}
	b.ExitAfterMS, b.ExitCode = max(r.ms, quickMS), r.code
	return Inference{Behavior: b, Reason: fmt.Sprintf("its command exits %d after %s", r.code, humanMS(b.ExitAfterMS))}
}

// run evaluates argv: a shell with -c runs its script, anything else is
// one simple command.
func (r *scriptRun) run(argv []string) {
	if script, ok := shellScript(argv); ok {
		r.script(splitScript(script))
		return
	}
	r.script([]simpleCommand{{words: argv}})
}

// shellScript is the script of sh -c 'script' (also bash, ash, dash,
// zsh): with -c among the options (alone or in a group such as -ec),
// the first operand after the options (-o takes an argument).
func shellScript(argv []string) (string, bool) {
	if len(argv) < 3 || !isShell(argv[0]) {
		return "", false
	}
	command := false
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		switch {
		case a == "-o" || a == "+o":
			i++
		case a == "--":
			if command && i+1 < len(argv) {
				return argv[i+1], true
			}
			return "", false
		case len(a) > 1 && (a[0] == '-' || a[0] == '+') && !strings.HasPrefix(a, "--"):
			command = command || a[0] == '-' && strings.Contains(a, "c")
		case command:
			return a, true
		default:
			return "", false
		}
	}
	return "", false
}

func isShell(prog string) bool {
	switch path.Base(prog) {
	case "sh", "bash", "ash", "dash", "zsh":
		return true
	}
	return false
}

// humanMS is a duration as people write it: "100ms", "5.5s", "1m", "1h".
func humanMS(ms int64) string {
	s := (time.Duration(ms) * time.Millisecond).String()
	for _, zero := range []string{"m0s", "h0m"} { // 1h0m0s is 1h
		if strings.HasSuffix(s, zero) {
			s = strings.TrimSuffix(s, zero[1:])
		}
	}
	return s
}

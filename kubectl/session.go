package kubectl

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/trace"
)

// ContextName is the kubeconfig context the simulated cluster is reached by.
const ContextName = "stateflow"

// Session is a kubectl pointed at one simulated cluster, with the current
// namespace a kubeconfig context would give.
type Session struct {
	Cluster   Cluster
	Namespace string
	// Stdin is what "-f -" reads.
	Stdin string
	// Decode parses manifests for apply.
	Decode Decoder
	// WatchTicks bounds how many ticks one waiting command (get --watch,
	// rollout status) may advance the simulation; 0 means only the
	// virtual-time bounds apply. The playground sets it so a command on a
	// large or never-settling cluster answers in about a second.
	WatchTicks int

	// warnings are the lines printed on stderr before anything else:
	// the API server's warnings for the running command, once each
	// (client-go's deduplicating WarningWriter), and pflag's notices of
	// deprecated flags.
	warnings []string
	// terminal is what a command that interleaves stdout and stderr
	// (kubectl drain) printed, as a terminal shows it.
	terminal string
}

// warn records a warning the API server returns for a request.
func (s *Session) warn(msg string) { s.notice("Warning: " + msg) }

// notice records a line for stderr, printed before the output.
func (s *Session) notice(line string) {
	for _, w := range s.warnings {
		if w == line {
			return
		}
	}
	s.warnings = append(s.warnings, line)
}

// endpointsDeprecated is the warning a v1.33+ API server returns for
// every request about v1 Endpoints.
const endpointsDeprecated = "v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice"

// warnFor records the warnings a request about kind draws.
func (s *Session) warnFor(kind string) {
	if kind == api.KindEndpoints {
		s.warn(endpointsDeprecated)
	}
}

// watchBudget reports whether a waiting command that has advanced the
// simulation by ticks may take one more.
func (s *Session) watchBudget(ticks int) bool { return s.WatchTicks <= 0 || ticks < s.WatchTicks }

// stoppedWatching is the note a waiting command ends with when it used up
// its WatchTicks.
func (s *Session) stoppedWatching() string {
	return fmt.Sprintf("(stopped after %d ticks of the simulation, at %s: run the command again to keep waiting)",
		s.WatchTicks, trace.FormatTime(s.Cluster.Now()))
}

// Result is what kubectl printed and its exit code.
type Result struct {
	Stdout string
	Stderr string
	Code   int
	// warned is how many bytes at the start of Stderr are warnings,
	// which kubectl writes before its output.
	warned int
	// terminal, when set, is Stdout and Stderr interleaved as kubectl
	// wrote them (kubectl drain), without the warnings.
	terminal string
}

// Output is Stdout and Stderr as a terminal shows them: the API
// server's warnings first, then Stdout, then the rest of Stderr.
func (r Result) Output() string {
	if r.terminal != "" {
		return r.Stderr[:r.warned] + r.terminal
	}
	return r.Stderr[:r.warned] + r.Stdout + r.Stderr[r.warned:]
}

// unsupported are real kubectl commands that need running containers or
// features the simulator does not have, with a hint.
var unsupported = map[string]string{
	"logs": "containers do not really run here; follow a pod with 'kubectl describe pod NAME' and 'kubectl get events'",
	"exec": "containers do not really run here", "attach": "containers do not really run here", "cp": "containers do not really run here",
	"port-forward": "there is no network in the simulated cluster", "proxy": "there is no network in the simulated cluster",
	"edit":   "edit the manifest in the editor and apply it, or use 'kubectl apply -f -'",
	"run":    "use 'kubectl apply -f -' with a Deployment manifest",
	"expose": "use 'kubectl apply -f -' with a Service manifest", "auth": "there is no RBAC in the simulated cluster",
	"certificate": "there are no certificates in the simulated cluster", "debug": "containers do not really run here",
	"wait":   "use 'kubectl rollout status', which advances the simulation until the rollout is done",
	"events": "use 'kubectl get events'", "explain": "see https://kubernetes.io/docs/reference/kubernetes-api/",
}

// Run runs one kubectl command line. It never panics: an internal error
// becomes an error message and exit code 1.
func (s *Session) Run(line string) (res Result) {
	words, err := Split(line)
	if err != nil {
		return Result{Stderr: "error: " + err.Error() + "\n", Code: 1}
	}
	return s.RunArgs(words)
}

// RunArgs runs kubectl with already split arguments.
func (s *Session) RunArgs(args []string) (res Result) {
	defer func() {
		if r := recover(); r != nil {
			res = Result{Stderr: fmt.Sprintf("error: internal error in the simulated kubectl: %v\n", r), Code: 1}
		}
	}()
	s.warnings, s.terminal = nil, ""
	out, err := s.dispatch(args)
	res.Stdout, res.terminal = out, s.terminal
	if err != nil {
		var ce *cmdError
		if errors.As(err, &ce) {
			res.Stderr, res.Code = ce.msg+"\n", ce.code
		} else {
			res.Stderr, res.Code = "error: "+err.Error()+"\n", 1
		}
	}
	if len(s.warnings) > 0 {
		var w strings.Builder
		for _, msg := range s.warnings {
			w.WriteString(msg + "\n")
		}
		res.Stderr, res.warned = w.String()+res.Stderr, w.Len()
		s.warnings = nil
	}
	return res
}

// dispatch runs the command args name: Stateflow's why, or a kubectl
// verb (with or without "kubectl" before it).
func (s *Session) dispatch(args []string) (string, error) {
	if len(args) > 0 && args[0] == WhyCommand {
		return s.why(args[1:])
	}
	if len(args) > 0 && args[0] == "kubectl" {
		args = args[1:]
	}
	if len(args) == 0 {
		return "", &cmdError{msg: "error: a command is required\nRun 'kubectl --help' for usage.", code: 1}
	}
	verb := args[0]
	v, rest, group, ok := lookupVerb(args)
	switch {
	case ok:
		return s.runVerb(v, rest)
	case group != "":
		return "", groupErr(group, args[1:])
	case verb == WhyCommand:
		return "", &cmdError{msg: "error: \"why\" is Stateflow's own command, not kubectl's: type it without kubectl, as in: why deploy/web .status.availableReplicas", code: 1}
	}
	if hint, known := unsupported[verb]; known {
		return "", &cmdError{msg: fmt.Sprintf("error: %q is not supported by Stateflow's simulated cluster: %s", verb, hint), code: 1}
	}
	return "", &cmdError{msg: fmt.Sprintf("error: unknown command %q for \"kubectl\"%s\nRun 'kubectl --help' for usage.", verb, suggest(verb)), code: 1}
}

// suggest offers the closest known command, as cobra does.
func suggest(verb string) string {
	var names []string
	for _, v := range verbTable {
		name, _, _ := strings.Cut(v.name, " ")
		names = append(names, name)
	}
	sort.Strings(names)
	for _, n := range slices.Compact(names) {
		if levenshtein(n, verb) <= 2 || strings.HasPrefix(n, verb) {
			return "\n\nDid you mean this?\n\t" + n
		}
	}
	return ""
}

func levenshtein(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// namespace is the namespace a command acts in.
func (s *Session) namespace(p *parsed) string {
	if ns := p.str("namespace"); ns != "" {
		return ns
	}
	if s.Namespace == "" {
		return "default"
	}
	return s.Namespace
}

package kubelet

// This file is a container that waits for a Service: the loop an init
// container runs until a Service's DNS name resolves, as the Kubernetes
// documentation's init containers example does
// (https://kubernetes.io/docs/concepts/workloads/pods/init-containers/):
//
//	until nslookup myservice.$(cat /var/run/secrets/kubernetes.io/serviceaccount/namespace).svc.cluster.local; do echo waiting for myservice; sleep 2; done
//
// Infer reads such a loop (until LOOKUP, or while ! LOOKUP, where LOOKUP
// is nslookup, host, dig or getent hosts of a name in the cluster); the
// kubelet watches Services, and a container waiting for one goes on at
// the first lookup after the cluster's DNS can answer: once the Service
// exists (for a headless Service, once its Endpoints have a ready
// address).

import (
	"strings"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
)

// Wait is a container's loop that waits for a Service's name to resolve:
// it looks the name up AtMS after the container starts, then every
// PollMS, and after the first lookup that resolves it runs AfterMS more
// and exits with its Behavior's ExitCode (AfterMS -1: it then runs until
// stopped).
type Wait struct {
	// Service is the Service's name ("" for no wait); Namespace its
	// namespace, "" for the pod's.
	Service, Namespace    string
	AtMS, PollMS, AfterMS int64
}

// defaultPollMS is a wait loop's period when its body does not sleep
// (the lookup's own round trip).
const defaultPollMS = quickMS

// waitLoop reads the loop at cmds[i] (its words without the leading
// keywords) as a wait for a Service, and returns the index of its done.
// ok is false for any other loop, a second wait, or a body that does not
// come to an end.
func (r *scriptRun) waitLoop(words []string, cmds []simpleCommand, i int) (end int, ok bool) {
	cond := words[1:]
	if words[0] == "while" {
		if len(cond) == 0 || cond[0] != "!" {
			return i, false
		}
		cond = cond[1:]
	}
	host, ok := lookupHost(cond)
	if !ok || r.wait.Service != "" {
		return i, false
	}
	name, ns, ok := serviceOfHost(host)
	end = blockEnd(cmds, i)
	if !ok || end <= i || end >= len(cmds) {
		return i, false
	}
	body := r.fork()
	body.ms = 0
	body.script(cmds[i+1 : end])
	if body.end != ranToEnd {
		return i, false
	}
	r.wait = Wait{Service: name, Namespace: ns, AtMS: r.ms, PollMS: max(body.ms, defaultPollMS)}
	r.what = "`" + strings.Join(words, " ") + "`"
	r.ms, r.code, r.steps = 0, 0, body.steps
	return end, true
}

// lookupHost is the name a DNS lookup command looks up: nslookup NAME,
// host NAME, dig [+opts] NAME, getent hosts NAME.
func lookupHost(cond []string) (string, bool) {
	if len(cond) < 2 {
		return "", false
	}
	args := cond[1:]
	switch strings.TrimPrefix(cond[0], "/usr/bin/") {
	case "nslookup", "host", "dig":
	case "getent":
		if args[0] != "hosts" || len(args) < 2 {
			return "", false
		}
		args = args[1:]
	default:
		return "", false
	}
	for _, a := range args {
		if !strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "+") {
			return a, true
		}
	}
	return "", false
}

// serviceOfHost is the Service a name in the cluster names, as the
// cluster's DNS search path reads it: NAME (the pod's namespace),
// NAME.NAMESPACE, NAME.NAMESPACE.svc[.cluster.local]; a namespace read
// from the service account's files ($(cat …/namespace)) is the pod's
// (""). A name outside the cluster (example.com), or one with another
// variable in it, is not one.
func serviceOfHost(host string) (name, ns string, ok bool) {
	host = strings.ReplaceAll(host, podNamespaceFile, podNamespace)
	if strings.Contains(host, "$") {
		return "", "", false // a variable's value: not known
	}
	labels := strings.Split(strings.TrimSuffix(host, "."), ".")
	if !isServiceName(labels[0]) {
		return "", "", false
	}
	switch {
	case len(labels) == 1:
		return labels[0], "", true
	case len(labels) == 2 && !outsideTLD(labels[1]),
		len(labels) == 3 && labels[2] == "svc",
		len(labels) == 5 && strings.Join(labels[2:], ".") == "svc.cluster.local":
		ns = labels[1]
		if ns == podNamespace {
			ns = ""
		}
		return labels[0], ns, true
	}
	return "", "", false
}

// isServiceName reports whether s can be a Service's name (a DNS-1035
// label: a lower-case letter, then letters, digits and '-', not ending
// in '-').
func isServiceName(s string) bool {
	if s == "" || len(s) > 63 || s[0] < 'a' || s[0] > 'z' || s[len(s)-1] == '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// podNamespaceFile is the pod's namespace as a script reads it from its
// service account's files; podNamespace stands for it in a name.
const (
	podNamespaceFile = "$(cat /var/run/secrets/kubernetes.io/serviceaccount/namespace)"
	podNamespace     = "_"
)

// outsideTLD reports whether NAME.x is a name on the internet, not a
// Service in namespace x.
func outsideTLD(x string) bool {
	switch x {
	case "com", "org", "net", "io", "dev", "edu", "gov":
		return true
	}
	return false
}

// resolves reports whether the cluster's DNS answers for the Service w
// waits for, read from the API server as the DNS server's own watch
// holds it: a Service with a cluster IP once it exists, a headless one
// once its Endpoints list a ready address.
func resolves(get func(api.Key) (api.Object, bool), ns string, w Wait) bool {
	if w.Namespace != "" {
		ns = w.Namespace
	}
	o, ok := get(api.Key{Kind: api.KindService, Namespace: ns, Name: w.Service})
	if !ok {
		return false
	}
	if svc := o.(*api.Service); !svc.Headless() || svc.Spec.Type == "ExternalName" {
		return true
	}
	ep, ok := get(api.Key{Kind: api.KindEndpoints, Namespace: ns, Name: w.Service})
	if !ok {
		return false
	}
	for _, s := range ep.(*api.Endpoints).Subsets {
		if len(s.Addresses) > 0 {
			return true
		}
	}
	return false
}

// waitInference is the behaviour of a script that waits for a Service:
// what it does once the name resolves is what the rest of the script
// does, read as inference reads a whole one.
func (r *scriptRun) waitInference(b Behavior, restarts bool) Inference {
	w, loop := r.wait, r.what
	waits := loop + " waits for Service " + w.Service
	if w.Namespace != "" {
		waits += " in " + w.Namespace
	}
	waits += ", looking it up every " + humanMS(w.PollMS)
	rest := *r
	rest.wait = Wait{}
	inf := rest.inference(b, restarts)
	if rest.end == runsForever || rest.end == notKnown && !inf.Assumed {
		w.AfterMS = -1
	} else {
		w.AfterMS = inf.Behavior.ExitAfterMS
	}
	inf.Reason = waits + "; then " + inf.Reason
	inf.Behavior.ExitAfterMS = 0
	inf.Behavior.Wait = w
	return inf
}

// lookup is the wait loop's lookups that are due, at a sync of the
// container's pod: once the Service's name resolves, the container goes
// on from the first lookup at or after now (its exit, if it has one, is
// then due); until it does, the kubelet looks again when a Service
// changes (Observe), or, for a headless Service that exists, at the
// loop's next lookup (lookupAt).
func (k *Kubelet) lookup(w *worker, p *api.Pod, c *container, wt Wait) {
	first := c.startedAt + wt.AtMS
	next := first
	if w.now > first {
		next = first + (w.now-first+wt.PollMS-1)/wt.PollMS*wt.PollMS
	}
	if !resolves(w.tick.LiveGet, p.Namespace, wt) {
		c.lookupAt = 0
		if _, ok := w.tick.LiveGet(api.Key{Kind: api.KindService, Namespace: waitNamespace(p, wt), Name: wt.Service}); ok {
			// Headless, with no ready address yet: look again at the
			// loop's next lookup after this one.
			c.lookupAt = next
			if c.lookupAt <= w.now {
				c.lookupAt += wt.PollMS
			}
		}
		if w.now == c.startedAt {
			w.Note("%s: %s does not resolve yet; the loop looks again every %s", c.name, wt.Service, humanMS(wt.PollMS))
		}
		return
	}
	c.resolvedAt, c.lookupAt = next, 0
	if wt.AfterMS >= 0 {
		c.exitAt = next + wt.AfterMS
	}
	w.Note("%s: Service %s/%s resolves; the loop goes on at its lookup at %s", c.name, waitNamespace(p, wt), wt.Service, trace.FormatTime(next))
}

// waitNamespace is the namespace of the Service wt waits for.
func waitNamespace(p *api.Pod, wt Wait) string {
	if wt.Namespace != "" {
		return wt.Namespace
	}
	return p.Namespace
}

// serviceChanged queues the pods whose containers wait for the Service:
// their loops' next lookups may now resolve it.
func (k *Kubelet) serviceChanged(svc api.Key, q reconcile.Queue) {
	for _, rt := range k.pods {
		for _, c := range rt.containers {
			wt := c.behavior.Wait
			ns := wt.Namespace
			if ns == "" {
				ns = rt.namespace
			}
			if wt.Service == svc.Name && ns == svc.Namespace && c.stage == stageRunning && c.resolvedAt == 0 {
				q.Add(api.Key{Kind: api.KindPod, Namespace: rt.namespace, Name: rt.name})
				break
			}
		}
	}
}

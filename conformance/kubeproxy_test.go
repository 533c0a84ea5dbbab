package conformance

import (
	"fmt"
	"maps"
	"os"
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/proxy"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
	"github.com/stateflow/stateflow/examples"
	"github.com/stateflow/stateflow/examples/random"
)

// proxyPolicies: pods on two of four nodes only, behind a Service with
// internalTrafficPolicy Local (nodes without a pod get no endpoints; the
// others only their own, falling back to their own terminating ones), a
// NodePort Service with externalTrafficPolicy Local and two named ports
// whose target ports differ, and a ClusterIP Service with a named, a
// numeric and an unresolvable target port. A rolling update with a
// preStop sleep, a scale to zero (every endpoint terminating, still
// serving) and back.
const proxyPolicies = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      nodeSelector: {edge: "yes"}
      containers:
        - name: web
          image: web:1
          ports: [{name: http, containerPort: 8080}, {name: metrics, containerPort: 9090}]
          readinessProbe: {httpGet: {path: /, port: http}, periodSeconds: 2}
          lifecycle: {preStop: {sleep: {seconds: 4}}}
          resources: {requests: {cpu: 10m, memory: 16Mi}}
---
apiVersion: v1
kind: Service
metadata: {name: web-local}
spec:
  selector: {app: web}
  internalTrafficPolicy: Local
  ports: [{name: http, port: 80, targetPort: http}]
---
apiVersion: v1
kind: Service
metadata: {name: web-nodeport}
spec:
  type: NodePort
  externalTrafficPolicy: Local
  selector: {app: web}
  ports:
    - {name: web, port: 80, targetPort: http}
    - {name: metrics, port: 9100, targetPort: metrics}
---
apiVersion: v1
kind: Service
metadata: {name: web-multi}
spec:
  selector: {app: web}
  ports:
    - {name: web, port: 80, targetPort: http}
    - {name: raw, port: 8081, targetPort: 8080}
    - {name: admin, port: 8443, targetPort: admin}
---
apiVersion: stateflow/v1alpha1
kind: Scenario
spec:
  seed: 5
  nodes: {count: 4}
  images:
    "web:1": {pull: 1s, start: 1s, ready: 2s}
    "web:2": {pull: 1s, start: 1s, ready: 2s}
  actions:
    - {at: 1s, kubectl: label nodes node-1 edge=yes}
    - {at: 1s, kubectl: label nodes node-3 edge=yes}
    - {at: 30s, kubectl: set image deployment/web web=web:2}
    - {at: 60s, kubectl: scale deployment/web --replicas=0}
    - {at: 80s, kubectl: scale deployment/web --replicas=2}
`

// proxyHidden: Services kube-proxy must not program — headless with
// ports, ExternalName, one handed to another proxy by
// service.kubernetes.io/service-proxy-name — beside one published with
// its not-ready addresses (whose endpoints are all ready in the slice)
// and a plain one, over slow and flapping pods; a pod killed.
const proxyHidden = `apiVersion: apps/v1
kind: Deployment
metadata: {name: slow}
spec:
  replicas: 3
  selector: {matchLabels: {app: slow}}
  template:
    metadata: {labels: {app: slow}}
    spec:
      containers:
        - name: slow
          image: slow:1
          ports: [{name: http, containerPort: 8080}]
          readinessProbe: {httpGet: {path: /, port: http}, periodSeconds: 1, failureThreshold: 1}
          resources: {requests: {cpu: 10m, memory: 16Mi}}
---
apiVersion: v1
kind: Service
metadata: {name: slow}
spec:
  selector: {app: slow}
  ports: [{port: 80, targetPort: http}]
---
apiVersion: v1
kind: Service
metadata: {name: slow-all}
spec:
  selector: {app: slow}
  publishNotReadyAddresses: true
  ports: [{port: 80, targetPort: http}]
---
apiVersion: v1
kind: Service
metadata: {name: slow-peers}
spec:
  clusterIP: None
  selector: {app: slow}
  ports: [{name: http, port: 80, targetPort: http}]
---
apiVersion: v1
kind: Service
metadata: {name: slow-elsewhere, labels: {service.kubernetes.io/service-proxy-name: other}}
spec:
  selector: {app: slow}
  ports: [{port: 80, targetPort: http}]
---
apiVersion: v1
kind: Service
metadata: {name: outside}
spec:
  type: ExternalName
  externalName: example.com
---
apiVersion: stateflow/v1alpha1
kind: Scenario
spec:
  seed: 6
  nodes: {count: 3}
  images:
    "slow:1": {pull: 1s, start: 1s, ready: 15s, flap: {up: 10s, down: 6s}}
    "slow:2": {pull: 1s, start: 1s, ready: 2s}
  actions:
    - {at: 40s, kill-pod: app=slow}
    - {at: 70s, kubectl: set image deployment/slow slow=slow:2}
`

// proxyTerminating: two rolling updates and scales to zero, one with a
// preStop sleep (old pods stay serving while terminating: the fallback
// once no pod is ready) and one without.
const proxyTerminating = `apiVersion: apps/v1
kind: Deployment
metadata: {name: plain}
spec:
  replicas: 3
  strategy: {rollingUpdate: {maxSurge: 0, maxUnavailable: 1}}
  selector: {matchLabels: {app: plain}}
  template:
    metadata: {labels: {app: plain}}
    spec:
      containers:
        - name: web
          image: web:1
          ports: [{name: http, containerPort: 8080}]
          readinessProbe: {httpGet: {path: /, port: http}, periodSeconds: 1}
          resources: {requests: {cpu: 10m, memory: 16Mi}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: graceful}
spec:
  replicas: 3
  strategy: {rollingUpdate: {maxSurge: 0, maxUnavailable: 1}}
  selector: {matchLabels: {app: graceful}}
  template:
    metadata: {labels: {app: graceful}}
    spec:
      terminationGracePeriodSeconds: 20
      containers:
        - name: web
          image: web:1
          ports: [{name: http, containerPort: 8080}]
          readinessProbe: {httpGet: {path: /, port: http}, periodSeconds: 1}
          lifecycle: {preStop: {sleep: {seconds: 8}}}
          resources: {requests: {cpu: 10m, memory: 16Mi}}
---
apiVersion: v1
kind: Service
metadata: {name: plain}
spec:
  selector: {app: plain}
  ports: [{name: http, port: 80, targetPort: http}]
---
apiVersion: v1
kind: Service
metadata: {name: graceful}
spec:
  selector: {app: graceful}
  ports: [{name: http, port: 80, targetPort: http}]
---
apiVersion: stateflow/v1alpha1
kind: Scenario
spec:
  seed: 8
  nodes: {count: 3}
  images:
    "web:1": {pull: 1s, start: 1s, ready: 2s, stop: 1s}
    "web:2": {pull: 1s, start: 1s, ready: 2s, stop: 1s}
  actions:
    - {at: 20s, kubectl: set image deployment/plain web=web:2}
    - {at: 20s, kubectl: set image deployment/graceful web=web:2}
    - {at: 60s, kubectl: scale deployment/plain --replicas=0}
    - {at: 60s, kubectl: scale deployment/graceful --replicas=0}
    - {at: 90s, kubectl: scale deployment/plain --replicas=2}
    - {at: 90s, kubectl: scale deployment/graceful --replicas=2}
    - {at: 120s, kubectl: delete service plain}
`

// proxySelectorChange: one Service whose selector moves from the blue pods to
// the green ones, to both, to none (the harness updates it, as kubectl
// apply would).
const proxySelectorChange = `apiVersion: apps/v1
kind: Deployment
metadata: {name: blue}
spec:
  replicas: 2
  selector: {matchLabels: {app: blue}}
  template:
    metadata: {labels: {app: blue, tier: web}}
    spec:
      containers:
        - name: web
          image: web:1
          ports: [{name: http, containerPort: 8080}]
          resources: {requests: {cpu: 10m, memory: 16Mi}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: green}
spec:
  replicas: 2
  selector: {matchLabels: {app: green}}
  template:
    metadata: {labels: {app: green, tier: web}}
    spec:
      containers:
        - name: web
          image: web:1
          ports: [{name: http, containerPort: 9090}]
          resources: {requests: {cpu: 10m, memory: 16Mi}}
---
apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {app: blue}
  ports: [{name: http, port: 80, targetPort: http}]
---
apiVersion: stateflow/v1alpha1
kind: Scenario
spec:
  seed: 9
  nodes: {count: 3}
  images:
    "web:1": {pull: 1s, start: 1s}
`

// setSelector changes a Service's selector, as kubectl apply would.
func setSelector(name string, selector map[string]string) func(t *testing.T, e *engine.Engine) {
	return func(t *testing.T, e *engine.Engine) {
		t.Helper()
		key := api.Key{Kind: api.KindService, Namespace: "default", Name: name}
		tk := e.Act(engine.KubectlActor, key, func(tick reconcile.Tick) error {
			o, ok := tick.LiveGet(key)
			if !ok {
				t.Fatalf("no Service %s", name)
			}
			svc := o.(*api.Service).DeepCopy()
			svc.Spec.Selector = selector
			_, err := tick.Update(trace.Translate, svc, "kubectl apply -f service.yaml")
			return err
		})
		if tk.Err() != "" {
			t.Fatal(tk.Err())
		}
	}
}

// runProxy checks a scenario until maxMS, taking the timed actions as
// their time comes, and replays its kube-proxy syncs only (the other
// controllers' ticks of the same scenarios are TestExamples',
// TestServices' and TestServiceScenario's).
func runProxy(t *testing.T, src []byte, maxMS int64, acts ...timed) *Report {
	t.Helper()
	e := load(t, src)
	rep, err := checkOnly(e, acting(t, maxMS, acts), map[string]bool{proxy.Name: true})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// Every kube-proxy sync — of the examples with Services, of the
// scenarios above, of testdata/services.yaml and of TestServices'
// scenarios — programs, for each Service port, the endpoints upstream's
// pkg/proxy would on that node.
func TestKubeProxy(t *testing.T) {
	for _, ex := range examples.All() {
		if !strings.Contains(ex.Source, "\nkind: Service\n") {
			continue
		}
		t.Run(ex.Name, func(t *testing.T) {
			reportFor(t, runProxy(t, []byte(ex.Source), 60*60_000), proxy.Name)
		})
	}
	for _, tc := range []struct {
		name, src string
		acts      []timed
	}{
		{name: "policies", src: proxyPolicies},
		{name: "hidden", src: proxyHidden},
		{name: "terminating", src: proxyTerminating},
		{name: "selector-change", src: proxySelectorChange, acts: []timed{
			{at: 20_000, do: setSelector("web", map[string]string{"app": "green"})},
			{at: 40_000, do: setSelector("web", map[string]string{"tier": "web"})},
			{at: 60_000, do: setSelector("web", map[string]string{"app": "none"})},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reportFor(t, runProxy(t, []byte(tc.src), 20*60_000, tc.acts...), proxy.Name)
		})
	}
	t.Run("services", func(t *testing.T) {
		src, err := os.ReadFile("testdata/services.yaml")
		if err != nil {
			t.Fatal(err)
		}
		reportFor(t, runProxy(t, src, 20*60_000), proxy.Name)
	})
	// TestServices' scenarios: every other example, and faults (node
	// failures, pod kills, a vanishing image), with Services over their
	// workloads.
	for _, ex := range examples.All() {
		src := withServices(t, []byte(ex.Source))
		if string(src) == ex.Source {
			continue
		}
		t.Run("with-services/"+ex.Name, func(t *testing.T) {
			reportFor(t, runProxy(t, src, 60*60_000), proxy.Name)
		})
	}
	for seed := range uint64(scenarios() / 5) {
		f, _ := random.Faulty(seed + 1)
		t.Run(fmt.Sprint("faults/", seed+1), func(t *testing.T) {
			reportFor(t, runProxy(t, withServices(t, f), 20*60_000), proxy.Name)
		})
	}
}

// nextProxySync steps e to the next kube-proxy sync that want accepts
// (given upstream's replay of it), and returns the tick's input and the
// replay, as Check compares them.
func nextProxySync(t *testing.T, e *engine.Engine, want func(in *tickInput, theirs outcome) bool) (*tickInput, outcome) {
	t.Helper()
	for {
		e.Drain()
		before := map[string]reconcile.Component{}
		for _, c := range e.Components() {
			if c.Name() == proxy.Name {
				before[c.Host()] = c.Clone()
			}
		}
		tk := e.Step()
		if tk == nil {
			t.Fatal("no kube-proxy sync as wanted")
		}
		if tk.Component != proxy.Name {
			continue
		}
		in, err := nodeTickInput(tk, componentOn(e, proxy.Name, tk.Host))
		if err != nil {
			t.Fatal(err)
		}
		in.before = before[tk.Host]
		theirs, err := replayKubeProxy(t.Context(), in)
		if err != nil {
			t.Fatal(err)
		}
		if !theirs.skip && want(in, theirs) {
			return in, theirs
		}
	}
}

// readyEndpoints are the "ip:port" of the ready endpoints the slices in
// the tick's view list for a Service port.
func readyEndpoints(in *tickInput, ns, svc, port string) map[string]bool {
	out := map[string]bool{}
	for _, o := range in.view.List(api.KindEndpointSlice, ns) {
		s := o.(*api.EndpointSlice)
		if s.Labels[api.LabelServiceName] != svc {
			continue
		}
		for _, p := range s.Ports {
			if p.Name == nil || *p.Name != port || p.Port == nil {
				continue
			}
			for _, ep := range s.Endpoints {
				if len(ep.Addresses) > 0 && (ep.Conditions.Ready == nil || *ep.Conditions.Ready) {
					out[proxy.Endpoint{IP: ep.Addresses[0], Port: *p.Port}.String()] = true
				}
			}
		}
	}
	return out
}

// withRules is a replay whose engine side holds other endpoints for one
// Service port: a buggy proxier's.
func withRules(theirs outcome, port string, endpoints []string) outcome {
	buggy := theirs
	buggy.engineProxyRules = maps.Clone(theirs.engineProxyRules)
	r := buggy.engineProxyRules[port]
	r.endpoints = endpoints
	buggy.engineProxyRules[port] = r
	return buggy
}

// The kube-proxy replay speaks up: where proxyTerminating's graceful pods
// are all terminating (scaled to zero, in their preStop sleep) and the
// rules fall back to them, a proxier that ignored the fallback (ready
// endpoints only: none) must show as an unexplained difference; and on
// a node of proxyPolicies without a pod of its own, a proxier that
// ignored internalTrafficPolicy Local (forwarding to the other nodes'
// pods) too. The engine's own rules agree with upstream at both syncs.
func TestCatchesKubeProxyPolicies(t *testing.T) {
	catch := func(t *testing.T, theirs outcome, port string, wrong []string, what string) {
		t.Helper()
		var ours outcome
		if lines := compare(ours, theirs, nil); len(lines) > 0 {
			t.Fatalf("the engine should agree with upstream:\n%s", strings.Join(lines, "\n"))
		}
		buggy := withRules(theirs, port, wrong)
		lines := compare(ours, buggy, nil)
		if len(lines) == 0 {
			t.Fatalf("the harness did not notice a proxier that %s", what)
		}
		if a := allowed(lines, ours, buggy); a != "" {
			t.Fatalf("a proxier that %s was excused by %q:\n%s", what, a, strings.Join(lines, "\n"))
		}
		t.Logf("caught a proxier that %s:\n%s", what, strings.Join(lines, "\n"))
	}

	const graceful = "default/graceful:http"
	e := load(t, []byte(proxyTerminating))
	_, theirs := nextProxySync(t, e, func(in *tickInput, theirs outcome) bool {
		return len(theirs.proxyRules[graceful].endpoints) > 0 && len(readyEndpoints(in, "default", "graceful", "http")) == 0
	})
	catch(t, theirs, graceful, []string{}, "ignores the terminating fallback")

	const local, cluster = "default/web-local:http", "default/web-multi:web"
	e = load(t, []byte(proxyPolicies))
	_, theirs = nextProxySync(t, e, func(in *tickInput, theirs outcome) bool {
		return len(theirs.proxyRules[local].endpoints) == 0 && len(theirs.proxyRules[cluster].endpoints) > 0
	})
	catch(t, theirs, local, theirs.proxyRules[cluster].endpoints, "ignores internalTrafficPolicy Local")
}

// A tick whose trace does not say what its sync changed shows too.
func TestCatchesKubeProxyTrace(t *testing.T) {
	e := load(t, []byte(proxyTerminating))
	in, theirs := nextProxySync(t, e, func(in *tickInput, theirs outcome) bool { return len(in.tick.Rules()) > 0 })
	var ours outcome
	if lines := compare(ours, theirs, nil); len(lines) > 0 {
		t.Fatalf("tick %d: the engine should agree with upstream:\n%s", in.tick.Seq, strings.Join(lines, "\n"))
	}
	buggy := theirs
	buggy.engineRuleChanges = theirs.engineRuleChanges[1:]
	lines := compare(ours, buggy, nil)
	if len(lines) != 1 || !strings.HasPrefix(lines[0], "+ rules made, not in the trace: ") {
		t.Fatalf("tick %d: the harness did not notice a rule change left out of the trace:\n%s", in.tick.Seq, strings.Join(lines, "\n"))
	}
	if a := allowed(lines, ours, buggy); a != "" {
		t.Fatalf("a rule change left out of the trace was excused by %q", a)
	}
}

package proxy_test

import (
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/internal/testkit"
)

const joining = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: web:1, ports: [{name: http, containerPort: 8080}]}]
---
apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {app: web}
  ports: [{name: http, port: 80, targetPort: http}]
---
apiVersion: stateflow/v1alpha1
kind: Scenario
spec:
  nodes: {count: 2}
  traffic:
    - {service: web, rps: 10, from: 10s, until: 50s}
  actions:
    - {at: 30s, add-node: node-3}
`

// A node that joins later: its kube-proxy programs nothing and sends no
// request before the node joins; it syncs every Service's rules at once
// when it does, and then sends its share of the requests, all served.
func TestJoiningNodeStartsItsProxy(t *testing.T) {
	e, _ := testkit.Load(t, []byte(joining))
	if err := e.RunUntilSettled(engine.SettleLimits{}); err != nil {
		t.Fatal(err)
	}
	firstSync := int64(-1)
	sent := 0
	for _, tk := range e.Trace() {
		if tk.Component == engine.KubeProxy && tk.Host == "node-3" && firstSync < 0 {
			firstSync = tk.Time
			if len(tk.Rules()) != 1 || tk.Rules()[0].Endpoints != 2 {
				t.Errorf("node-3's first sync programmed %+v, want web's 2 endpoints", tk.Rules())
			}
		}
		if tr := tk.Traffic(); tr != nil {
			for _, r := range tr.Routes {
				if r.Node == "node-3" {
					sent += r.Count
					if r.First < 30_000 {
						t.Errorf("tick %d: node-3 sent a request at %d ms, before it joined", tk.Seq, r.First)
					}
				}
				if r.Outcome != "served" {
					t.Errorf("tick %d: %d requests from %s failed: %s", tk.Seq, r.Count, r.Node, r.Outcome)
				}
			}
		}
	}
	if firstSync != 30_000 {
		t.Errorf("node-3's kube-proxy first synced at %d ms, want when it joined (30000)", firstSync)
	}
	if sent == 0 {
		t.Error("node-3 never sent a request after it joined")
	}
	if _, ok := e.Store().Get(api.Key{Kind: api.KindNode, Name: "node-3"}); !ok {
		t.Error("node-3 is not in the API server")
	}
}

// A Service handed to another proxy (the service-proxy-name label) leaves
// kube-proxy's view, as its informers' label selector makes it: every
// node removes its rules.
func TestServiceProxyNameRemovesRules(t *testing.T) {
	src := strings.Replace(joining, "    - {at: 30s, add-node: node-3}\n", "    - {at: 30s, kubectl: label service web service.kubernetes.io/service-proxy-name=other}\n", 1)
	e, _ := testkit.Load(t, []byte(src))
	if err := e.RunUntilSettled(engine.SettleLimits{}); err != nil {
		t.Fatal(err)
	}
	gone := map[string]bool{}
	for _, tk := range e.Trace() {
		for _, c := range tk.Rules() {
			gone[tk.Host] = c.Gone && tk.Time >= 30_000
		}
	}
	if !gone["node-1"] || !gone["node-2"] {
		t.Errorf("rules removed after the label: %v, want on node-1 and node-2", gone)
	}
}

// kube-proxy syncs on what its ServicePortMap sees: a label on the
// Service asks for no sync; a new port number is a rule change, recorded
// with the new address.
func TestServiceChangesThatMatter(t *testing.T) {
	src := strings.Replace(joining, "    - {at: 30s, add-node: node-3}\n",
		"    - {at: 30s, kubectl: label service web team=a}\n"+
			`    - {at: 40s, kubectl: "patch service web --type=json -p '[{\"op\": \"replace\", \"path\": \"/spec/ports/0/port\", \"value\": 8080}]'"}`+"\n", 1)
	src = strings.Replace(src, "{service: web, rps: 10, from: 10s, until: 50s}", "{service: web, rps: 10, from: 10s, until: 50s, port: 80}", 1)
	e, _ := testkit.Load(t, []byte(src))
	if err := e.RunUntilSettled(engine.SettleLimits{}); err != nil {
		t.Fatal(err)
	}
	moved := 0
	for _, tk := range e.Trace() {
		if tk.Component != engine.KubeProxy {
			continue
		}
		if tk.Time > 30_000 && tk.Time < 40_000 {
			t.Errorf("tick %d: %s synced after a label change: %s", tk.Seq, tk.Actor(), tk.Explanation())
		}
		for _, c := range tk.Rules() {
			if tk.Time >= 40_000 && strings.HasSuffix(c.Address, ":8080") && len(c.Added)+len(c.Removed) == 0 {
				moved++
			}
		}
	}
	if moved != 2 {
		t.Errorf("%d nodes recorded the port moving to 8080, want 2", moved)
	}
	failed := 0
	for _, tk := range e.Trace() {
		if tr := tk.Traffic(); tr != nil && tr.From >= 41_500 {
			failed += tr.FailedBy()["no-such-service"]
		}
	}
	if failed == 0 {
		t.Error("requests to port 80 after the port moved to 8080 did not fail as no-such-service")
	}
}

// Traffic named to come from a node that joins later sends nothing
// before it joins; a stream to a Service that does not exist fails as
// no-service, not as rules not yet programmed.
func TestTrafficSendersAndMissingService(t *testing.T) {
	src := strings.Replace(joining, "{service: web, rps: 10, from: 10s, until: 50s}",
		"{service: web, rps: 10, from: 10s, until: 50s, nodes: [node-3]}\n    - {service: nope, rps: 5, from: 10s, until: 20s}", 1)
	e, _ := testkit.Load(t, []byte(src))
	if err := e.RunUntilSettled(engine.SettleLimits{}); err != nil {
		t.Fatal(err)
	}
	for _, tk := range e.Trace() {
		tr := tk.Traffic()
		if tr == nil {
			continue
		}
		switch tr.Service.Name {
		case "web":
			if tr.To <= 30_000 && tr.Sent > 0 {
				t.Errorf("tick %d: %d requests from node-3 before it joined", tk.Seq, tr.Sent)
			}
			if tr.From >= 31_000 && tr.Sent != 10 {
				t.Errorf("tick %d: %d requests from node-3 after it joined, want 10 a second", tk.Seq, tr.Sent)
			}
		case "nope":
			if by := tr.FailedBy(); by["no-service"] != tr.Sent || tr.Sent == 0 {
				t.Errorf("tick %d: requests to a Service that does not exist: %v of %d", tk.Seq, by, tr.Sent)
			}
		}
	}
}

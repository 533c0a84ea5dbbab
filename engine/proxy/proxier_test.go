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
			if len(tk.Rules) != 1 || tk.Rules[0].Endpoints != 2 {
				t.Errorf("node-3's first sync programmed %+v, want web's 2 endpoints", tk.Rules)
			}
		}
		if tr := tk.Traffic; tr != nil {
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
		for _, c := range tk.Rules {
			gone[tk.Host] = c.Gone && tk.Time >= 30_000
		}
	}
	if !gone["node-1"] || !gone["node-2"] {
		t.Errorf("rules removed after the label: %v, want on node-1 and node-2", gone)
	}
}

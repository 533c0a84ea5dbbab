package engine_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/trace"
	"github.com/stateflow/stateflow/scenario"
)

// load parses a scenario file and builds an engine for it.
func load(t testing.TB, path string) (*engine.Engine, *scenario.Scenario) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return loadBytes(t, src)
}

func loadBytes(t testing.TB, src []byte) (*engine.Engine, *scenario.Scenario) {
	t.Helper()
	sc, err := scenario.Parse(src)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	e, err := engine.New(sc.Config)
	if err != nil {
		t.Fatalf("engine: %v", err)
	}
	return e, sc
}

func exampleFiles(t testing.TB) []string {
	t.Helper()
	files, err := filepath.Glob("../examples/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	return files
}

// traceJSON renders ticks as the CLI's JSON lines.
func traceJSON(t testing.TB, ticks []*trace.Tick) []byte {
	t.Helper()
	var b bytes.Buffer
	for _, tk := range ticks {
		line, err := json.Marshal(tk)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// fingerprint is the API server's whole state as JSON, plus the clock.
func fingerprint(t testing.TB, e *engine.Engine) string {
	t.Helper()
	var b bytes.Buffer
	for _, kind := range []string{api.KindNamespace, api.KindNode, api.KindDeployment, api.KindReplicaSet, api.KindPod, api.KindEvent} {
		for _, o := range e.Store().List(kind, "") {
			j, err := json.Marshal(o)
			if err != nil {
				t.Fatal(err)
			}
			b.Write(j)
			b.WriteByte('\n')
		}
	}
	j, _ := json.Marshal(struct {
		Now  int64
		Tick int
		RV   int64
	}{e.Now(), e.Tick(), e.Store().ResourceVersion()})
	b.Write(j)
	return b.String()
}

func deployment(t testing.TB, e *engine.Engine, ns, name string) *api.Deployment {
	t.Helper()
	o, ok := e.Store().Get(api.Key{Kind: api.KindDeployment, Namespace: ns, Name: name})
	if !ok {
		t.Fatalf("deployment %s/%s not found", ns, name)
	}
	return o.(*api.Deployment)
}

func pods(e *engine.Engine, ns string) []*api.Pod {
	var out []*api.Pod
	for _, o := range e.Store().List(api.KindPod, ns) {
		out = append(out, o.(*api.Pod))
	}
	return out
}

func replicaSets(e *engine.Engine, ns string) []*api.ReplicaSet {
	var out []*api.ReplicaSet
	for _, o := range e.Store().List(api.KindReplicaSet, ns) {
		out = append(out, o.(*api.ReplicaSet))
	}
	return out
}

func events(e *engine.Engine, ns string) []*api.Event {
	var out []*api.Event
	for _, o := range e.Store().List(api.KindEvent, ns) {
		out = append(out, o.(*api.Event))
	}
	return out
}

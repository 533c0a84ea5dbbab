package engine_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/trace"
)

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

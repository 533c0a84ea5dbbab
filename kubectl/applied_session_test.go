package kubectl_test

import (
	"testing"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/internal/testkit"
	"github.com/stateflow/stateflow/kubectl"
	"github.com/stateflow/stateflow/scenario"
)

// appliedSession is the scenario file just after kubectl apply created
// the object last, before any controller has acted on it: the golden
// transcripts start there.
func appliedSession(t testing.TB, file string, last api.Key) *kubectl.Session {
	t.Helper()
	e, sc := testkit.LoadFile(t, file)
	s := &kubectl.Session{Cluster: e, Namespace: sc.Namespace, Decode: scenario.DecodeObjects}
	for range 10 {
		if _, ok := e.Store().Get(last); ok {
			return s
		}
		e.Step()
	}
	t.Fatalf("%s was never created", last.Short())
	return nil
}

package engine

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/informer"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
)

// staleWriter writes a copy of an object older than the API server's, and
// returns the refusal wrapped with context, as the Job, DaemonSet,
// EndpointSlice and StatefulSet controllers do with %w.
type staleWriter struct {
	stale api.Object
	wrap  func(error) error
}

func (s *staleWriter) Name() string                                  { return "stale-writer" }
func (s *staleWriter) Host() string                                  { return "" }
func (s *staleWriter) Watches() []string                             { return nil }
func (s *staleWriter) Observe(apiserver.WatchEvent, reconcile.Queue) {}
func (s *staleWriter) Cache() *informer.Cache                        { return informer.New() }
func (s *staleWriter) Clone() reconcile.Component                    { c := *s; return &c }
func (s *staleWriter) Reconcile(tick reconcile.Tick, key api.Key) (reconcile.Result, error) {
	_, err := tick.Update(trace.Translate, s.stale, "scale")
	return reconcile.Result{}, s.wrap(err)
}

// A Conflict keeps its optimistic-concurrency clause in the tick's
// explanation however deeply a controller wraps it.
func TestWrappedConflictKeepsItsExplanation(t *testing.T) {
	for name, wrap := range map[string]func(error) error{
		"bare":    func(err error) error { return err },
		"wrapped": func(err error) error { return fmt.Errorf("updating job default/pi: %w", err) },
		"twice": func(err error) error {
			return fmt.Errorf("syncing: %w", fmt.Errorf("updating job default/pi: %w", err))
		},
	} {
		t.Run(name, func(t *testing.T) {
			e, err := New(Config{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			key := api.Key{Kind: api.KindNamespace, Name: "default"}
			o, _ := e.w.store.Get(key)
			stale := o.DeepCopyObject().(*api.Namespace)
			stale.Labels = map[string]string{"team": "stale"}
			fresh := o.DeepCopyObject().(*api.Namespace)
			fresh.Labels = map[string]string{"team": "fresh"}
			if _, err := e.w.store.Update(fresh); err != nil {
				t.Fatal(err)
			}
			ci := e.w.addComponent(&staleWriter{stale: stale, wrap: wrap}, 0)
			tick := e.reconcile(ci, key, nil)
			if !strings.Contains(tick.Err(), "the object has been modified") {
				t.Fatalf("the stale write was not refused as a Conflict: %q", tick.Err())
			}
			if why := tick.Explanation(); !strings.Contains(why, "its cached copy is older than the API server's (optimistic concurrency)") {
				t.Errorf("the explanation of a %s Conflict: %q", name, why)
			}
		})
	}
}

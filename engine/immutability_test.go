package engine_test

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"testing"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/examples"
	"github.com/stateflow/stateflow/examples/random"
	"github.com/stateflow/stateflow/internal/testkit"
)

// TestStoredObjectsNeverChange checks the contract the state model rests
// on: an object the API server stored is never changed afterwards. A
// Version, an informer's view, a checkpoint and the trace all share the
// stored objects, and pods share the parts of their ReplicaSet's template
// admission left as they were (their labels, annotations, containers and
// resources), so a write that changed one in place would change history,
// other components' caches and other pods at once.
//
// Every object a tick wrote (each effect's After, and its Before) is
// fingerprinted (a hash of its JSON) when the tick ends; at the end of
// the run, and after going back to the middle and replaying, every one of
// them must still have its fingerprint.
func TestStoredObjectsNeverChange(t *testing.T) {
	type run struct {
		name  string
		src   []byte
		until int64 // virtual ms; 0 runs until settled
	}
	var runs []run
	files, err := filepath.Glob("../examples/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, run{name: filepath.Base(f), src: src, until: 20 * 60_000})
	}
	for seed := range uint64(3) {
		faulty, _ := random.Faulty(seed)
		runs = append(runs, run{name: fmt.Sprintf("faulty-%d", seed), src: faulty, until: 20 * 60_000},
			run{name: fmt.Sprintf("history-%d", seed), src: random.History(seed), until: 20 * 60_000})
	}
	runs = append(runs, run{name: "scale-300-rolling-update", src: []byte(examples.Scale(300) +
		"  actions:\n    - {at: 2m, kubectl: set image deployment/web web=web:2}\n")})
	for _, r := range runs {
		t.Run(r.name, func(t *testing.T) {
			e, _ := testkit.Load(t, r.src)
			prints := map[api.Object]uint64{}
			step := func() bool {
				tk := e.Step()
				if tk == nil {
					return false
				}
				for _, ef := range tk.Effects {
					for _, o := range []api.Object{ef.Before, ef.After} {
						if o != nil {
							if _, seen := prints[o]; !seen {
								prints[o] = objectPrint(t, o)
							}
						}
					}
				}
				return true
			}
			check := func(when string) {
				t.Helper()
				changed := 0
				for o, want := range prints {
					if got := objectPrint(t, o); got != want {
						if changed++; changed <= 3 {
							t.Errorf("%s: %s changed after it was stored", when, api.KeyOf(o))
						}
					}
				}
				if changed > 3 {
					t.Errorf("%s: %d more objects changed", when, changed-3)
				}
			}
			// Also checked at ticks 64, 128, 256, …: an object changed in
			// place can keep a run from ever settling (a template changed
			// under its controllers), and is caught before that.
			for next := 64; (r.until == 0 || e.Now() < r.until) && step(); {
				if e.Tick() == next {
					if check(fmt.Sprintf("at tick %d", next)); t.Failed() {
						t.FailNow()
					}
					next *= 2
				}
			}
			check(fmt.Sprintf("after %d ticks", e.Tick()))
			end := e.Tick()
			e.Seek(end / 2)
			for e.Tick() < end && step() {
			}
			check("after going back to the middle and replaying")
			if len(prints) == 0 {
				t.Fatal("the run stored nothing")
			}
		})
	}
}

// objectPrint is a hash of o's JSON.
func objectPrint(t *testing.T, o api.Object) uint64 {
	t.Helper()
	b, err := json.Marshal(o)
	if err != nil {
		t.Fatalf("%s: %v", api.KeyOf(o), err)
	}
	h := fnv.New64a()
	h.Write(b)
	return h.Sum64()
}

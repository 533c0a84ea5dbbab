package main

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/examples"
	"github.com/stateflow/stateflow/examples/fidelity"
	"github.com/stateflow/stateflow/examples/random"
)

var updateIdentity = flag.Bool("update", false, "rewrite testdata/identity.golden from this build's output")

// identityRun is one `stateflow run -o json` whose output must not change
// when the engine's internals do.
type identityRun struct {
	name string
	src  string
	args []string // besides -o json and the file
}

// identityRuns are every example and the benchmarks' scenarios: the
// 10,000-pod create followed by a rolling update, the 1,500-pod cluster,
// a scenario that never settles, and generated rollouts with faults and
// histories.
func identityRuns(t *testing.T) []identityRun {
	files, err := filepath.Glob("../../examples/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	var runs []identityRun
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, identityRun{name: filepath.Base(f), src: string(src)})
	}
	update := "  actions:\n    - {at: 5m, kubectl: set image deployment/web web=web:2}\n"
	runs = append(runs,
		identityRun{name: "scale-10000-rolling-update", src: examples.Scale(10_000) + update},
		identityRun{name: "scale-1000-rolling-update", src: examples.Scale(1000) + update},
		identityRun{name: "cluster-10x150", src: examples.Cluster(10, 150)},
		identityRun{name: "flapping-6", src: examples.Flapping(6), args: []string{"--until", "30m"}},
	)
	for seed := range uint64(6) {
		faulty, _ := random.Faulty(seed)
		runs = append(runs,
			identityRun{name: fmt.Sprintf("faulty-%d", seed), src: string(faulty), args: []string{"--until", "20m"}},
			identityRun{name: fmt.Sprintf("history-%d", seed), src: string(random.History(seed)), args: []string{"--until", "20m"}})
	}
	worlds := fidelity.Scenarios()
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for n := range worlds {
			if !yield(n) {
				return
			}
		}
	}) {
		runs = append(runs, identityRun{name: "fidelity " + name, src: string(worlds[name].Source()), args: []string{"--until", "30m"}})
	}
	return runs
}

// TestRunOutputIdentity runs every identity scenario through the CLI and
// compares a SHA-256 of its JSON trace (and its tick count, to say how far
// a difference reaches) with testdata/identity.golden. The engine's state
// model may change; what it computes may not. After a deliberate change
// of behaviour, -update rewrites the file, and the diff of the golden
// traces says what changed.
func TestRunOutputIdentity(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the 10,000-pod benchmark scenario")
	}
	var got strings.Builder
	for _, r := range identityRuns(t) {
		dir := t.TempDir()
		path := filepath.Join(dir, "scenario.yaml")
		if err := os.WriteFile(path, []byte(r.src), 0o644); err != nil {
			t.Fatal(err)
		}
		var out, errOut bytes.Buffer
		args := append([]string{"-o", "json"}, append(r.args, path)...)
		if err := runCommand(args, nil, &out, &errOut); err != nil {
			var notSettled *engine.NotSettledError
			if !errors.As(err, &notSettled) {
				t.Fatalf("%s: stateflow run %s: %v\n%s", r.name, strings.Join(args, " "), err, errOut.String())
			}
			fmt.Fprintf(&out, "%v\n", err) // a scenario that never settles says why, the same way each time
		}
		fmt.Fprintf(&got, "%x %7d %s\n", sha256.Sum256(out.Bytes()), bytes.Count(out.Bytes(), []byte("\n")), r.name)
	}
	golden := filepath.Join("testdata", "identity.golden")
	if *updateIdentity {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, []byte(got.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got.String() != string(want) {
		wantLines, gotLines := strings.Split(string(want), "\n"), strings.Split(got.String(), "\n")
		for i := range max(len(wantLines), len(gotLines)) {
			w, g := line(wantLines, i), line(gotLines, i)
			if w != g {
				t.Errorf("run output changed:\n  was %s\n  now %s", w, g)
			}
		}
	}
}

func line(lines []string, i int) string {
	if i < len(lines) {
		return lines[i]
	}
	return "(none)"
}

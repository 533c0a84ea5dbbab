package main

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/trace"
	"github.com/stateflow/stateflow/kubectl"
	"github.com/stateflow/stateflow/scenario"
)

var updateCorpus = flag.Bool("update-corpus", false, "rewrite testdata/corpus/outcomes.tsv and the README's counts")

// corpusDir holds real-world manifests as people copy them (see its
// README.md): each is pasted as it is, as a user would paste it.
const corpusDir = "../../testdata/corpus"

// corpusLimits bound one file's run: an hour of virtual time or 200,000
// ticks, whichever comes first, so a file that never settles ends (the
// outcome says why) and none can hang the test.
var corpusLimits = engine.SettleLimits{MaxTicks: 200_000, MaxTime: 3_600_000}

// TestCorpusOutcomes pastes every manifest of the corpus and records what
// happens: rejected (with the API server's or the parser's first
// message), not simulated (no kind the simulator models, naming the
// kinds), or simulated (whether and when the cluster settles, the pods'
// STATUS as kubectl prints it, the warnings). A crash fails the test; a
// change of any outcome fails it with the file and both outcomes, and
// -update-corpus rewrites testdata/corpus/outcomes.tsv and the counts in
// the corpus README and the project README.
func TestCorpusOutcomes(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every manifest of the corpus")
	}
	var files []string
	err := filepath.WalkDir(corpusDir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml")) {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(files)
	if len(files) < 150 {
		t.Fatalf("the corpus holds %d manifests, fewer than 150", len(files))
	}
	var got strings.Builder
	counts := map[string]int{}
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(corpusDir, path)
		class, detail := corpusOutcome(t, rel, src)
		counts[class]++
		fmt.Fprintf(&got, "%s\t%s\t%s\n", filepath.ToSlash(rel), class, detail)
	}
	golden := filepath.Join(corpusDir, "outcomes.tsv")
	summary := corpusSummary(len(files), counts)
	if *updateCorpus {
		if err := os.WriteFile(golden, []byte(got.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, readme := range []string{filepath.Join(corpusDir, "README.md"), "../../README.md"} {
			if err := replaceCounts(readme, summary); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update-corpus to create it)", err)
	}
	wantLines := outcomeLines(string(want))
	for path, g := range outcomeLines(got.String()) {
		if w, ok := wantLines[path]; !ok {
			t.Errorf("%s: new file, outcome %s (run with -update-corpus)", path, g)
		} else if w != g {
			t.Errorf("%s: outcome changed:\n  was %s\n  now %s", path, w, g)
		}
		delete(wantLines, path)
	}
	for path := range wantLines {
		t.Errorf("%s: in outcomes.tsv but not in the corpus", path)
	}
	for _, readme := range []string{filepath.Join(corpusDir, "README.md"), "../../README.md"} {
		text, err := os.ReadFile(readme)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(text), summary) {
			t.Errorf("%s does not give the corpus's counts %q (run with -update-corpus)", readme, summary)
		}
	}
}

// corpusOutcome pastes one file: its class and a line a reader can check.
func corpusOutcome(t *testing.T, name string, src []byte) (class, detail string) {
	t.Helper()
	sc, err := scenario.Parse(src)
	if err != nil {
		var errs scenario.Errors
		if errors.As(err, &errs) && len(errs) > 0 {
			detail = errs[0].String()
			if len(errs) > 1 {
				detail += fmt.Sprintf(" (and %d more)", len(errs)-1)
			}
			return "rejected", detail
		}
		return "rejected", err.Error()
	}
	if kinds := ignoredKinds(sc); len(sc.Objects) == 0 && len(kinds) > 0 {
		return "not simulated", "kinds: " + strings.Join(kinds, ", ")
	}
	e, err := engine.New(sc.Config)
	if err != nil {
		t.Fatalf("%s: engine: %v", name, err)
	}
	var parts []string
	var notSettled *engine.NotSettledError
	switch err := e.RunUntilSettled(corpusLimits); {
	case err == nil:
		_, at := e.LastChange()
		parts = append(parts, "settled at "+trace.FormatTime(at))
	case errors.As(err, &notSettled) && notSettled.Reason != "":
		parts = append(parts, notSettled.Reason)
	case errors.As(err, &notSettled):
		parts = append(parts, "not settled within an hour: "+strings.Join(notSettled.Pending, ", "))
	default:
		t.Fatalf("%s: run: %v", name, err)
	}
	parts = append(parts, "pods: "+podStatuses(e))
	if kinds := ignoredKinds(sc); len(kinds) > 0 {
		parts = append(parts, "ignored kinds: "+strings.Join(kinds, ", "))
	}
	if len(sc.Warnings) > 0 {
		parts = append(parts, "warnings: "+strconv.Itoa(len(sc.Warnings)))
	}
	return "simulated", strings.Join(parts, "; ")
}

var ignoredKind = regexp.MustCompile(`kind (\S+) \((\S+)\) is not simulated`)

// ignoredKinds are the kinds the scenario's warnings say are ignored,
// sorted, each once.
func ignoredKinds(sc *scenario.Scenario) []string {
	var kinds []string
	for _, w := range sc.Warnings {
		if m := ignoredKind.FindStringSubmatch(w.Message); m != nil && !slices.Contains(kinds, m[1]) {
			kinds = append(kinds, m[1])
		}
	}
	slices.Sort(kinds)
	return kinds
}

// podStatuses counts the pods by the STATUS kubectl get pods prints:
// "3 Running, 1 Completed", or "none".
func podStatuses(e *engine.Engine) string {
	n := map[string]int{}
	for _, o := range e.Store().List(api.KindPod, "") {
		n[kubectl.PodStatus(o.(*api.Pod))]++
	}
	if len(n) == 0 {
		return "none"
	}
	var out []string
	for _, s := range slices.Sorted(maps.Keys(n)) {
		out = append(out, fmt.Sprintf("%d %s", n[s], s))
	}
	return strings.Join(out, ", ")
}

// corpusSummary is the counts sentence both READMEs carry.
func corpusSummary(total int, counts map[string]int) string {
	return fmt.Sprintf("Of the %d manifests, %d simulate, %d hold no kind the simulator models, and %d are rejected, each with a message that names its place.",
		total, counts["simulated"], counts["not simulated"], counts["rejected"])
}

var countsSentence = regexp.MustCompile(`Of the \d+ manifests, \d+ simulate, \d+ hold no kind the simulator models, and \d+ are rejected, each with a message that names its place\.`)

// replaceCounts rewrites the counts sentence of a README.
func replaceCounts(path, summary string) error {
	text, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if !countsSentence.Match(text) {
		return fmt.Errorf("%s has no counts sentence to rewrite", path)
	}
	return os.WriteFile(path, countsSentence.ReplaceAll(text, []byte(summary)), 0o644)
}

func outcomeLines(s string) map[string]string {
	out := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(s), "\n") {
		if path, rest, ok := strings.Cut(l, "\t"); ok {
			out[path] = rest
		}
	}
	return out
}

package conformance

import (
	"bytes"
	"go/format"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The playground links third_party/cron, robfig/cron reduced to its
// parser and schedules (see its README); this module, like upstream's
// controllers, uses the real one. The fork's files are upstream's as
// gofmt prints them, and its Schedule interface is cron.go's, so the
// engine parses and schedules exactly as the harness checks it here.
func TestCronForkIsUpstreams(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/robfig/cron/v3").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	upstream := strings.TrimSpace(string(out))
	for _, name := range []string{"parser.go", "spec.go", "constantdelay.go", "LICENSE"} {
		ours, err := os.ReadFile(filepath.Join("..", "third_party", "cron", name))
		if err != nil {
			t.Fatal(err)
		}
		theirs, err := os.ReadFile(filepath.Join(upstream, name))
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(name, ".go") {
			// gofmt's doc-comment layout is the only change (make fmt-check).
			if theirs, err = format.Source(theirs); err != nil {
				t.Fatal(err)
			}
		}
		if !bytes.Equal(ours, theirs) {
			t.Errorf("third_party/cron/%s differs from %s", name, filepath.Join(upstream, name))
		}
	}
	schedule, err := os.ReadFile(filepath.Join("..", "third_party", "cron", "schedule.go"))
	if err != nil {
		t.Fatal(err)
	}
	cronGo, err := os.ReadFile(filepath.Join(upstream, "cron.go"))
	if err != nil {
		t.Fatal(err)
	}
	decl := schedule[bytes.Index(schedule, []byte("// Schedule describes")):]
	if !bytes.Contains(cronGo, decl) {
		t.Errorf("third_party/cron/schedule.go's declaration is not upstream's cron.go's:\n%s", decl)
	}
}

package layering

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// layoutSection is the README's "## Layout" section.
func layoutSection(t *testing.T) string {
	t.Helper()
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(readme), "\n## Layout\n")
	if !ok {
		t.Fatal("README.md has no ## Layout section")
	}
	if end := strings.Index(rest, "\n## "); end >= 0 {
		rest = rest[:end]
	}
	return rest
}

// missingFromLayout lists the packages (paths relative to the module) the
// layout does not name: a package under engine/ by its path below
// engine/ in the engine's row, any other by its path.
func missingFromLayout(layout string, pkgs []string) []string {
	engineRow := ""
	for _, line := range strings.Split(layout, "\n") {
		if strings.HasPrefix(line, "| `engine/` |") {
			engineRow = line
		}
	}
	var out []string
	for _, p := range pkgs {
		if sub, ok := strings.CutPrefix(p, "engine/"); ok {
			if !strings.Contains(engineRow, "`"+sub+"`") {
				out = append(out, p)
			}
		} else if !strings.Contains(layout, "`"+p+"`") && !strings.Contains(layout, "`"+p+"/`") {
			out = append(out, p)
		}
	}
	return out
}

// The README's layout names every package of the module, and every path
// its table starts a row with exists.
func TestReadmeLayoutNamesEveryPackage(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}", module+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []string
	for _, p := range strings.Fields(string(out)) {
		if rel := strings.TrimPrefix(strings.TrimPrefix(p, module), "/"); rel != "" {
			pkgs = append(pkgs, rel)
		}
	}
	if len(pkgs) < 40 {
		t.Fatalf("go list found %d packages", len(pkgs))
	}
	layout := layoutSection(t)
	for _, p := range missingFromLayout(layout, pkgs) {
		t.Errorf("README.md's Layout does not name package %s", p)
	}
	for _, m := range regexp.MustCompile("(?m)^\\| `([^`]+)` \\|").FindAllStringSubmatch(layout, -1) {
		if _, err := os.Stat(filepath.Join("../..", m[1])); err != nil {
			t.Errorf("README.md's Layout has a row for %s, which does not exist", m[1])
		}
	}
}

// The check finds a package the layout leaves out, under engine/ too.
func TestMissingFromLayout(t *testing.T) {
	layout := "| `engine/` | `api`, `controller/job` |\n| `app/` | `app/model` |\n"
	got := missingFromLayout(layout, []string{"engine/api", "engine/controller/job", "engine/controller/cronjob", "app", "app/model", "lesson"})
	if strings.Join(got, " ") != "engine/controller/cronjob lesson" {
		t.Errorf("missing %q, want engine/controller/cronjob and lesson", got)
	}
}

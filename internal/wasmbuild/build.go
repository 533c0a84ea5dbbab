package wasmbuild

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Module is the playground's module path.
const Module = "github.com/stateflow/stateflow"

// Flags are the go build flags of the shipped app.wasm, after GOOS=js
// GOARCH=wasm go build.
//
// Inlining is off except in the standard library and the engine. Inlined
// copies of small functions elsewhere cost 158 KB of brotli and no
// measurable time (docs/benchmarks-history.md, issue 40); the engine's ticks do slow
// down without inlining (2–2.5× in wasm), and so does the runtime, so
// both keep it.
// -s -w drop the symbol table and DWARF, which the browser never reads.
func Flags(keepNames bool) []string {
	ldflags := "-ldflags=-s -w"
	if keepNames {
		ldflags = "-ldflags=" // keep the names a profiler or Attribute shows
	}
	return []string{
		"-trimpath", ldflags,
		"-gcflags=all=-l",
		"-gcflags=std=",
		"-gcflags=" + Module + "/engine/...=",
	}
}

// ZoneInfo is the time zone database app.wasm downloads when a scenario
// names a zone (engine/timezone), which Build writes beside it.
const ZoneInfo = "zoneinfo.zip"

// Build compiles the wasm package of the module at root into out, and
// writes beside it the zone database of the Go release that built it
// (ZoneInfo: $GOROOT/lib/time/zoneinfo.zip, the database time/tzdata
// links into native builds), so the browser and the command line load
// the same zones.
func Build(ctx context.Context, root, out string, keepNames bool) error {
	args := append([]string{"build"}, Flags(keepNames)...)
	args = append(args, "-o", out, "./wasm")
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("building app.wasm: %v\n%s", err, b)
	}
	return copyZoneInfo(ctx, root, filepath.Join(filepath.Dir(out), ZoneInfo))
}

// copyZoneInfo copies the Go release's zoneinfo.zip to out.
func copyZoneInfo(ctx context.Context, root, out string) error {
	cmd := exec.CommandContext(ctx, "go", "env", "GOROOT")
	cmd.Dir = root
	goroot, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("finding GOROOT for %s: %w", ZoneInfo, err)
	}
	b, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(goroot)), "lib", "time", ZoneInfo))
	if err != nil {
		return fmt.Errorf("the time zone database: %w", err)
	}
	return os.WriteFile(out, b, 0o644)
}

// Packages lists the import paths the wasm package links.
func Packages(ctx context.Context, root string) ([]string, error) {
	cmd := exec.CommandContext(ctx, "go", "list", "-deps", "./wasm")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.Output()
	if err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return nil, fmt.Errorf("listing the wasm's packages: %w\n%s", err, exit.Stderr)
		}
		return nil, fmt.Errorf("listing the wasm's packages: %w", err)
	}
	return strings.Fields(string(out)), nil
}

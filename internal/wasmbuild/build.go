package wasmbuild

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// Module is the playground's module path.
const Module = "github.com/stateflow/stateflow"

// Flags are the go build flags of the shipped app.wasm, after GOOS=js
// GOARCH=wasm go build.
//
// Inlining is off except in the standard library and the engine: inlined
// copies of small functions are a quarter of the code outside them, and
// turning inlining off there costs no measurable time (the engine's ticks,
// which are, stay inlined: without it they run 2–2.5× slower in wasm).
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

// Build compiles the wasm package of the module at root into out.
func Build(ctx context.Context, root, out string, keepNames bool) error {
	args := append([]string{"build"}, Flags(keepNames)...)
	args = append(args, "-o", out, "./wasm")
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("building app.wasm: %v\n%s", err, b)
	}
	return nil
}

// Packages lists the import paths the wasm package links.
func Packages(ctx context.Context, root string) ([]string, error) {
	cmd := exec.CommandContext(ctx, "go", "list", "-deps", "./wasm")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("listing the wasm's packages: %w", err)
	}
	return strings.Fields(string(out)), nil
}

package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/stateflow/stateflow/internal/wasmbuild"
)

// wasmCommand is: stateflow wasm [--out web/app.wasm] [--keep-names]
// It builds the playground's wasm with the flags the site ships
// (internal/wasmbuild), from the module in the current directory.
func wasmCommand(args []string, stdout io.Writer) error {
	f, err := parseFlags(args, []string{"out"}, []string{"keep-names"})
	if err != nil {
		return err
	}
	out := f.values["out"]
	if out == "" {
		out = filepath.Join("web", "app.wasm")
	}
	if err := wasmbuild.Build(context.Background(), ".", out, f.values["keep-names"] == "true"); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s written\n", out)
	return nil
}

// sizeCommand is: stateflow size [--top N]
// It prints what app.wasm weighs as shipped (raw, gzip at its best level, brotli q11)
// and where its code goes, package by package, from a build that keeps
// the functions' names.
func sizeCommand(args []string, stdout io.Writer) error {
	f, err := parseFlags(args, []string{"top"}, nil)
	if err != nil {
		return err
	}
	top := 40
	if v := f.values["top"]; v != "" {
		if top, err = strconv.Atoi(v); err != nil || top < 1 {
			return usageError("--top needs a positive number, not %q", v)
		}
	}
	dir, err := os.MkdirTemp("", "stateflow-size")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	ctx := context.Background()
	shipped, named := filepath.Join(dir, "app.wasm"), filepath.Join(dir, "named.wasm")
	if err := wasmbuild.Build(ctx, ".", shipped, false); err != nil {
		return err
	}
	if err := wasmbuild.Build(ctx, ".", named, true); err != nil {
		return err
	}
	pkgs, err := wasmbuild.Packages(ctx, ".")
	if err != nil {
		return err
	}
	b, err := os.ReadFile(shipped)
	if err != nil {
		return err
	}
	nb, err := os.ReadFile(named)
	if err != nil {
		return err
	}
	shares, err := wasmbuild.Attribute(nb, pkgs)
	if err != nil {
		return fmt.Errorf("%s: %w", named, err)
	}
	wasmbuild.Report(stdout, wasmbuild.Measure(b), shares, top)
	return nil
}

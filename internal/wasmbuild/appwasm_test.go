package wasmbuild

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestAppWasmWithinBudget builds app.wasm as the site ships it and
// compares its compressed sizes with the budget in BENCHMARKS.md.
func TestAppWasmWithinBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and compresses the whole wasm")
	}
	budget, err := ReadBudget("../../BENCHMARKS.md")
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "app.wasm")
	if err := Build(context.Background(), "../..", out, false); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	s := Measure(b)
	t.Logf("app.wasm: %d B raw, %d B gzip, %d B brotli (budget %d, %d)", s.Raw, s.Gzip, s.Brotli, budget.Gzip, budget.Brotli)
	if err := budget.Check(s); err != nil {
		t.Error(err)
	}
}

// TestAppWasmLinksNoServerCode keeps out of the wasm what only a server
// needs: net/http and the TLS and X.509 code its initialisers pull in
// (the fork of go-app in third_party/go-app builds its Handler only
// outside wasm), klog (engine/api/labels is apimachinery's without it)
// and package net; and the time zone database (the page downloads it:
// engine/timezone), github.com/google/uuid with the SHA-1 it brought
// (the fork draws its IDs from math/rand/v2), and package log, which
// robfig/cron's runner brought (third_party/cron keeps its parser only).
func TestAppWasmLinksNoServerCode(t *testing.T) {
	pkgs, err := Packages(context.Background(), "../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"net/http", "crypto/tls", "crypto/x509", "net", "k8s.io/klog/v2", "log/slog", "os/user", "flag",
		"time/tzdata", "github.com/google/uuid", "crypto/sha1", "log"} {
		if slices.Contains(pkgs, p) {
			t.Errorf("app.wasm links %s", p)
		}
	}
}

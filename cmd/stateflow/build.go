package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// buildCommand is: stateflow build --out DIR [--base /prefix] [--domain HOST] [--web DIR]
// It writes a static site: the prerendered page, go-app's scripts, the
// wasm and the assets, each with .gz (and .br when brotli is installed)
// copies for hosts that serve precompressed files. --domain is the host
// the site is published at, for the page's link previews (og:url,
// og:image), which need absolute addresses.
func buildCommand(args []string, stdout io.Writer) error {
	f, err := parseFlags(args, []string{"out", "base", "domain", "web"}, nil)
	if err != nil {
		return err
	}
	out := f.values["out"]
	if out == "" {
		return usageError("build needs --out DIR")
	}
	web := f.values["web"]
	if web == "" {
		web = "web"
	}
	var res app.ResourceResolver = app.LocalDir("")
	if base := strings.Trim(f.values["base"], "/"); base != "" {
		res = app.GitHubPages(base)
	}
	h, err := handler(web, filepath.Join(web, "app.wasm"), res)
	if err != nil {
		return err
	}
	if domain := strings.Trim(f.values["domain"], "/"); domain != "" {
		if strings.Contains(domain, "/") {
			return usageError("--domain %q: a host name such as owner.github.io, without a scheme or a path (the path is --base)", f.values["domain"])
		}
		h.Domain, h.Image = domain, "/web/icon-512.png"
	}
	if err := app.GenerateStaticWebsite(out, h); err != nil {
		return fmt.Errorf("generating the site: %w", err)
	}
	for _, name := range append([]string{"app.wasm"}, webAssets...) {
		if err := copyFile(filepath.Join(web, name), filepath.Join(out, "web", name)); err != nil {
			return err
		}
	}
	if err := os.WriteFile(filepath.Join(out, "_headers"), []byte(headersFile), 0o644); err != nil {
		return err
	}
	if err := precompress(out); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "static site written to %s\n", out)
	return nil
}

func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	return os.WriteFile(to, b, 0o644)
}

// precompress writes .gz copies of the text and wasm files (and .br with
// the brotli tool, if it is installed).
func precompress(dir string) error {
	return filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		switch filepath.Ext(p) {
		case ".wasm", ".js", ".css", ".html", ".svg", ".webmanifest":
		default:
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		var gz bytes.Buffer
		w, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
		w.Write(b)
		w.Close()
		if err := os.WriteFile(p+".gz", gz.Bytes(), 0o644); err != nil {
			return err
		}
		if brotli, err := exec.LookPath("brotli"); err == nil {
			_ = exec.Command(brotli, "-q", "11", "-f", "-o", p+".br", p).Run()
		}
		return nil
	})
}

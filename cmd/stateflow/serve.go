package main

import (
	"fmt"
	"io"
	"net"
	"net/http"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/stateflow/stateflow/internal/wasmbuild"
)

// compressedAssets are the files of web/ worth compressing: the wasm, the
// text the page loads, and the zone database (stored uncompressed in its
// zip: 408 KB, 50 KB brotli).
func compressedAssets() []string {
	return []string{"app.wasm", "codemirror.js", "app.css", wasmbuild.ZoneInfo}
}

// serveCommand is: stateflow serve [--addr HOST:PORT] [--web DIR]
// It serves the playground with app.wasm and the assets compressed
// (brotli or gzip, as the browser accepts) and revalidated by ETag.
func serveCommand(args []string, stdout io.Writer) error {
	f, err := parseFlags(args, []string{"addr", "web"}, nil)
	if err != nil {
		return err
	}
	addr := f.values["addr"]
	if addr == "" {
		addr = "127.0.0.1:8080"
	}
	web := f.values["web"]
	if web == "" {
		web = "web"
	}
	h, err := handler(web, web+"/app.wasm", app.LocalDir(""))
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	files, err := newCompressedFiles(web, compressedAssets(), h, false)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Stateflow playground: http://%s/\n", ln.Addr())
	return http.Serve(ln, framable(files))
}

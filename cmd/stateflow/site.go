package main

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	ui "github.com/stateflow/stateflow/app"
	"github.com/stateflow/stateflow/internal/framing"
	"github.com/stateflow/stateflow/internal/wasmbuild"
)

// webAssets are the files of web/ the site needs, besides app.wasm.
// zoneinfo.zip is written beside app.wasm by make wasm (wasmbuild.Build).
var webAssets = []string{"app.css", "codemirror.js", "icon.svg", "icon-192.png", "icon-512.png", "poster.html", "poster.js", wasmbuild.ZoneInfo}

// bootScript runs in the <head>, before the body is parsed. In an embed
// (?embed=1, as model.EmbedRequested reads it) it marks the document so
// that the stylesheet hides the prerendered full page, which the wasm
// replaces with the embed, and shows the loading card in the frame
// instead. Unless go-app will not load the wasm (?wasm=false, or a
// crawler, as its app.js decides), it preloads app.wasm, whose download
// would otherwise wait for the deferred scripts; the preload's
// credentials mode (crossorigin) matches app.js's fetch, so the two are
// one download. The page's Content-Security-Policy allows the script by
// its hash.
func bootScript(wasmURL string) string {
	return `(()=>{const q=new URLSearchParams(location.search),v=q.get("embed");` +
		`if(v!==null&&!/^(0|false|no)$/i.test(v))document.documentElement.classList.add("embed-boot");` +
		`if(q.get("wasm")!=="false"&&!/bot|googlebot|crawler|spider|robot|crawling/i.test(navigator.userAgent)){` +
		`const l=document.createElement("link");l.rel="preload";l.as="fetch";l.crossOrigin="anonymous";l.href=` + strconv.Quote(wasmURL) + `;document.head.appendChild(l)}})()`
}

// scriptHash is a script's CSP source expression.
func scriptHash(script string) string {
	sum := sha256.Sum256([]byte(script))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

// handler is the playground's go-app handler. Its version is a hash of the
// wasm and the assets, so a new deployment reaches visitors whose service
// worker cached the old one.
func handler(webDir, wasmPath string, resources app.ResourceResolver) (*app.Handler, error) {
	version, size, err := contentVersion(webDir, wasmPath)
	if err != nil {
		return nil, err
	}
	ui.Routes()
	boot := bootScript(resources.Resolve("/web/app.wasm"))
	return &app.Handler{
		Name:            "Stateflow",
		ShortName:       "Stateflow",
		Title:           "Stateflow — see the Kubernetes control plane's state flow",
		Description:     "Paste a manifest and step through how Kubernetes turns it into running containers and back into a status line.",
		Author:          "Stateflow",
		Lang:            "en",
		BackgroundColor: "#10151c",
		ThemeColor:      "#1f3a5f",
		LoadingLabel:    "Loading the simulated cluster… {progress}%",
		Icon:            app.Icon{Default: "/web/icon-192.png", Large: "/web/icon-512.png", SVG: "/web/icon.svg"},
		Styles:          []string{"/web/app.css"},
		// The editor's script is neither in the <head> nor in the service
		// worker's cache: the Editor loads it when it mounts
		// (app/editorscript_js.go), so it never holds up the wasm and an
		// embed, which has no editor, never downloads it.
		Version:           version,
		Resources:         resources,
		WasmContentLength: fmt.Sprint(size),
		RawHeaders: []string{
			`<meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self' ` + scriptHash(boot) + ` 'unsafe-eval' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; worker-src 'self'; manifest-src 'self'; object-src 'none'; base-uri 'self'; form-action 'none'">`,
			"<script>" + boot + "</script>",
		},
	}, nil
}

// headersFile is the static site's _headers file: every path may be
// framed by any origin (internal/framing), for the embed mode.
const headersFile = framing.HeadersFile

// framable serves h so that any origin may frame it (internal/framing).
func framable(h http.Handler) http.Handler { return framing.Framable(h) }

// contentVersion hashes app.wasm and the web assets.
func contentVersion(webDir, wasmPath string) (string, int64, error) {
	h := sha256.New()
	var size int64
	for _, p := range append([]string{wasmPath}, assetPaths(webDir)...) {
		f, err := os.Open(p)
		if err != nil {
			if p == wasmPath {
				return "", 0, fmt.Errorf("%s is missing: build it first with make wasm (stateflow wasm)", p)
			}
			return "", 0, err
		}
		n, err := io.Copy(h, f)
		f.Close()
		if err != nil {
			return "", 0, err
		}
		if p == wasmPath {
			size = n
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:16], size, nil
}

func assetPaths(webDir string) []string {
	var out []string
	for _, a := range webAssets {
		out = append(out, filepath.Join(webDir, a))
	}
	return out
}

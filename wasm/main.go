// Command wasm is the playground's browser entry point, compiled with
// GOOS=js GOARCH=wasm to web/app.wasm. It only registers the routes and
// runs them: the server side lives in cmd/stateflow, so none of it is
// linked into the WebAssembly binary.
package main

import (
	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/stateflow/stateflow/app"
)

func main() {
	limitMemory()
	app.Routes()
	goapp.RunWhenOnBrowser()
}

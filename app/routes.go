package app

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// Routes registers the playground's single route: everything else (the
// scenario, the tick) lives in the URL fragment, so the site can be hosted
// under any path.
func Routes() {
	app.Route("/", func() app.Composer { return NewPlayground() })
}

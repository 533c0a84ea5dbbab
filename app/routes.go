package app

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/stateflow/stateflow/app/model"
)

// Routes registers the playground's single route: everything else (the
// scenario, the tick) lives in the URL fragment, so the site can be hosted
// under any path. ?embed=1 asks for the embed mode (in the browser; the
// server prerenders the full page, which the loader covers).
func Routes() {
	app.Route("/", func() app.Composer {
		if model.EmbedRequested(app.Window().URL().RawQuery) {
			return NewEmbed()
		}
		return NewPlayground()
	})
}

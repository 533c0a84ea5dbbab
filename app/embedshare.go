package app

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/stateflow/stateflow/app/model"
)

// EmbedShare is the Share banner's embed snippet: an iframe of the share
// link in embed mode, with Copy. Where the clipboard cannot be written
// the snippet is selected in its field, to copy by hand.
type EmbedShare struct {
	app.Compo
	Link, Title string

	p      *Playground
	notice string
	copied string // the snippet the notice is about
}

// Render draws the snippet, its field and Copy.
func (c *EmbedShare) Render() app.UI {
	snippet := model.EmbedSnippet(c.Link, c.Title)
	if snippet != c.copied {
		c.notice = ""
	}
	return app.Div().Class("embed-share").Body(
		app.Label().For("embed-snippet").Text("Embed it in a page:"),
		app.Textarea().ID("embed-snippet").Class("embed-snippet").ReadOnly(true).Rows(2).DataSet("testid", "embed-snippet").Text(snippet),
		app.Button().DataSet("testid", "embed-copy").Title("Copy the snippet: an iframe of this link in embed mode").Text("Copy").
			OnClick(func(ctx app.Context, ev app.Event) { c.copy(ctx) }),
		app.Span().Class("small").Role("status").DataSet("testid", "embed-copy-notice").Text(c.notice),
	)
}

func (c *EmbedShare) copy(ctx app.Context) {
	snippet := model.EmbedSnippet(c.Link, c.Title)
	c.notice, c.copied = "Copying the snippet…", snippet
	ctx.Async(func() {
		err := c.p.bridge.CopyText(snippet)
		ctx.Dispatch(func(ctx app.Context) {
			if c.copied != snippet {
				return // another link meanwhile
			}
			if err != nil {
				c.notice = "The clipboard is not available (" + err.Error() + "): the snippet is selected, copy it with Ctrl+C (⌘C on a Mac)."
				selectField("embed-snippet")
				return
			}
			c.notice = "Snippet copied: paste it into your page's HTML."
		})
	})
}

package app

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/stateflow/stateflow/app/model"
)

// EmbedShare is the Share banner's embed snippet: an iframe of the share
// link in embed mode, or of its light poster (Load on click), with Copy.
// Where the clipboard cannot be written the snippet is selected in its
// field, to copy by hand.
type EmbedShare struct {
	app.Compo
	Link, Title string

	bridge bridge
	poster bool // the snippet frames the poster, which loads on click
	notice string
	copied string // the snippet the notice is about
}

// snippet is the HTML to paste.
func (c *EmbedShare) snippet() string {
	if c.poster {
		return model.PosterSnippet(c.Link, c.Title)
	}
	return model.EmbedSnippet(c.Link, c.Title)
}

// Render draws the snippet, its field, Load on click and Copy.
func (c *EmbedShare) Render() app.UI {
	snippet := c.snippet()
	if snippet != c.copied {
		c.notice = ""
	}
	return app.Div().Class("embed-share").Body(
		app.Label().For("embed-snippet").Text("Embed it in a page:"),
		app.Textarea().ID("embed-snippet").Class("embed-snippet").ReadOnly(true).Rows(2).DataSet("testid", "embed-snippet").Text(snippet),
		app.Label().Class("embed-poster").Title("The frame shows a light poster and downloads the simulator only when its reader presses Load: for a page with several embeds").Body(
			app.Input().Type("checkbox").DataSet("testid", "embed-poster").Checked(c.poster).
				OnChange(func(ctx app.Context, ev app.Event) { c.poster = ctx.JSSrc().Get("checked").Bool() }),
			app.Text(" Load on click"),
		),
		app.Button().DataSet("testid", "embed-copy").Title("Copy the snippet: an iframe of this link in embed mode, or of its poster").Text("Copy").
			OnClick(func(ctx app.Context, ev app.Event) { c.copy(ctx) }),
		app.Span().Class("small").Role("status").DataSet("testid", "embed-copy-notice").Text(c.notice),
	)
}

func (c *EmbedShare) copy(ctx app.Context) {
	snippet := c.snippet()
	c.notice, c.copied = "Copying the snippet…", snippet
	ctx.Async(func() {
		err := c.bridge.CopyText(snippet)
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

package app

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// Header is the title, the examples and lessons menus, the scenario's
// description and Share.
type Header struct {
	app.Compo
	Example     string   // the example loaded, "" for the visitor's own
	Description string   // the running scenario's description
	Examples    []string // the examples menu
	Large       []string // its "Large clusters" group (examples.Large)
	// Lessons is the lessons menu and Lesson the one open (its name,
	// ownLesson for the running scenario's own, "" for none); OwnLesson
	// is the title of the running scenario's Lesson document when it is
	// not one of the menu's.
	Lessons   []lessonItem
	Lesson    string
	OwnLesson string

	do     headerActions
	bridge bridge
}

// headerActions are what the header asks of the page. go-app copies a
// component's exported fields only, so these stay the ones the page set
// when the header was first mounted: method values of that page.
type headerActions struct {
	chooseExample func(name string)
	chooseLesson  func(ctx app.Context, name string)
	share         func(ctx app.Context)
}

// Render draws the header.
func (h *Header) Render() app.UI {
	do, desc := h.do, h.Description
	return app.Header().Class("topbar").Body(
		app.Div().Class("brand").Body(
			app.H1().Text("Stateflow"),
			app.Span().Class("tagline").Text("desired state flows down, observed state flows up"),
		),
		app.Label().For("examples").Class("examples-label").Text("Example"),
		app.Select().ID("examples").DataSet("testid", "examples").Aria("label", "Load an example scenario").
			OnChange(func(ctx app.Context, e app.Event) {
				do.chooseExample(ctx.JSSrc().Get("value").String())
			}).Body(
			app.Option().Value("").Text("— your scenario —").Selected(h.Example == ""),
			app.Range(h.Examples).Slice(func(i int) app.UI {
				name := h.Examples[i]
				return app.Option().Value(name).Text(name).Selected(name == h.Example)
			}),
			app.OptGroup().Label("Large clusters (slow to build)").Body(
				app.Range(h.Large).Slice(func(i int) app.UI {
					name := h.Large[i]
					return app.Option().Value(name).Text(name).Selected(name == h.Example)
				}),
			),
		),
		app.Label().For("lessons").Class("examples-label").Text("Lesson"),
		app.Select().ID("lessons").DataSet("testid", "lessons").Aria("label", "Open a lesson").
			OnChange(func(ctx app.Context, e app.Event) {
				do.chooseLesson(ctx, ctx.JSSrc().Get("value").String())
			}).Body(
			app.Option().Value("").Text("— no lesson —").Selected(h.Lesson == ""),
			app.Range(h.Lessons).Slice(func(i int) app.UI {
				l := h.Lessons[i]
				return app.Option().Value(l.Name).Text(l.Title).Selected(l.Name == h.Lesson)
			}),
			app.If(h.OwnLesson != "", func() app.UI {
				return app.Option().Value(ownLesson).Text("This scenario's lesson: " + h.OwnLesson).Selected(h.Lesson == ownLesson)
			}),
		),
		&Description{Text: desc, bridge: h.bridge},
		app.Button().DataSet("testid", "share").Class("primary").Aria("label", "Share this scenario at this tick").
			Title("Put the scenario and the current tick in the link and copy it").
			OnClick(func(ctx app.Context, e app.Event) { do.share(ctx) }).Text("Share"),
	)
}

// renderBanners shows problems that concern the whole page.
func (p *page) renderBanners() app.UI {
	return app.Div().Class("banners").Body(
		app.If(p.updateAvailable, updateBanner),
		app.If(p.banner != "", func() app.UI { return warnBanner(p.banner, "", "banner", p.dismissBanner) }),
		app.If(p.shareNotice != "", func() app.UI {
			return app.Div().Class("banner info").Role("status").DataSet("testid", "share-notice").Body(
				app.Span().Text(p.shareNotice),
				app.Input().Class("share-link").ReadOnly(true).Value(p.shareLink).Aria("label", "Share link").DataSet("testid", "share-link"),
				app.Button().Text("Close").OnClick(func(ctx app.Context, e app.Event) { p.shareNotice, p.shareLink = "", "" }),
				&EmbedShare{Link: p.shareLink, Title: p.embedTitle(), bridge: p.bridge},
			)
		}),
		app.If(p.storageNotice != "", func() app.UI {
			return app.Div().Class("banner warn").Role("status").Text(p.storageNotice)
		}),
		app.If(p.m.Crash != "", func() app.UI {
			return app.Div().Class("banner error").Role("alert").Body(
				app.Strong().Text("Something went wrong inside the simulation; the page still works. "),
				app.Button().Text("Reset the scenario").OnClick(func(ctx app.Context, e app.Event) { p.resetAfterCrash(ctx) }),
				app.Details().Body(
					app.Summary().Text("Report (copy it into an issue)"),
					app.Textarea().Class("report").ReadOnly(true).Rows(8).Text(p.m.Crash),
				),
			)
		}),
	)
}

// updateBanner offers a reload when a new version has been deployed.
func updateBanner() app.UI {
	return app.Div().Class("banner info").Role("status").Body(
		app.Span().Text("A new version of Stateflow is available. "),
		app.Button().Text("Reload").OnClick(func(ctx app.Context, e app.Event) { ctx.Reload() }),
	)
}

// warnBanner is a problem the visitor can dismiss (testid, when not "",
// names it for the tests). go-app keeps a button's first handler when a
// render passes another closure of the same code, so the button says
// which banner it closes (data-dismiss) and dismiss reads it (dataOf).
func warnBanner(text, testid, id string, dismiss func(id string)) app.UI {
	b := app.Div().Class("banner warn").Role("alert")
	if testid != "" {
		b = b.DataSet("testid", testid)
	}
	return b.Body(
		app.Span().Text(text),
		app.Button().Text("Dismiss").DataSet("dismiss", id).OnClick(func(ctx app.Context, e app.Event) { dismiss(dataOf(ctx, "dismiss")) }),
	)
}

// dismissBanner closes the page's banner or the embed's link problem.
func (p *page) dismissBanner(id string) {
	if id == "banner" {
		p.banner = ""
	}
}

// resetAfterCrash runs the scenario again after an internal error.
func (p *page) resetAfterCrash(ctx app.Context) {
	p.m.DismissCrash()
	p.resolveLesson(ctx)
}

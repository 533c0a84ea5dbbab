package app

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/stateflow/stateflow/engine/order"
	"github.com/stateflow/stateflow/scenario"
)

// editorHostID is the element CodeMirror lives in. go-app renders it with
// no children and never diffs what CodeMirror puts inside.
const editorHostID = "editor-cm"

// codeMirror is a CodeMirror editor mounted in the page (codemirror_js.go;
// natively, mountCodeMirror always fails and the textarea is used). A
// JavaScript exception comes back as an error.
type codeMirror interface {
	SetText(text string) error
	SetProblems(ds []scenario.Diagnostic) error
	RevealLine(line int) error
	Destroy()
}

// Editor is the scenario editor: CodeMirror (web/codemirror.js) with line
// numbers, YAML highlighting, undo, search and lint marks, the Apply button
// and the problems list. Without CodeMirror (the script blocked or broken,
// and on the server) it is a plain textarea, so edits are never lost.
type Editor struct {
	app.Compo

	// Source is the text the model holds; it is pushed into CodeMirror
	// only when it is not the editor's own (an example loaded, a link
	// opened).
	Source string
	// Dirty says Source is not the running scenario.
	Dirty bool
	// Problems are the errors and warnings of the last apply; Refused says
	// that apply had errors and the previous scenario kept running.
	Problems []scenario.Diagnostic
	Refused  bool
	// LessonOpen offers to show the lesson player in the editor's place.
	LessonOpen bool

	// do is what the editor asks of the page, set by the page that
	// mounts it (go-app copies exported fields only); without it (a
	// problems list alone) the editor only shows.
	do     editorActions
	bridge bridge
	cm     codeMirror // nil: the textarea fallback
	// known is the text CodeMirror and this component last agreed on: a
	// Source that differs from it came from outside.
	known string
	// shown are the problems last handed to CodeMirror.
	shown []scenario.Diagnostic
	// failure says why CodeMirror is not used, for the fallback's title.
	failure string
}

// editorActions are what the editor asks of the page.
type editorActions struct {
	// edit takes the editor's new text: dirty says it is not the running
	// scenario, noticed that keeping it raised a storage notice.
	edit       func(text string) (dirty, noticed bool)
	apply      func(ctx app.Context)
	showLesson func()
}

// editor is the editor pane as the page places it.
func (p *page) editor() app.UI {
	return &Editor{
		Source:     p.m.Source,
		Dirty:      p.m.Source != p.m.Applied,
		Problems:   p.m.Problems,
		Refused:    p.m.Refused,
		LessonOpen: p.m.LessonOpen(),
		do:         editorActions{edit: p.edit, apply: p.apply, showLesson: p.showLesson},
		bridge:     p.bridge,
	}
}

// renderProblems is the problems list alone, as the editor shows it.
func (p *page) renderProblems() app.UI {
	return (&Editor{Source: p.m.Source, Dirty: p.m.Source != p.m.Applied, Problems: p.m.Problems, Refused: p.m.Refused, bridge: p.bridge}).renderProblems()
}

// edit takes the editor's new text into the model and keeps it for the
// next visit.
func (p *page) edit(text string) (dirty, noticed bool) {
	notice := p.storageNotice
	p.m.Edit(text)
	p.save()
	return text != p.m.Applied, p.storageNotice != notice
}

// showLesson shows the lesson player in the editor's place.
func (p *page) showLesson() { p.side, p.view = "lesson", "lesson" }

// OnMount loads CodeMirror's script (loadEditorScript; its URL carries
// the build's version, so a cache never pairs an old editor with a new
// wasm) and then, once nobody is typing in the textarea, replaces it with
// CodeMirror; until then, and if it fails, the textarea works.
func (c *Editor) OnMount(ctx app.Context) {
	if c.do.edit == nil || c.cm != nil {
		return
	}
	src := ctx.ResolveStaticResource("/web/codemirror.js") + "?v=" + app.Getenv("GOAPP_VERSION")
	loadEditorScript(src, func(err error) {
		if err != nil {
			ctx.Dispatch(func(ctx app.Context) {
				c.failure = "The code editor could not start (" + err.Error() + "); this plain editor works the same."
			})
			return
		}
		whenNotFocused("editor", func() { ctx.Dispatch(c.mount) })
	})
}

// mount replaces the textarea with CodeMirror, whose script has run.
func (c *Editor) mount(ctx app.Context) {
	if c.do.edit == nil || c.cm != nil || !c.Mounted() {
		return
	}
	cm, err := mountCodeMirror(editorHostID, c.Source,
		func(text string) { ctx.Dispatch(func(ctx app.Context) { c.edited(ctx, text, true) }) },
		func(text string) {
			ctx.Dispatch(func(ctx app.Context) {
				c.known = text
				c.edited(ctx, text, false)
				c.do.apply(ctx)
			})
		})
	if err != nil {
		c.failure = "The code editor could not start (" + err.Error() + "); this plain editor works the same."
		return
	}
	c.cm, c.known = cm, c.Source
	c.pushProblems()
}

// OnDismount removes CodeMirror and its listeners.
func (c *Editor) OnDismount() {
	if c.cm != nil {
		c.cm.Destroy()
		c.cm = nil
	}
}

// OnUpdate pushes what changed outside into CodeMirror: a new text, new
// problems.
func (c *Editor) OnUpdate(ctx app.Context) {
	if c.cm == nil {
		return
	}
	if c.Source != c.known {
		if err := c.cm.SetText(c.Source); err != nil {
			c.fallBack(err)
			return
		}
		c.known = c.Source
		c.shown = nil
	}
	c.pushProblems()
}

func (c *Editor) pushProblems() {
	if c.cm == nil || (c.shown != nil && slices.Equal(c.shown, c.Problems)) {
		return
	}
	if err := c.cm.SetProblems(c.Problems); err != nil {
		c.fallBack(err)
		return
	}
	c.shown = append([]scenario.Diagnostic{}, c.Problems...)
}

// fallBack drops a CodeMirror that failed for the textarea, which shows
// the latest text the model has.
func (c *Editor) fallBack(err error) {
	c.failure = "The code editor failed (" + err.Error() + "); this plain editor works the same."
	c.cm.Destroy()
	c.cm = nil
}

// edited takes the editor's new text into the model and keeps it for the
// next visit. From CodeMirror, the page renders again only when what it
// shows changes (the "Edited" note, a storage notice), not at every key.
func (c *Editor) edited(ctx app.Context, text string, fromCodeMirror bool) {
	if fromCodeMirror {
		c.known = text
	}
	dirty := c.Dirty
	c.Source = text
	var noticed bool
	c.Dirty, noticed = c.do.edit(text)
	if fromCodeMirror && c.cm != nil && dirty == c.Dirty && !noticed {
		ctx.PreventUpdate()
	}
}

// reveal scrolls the editor to a line and selects it.
func (c *Editor) reveal(line int) {
	if c.cm != nil {
		if err := c.cm.RevealLine(line); err == nil {
			return
		}
	}
	if c.bridge != nil {
		c.bridge.FocusLine("editor", line)
	}
}

// Render draws the pane. The CodeMirror host is always there (hidden
// while the textarea is used), so go-app never recreates it.
func (c *Editor) Render() app.UI {
	host := app.Div().ID(editorHostID).Class("cm-host")
	if c.cm != nil {
		host = host.Style("display", "flex").Style("flex", "1 1 0").Style("min-height", "0").Style("border-top", "1px solid var(--line)")
	} else {
		host = host.Style("display", "none")
	}
	return app.Aside().Class("editor-pane").Aria("label", "Scenario editor").Body(
		app.Div().Class("pane-title").Body(
			app.H2().Text("Scenario"),
			app.Div().Class("pane-actions").Body(
				app.If(c.LessonOpen, func() app.UI {
					return app.Button().DataSet("testid", "show-lesson").Class("side-toggle").Title("Show the lesson in this column").Text("Lesson").
						OnClick(func(ctx app.Context, e app.Event) {
							if c.do.showLesson != nil {
								c.do.showLesson()
							}
						})
				}),
				app.Button().DataSet("testid", "apply").Class("primary").Title("Apply the edited scenario (Ctrl/Cmd+Enter)").
					OnClick(func(ctx app.Context, e app.Event) {
						if c.do.apply != nil {
							c.do.apply(ctx)
						}
					}).Text("Apply"),
			),
		),
		host,
		app.If(c.cm == nil, c.renderTextarea),
		c.renderProblems(),
	)
}

// renderTextarea is the editor without CodeMirror: a textarea that grows
// with its text inside a scrolling box.
func (c *Editor) renderTextarea() app.UI {
	lines := strings.Count(c.Source, "\n") + 1
	return app.Div().Class("editor-scroll").Body(
		app.Textarea().ID("editor").DataSet("testid", "editor").Class("code").Spellcheck(false).
			Wrap("off").Rows(lines+1).Aria("label", "Scenario YAML").Title(c.failure).
			Text(c.Source).
			OnInput(func(ctx app.Context, e app.Event) {
				if c.do.edit != nil {
					c.edited(ctx, ctx.JSSrc().Get("value").String(), false)
				}
			}).
			OnKeyDown(func(ctx app.Context, e app.Event) {
				if e.Get("key").String() == "Enter" && (e.Get("ctrlKey").Bool() || e.Get("metaKey").Bool()) && c.do.edit != nil {
					e.PreventDefault()
					c.edited(ctx, ctx.JSSrc().Get("value").String(), false)
					c.do.apply(ctx)
				}
			}),
	)
}

// problemsHeading counts errors and warnings apart: "2 errors · 1
// warning", "No problems".
func problemsHeading(ds []scenario.Diagnostic) string {
	errs, warns := 0, 0
	for _, d := range ds {
		if d.Severity == scenario.Error {
			errs++
		} else {
			warns++
		}
	}
	var parts []string
	if errs > 0 {
		parts = append(parts, plural(errs, "error"))
	}
	if warns > 0 {
		parts = append(parts, plural(warns, "warning"))
	}
	if len(parts) == 0 {
		return "No problems"
	}
	return strings.Join(parts, " · ")
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// sortedProblems lists errors before warnings, each in line order.
func sortedProblems(ds []scenario.Diagnostic) []scenario.Diagnostic {
	out := slices.Clone(ds)
	rank := func(d scenario.Diagnostic) int {
		if d.Severity == scenario.Error {
			return 0
		}
		return 1
	}
	order.SortStableFunc(out, func(a, b scenario.Diagnostic) int {
		if r := rank(a) - rank(b); r != 0 {
			return r
		}
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		return a.Column - b.Column
	})
	return out
}

// renderProblems lists errors and warnings; clicking one scrolls the
// editor to its line and selects it.
func (c *Editor) renderProblems() app.UI {
	ds := sortedProblems(c.Problems)
	return app.Div().Class("problems").DataSet("testid", "problems").Role("region").Aria("label", "Problems").Body(
		app.If(c.Refused, func() app.UI {
			return app.P().Class("refused").Text("The edit was not applied: the previous scenario keeps running. Fix the errors below and apply again.")
		}),
		app.If(!c.Refused && c.Dirty, func() app.UI {
			return app.P().Class("dirty").Text("Edited — apply to run it.")
		}),
		app.H3().Text(problemsHeading(ds)),
		app.Ul().Body(
			app.Range(ds).Slice(func(i int) app.UI {
				d := ds[i]
				item := app.Li().Class(string(d.Severity))
				if d.Line <= 0 {
					return item.Text(d.String())
				}
				return item.Body(
					app.Button().Class("link").Title("Show line "+strconv.Itoa(d.Line)+" in the editor").Text(d.String()).DataSet("line", d.Line).
						OnClick(func(ctx app.Context, e app.Event) {
							// The line is read from the element clicked, not from
							// what it showed when this handler was made.
							if line, err := strconv.Atoi(dataOf(ctx, "line")); err == nil && line > 0 {
								c.reveal(line)
							}
						}),
				)
			}),
		),
	)
}

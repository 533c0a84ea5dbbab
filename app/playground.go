package app

import (
	"context"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/stateflow/stateflow/app/model"
	"github.com/stateflow/stateflow/app/share"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/examples"
	"github.com/stateflow/stateflow/scenario"
)

// storageKey is where the editor's content is kept between visits.
const storageKey = "stateflow.editor"

// Speeds are the autoplay speeds offered, in steps per second.
var Speeds = []int{1, 2, 5, 10, 30, 60}

// DefaultSpeed lets a learner read each step's caption before the next.
const DefaultSpeed = 1

// Playground is the full page: the page's state (page) laid out on a
// desktop as three columns and on a phone as one pane under a tab bar.
type Playground struct {
	app.Compo
	*page
}

// page is the playground's state and what it does, shared by the full
// page (Playground) and the embed (Embed), which lay it out: the
// view-model and the presentation state, and the handlers it gives its
// components. It is no component: the components it builds receive the
// data they render and the handlers they call, never the page.
type page struct {
	m       *model.Model
	bridge  bridge
	example string
	// exampleNames is the examples menu, read once (examples.All reads
	// and sorts the embedded files), and lessons the lessons menu.
	exampleNames []string
	largeNames   []string
	lessons      []lessonEntry
	lessonItems  []lessonItem
	// side is what the left column shows on a wide screen while a lesson
	// is open: "lesson" (the player) or "scenario" (the editor).
	side string

	tab           string // the details panel shown: log, inspector, events, console
	wide          bool   // the console takes the diagram's room too
	view          string // on a phone, the one pane shown: lesson, scenario, flow, details
	filter        model.LogFilter
	everyTick     bool // the log and Step show every tick, not the story
	eventSelector string
	playing       bool
	speed         int
	cancelPlay    context.CancelFunc
	running       bool // a run until settled is going on, in slices
	pendingSeek   int  // a shared link's tick, reached in slices once mounted
	run           runState
	removeKeys    func()

	banner          string // a problem to show at the top (a broken link…)
	shareLink       string
	shareNotice     string
	storageNotice   string
	updateAvailable bool
	loaded          bool

	// renders counts the renders of the page, the diagram and the log:
	// the components' tests check what re-renders them.
	renders struct{ page, flow, log int }
}

// NewPlayground returns the page with the visitor's scenario loaded
// (restore: a shared link, else the editor content kept from the last
// visit, else the default example, which the prerendered page shows),
// before its first render: the page parses, runs and draws only the
// scenario it shows.
func NewPlayground() *Playground {
	p := newPlayground(newBridge())
	p.restore()
	return p
}

// newPlayground is the full page over a new page state.
func newPlayground(b bridge) *Playground { return &Playground{page: newPage(b)} }

// newPage is the page's state with a model that runs nothing yet: the
// first scenario it applies is the first simulation.
func newPage(b bridge) *page {
	p := &page{bridge: b, tab: "log", view: "flow", side: "scenario", speed: DefaultSpeed}
	for _, ex := range examples.All() {
		p.exampleNames = append(p.exampleNames, ex.Name)
	}
	p.largeNames = examples.LargeNames()
	p.lessons = lessonEntries()
	p.lessonItems = menuItems(p.lessons)
	p.m = model.Empty(scenario.Options{TimeZones: b.TimeZones()})
	return p
}

func (p *page) load(name string) bool {
	ex, ok := examples.Get(name)
	if !ok {
		return false
	}
	if !p.m.Apply(ex.Source) {
		if !p.m.Running() {
			p.banner = "The default example does not load: " + p.m.ProblemsText()
		}
		return false
	}
	p.example = name
	return true
}

// OnMount reaches the tick of a link that asks for a far one, resolves
// the lesson open at the learner's step, and listens to the keyboard.
func (p *Playground) OnMount(ctx app.Context) {
	if p.bridge == nil {
		p.bridge = newBridge()
	}
	p.start(ctx)
	ctx.Dispatch(func(ctx app.Context) { p.loaded = true })
}

// start, once the page is mounted, reaches a link's far tick, resolves
// the lesson open at the learner's step and listens to the keyboard.
func (p *page) start(ctx app.Context) {
	if p.pendingSeek > 0 {
		p.startRun(ctx, runState{seek: true, target: p.pendingSeek})
		p.pendingSeek = 0
	}
	p.resolveLesson(ctx)
	p.listenKeys(ctx)
}

// listenKeys makes the keyboard shortcuts work (the embed's too, whose
// ctx is its own).
func (p *page) listenKeys(ctx app.Context) {
	remove, err := p.bridge.OnKey(func(key string) bool {
		handled := false
		ctx.Dispatch(func(ctx app.Context) { p.key(ctx, key) })
		switch key {
		case " ", "ArrowLeft", "ArrowRight", "Home":
			handled = true
		}
		return handled
	})
	if err == nil {
		p.removeKeys = remove
	}
}

// OnDismount stops autoplay, a run and the keyboard listener.
func (p *Playground) OnDismount() { p.stop() }

// stop stops autoplay, a run and the keyboard listener.
func (p *page) stop() {
	p.stopPlay()
	if p.removeKeys != nil {
		p.removeKeys()
	}
}

// OnAppUpdate offers a reload when a new version has been deployed.
func (p *Playground) OnAppUpdate(ctx app.Context) { p.updateAvailable = ctx.AppUpdateAvailable() }

// linkSyncTicks is how far a shared link's tick is reached before the page
// first renders; a later tick is reached in slices, as a run is, so a link
// can never freeze the page.
const linkSyncTicks = 2000

// seekLink goes to a shared link's tick, at most model.MaxRunTicks.
func (p *page) seekLink(tick int) {
	if tick > model.MaxRunTicks {
		p.banner = "This link asks for tick " + itoa(tick) + "; a link opens at most at tick " + itoa(model.MaxRunTicks) + ", so it opens there."
		tick = model.MaxRunTicks
	}
	if tick <= linkSyncTicks {
		p.m.Seek(tick)
		return
	}
	p.pendingSeek = tick
}

// restore opens the visitor's scenario: a shared link first, then the
// editor content kept from the last visit, else the default example; and
// the lesson the learner was in.
func (p *page) restore() {
	defer p.ensureRunning()
	if kept, ok, err := p.bridge.StorageGet(lessonsKey); err == nil && ok {
		p.m.RestoreProgress(kept)
	}
	if frag := p.bridge.Fragment(); frag != "" && frag != "#" {
		st, err := share.Decode(frag)
		switch {
		case err == share.ErrNoState:
		case err != nil:
			p.banner = "This link could not be opened: " + err.Error() + " The default example is shown instead."
			p.load(examples.Default)
			return
		case !p.open(st.Scenario):
			p.banner = "The shared scenario has errors (see Problems); the default example runs instead. Your link's text is in the editor."
			return
		default:
			p.everyTick = st.EveryTick
			p.seekLink(st.Tick)
			if st.Lesson > 0 && p.m.StartLesson(st.Lesson-1) {
				// The link's tick stands: the step leaves it where it is.
				p.m.KeepTick()
				p.side, p.view, p.tab = "lesson", "lesson", "inspector"
				p.saveProgress()
			}
			p.save()
			return
		}
	}
	saved, ok, err := p.bridge.StorageGet(storageKey)
	if err != nil {
		p.storageNotice = "Your edits cannot be kept between visits: " + err.Error() + "."
		return
	}
	if ok && strings.TrimSpace(saved) != "" && saved != p.m.Applied {
		p.open(saved)
	}
	p.ensureRunning()
	if p.m.ResumeLesson() {
		p.side, p.view, p.tab = "lesson", "lesson", "inspector"
	}
}

// open runs source, naming the example it is, if any. Refused, it
// leaves the simulation running as any refused apply does (the editor
// keeps the text, Problems say why); when nothing ran yet, that is the
// default example's. It reports whether source runs.
func (p *page) open(source string) bool {
	if !p.m.Apply(source) {
		if !p.m.Running() {
			p.load(examples.Default)
			p.m.Apply(source) // refused again: the editor and Problems are the source's
		}
		return false
	}
	p.example = examples.NameOf(source)
	return true
}

// ensureRunning runs the default example when no scenario runs yet.
func (p *page) ensureRunning() {
	if !p.m.Running() {
		p.load(examples.Default)
	}
}

// save keeps the editor's content for the next visit.
func (p *page) save() {
	if err := p.bridge.StorageSet(storageKey, p.m.Source); err != nil && p.storageNotice == "" {
		p.storageNotice = "Your edits cannot be kept between visits: " + err.Error() + "."
	}
}

func (p *page) key(ctx app.Context, key string) {
	switch key {
	case " ":
		p.togglePlay(ctx)
	case "ArrowRight":
		p.step()
	case "ArrowLeft":
		p.stepBack(ctx)
	case "Home":
		p.seekTo(ctx, 0)
	}
}

func (p *page) togglePlay(ctx app.Context) {
	if p.playing {
		p.stopPlay()
		return
	}
	p.stopPlay() // a run until settled in progress
	p.playing = true
	run, cancel := context.WithCancel(context.Background())
	p.cancelPlay = cancel
	interval := time.Second / time.Duration(max(p.speed, 1))
	ctx.Async(func() {
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-run.Done():
				return
			case <-t.C:
				ctx.Dispatch(func(ctx app.Context) {
					if p.playing && !p.advance() {
						p.stopPlay()
					}
				})
			}
		}
	})
}

// stopPlay stops autoplay and a run until settled: every control that
// moves time calls it first.
func (p *page) stopPlay() {
	p.playing = false
	if p.cancelPlay != nil {
		p.cancelPlay()
		p.cancelPlay = nil
	}
	if p.running {
		p.run.cancel()
		p.running, p.run = false, runState{}
		p.m.StopRun()
	}
}

// step takes one step as the view says: in the story, to the next tick
// that changes something; with every tick shown, one tick.
func (p *page) step() {
	p.stopPlay()
	p.advance()
}

// advance is one step of Step or autoplay; it reports false when nothing
// is left to do.
func (p *page) advance() bool {
	if p.everyTick {
		return p.m.Step()
	}
	return p.m.StepVisible()
}

// setEveryTick switches between the story and every tick.
func (p *page) setEveryTick(every bool) { p.everyTick = every }

// runCommand runs a kubectl command typed in the console.
func (p *page) runCommand(command string) { p.m.Run(command) }

// setFilter narrows the tick log.
func (p *page) setFilter(f model.LogFilter) { p.filter = f }

// setEventSelector narrows the Events panel.
func (p *page) setEventSelector(s string) { p.eventSelector = s }

// toggleWide gives the console the diagram's room, or gives it back.
func (p *page) toggleWide() { p.wide = !p.wide }

// askWhy answers "why?" about a field of the inspected object; the
// diagram numbers the objects of its chain.
func (p *page) askWhy(ctx app.Context, field string) { p.m.AskWhy(field) }

// askWhyTick answers why the current tick did what its caption says, in
// the inspector, with the object it wrote.
func (p *page) askWhyTick(ctx app.Context) {
	p.m.AskWhyTick()
	p.tab, p.view = "inspector", "details"
}

// closeWhy closes the answer.
func (p *page) closeWhy(ctx app.Context) { p.m.CloseWhy() }

// inspect shows an object in the inspector (on a phone, the details pane).
func (p *page) inspect(k api.Key) {
	p.m.Select(k)
	p.tab, p.view = "inspector", "details"
}

func (p *page) setSpeed(ctx app.Context, speed int) {
	p.speed = speed
	if p.playing {
		p.stopPlay()
		p.togglePlay(ctx)
	}
}

// apply runs the editor's text. A lesson open follows it: the same
// lesson again (at its step, on the new simulation), or closed.
func (p *page) apply(ctx app.Context) {
	p.stopPlay()
	if p.m.Apply(p.m.Source) {
		p.example = examples.NameOf(p.m.Source)
		p.saveProgress()
		p.resolveLesson(ctx)
	}
	p.save()
}

func (p *page) chooseExample(name string) {
	p.stopPlay()
	if p.load(name) {
		p.save()
		p.saveProgress() // the lesson open, if any, is closed
	}
}

func (p *page) shareScenario(ctx app.Context) {
	frag := share.EncodeState(share.State{Scenario: p.m.Applied, Tick: p.m.Status().Tick, EveryTick: p.everyTick, Lesson: p.m.LessonStep() + 1})
	if err := p.bridge.ReplaceFragment(frag); err != nil {
		p.shareNotice = "The address bar could not be updated: " + err.Error()
	}
	link := p.bridge.Href()
	p.shareLink = link
	p.shareNotice = "Copying the link…"
	opens := "it opens this scenario at tick " + itoa(p.m.Status().Tick)
	if step := p.m.LessonStep(); step >= 0 {
		opens = "it opens this lesson at step " + itoa(step+1) + ", tick " + itoa(p.m.Status().Tick)
	}
	ctx.Async(func() {
		err := p.bridge.CopyText(link)
		ctx.Dispatch(func(ctx app.Context) {
			if err != nil {
				p.shareNotice = "The clipboard is not available (" + err.Error() + "): copy the link below; " + opens + "."
				return
			}
			p.shareNotice = "Link copied: " + opens + "."
		})
	})
}

// Render lays out the page: header, editor, stage (controls and diagram)
// and the details panels; on a phone, one of them under a tab bar. It
// builds only the components and passes each its inputs: go-app renders
// a component again only when one of its inputs changed.
func (p *Playground) Render() app.UI {
	p.renders.page++
	rev := p.m.Rev()
	desc := ""
	if sc := p.m.Scenario(); sc != nil {
		desc = sc.Description
	}
	// data-renders changes at every update of the page (every handler's
	// dispatch updates it): browser tests wait for it after a click.
	lv, open := p.m.Lesson()
	view, side := p.view, p.side
	if !open {
		side = "scenario"
		if view == "lesson" {
			view = "flow"
		}
	}
	page := app.Div().Class("page").DataSet("loaded", p.loaded).DataSet("renders", p.renders.page)
	if !p.loaded {
		// Until it has mounted (the page the server prerendered, while the
		// wasm loads), nothing takes the focus or typing that the mounted
		// page would not keep.
		page = page.Attr("inert", true)
	}
	return page.Body(
		p.header(desc),
		p.renderBanners(),
		app.Main().Class("workspace view-"+view+" side-"+side+choose(p.wide && p.tab == "console", " wide-console", "")).Body(
			app.If(open, func() app.UI { return p.lessonPanel() }),
			p.editor(),
			app.Section().Class("stage").Aria("label", "Simulation").Body(
				app.If(open, func() app.UI { return p.lessonStrip(lv) }),
				p.controls(),
				&Caption{C: p.m.Caption(p.everyTick), ID: "tick-caption", Quiet: p.playing || p.running, why: p.askWhyTick, bridge: p.bridge},
				p.flow(rev),
			),
			p.renderPanels(rev),
		),
		p.renderViews(view, open),
	)
}

// The components, each given only its own inputs: go-app renders one
// again only when an input differs from the last render.
func (p *page) header(desc string) *Header {
	lesson, own := p.lessonMenu()
	return &Header{Example: p.example, Description: desc, Examples: p.exampleNames, Large: p.largeNames, Lessons: p.lessonItems, Lesson: lesson, OwnLesson: own,
		do: headerActions{chooseExample: p.chooseExample, chooseLesson: p.chooseLesson, share: p.shareScenario}, bridge: p.bridge}
}

func (p *page) controls() *Controls {
	return &Controls{Status: p.m.Status(), Notice: p.m.Notice, Playing: p.playing, Running: p.running, Speed: p.speed, Story: !p.everyTick,
		do: controlsActions{stepBack: p.stepBack, togglePlay: p.togglePlay, toggleRun: p.toggleRun, step: p.step,
			seekTo: p.seekTo, setSpeed: p.setSpeed, setEveryTick: p.setEveryTick, stepTo: p.stepTo}}
}

func (p *page) flow(rev model.Rev) *Flow {
	return &Flow{Rev: rev, Selected: p.m.Selected, Marks: p.m.LessonMarks(), Why: whyAsked(p.m.Why()),
		layout: p.m, inspect: p.inspect, bridge: p.bridge, rendered: &p.renders.flow}
}

func (p *page) log(rev model.Rev) *Log {
	return &Log{Rev: rev, Filter: p.filter, Every: p.everyTick, Shown: p.tab == "log",
		story: p.m, do: logActions{filter: p.setFilter, seekTo: p.seekTo}, bridge: p.bridge, rendered: &p.renders.log}
}

func (p *page) inspector(rev model.Rev) *Inspector {
	return &Inspector{Rev: rev, Selected: p.m.Selected, Shown: p.tab == "inspector", Asked: whyAsked(p.m.Why()), objects: p.m, choose: p.m.Select,
		why: whyActions{ask: p.askWhy, seek: p.seekTo, close: p.closeWhy}, bridge: p.bridge}
}

func (p *page) events(rev model.Rev) *Events {
	return &Events{Rev: rev, Selector: p.eventSelector, Shown: p.tab == "events", events: p.m, setSelector: p.setEventSelector}
}

func (p *page) console() *Console {
	return &Console{Entries: p.m.Console.Entries, Namespace: p.m.Namespace(), Wide: p.wide, bridge: p.bridge,
		do: consoleActions{run: p.runCommand, previous: p.m.Console.Previous, next: p.m.Console.Next, toggleWide: p.toggleWide}}
}

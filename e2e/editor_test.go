package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// The editor is CodeMirror (web/codemirror.js). These tests check what a
// visitor checks: line numbers that stay with the text, a problem that
// shows its line, lint marks on the right lines, undo, search, the apply
// shortcut, and the .value contract other tools rely on.

// openEditor opens the playground and waits for CodeMirror to replace the
// prerendered textarea.
func openEditor(t *testing.T) *tab {
	t.Helper()
	tb := newTab(t)
	tb.open(shared.url)
	tb.waitFor(`document.querySelector('.cm-editor[data-testid=editor] .cm-content')`, "CodeMirror to start")
	if n := eval[int](tb, `document.querySelectorAll('[data-testid=editor]').length`); n != 1 {
		t.Fatalf("%d elements answer to data-testid=editor", n)
	}
	return tb
}

// keys types keys (kb names for special keys) into the focused element,
// with modifiers, as a keyboard does.
func (tb *tab) keys(keys string, mods ...chromedp.Modifier) {
	tb.t.Helper()
	if err := chromedp.Do(tb.ctx, chromedp.KeyEvent(keys, chromedp.KeyModifiers(mods...))); err != nil {
		tb.t.Fatalf("keys %q: %v", keys, err)
	}
	tb.settle()
}

// clickAt clicks with the mouse in the middle of the element js selects.
func (tb *tab) clickAt(elem string) {
	tb.t.Helper()
	xy := eval[[]float64](tb, `(() => { const r = (`+elem+`).getBoundingClientRect(); return [r.left + Math.min(r.width / 2, 40), r.top + r.height / 2] })()`)
	if err := chromedp.Do(tb.ctx, chromedp.MouseClickXY(xy[0], xy[1])); err != nil {
		tb.t.Fatalf("click: %v", err)
	}
	tb.settle()
}

// focusEditor puts the keyboard focus in the editor's text.
func (tb *tab) focusEditor() {
	tb.t.Helper()
	eval[bool](tb, `document.querySelector('.cm-content').focus(), true`)
}

// paste pastes text over the editor's selection, as Ctrl+V does.
func (tb *tab) paste(text string) {
	tb.t.Helper()
	eval[bool](tb, `(() => { const dt = new DataTransfer(); dt.setData('text/plain', `+js(text)+`);
		document.querySelector('.cm-content').dispatchEvent(new ClipboardEvent('paste', {clipboardData: dt, bubbles: true, cancelable: true})); return true })()`)
	tb.settle()
}

// caretLine is the 1-based line of the start of the editor's selection.
func (tb *tab) caretLine() int {
	tb.t.Helper()
	return eval[int](tb, `(() => { const e = `+sel("editor")+`; return e.value.slice(0, e.selectionStart).split('\n').length })()`)
}

// gutterJS finds the line-number element showing n.
func gutterJS(n int) string {
	return fmt.Sprintf(`[...document.querySelectorAll('.cm-lineNumbers .cm-gutterElement')].find(e => e.textContent.trim() === '%d')`, n)
}

// activeLine reports the active line's number in the gutter, and whether
// that number sits level with the highlighted text line (within a pixel)
// and inside the visible part of the editor.
func (tb *tab) activeLine() (number string, level, visible bool) {
	tb.t.Helper()
	got := eval[[]any](tb, `(() => {
		const g = document.querySelector('.cm-activeLineGutter'), l = document.querySelector('.cm-activeLine');
		if (!g || !l) return ['', false, false];
		const gr = g.getBoundingClientRect(), lr = l.getBoundingClientRect(), sr = document.querySelector('.cm-scroller').getBoundingClientRect();
		return [g.textContent.trim(), Math.abs(gr.top - lr.top) <= 1, lr.top >= sr.top - 1 && lr.bottom <= sr.bottom + 1];
	})()`)
	return got[0].(string), got[1].(bool), got[2].(bool)
}

// savedText is what the Go side kept of the editor (it saves every edit).
func (tb *tab) savedText() string {
	tb.t.Helper()
	return eval[string](tb, `localStorage.getItem('stateflow.editor') || ''`)
}

// After pasting 80 lines and scrolling to the end, the line numbers stay
// with the text: the active line's number is the caret's line and sits
// level with it, after a click on the last visible line and after Ctrl+End.
func TestEditorLineNumbersFollowTheText(t *testing.T) {
	tb := openEditor(t)
	var b strings.Builder
	for i := 1; i <= 80; i++ {
		fmt.Fprintf(&b, "# pasted line %d\n", i)
	}
	b.WriteString("kind: Namespace") // line 81, no newline after it
	text := b.String()
	tb.focusEditor()
	tb.keys("a", chromedp.ModifierCtrl)
	tb.paste(text)
	if got := eval[string](tb, sel("editor")+".value"); got != text {
		t.Fatalf("after the paste the editor holds %.80q…", got)
	}
	if !tb.poll(`localStorage.getItem('stateflow.editor') === ` + js(text)) {
		t.Fatal("the pasted text did not reach the page")
	}

	eval[bool](tb, `(() => { const s = document.querySelector('.cm-scroller'); s.scrollTop = s.scrollHeight; return true })()`)
	tb.settle()
	tb.settle()
	lastVisible := `(() => { const sr = document.querySelector('.cm-scroller').getBoundingClientRect();
		return [...document.querySelectorAll('.cm-line')].filter(l => { const r = l.getBoundingClientRect(); return r.top >= sr.top && r.bottom <= sr.bottom }).pop() })()`
	if shown := eval[string](tb, lastVisible+".textContent"); shown != "kind: Namespace" {
		t.Fatalf("scrolled to the end, the last visible line is %q", shown)
	}
	tb.clickAt(lastVisible)
	if line := tb.caretLine(); line != 81 {
		t.Fatalf("clicked the last line, the caret is on line %d", line)
	}
	if n, level, visible := tb.activeLine(); n != "81" || !level || !visible {
		t.Errorf("caret on line 81: the gutter's active line is %q (level with the text: %v, visible: %v)", n, level, visible)
	}
	// Back to the top, then Ctrl+End: the end is scrolled into view with
	// its number.
	tb.keys(kb.Home, chromedp.ModifierCtrl)
	if n, level, visible := tb.activeLine(); n != "1" || !level || !visible {
		t.Errorf("after Ctrl+Home the gutter's active line is %q (level %v, visible %v)", n, level, visible)
	}
	tb.keys(kb.End, chromedp.ModifierCtrl)
	if line := tb.caretLine(); line != 81 {
		t.Fatalf("after Ctrl+End the caret is on line %d", line)
	}
	if n, level, visible := tb.activeLine(); n != "81" || !level || !visible {
		t.Errorf("after Ctrl+End the gutter's active line is %q (level %v, visible %v)", n, level, visible)
	}
	// Every visible number sits level with its text line.
	drift := eval[int](tb, `(() => {
		const lines = [...document.querySelectorAll('.cm-line')].map(l => l.getBoundingClientRect().top);
		const nums = [...document.querySelectorAll('.cm-lineNumbers .cm-gutterElement')].filter(g => g.textContent.trim() !== '' && g.getBoundingClientRect().height > 0);
		return nums.filter(g => !lines.some(t => Math.abs(t - g.getBoundingClientRect().top) <= 1)).length })()`)
	if drift != 0 {
		t.Errorf("%d line numbers are not level with a text line", drift)
	}
}

// A click on a problem scrolls its line into view, selects the whole line
// and focuses the editor; errors and warnings are marked on their lines.
func TestEditorProblemRevealsItsLine(t *testing.T) {
	tb := openEditor(t)
	tb.chooseExample("codartium-api")
	src := eval[string](tb, sel("editor")+".value")
	pad := strings.Repeat("# padding\n", 60) // the problems move 60 lines down, out of view
	const errLine = 82
	// A warning alone (an error hides the warnings of the same apply): a
	// real field Stateflow does not simulate (a field Kubernetes does not
	// have would be an error).
	warned := pad + strings.Replace(src, "      containers:\n", "      hostNetwork: true\n      containers:\n", 1)
	warnLine := 1 + strings.Count(warned[:strings.Index(warned, "      hostNetwork: true")], "\n")
	tb.setValue("editor", warned)
	tb.click("apply")
	if problems := tb.text("problems"); !strings.Contains(problems, fmt.Sprintf("line %d:7: not simulated, so ignored: hostNetwork", warnLine)) || !strings.Contains(problems, "1 warning") {
		t.Fatalf("problems: %q", problems)
	}
	tb.clickAt(`document.querySelector('.problems li.warning button')`)
	tb.checkMark(warnLine, "warning")
	// Then an error.
	edited := pad + strings.Replace(src, "  replicas: 3\n", "  replicas: -3\n", 1)
	tb.setValue("editor", edited)
	tb.click("apply")
	if problems := tb.text("problems"); !strings.Contains(problems, fmt.Sprintf("line %d:13: spec.replicas", errLine)) || !strings.Contains(problems, "1 error") {
		t.Fatalf("problems: %q", problems)
	}
	eval[bool](tb, `(() => { document.querySelector('.cm-scroller').scrollTop = 0; return true })()`)
	tb.settle()
	tb.settle()
	visible := func(n int) bool {
		return eval[bool](tb, `(() => { const g = `+gutterJS(n)+`; if (!g) return false; const r = g.getBoundingClientRect(), s = document.querySelector('.cm-scroller').getBoundingClientRect(); return r.height > 0 && r.top >= s.top - 1 && r.bottom <= s.bottom + 1 })()`)
	}
	if visible(errLine) {
		t.Fatalf("line %d is visible before the click: make the padding longer", errLine)
	}
	tb.clickAt(`document.querySelector('.problems li.error button')`)
	if !tb.poll(`document.activeElement && document.activeElement.classList.contains('cm-content')`) {
		t.Error("the editor has the focus after the click")
	}
	if !visible(errLine) {
		t.Errorf("line %d is not scrolled into view", errLine)
	}
	lines := strings.Split(edited, "\n")
	got := eval[[]any](tb, `(() => { const e = `+sel("editor")+`; return [e.value.slice(0, e.selectionStart).split('\n').length, e.value.slice(e.selectionStart, e.selectionEnd)] })()`)
	if int(got[0].(float64)) != errLine || got[1].(string) != lines[errLine-1] {
		t.Errorf("selection starts on line %v and holds %q, want the whole of line %d %q", got[0], got[1], errLine, lines[errLine-1])
	}
	if n, level, vis := tb.activeLine(); n != fmt.Sprint(errLine) || !level || !vis {
		t.Errorf("the gutter's active line is %q (level %v, visible %v), want %d", n, level, vis, errLine)
	}
	tb.checkMark(errLine, "error")
	// Editing above the problems moves their marks with their lines.
	tb.focusEditor()
	tb.keys(kb.Home, chromedp.ModifierCtrl)
	tb.paste("\n")
	if marked := eval[string](tb, `[...document.querySelectorAll('.cm-lineNumbers .cm-ln-error')].map(e => e.textContent.trim()).join(',')`); marked != fmt.Sprint(errLine+1) {
		t.Errorf("after a new line at the top the error mark is on line %q, want %d", marked, errLine+1)
	}
}

// checkMark checks that line n, scrolled into view, is marked with a
// problem of kind (error, warning) in the line numbers, in the lint gutter
// and by an underline, and no other line is.
func (tb *tab) checkMark(n int, kind string) {
	tb.t.Helper()
	marked := eval[string](tb, `[...document.querySelectorAll('.cm-lineNumbers .cm-ln-`+kind+`')].map(e => e.textContent.trim()).join(',')`)
	if marked != fmt.Sprint(n) {
		tb.t.Errorf("%s marked on line numbers %q, want %d", kind, marked, n)
	}
	level := `(() => { const g = ` + gutterJS(n) + `.getBoundingClientRect().top;
		const m = [...document.querySelectorAll('%s')].map(e => e.getBoundingClientRect().top);
		return m.length >= 1 && m.every(t => Math.abs(t - g) <= 4) })()`
	if !eval[bool](tb, fmt.Sprintf(level, ".cm-lint-marker-"+kind)) {
		tb.t.Errorf("the lint gutter's %s marker is not on line %d", kind, n)
	}
	if !eval[bool](tb, fmt.Sprintf(level, ".cm-lintRange-"+kind)) {
		tb.t.Errorf("the %s underline is not on line %d", kind, n)
	}
}

// Undo restores the previous text (and the page sees it), search opens
// on Ctrl+F, Ctrl+Enter applies.
func TestEditorUndoSearchAndApplyKey(t *testing.T) {
	tb := openEditor(t)
	tb.chooseExample("codartium-api")
	before := eval[string](tb, sel("editor")+".value")
	tb.focusEditor()
	tb.keys(kb.End, chromedp.ModifierCtrl)
	tb.keys("# typed note")
	if got := eval[string](tb, sel("editor")+".value"); got != before+"# typed note" {
		t.Fatalf("typing: the editor ends with %q", got[max(0, len(got)-40):])
	}
	if !tb.poll(`localStorage.getItem('stateflow.editor').endsWith('# typed note')`) || !strings.Contains(tb.text("problems"), "Edited") {
		t.Fatal("the page did not see the typing")
	}
	tb.keys("z", chromedp.ModifierCtrl)
	if got := eval[string](tb, sel("editor")+".value"); got != before {
		t.Fatalf("Ctrl+Z left %q at the end", got[max(0, len(got)-40):])
	}
	if !tb.poll(`localStorage.getItem('stateflow.editor') === ` + js(before)) {
		t.Error("the page did not see the undo")
	}
	tb.keys("z", chromedp.ModifierCtrl, chromedp.ModifierShift)
	if got := eval[string](tb, sel("editor")+".value"); got != before+"# typed note" {
		t.Error("Ctrl+Shift+Z redoes")
	}

	// Keys typed in the editor are not the page's shortcuts (space plays,
	// arrows step).
	tb.keys(kb.Home, chromedp.ModifierCtrl)
	tb.keys(kb.ArrowRight)
	if tick, at := tb.tick(), eval[int](tb, sel("editor")+".selectionStart"); tick != "0" || at != 1 {
		t.Fatalf("ArrowRight in the editor: tick %s, caret at %d; want tick 0, caret at 1", tick, at)
	}
	tb.keys(" ")
	if playing := eval[string](tb, sel("play")+".getAttribute('aria-pressed')"); playing != "false" {
		t.Fatal("space in the editor started autoplay")
	}
	if got := eval[string](tb, sel("editor")+".value"); !strings.HasPrefix(got, before[:1]+" "+before[1:10]) {
		t.Fatalf("space in the editor: the text starts %q", got[:10])
	}
	tb.keys("z", chromedp.ModifierCtrl)

	tb.keys("f", chromedp.ModifierCtrl)
	if !tb.poll(`document.querySelector('.cm-search') && document.activeElement && document.activeElement.matches('.cm-search input[name=search]')`) {
		t.Fatal("Ctrl+F does not open the search field")
	}
	tb.keys("containerPort")
	tb.keys(kb.Enter)
	if got := eval[string](tb, `(() => { const e = `+sel("editor")+`; return e.value.slice(e.selectionStart, e.selectionEnd) })()`); got != "containerPort" {
		t.Errorf("searching selects %q", got)
	}
	tb.keys(kb.Escape)
	if eval[bool](tb, `!!document.querySelector('.cm-search')`) {
		t.Error("Escape closes the search")
	}

	tb.setValue("editor", strings.Replace(before, "  replicas: 3\n", "  replicas: 2\n", 1))
	for range 3 {
		tb.click("step")
	}
	if tb.tick() == "0" {
		t.Fatal("steps did not advance")
	}
	tb.focusEditor()
	tb.keys("\r", chromedp.ModifierCtrl)
	tb.waitFor(sel("tick")+".textContent.trim() === '0'", "Ctrl+Enter to apply")
	if got := eval[string](tb, sel("editor")+".value"); strings.Contains(got, "\n\n  replicas: 2") || !strings.Contains(got, "  replicas: 2\n") {
		t.Error("Ctrl+Enter must not insert a line")
	}
	if p := tb.text("problems"); strings.Contains(p, "Edited") {
		t.Errorf("after Ctrl+Enter the text runs, problems say %q", p)
	}
}

// Setting .value and dispatching input replaces the text; the page sees
// it exactly once; Apply runs it.
func TestEditorValueContract(t *testing.T) {
	tb := openEditor(t)
	tb.chooseExample("codartium-api")
	src := eval[string](tb, sel("editor")+".value")
	edited := strings.ReplaceAll(src, "codartium-api", "renamed-api")
	eval[bool](tb, `(() => { window.__saves = 0; const set = Storage.prototype.setItem;
		Storage.prototype.setItem = function (k, v) { if (k === 'stateflow.editor') window.__saves++; return set.call(this, k, v) }; return true })()`)
	tb.setValue("editor", edited)
	if got := eval[string](tb, sel("editor")+".value"); got != edited {
		t.Fatal("the value is not the text set")
	}
	if !eval[bool](tb, `document.querySelector('.cm-content').textContent.includes('name: renamed-api')`) {
		t.Error("the editor does not show the text set")
	}
	tb.settle()
	if n := eval[int](tb, `window.__saves`); n != 1 {
		t.Errorf("the page took the new text %d times, want once", n)
	}
	tb.click("apply")
	tb.waitFor(sel("tick")+".textContent.trim() === '0'", "the apply")
	tb.click("step") // tick 1 applies the manifest
	if !tb.poll(`document.querySelector('[data-testid=flow-node][data-kind=Deployment][data-name=renamed-api]')`) {
		t.Fatal("Apply did not run the text set through .value")
	}
}

// When CodeMirror's script does not run (blocked, broken), the editor is a
// plain textarea that still works: edits reach the page, Apply runs them,
// a problem puts the caret on its line.
func TestEditorWithoutCodeMirror(t *testing.T) {
	tb := newTab(t)
	// The bundle cannot define its global: as if the script were blocked.
	if _, err := chromedp.Call(tb.ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
		Source: `Object.defineProperty(window, 'stateflowEditor', {value: undefined, writable: false, configurable: false})`,
	}); err != nil {
		t.Fatal(err)
	}
	tb.open(shared.url)
	tb.settle()
	if !eval[bool](tb, `document.querySelectorAll('[data-testid=editor]').length === 1 && `+sel("editor")+`.tagName === 'TEXTAREA' && !document.querySelector('.cm-editor')`) {
		t.Fatal("without CodeMirror the editor is one textarea")
	}
	tb.chooseExample("codartium-api")
	src := eval[string](tb, sel("editor")+".value")
	tb.setValue("editor", strings.Replace(src, "replicas: 3", "replicas: -3", 1))
	if !tb.poll(`localStorage.getItem('stateflow.editor').includes('replicas: -3')`) {
		t.Fatal("the edit did not reach the page")
	}
	tb.click("apply")
	if p := tb.text("problems"); !strings.Contains(p, "line 22:13: spec.replicas") || !strings.Contains(p, "1 error") {
		t.Fatalf("problems: %q", p)
	}
	eval[bool](tb, `document.querySelector('.problems li.error button').click(), true`)
	tb.settle()
	if line := tb.caretLine(); line != 22 {
		t.Errorf("the problem put the caret on line %d, want 22", line)
	}
}

// The playground's scenario editor: CodeMirror 6 with YAML highlighting,
// line numbers, undo/redo, search, lint marks and a light and a dark theme
// that follow prefers-color-scheme. Bundled by esbuild into
// web/codemirror.js (make editor); the Go side (app/codemirror_js.go) talks
// to it through window.stateflowEditor only.

import { EditorState, Compartment, Annotation, StateField, StateEffect, RangeSet, Prec } from "@codemirror/state";
import {
  EditorView, keymap, lineNumbers, highlightActiveLine, highlightActiveLineGutter,
  drawSelection, highlightSpecialChars, dropCursor, GutterMarker, lineNumberMarkers,
} from "@codemirror/view";
import { history, historyKeymap, defaultKeymap, indentWithTab } from "@codemirror/commands";
import { search, searchKeymap, highlightSelectionMatches, searchPanelOpen } from "@codemirror/search";
import { lintGutter, setDiagnostics, lintKeymap } from "@codemirror/lint";
import { closeBrackets, closeBracketsKeymap } from "@codemirror/autocomplete";
import { indentOnInput, bracketMatching, syntaxHighlighting, HighlightStyle, indentUnit } from "@codemirror/language";
import { yaml } from "@codemirror/lang-yaml";
import { tags as t } from "@lezer/highlight";

// Colours: every text colour keeps WCAG AA contrast (4.5:1) against the
// content, gutter and active-line backgrounds of its theme.
const palettes = {
  light: {
    bg: "#ffffff", ink: "#17202b", gutterBg: "#f6f7f9", gutterInk: "#5b6675", border: "#d5dbe3",
    activeLine: "#eef2f8", activeGutter: "#e3e9f3", selection: "#d7e5fb", cursor: "#17202b",
    match: "#fff2a8", matchSelected: "#ffeb99",
    key: "#1f5fbf", string: "#176b3a", number: "#94480a", comment: "#5b6675", meta: "#6f36c0", label: "#8a4b00", invalid: "#b3261e",
    errorLine: "#f8d7d4", warningLine: "#f6e7b0", panel: "#f6f7f9",
  },
  dark: {
    bg: "#161d26", ink: "#e3e8ef", gutterBg: "#0f141a", gutterInk: "#9aa6b6", border: "#2b3644",
    activeLine: "#1d2632", activeGutter: "#222d3b", selection: "#233a55", cursor: "#e3e8ef",
    match: "#3e3410", matchSelected: "#433816",
    key: "#7ab4ff", string: "#6fd49a", number: "#f2a65a", comment: "#9aa6b6", meta: "#c4a2ff", label: "#f0b45b", invalid: "#ff8a7e",
    errorLine: "#5a2621", warningLine: "#4d4012", panel: "#0f141a",
  },
};

function theme(c, dark) {
  return EditorView.theme({
    "&": { color: c.ink, backgroundColor: c.bg, height: "100%", flex: "1 1 auto", minWidth: "0", fontSize: "12.5px" },
    "&.cm-focused": { outline: "2px solid " + c.key, outlineOffset: "-2px" },
    ".cm-scroller": { overflow: "auto", fontFamily: 'var(--code, "JetBrains Mono", "SFMono-Regular", Menlo, Consolas, monospace)', lineHeight: "18px" },
    ".cm-content": { caretColor: c.cursor },
    ".cm-cursor, .cm-dropCursor": { borderLeftColor: c.cursor },
    "&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, .cm-content ::selection": { backgroundColor: c.selection },
    ".cm-gutters": { backgroundColor: c.gutterBg, color: c.gutterInk, borderRight: "1px solid " + c.border },
    ".cm-lineNumbers .cm-gutterElement": { minWidth: "3ch", padding: "0 6px 0 4px" },
    ".cm-activeLine": { backgroundColor: c.activeLine },
    ".cm-activeLineGutter": { backgroundColor: c.activeGutter, color: c.ink, fontWeight: "600" },
    ".cm-gutterElement.cm-ln-error": { backgroundColor: c.errorLine, color: c.ink, fontWeight: "700" },
    ".cm-gutterElement.cm-ln-warning": { backgroundColor: c.warningLine, color: c.ink },
    ".cm-searchMatch": { backgroundColor: c.match, outline: "1px solid " + c.border },
    ".cm-searchMatch.cm-searchMatch-selected": { backgroundColor: c.matchSelected },
    ".cm-selectionMatch": { backgroundColor: c.match },
    "&.cm-focused .cm-matchingBracket": { backgroundColor: c.activeGutter, outline: "1px solid " + c.gutterInk },
    ".cm-panels": { backgroundColor: c.panel, color: c.ink },
    ".cm-panels.cm-panels-top": { borderBottom: "1px solid " + c.border },
    ".cm-panels.cm-panels-bottom": { borderTop: "1px solid " + c.border },
    ".cm-panel input, .cm-panel button, .cm-textfield, .cm-button": { color: c.ink },
    ".cm-textfield": { backgroundColor: c.bg, border: "1px solid " + c.border, fontSize: "12px" },
    ".cm-button": { backgroundImage: "none", backgroundColor: c.bg, border: "1px solid " + c.border, fontSize: "12px" },
    ".cm-panel.cm-search label": { fontSize: "12px" },
    ".cm-panel.cm-search [name=close]": { color: c.ink },
    ".cm-tooltip": { backgroundColor: c.panel, color: c.ink, border: "1px solid " + c.border },
    ".cm-diagnostic": { color: c.ink },
  }, { dark });
}

function highlight(c) {
  return HighlightStyle.define([
    { tag: [t.definition(t.propertyName), t.propertyName], color: c.key },
    { tag: [t.string, t.special(t.string), t.attributeValue], color: c.string },
    { tag: [t.number, t.bool, t.null, t.atom], color: c.number },
    { tag: [t.comment, t.lineComment], color: c.comment, fontStyle: "italic" },
    { tag: [t.meta, t.keyword, t.typeName], color: c.meta },
    { tag: t.labelName, color: c.label },
    { tag: t.invalid, color: c.invalid },
  ]);
}

const looks = {
  light: [theme(palettes.light, false), syntaxHighlighting(highlight(palettes.light))],
  dark: [theme(palettes.dark, true), syntaxHighlighting(highlight(palettes.dark))],
};

const darkQuery = typeof window.matchMedia === "function" ? window.matchMedia("(prefers-color-scheme: dark)") : null;
const currentLook = () => (darkQuery && darkQuery.matches ? looks.dark : looks.light);

// fromGo marks the transactions the Go side made (setText): they are not
// reported back through onChange.
const fromGo = Annotation.define();

// Line-number marks for the lines with problems, kept in step with edits.
class LineClass extends GutterMarker {
  constructor(cls) { super(); this.elementClass = cls; }
  eq(other) { return other.elementClass === this.elementClass; }
}
const errorMark = new LineClass("cm-ln-error");
const warningMark = new LineClass("cm-ln-warning");
const setLineMarks = StateEffect.define();
const lineMarks = StateField.define({
  create: () => RangeSet.empty,
  update(marks, tr) {
    marks = marks.map(tr.changes);
    for (const e of tr.effects) if (e.is(setLineMarks)) marks = e.value;
    return marks;
  },
  provide: (f) => lineNumberMarkers.from(f),
});

// diagnosticsFor turns the Go side's problems (1-based line and column,
// column 0 when unknown) into CodeMirror diagnostics and line marks.
function diagnosticsFor(doc, problems) {
  const out = [];
  const worst = new Map();
  for (const p of problems || []) {
    const n = Math.floor(Number(p.line));
    if (!(n >= 1)) continue;
    const line = doc.line(Math.min(n, doc.lines));
    const col = Math.floor(Number(p.column)) || 0;
    let from = line.from, to = line.to;
    if (col >= 1 && col - 1 <= line.length) {
      from = line.from + col - 1;
      const rest = line.text.slice(col - 1);
      const m = /^\S+/.exec(rest);
      to = m ? from + m[0].length : line.to;
    }
    if (to <= from && line.length > 0) { from = line.from; to = line.to; }
    const severity = p.severity === "error" ? "error" : "warning";
    out.push({ from, to, severity, message: String(p.message || ""), source: "stateflow" });
    if (severity === "error" || !worst.has(line.from)) worst.set(line.from, severity);
  }
  const marks = [...worst.entries()].sort((a, b) => a[0] - b[0])
    .map(([pos, s]) => (s === "error" ? errorMark : warningMark).range(pos));
  return { diagnostics: out, marks: RangeSet.of(marks) };
}

function create(parent, text, opts) {
  opts = opts || {};
  const onChange = typeof opts.onChange === "function" ? opts.onChange : () => {};
  const onApply = typeof opts.onApply === "function" ? opts.onApply : () => {};
  const look = new Compartment();
  const handle = { view: null, problems: [] };

  const extensions = () => [
    lineNumbers(),
    highlightActiveLineGutter(),
    highlightSpecialChars(),
    history(),
    drawSelection(),
    dropCursor(),
    EditorState.allowMultipleSelections.of(true),
    indentOnInput(),
    indentUnit.of("  "),
    EditorState.tabSize.of(2),
    bracketMatching(),
    closeBrackets(),
    highlightActiveLine(),
    highlightSelectionMatches(),
    search({ top: true }),
    lintGutter(),
    lineMarks,
    yaml(),
    look.of(currentLook()),
    Prec.highest(keymap.of([{ key: "Mod-Enter", preventDefault: true, run: (view) => { onApply(view.state.doc.toString()); return true; } }])),
    keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...searchKeymap, ...historyKeymap, ...lintKeymap, indentWithTab]),
    // tabindex makes the text's focusability explicit (axe's
    // scrollable-region-focusable does not count contenteditable).
    EditorView.contentAttributes.of({ "aria-label": "Scenario YAML", tabindex: "0", spellcheck: "false", autocorrect: "off", autocapitalize: "off" }),
    EditorView.editorAttributes.of({ "data-testid": "editor" }),
    EditorView.updateListener.of((u) => {
      // The search panel takes room at the top: keep the selection in view.
      if (searchPanelOpen(u.state) && !searchPanelOpen(u.startState)) {
        Promise.resolve().then(() => u.view.dispatch({ effects: EditorView.scrollIntoView(u.view.state.selection.main.head, { y: "nearest", yMargin: 20 }) }));
      }
      if (!u.docChanged || u.transactions.every((tr) => tr.annotation(fromGo))) return;
      onChange(u.state.doc.toString());
    }),
  ];
  const makeState = (doc) => EditorState.create({ doc, extensions: extensions() });

  const view = new EditorView({ state: makeState(String(text == null ? "" : text)), parent });
  handle.view = view;
  handle.makeState = makeState;
  handle.look = look;

  const onScheme = () => view.dispatch({ effects: look.reconfigure(currentLook()) });
  if (darkQuery) {
    if (darkQuery.addEventListener) darkQuery.addEventListener("change", onScheme);
    else if (darkQuery.addListener) darkQuery.addListener(onScheme);
  }
  handle.onScheme = onScheme;

  // The contract of docs/contracts.md: the element with data-testid="editor"
  // answers .value like a textarea. Setting it replaces the whole text as a
  // paste would (undoable, reported through onChange once, the caret at the
  // start); an input event dispatched after it needs nothing more.
  // selectionStart/End mirror the main selection.
  const root = view.dom;
  // Keys typed in the editor are the editor's: the page's shortcuts (space
  // plays, arrows step) listen on the document and must not see them, as
  // they do not see a textarea's.
  root.addEventListener("keydown", (e) => e.stopPropagation());
  Object.defineProperty(root, "value", {
    configurable: true,
    get: () => view.state.doc.toString(),
    set: (v) => {
      const next = String(v == null ? "" : v);
      if (next === view.state.doc.toString()) return;
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: next }, selection: { anchor: 0 }, userEvent: "input.paste" });
    },
  });
  Object.defineProperty(root, "selectionStart", { configurable: true, get: () => view.state.selection.main.from });
  Object.defineProperty(root, "selectionEnd", { configurable: true, get: () => view.state.selection.main.to });
  root.focus = () => view.focus();
  return handle;
}

function setText(handle, text) {
  const view = handle.view;
  const next = String(text == null ? "" : text);
  if (next === view.state.doc.toString()) return;
  // A text from outside (an example, a link) starts a fresh history.
  view.setState(handle.makeState(next));
  applyDiagnostics(handle);
}

function getText(handle) {
  return handle.view.state.doc.toString();
}

function applyDiagnostics(handle) {
  const view = handle.view;
  const { diagnostics, marks } = diagnosticsFor(view.state.doc, handle.problems);
  const spec = setDiagnostics(view.state, diagnostics);
  view.dispatch({ ...spec, effects: [].concat(spec.effects || [], setLineMarks.of(marks)), annotations: fromGo.of(true) });
}

function setProblems(handle, problems) {
  handle.problems = Array.isArray(problems) ? problems.slice() : [];
  applyDiagnostics(handle);
}

// revealLine scrolls a line into the middle of the view, selects it and
// focuses the editor.
function revealLine(handle, n) {
  const view = handle.view;
  const doc = view.state.doc;
  const line = doc.line(Math.max(1, Math.min(Math.floor(Number(n)) || 1, doc.lines)));
  view.dispatch({
    selection: { anchor: line.from, head: line.to },
    effects: EditorView.scrollIntoView(line.from, { y: "center" }),
    annotations: fromGo.of(true),
  });
  view.focus();
}

function destroy(handle) {
  if (darkQuery && handle.onScheme) {
    if (darkQuery.removeEventListener) darkQuery.removeEventListener("change", handle.onScheme);
    else if (darkQuery.removeListener) darkQuery.removeListener(handle.onScheme);
  }
  const root = handle.view.dom;
  handle.view.destroy();
  if (root.parentNode) root.parentNode.removeChild(root);
}

window.stateflowEditor = Object.freeze({ create, setText, getText, setDiagnostics: setProblems, revealLine, destroy });

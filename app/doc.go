// Package app is the Stateflow playground: go-app components that render
// the view-model of package model — Header (with the scenario's
// Description), Editor, LessonPanel (the lesson player), Controls, Caption,
// Flow, Log, Inspector, Events and Console, one per file, laid out by
// Playground
// (playground.go) on a desktop as three columns and on a phone as one
// pane under a tab bar; Embed (embed.go) lays out the same state as a
// compact player for someone else's <iframe> (?embed=1). Each component
// takes only its own inputs as exported fields (the model's Rev, the
// selection, the filter…), so go-app renders it again only when one of
// them changed: typing in the editor or
// the console renders neither the diagram nor the log. The components hold
// only presentation state (the diagram's pane size, zoom and opened
// groups, expanded folds, the console's input);
// every change of the simulation goes through the model. JavaScript that
// go-app does not cover (clipboard, storage, the URL fragment, keyboard
// shortcuts, scrolling, an element's size and overflow, downloading the
// time zone database) goes through one small bridge built on safejs, and
// the CodeMirror editor through its own (codemirror_js.go, and
// editorscript_js.go, which adds the editor's script to the page when the
// editor first mounts).
package app

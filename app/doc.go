// Package app is the Stateflow playground: go-app components that render
// the view-model of package model — Header (with the scenario's
// Description), Editor, LessonPanel (the lesson player), Controls, Caption,
// Flow, Log, Inspector, Events and Console, one per file. The page's
// state and handlers (page, playground.go) are laid out by Playground on
// a desktop as three columns and on a phone as one pane under a tab bar,
// and by Embed (embed.go) as a compact player for someone else's <iframe>
// (?embed=1).
//
// No component holds the page. Each takes the data it renders as
// exported fields (the status, the transcript, the selection, the
// filter, and the model's Rev where it reads the view-model through a
// narrow interface of its own: eventLister, inspectable, storyReader,
// flowLayout), so go-app renders it again only when one of them changed:
// typing in the editor or the console renders neither the diagram nor
// the log. What it asks of the page is a small struct of handlers in an
// unexported field (controlsActions, consoleActions, logActions…): go-app
// copies exported fields only, so a mounted component keeps the handlers
// the page gave it, method values of that page. The components hold only
// presentation state (the diagram's pane size, zoom and opened groups,
// expanded folds, the console's input); every change of the simulation
// goes through the page's handlers and the model. JavaScript that
// go-app does not cover (clipboard, storage, the URL fragment, keyboard
// shortcuts, scrolling, an element's size and overflow, downloading the
// time zone database) goes through one small bridge built on safejs, and
// the CodeMirror editor through its own (codemirror_js.go, and
// editorscript_js.go, which adds the editor's script to the page when the
// editor first mounts).
package app

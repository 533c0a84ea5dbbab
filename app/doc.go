// Package app is the Stateflow playground: go-app components that render
// the view-model of package model — the editor, the controls, the flow
// diagram, the tick log, the inspector, the events, the kubectl console and
// sharing. The components hold only presentation state; every change of
// the simulation goes through the model. JavaScript that go-app does not
// cover (clipboard, storage, the URL fragment, keyboard shortcuts) goes
// through one small bridge built on safejs.
package app

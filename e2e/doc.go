// Package e2e holds the playground's end-to-end tests: they build the
// WebAssembly binary and the static site, serve it on loopback and drive
// headless Chromium (Debian's chromium package) through the data-testid
// hooks of docs/contracts.md, as a visitor would.
package e2e

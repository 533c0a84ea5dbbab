// Package wasmbuild builds the playground's app.wasm the way the site
// ships it, measures what a visitor downloads (raw, gzip at its best
// level, brotli at quality 11) and says where the bytes go, package by
// package.
//
// Flags are the one place the build's compiler and linker flags live:
// make wasm, make build and the browser tests all build through Build,
// so what is measured is what is served. The size budget written in
// BENCHMARKS.md is read by ReadBudget and enforced by this package's
// test, so app.wasm can only grow by a change that raises the budget and
// says what it buys.
package wasmbuild

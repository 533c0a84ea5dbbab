// Command stateflow runs Stateflow scenarios from the command line, and
// serves or builds the playground:
//
//	stateflow run FILE [--until DURATION | --ticks N | --until-settled] [-o text|json]
//	stateflow kubectl FILE [--at DURATION | --tick N | --until-settled] -- ARGS...
//	stateflow why FILE TYPE/NAME FIELD [--at TICK] [-o text|json]
//	stateflow check FILE...
//	stateflow serve [--addr 127.0.0.1:8080] [--web web]
//	stateflow build --out DIR [--base /prefix] [--domain HOST] [--web web]
//	stateflow wasm [--out web/app.wasm] [--keep-names]
//	stateflow size [--top N]
//
// FILE may be "-" for standard input. Scenario warnings go to stderr as
// FILE:line:column: warning: message. Exit codes: 0 ok, 1 scenario or
// command error (message on stderr), 2 usage.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
)

const usage = `usage:
  stateflow run FILE [--until DURATION | --ticks N | --until-settled] [-o text|json]
  stateflow kubectl FILE [--at DURATION | --tick N | --until-settled] -- ARGS...
  stateflow why FILE TYPE/NAME FIELD [--at TICK] [-o text|json]
  stateflow check FILE...
  stateflow serve [--addr 127.0.0.1:8080] [--web web]
  stateflow build --out DIR [--base /prefix] [--domain HOST] [--web web]
  stateflow wasm [--out web/app.wasm] [--keep-names]
  stateflow size [--top N]

FILE is a scenario YAML file (run also takes - for standard input).
kubectl runs one kubectl command against the simulated cluster at that
moment (default: once it has settled) and prints what kubectl would.
why prints why an object's field has its value at tick TICK (default:
once settled): the writes and reads that made it, back to your action.
check runs each scenario and prints every claim of its header (# expect:
lines) and its lesson (claims:) that the simulation contradicts, as
FILE:line:column: claim: what it read; see docs/lessons.md, Claims.
wasm builds the playground's app.wasm as the site ships it; size prints
what it weighs and where its code goes, package by package.`

// exitError carries an exit code and a message for main to print.
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

func usageError(format string, args ...any) error {
	return &exitError{2, fmt.Sprintf(format, args...) + "\n" + usage}
}

func main() {
	err := run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	if err == nil {
		return
	}
	code := 1
	if ee := (*exitError)(nil); errors.As(err, &ee) {
		code = ee.code
	}
	if err.Error() != "" {
		fmt.Fprintln(os.Stderr, "error: "+err.Error())
	}
	os.Exit(code)
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return usageError("missing command")
	}
	switch args[0] {
	case "run":
		return runCommand(args[1:], stdin, stdout, stderr)
	case "kubectl":
		return kubectlCommand(args[1:], stdin, stdout, stderr)
	case "why":
		return whyCommand(args[1:], stdin, stdout, stderr)
	case "check":
		return checkCommand(args[1:], stdout, stderr)
	case "serve":
		return serveCommand(args[1:], stdout)
	case "build":
		return buildCommand(args[1:], stdout)
	case "wasm":
		return wasmCommand(args[1:], stdout)
	case "size":
		return sizeCommand(args[1:], stdout)
	case "help", "-h", "--help":
		fmt.Fprintln(stdout, usage)
		return nil
	}
	return usageError("unknown command %q", args[0])
}

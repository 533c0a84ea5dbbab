package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/trace"
	"github.com/stateflow/stateflow/scenario"
)

// readScenario reads FILE or standard input and parses it.
func readScenario(path string, stdin io.Reader) (*scenario.Scenario, error) {
	var src []byte
	var err error
	if path == "-" {
		src, err = io.ReadAll(io.LimitReader(stdin, scenario.MaxInputBytes+1))
	} else {
		src, err = os.ReadFile(path)
	}
	if err != nil {
		return nil, err
	}
	sc, err := scenario.Parse(src)
	if err != nil {
		var errs scenario.Errors
		if errors.As(err, &errs) {
			return nil, fmt.Errorf("%s:\n%s", path, prefixLines(path, errs))
		}
		return nil, err
	}
	return sc, nil
}

// printWarnings writes each warning of the scenario to stderr as
// "FILE:line:column: warning: message", as compilers do; stdout is left
// alone so pipes and goldens see only the command's output.
func printWarnings(stderr io.Writer, path string, sc *scenario.Scenario) {
	for _, d := range sc.Warnings {
		fmt.Fprintln(stderr, warningLine(path, d))
	}
}

func warningLine(path string, d scenario.Diagnostic) string {
	at := path
	switch {
	case d.Line > 0 && d.Column > 0:
		at += fmt.Sprintf(":%d:%d", d.Line, d.Column)
	case d.Line > 0:
		at += fmt.Sprintf(":%d", d.Line)
	}
	d.Line, d.Column = 0, 0 // String now renders only "path: message"
	return at + ": warning: " + d.String()
}

func prefixLines(path string, errs scenario.Errors) string {
	out := ""
	for i, d := range errs {
		if i > 0 {
			out += "\n"
		}
		out += "  " + path + ":" + trimLine(d.String())
	}
	return out
}

// trimLine turns "line 12:5: msg" into "12:5: msg" after the file name.
func trimLine(s string) string {
	if len(s) > 5 && s[:5] == "line " {
		return s[5:]
	}
	return " " + s
}

// when is where in time a command should stop: at a virtual time, after a
// number of ticks, or once the cluster has settled (the default).
type when struct {
	mode    string // "until", "ticks" or "settled"
	untilMS int64
	ticks   int
}

func parseWhen(f *flagSet) (when, error) {
	var w when
	n := 0
	if v, ok := f.values["until"]; ok {
		ms, err := scenario.ParseDuration(v)
		if err != nil {
			return w, usageError("--until: %v", err)
		}
		w.mode, w.untilMS, n = "until", ms, n+1
	}
	if v, ok := f.values["ticks"]; ok {
		t, err := strconv.Atoi(v)
		if err != nil || t < 0 {
			return w, usageError("--ticks: %q is not a number of ticks", v)
		}
		w.mode, w.ticks, n = "ticks", t, n+1
	}
	if f.has("until-settled") {
		w.mode, n = "settled", n+1
	}
	if n > 1 {
		return w, usageError("use only one of --until, --ticks and --until-settled")
	}
	if n == 0 {
		w.mode = "settled"
	}
	return w, nil
}

// advance runs e to the requested moment.
func advance(e *engine.Engine, w when) error {
	switch w.mode {
	case "until":
		e.RunUntil(w.untilMS)
	case "ticks":
		e.Seek(w.ticks)
	default:
		return e.RunUntilSettled(engine.SettleLimits{})
	}
	return nil
}

// settledAsOfLastChange goes back to the last tick that changed the
// cluster once it has settled, so "now" is when it settled and ages count
// from then, not from later work that changed nothing (the deployment
// controller's progress-deadline re-check at 601 s).
func settledAsOfLastChange(e *engine.Engine) {
	if tick, _ := e.LastChange(); e.Settled() && tick < e.Tick() {
		e.Seek(tick)
	}
}

func runCommand(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	f, err := parseFlags(args, []string{"until", "ticks", "o", "output"}, []string{"until-settled"})
	if err != nil {
		return err
	}
	if len(f.positional) != 1 {
		return usageError("run needs exactly one FILE")
	}
	w, err := parseWhen(f)
	if err != nil {
		return err
	}
	format := f.values["o"]
	if v, ok := f.values["output"]; ok {
		format = v
	}
	if format == "" {
		format = "text"
	}
	if format != "text" && format != "json" {
		return usageError("-o: unknown output format %q (text or json)", format)
	}
	sc, err := readScenario(f.positional[0], stdin)
	if err != nil {
		return err
	}
	printWarnings(stderr, f.positional[0], sc)
	cfg := sc.Config
	cfg.MaxTraceTicks = -1 // the printed trace is complete, however long
	cfg.KeepPodVersions = true
	e, err := engine.New(cfg)
	if err != nil {
		return err
	}
	runErr := advance(e, w)
	out := bufio.NewWriter(stdout)
	defer out.Flush()
	for _, t := range e.Trace() {
		if err := writeTick(out, t, format); err != nil {
			return err
		}
	}
	return runErr
}

func writeTick(out io.Writer, t *trace.Tick, format string) error {
	if format == "json" {
		b, err := json.Marshal(t)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(out, "%s\n", b)
		return err
	}
	_, err := fmt.Fprintln(out, t.Text())
	return err
}

package main

import (
	"fmt"
	"io"
	"strconv"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/kubectl"
	"github.com/stateflow/stateflow/scenario"
)

// whyCommand is: stateflow why FILE TYPE/NAME FIELD [--at TICK] [-o
// text|json]. It runs the scenario until it settles, or to tick TICK,
// and prints why the field has its value at that tick (kubectl's
// Session, Stateflow's why command).
func whyCommand(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	f, err := parseFlags(args, []string{"at", "o", "output"}, nil)
	if err != nil {
		return err
	}
	if len(f.positional) != 3 {
		return usageError("why needs FILE, TYPE/NAME and FIELD")
	}
	file := f.positional[0]
	sc, err := readScenario(file, stdin)
	if err != nil {
		return err
	}
	printWarnings(stderr, file, sc)
	cfg := sc.Config
	cfg.MaxTraceTicks, cfg.KeepPodVersions = -1, true
	e, err := engine.New(cfg)
	if err != nil {
		return err
	}
	words := append([]string{kubectl.WhyCommand}, f.positional[1:]...)
	if at, ok := f.values["at"]; ok {
		n, err := strconv.Atoi(at)
		if err != nil || n < 1 {
			return usageError("--at: %q is not a tick number", at)
		}
		e.Seek(n)
		if e.Tick() < n {
			return fmt.Errorf("--at: the scenario ends at tick %d, before tick %d", e.Tick(), n)
		}
		words = append(words, "--at", at)
	} else if err := e.RunUntilSettled(engine.SettleLimits{}); err != nil {
		fmt.Fprintln(stderr, "warning: "+err.Error())
	} else {
		settledAsOfLastChange(e)
	}
	for _, k := range []string{"o", "output"} {
		if v, ok := f.values[k]; ok {
			words = append(words, "-o", v)
		}
	}
	s := &kubectl.Session{Cluster: e, Namespace: sc.Namespace, Decode: scenario.DecodeObjects}
	res := s.RunArgs(words)
	io.WriteString(stdout, res.Stdout)
	io.WriteString(stderr, res.Stderr)
	if res.Code != 0 {
		return &exitError{code: res.Code}
	}
	return nil
}

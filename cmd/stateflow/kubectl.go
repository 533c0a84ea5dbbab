package main

import (
	"fmt"
	"io"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/kubectl"
	"github.com/stateflow/stateflow/scenario"
)

// kubectlCommand is: stateflow kubectl FILE [--at DURATION | --tick N |
// --until-settled] -- ARGS…
func kubectlCommand(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	split := len(args)
	for i, a := range args {
		if a == "--" {
			split = i
			break
		}
	}
	if split == len(args) {
		return usageError("kubectl needs -- before the kubectl arguments")
	}
	f, err := parseFlags(args[:split], []string{"at", "tick"}, []string{"until-settled"})
	if err != nil {
		return err
	}
	if len(f.positional) != 1 {
		return usageError("kubectl needs exactly one FILE")
	}
	w, err := parseWhenKubectl(f)
	if err != nil {
		return err
	}
	var stdinText []byte
	file := f.positional[0]
	sc, err := readScenario(file, stdin)
	if err != nil {
		return err
	}
	printWarnings(stderr, file, sc)
	if file != "-" && stdin != nil {
		stdinText, _ = io.ReadAll(io.LimitReader(stdin, scenario.MaxInputBytes+1))
	}
	e, err := engine.New(sc.Config)
	if err != nil {
		return err
	}
	if err := advance(e, w); err != nil {
		// "warning: Never settles: pod … crashes and restarts (…). Not
		// settled after …": the command runs at the bound.
		fmt.Fprintln(stderr, "warning: "+err.Error())
	} else if w.mode == "settled" {
		settledAsOfLastChange(e)
	}
	s := &kubectl.Session{Cluster: e, Namespace: sc.Namespace, Stdin: string(stdinText), Decode: scenario.DecodeObjects}
	if file == "-" {
		s.Decode = func([]byte) ([]api.Object, error) {
			return nil, fmt.Errorf("standard input already holds the scenario; give the scenario as a file to apply a manifest from standard input")
		}
	}
	res := s.RunArgs(args[split+1:])
	io.WriteString(stdout, res.Stdout)
	io.WriteString(stderr, res.Stderr)
	if res.Code != 0 {
		return &exitError{code: res.Code}
	}
	return nil
}

func parseWhenKubectl(f *flagSet) (when, error) {
	g := &flagSet{values: map[string]string{}}
	for k, v := range f.values {
		switch k {
		case "at":
			g.values["until"] = v
		case "tick":
			g.values["ticks"] = v
		default:
			g.values[k] = v
		}
	}
	return parseWhen(g)
}

package main

import (
	"fmt"
	"io"
	"os"

	"github.com/stateflow/stateflow/claim"
)

// checkCommand is: stateflow check FILE… — it runs each scenario and
// checks the claims its header and its lesson state, printing each one
// the simulation contradicts as FILE:line:column: claim: what it read.
// Exit 1 when a claim fails or a file does not read.
func checkCommand(args []string, stdout, stderr io.Writer) error {
	f, err := parseFlags(args, nil, nil)
	if err != nil {
		return err
	}
	if len(f.positional) == 0 {
		return usageError("check needs at least one FILE")
	}
	bad := 0
	for _, path := range f.positional {
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		file, err := claim.Read(path, src)
		if err != nil {
			fmt.Fprintln(stderr, err)
			bad++
			continue
		}
		failures, err := file.Check()
		if err != nil {
			fmt.Fprintln(stderr, err)
			bad++
			continue
		}
		for _, fl := range failures {
			fmt.Fprintln(stdout, fl)
		}
		fmt.Fprintf(stderr, "%s: %d claims, %d contradicted\n", path, len(file.Claims), len(failures))
		if len(failures) > 0 {
			bad++
		}
	}
	if bad > 0 {
		return &exitError{1, ""}
	}
	return nil
}

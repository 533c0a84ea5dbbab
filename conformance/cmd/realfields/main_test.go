package main

import (
	"os"
	"testing"
)

// scenario/realfields.go is what this command writes from the k8s.io/api
// the conformance module pins: regenerate it when that version moves.
func TestRealFieldsUpToDate(t *testing.T) {
	have, err := os.ReadFile("../../../scenario/realfields.go")
	if err != nil {
		t.Fatal(err)
	}
	if string(have) != render() {
		t.Fatal("scenario/realfields.go is stale: run `cd conformance && go run ./cmd/realfields > ../scenario/realfields.go`")
	}
}

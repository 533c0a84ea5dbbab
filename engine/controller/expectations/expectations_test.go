package expectations

import (
	"testing"

	"github.com/stateflow/stateflow/engine/api"
)

func TestExpectations(t *testing.T) {
	e := Expectations{}
	rs := api.Key{Kind: api.KindReplicaSet, Name: "r"}
	if !e.Satisfied(rs, 0) {
		t.Fatal("no record means satisfied")
	}
	e.ExpectCreations(rs, 2, 0)
	e.CreationObserved(rs)
	if e.Satisfied(rs, 1000) {
		t.Fatal("one creation still outstanding")
	}
	e.CreationObserved(rs)
	if !e.Satisfied(rs, 1000) {
		t.Fatal("all creations observed")
	}
	e.ExpectCreations(rs, 1, 0)
	if !e.Satisfied(rs, Timeout+1) {
		t.Fatal("expectations expire after 5 minutes")
	}
}

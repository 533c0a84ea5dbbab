package scenario

import (
	"fmt"

	"github.com/stateflow/stateflow/engine/api"
)

// DecodeObjects parses manifests (for kubectl apply -f -): the same rules
// as a scenario, without a Scenario document.
func DecodeObjects(src []byte) ([]api.Object, error) { return DecodeObjectsWith(src, Options{}) }

// DecodeObjectsWith is DecodeObjects with options.
func DecodeObjectsWith(src []byte, opts Options) ([]api.Object, error) {
	p := &parser{sc: &Scenario{Namespace: "default"}, seen: map[api.Key]int{}}
	p.sc.Config.TimeZones = opts.TimeZones
	if len(src) > MaxInputBytes {
		return nil, fmt.Errorf("the manifest is larger than 1 MiB")
	}
	p.readDocuments(src)
	if p.scenario != nil {
		p.errorf(p.scenario.Line, p.scenario.Column, "", "a Scenario document cannot be applied to the cluster")
	}
	if len(p.errs) > 0 {
		return nil, p.errs
	}
	var out []api.Object
	out = append(out, nodesAsObjects(p.nodes)...)
	for _, d := range p.docs {
		out = append(out, d.obj)
	}
	return out, nil
}

func nodesAsObjects(ns []*api.Node) []api.Object {
	out := make([]api.Object, len(ns))
	for i, n := range ns {
		out[i] = n
	}
	return out
}

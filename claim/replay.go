package claim

// This file steps a second run of the scenario forward, tick by tick, and
// gives each claim what its facts read at the ticks it reads: the
// cluster through kubectl (read.go), the tick itself from the first run
// (tracefacts.go).

import (
	"fmt"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/kubectl"
)

// read steps a second run of the scenario forward and gives each claim
// what its facts read at the ticks it reads.
func (f *File) read(vs []*verdict, tl *timeline) error {
	last := 0
	for _, v := range vs {
		last = max(last, v.last)
	}
	cfg := f.Scenario.Config
	cfg.MaxTraceTicks = -1
	e, err := engine.New(cfg)
	if err != nil {
		return fmt.Errorf("%s: %w", f.Name, err)
	}
	r := &reader{k: &kubectl.Session{Cluster: e, Namespace: f.Scenario.Namespace}, seen: map[string]string{}}
	for t := 0; t <= last; t++ {
		if t > 0 && e.Step() == nil {
			return fmt.Errorf("%s: the second run ended at tick %d, the first at %d: the simulation is not deterministic", f.Name, t-1, tl.end())
		}
		if e.Tick() != t || t > 0 && e.Trace()[t-1].Time != tl.timeOf(t) {
			return fmt.Errorf("%s: the second run's tick %d differs from the first's: the simulation is not deterministic", f.Name, t)
		}
		r.forget()
		for _, v := range vs {
			if !v.reads(t, tl) {
				continue
			}
			rd, err := readFacts(v, t, tl, r)
			if err != nil {
				v.fail("at %s: %v", tickName(tl, t), err)
				continue
			}
			v.observe(rd, tl, func(t int) (int, string) { return writes(v, t, tl) })
		}
	}
	return nil
}

// readFacts reads every fact of a claim at tick t.
func readFacts(v *verdict, t int, tl *timeline, r *reader) (*reading, error) {
	facts := v.w.Claim.Facts
	rd := &reading{tick: t, truths: make([]bool, len(facts)), values: make([]string, len(facts))}
	for i := range facts {
		f := &facts[i]
		if f.traceFact() {
			rd.truths[i], rd.values[i] = traceFact(f, t, tl, v.fromMS)
			continue
		}
		got, err := r.read(f.Subject)
		if err != nil {
			return nil, err
		}
		ok, err := compare(got, f.Op, f.Value)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", f, err)
		}
		rd.truths[i], rd.values[i] = ok, got
	}
	return rd, nil
}

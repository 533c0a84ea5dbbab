package claim_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stateflow/stateflow/claim"
	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/examples/random"
	"github.com/stateflow/stateflow/scenario"
)

// observed is what the oracle reads at one tick, through the engine's
// typed store (not kubectl, JSONPath or the claim package): the
// Deployment's readyReplicas and how many pods of app=web are not
// terminating.
type observed struct {
	time        int64
	ready, pods int
}

// observe runs the scenario tick by tick to the bounds the claims' check
// runs to (until it settles, at most claim.MaxTicks ticks and
// claim.MaxMS of virtual time) and reads each tick's world; index 0 is
// the world before the first tick.
func observe(t *testing.T, sc *scenario.Scenario) []observed {
	t.Helper()
	e, err := engine.New(sc.Config)
	if err != nil {
		t.Fatal(err)
	}
	read := func() observed {
		o := observed{time: e.Now()}
		if d, ok := e.Store().Get(api.Key{Kind: api.KindDeployment, Namespace: "default", Name: "web"}); ok {
			o.ready = int(d.(*api.Deployment).Status.ReadyReplicas)
		}
		for _, p := range e.Store().List(api.KindPod, "default") {
			if p.Meta().Labels["app"] == "web" && p.Meta().DeletionTimestamp == nil {
				o.pods++
			}
		}
		return o
	}
	obs := []observed{read()}
	obs[0].time = 0
	for e.Tick() < claim.MaxTicks {
		if next, ok := e.NextTime(); ok && next > claim.MaxMS {
			break
		}
		tk := e.Step()
		if tk == nil {
			break
		}
		o := read()
		o.time = tk.Time
		obs = append(obs, o)
	}
	return obs
}

// at is the tick whose world holds at ms: the last at or before it.
func at(obs []observed, ms int64) int {
	n := 0
	for i := 1; i < len(obs) && obs[i].time <= ms; i++ {
		n = i
	}
	return n
}

// Claims generated from what the oracle saw hold exactly when the oracle
// says they do: a bound equal to the most pods at once holds and one
// less fails at the first tick that reached it; "at some tick" finds that
// most and "never" does not find more; a Deployment's readyReplicas at a
// time (a tick's own time, a millisecond before and after it) is the
// oracle's, and one more is not; a window holds its own most. Random
// rollouts of 1 to 12 replicas and the fence posts of maxSurge and
// maxUnavailable.
func TestClaimsAgreeWithTheStore(t *testing.T) {
	for seed := range uint64(6) {
		rng := rand.New(rand.NewPCG(seed, 39))
		src := random.NewRollout(rng).Scenario()
		sc, err := scenario.Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		obs := observe(t, sc)
		var lines []string
		var falseLines []int
		add := func(claim string, holds bool) {
			lines = append(lines, "# expect: "+claim)
			if !holds {
				falseLines = append(falseLines, len(lines))
			}
		}
		most, first := 0, 0
		for i, o := range obs {
			if o.pods > most {
				most, first = o.pods, i
			}
		}
		add(fmt.Sprintf("always, count non-terminating pods -l app=web <= %d", most), true)
		add(fmt.Sprintf("always, count non-terminating pods -l app=web <= %d", most-1), false)
		add(fmt.Sprintf("at some tick, count non-terminating pods -l app=web = %d", most), true)
		add(fmt.Sprintf("never, count non-terminating pods -l app=web > %d", most), true)
		add(fmt.Sprintf("never, count non-terminating pods -l app=web = %d", most), false)
		for range 3 {
			base := obs[1+rng.IntN(len(obs)-1)].time
			for _, ms := range []int64{base - 1, base, base + 1} {
				v := obs[at(obs, ms)].ready
				add(fmt.Sprintf("at %dms, deploy/web {.status.readyReplicas} = %d", ms, v), true)
				add(fmt.Sprintf("at %dms, deploy/web {.status.readyReplicas} = %d", ms, v+1), false)
			}
		}
		from, to := obs[len(obs)/3].time, obs[2*len(obs)/3].time
		inWindow := obs[at(obs, from-1)].pods
		for i := range obs {
			if obs[i].time >= from && obs[i].time <= to && i > 0 {
				inWindow = max(inWindow, obs[i].pods)
			}
		}
		add(fmt.Sprintf("always from %dms to %dms, count non-terminating pods -l app=web <= %d", from, to, inWindow), true)
		add(fmt.Sprintf("always from %dms to %dms, count non-terminating pods -l app=web <= %d", from, to, inWindow-1), inWindow == 0)

		file := strings.Join(lines, "\n") + "\n" + string(src)
		failures, err := claim.Check("generated.yaml", []byte(file))
		if err != nil {
			t.Fatal(err)
		}
		var failed []int
		for _, f := range failures {
			failed = append(failed, f.Pos.Line)
		}
		if inWindow == 0 {
			falseLines = slices.DeleteFunc(falseLines, func(l int) bool { return l == len(lines) })
		}
		if !slices.Equal(failed, falseLines) {
			t.Errorf("seed %d: the claims on lines %v fail, the oracle says %v:\n%s\nfailures: %v", seed, failed, falseLines, strings.Join(lines, "\n"), failures)
			continue
		}
		if want := fmt.Sprintf("false at tick %d ", first); !strings.Contains(failures[0].Msg, want) {
			t.Errorf("seed %d: %s, want the first tick that reached %d pods (%s)", seed, failures[0], most, want)
		}
	}
}

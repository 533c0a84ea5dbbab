package conformance

import "strings"

// The deliberate differences between the engine and the upstream
// controllers, each with its reason. A tick's diff is allowed only when
// one of these explains every line of it; nothing else may differ.
//
// Two differences are normalised away rather than allowed, because they
// concern identifiers, not decisions:
//
//   - pod-template-hash: upstream hashes the spew dump of its Go struct
//     for the pod template (controller.ComputeHash); the engine hashes its
//     own, smaller representation. The harness maps upstream's hash of
//     each template to the engine's, in the objects upstream sends to the
//     API server and in what it reports.
//   - names from generateName: each API server draws its own random
//     suffix; created pods are paired in order.
//
// The engine's deliberate simplifications of the machinery around the
// controllers — one worker per controller, a work queue that never gives
// up on a key, image pulls that are not serialised — change when a key is
// synced, not what a sync decides, so they need no allowance: the harness
// re-decides each sync the engine took, on what that sync saw.
type allowance struct {
	name   string
	reason string
	// claim returns the lines of a tick's diff the allowance does not
	// explain.
	claim func(lines []string, ours, theirs outcome) []string
}

var allowances = []allowance{{
	name: "equal-rank-victims",
	reason: "When a ReplicaSet scales down, upstream sorts its pods with sort.Sort (not stable) " +
		"over the informer's map order, so among pods ActivePodsWithRanks.Less cannot tell apart " +
		"the one deleted depends on an order nobody controls; the engine, which must be " +
		"deterministic, sorts stably in name order. Explains the pod deletions (and their " +
		"SuccessfulDelete Events) only when upstream's own sort, over some order of the same pods " +
		"(the victims first, name order, or one of 500 seeded shuffles), deletes exactly the pods the engine deleted.",
	claim: equalRankVictims,
}, {
	name: "event-aggregation-choice",
	reason: "client-go's EventAggregator, once an object has 10 distinct messages for one reason, " +
		"forgets a random one of them (sets.String.PopAny) at each new message, so whether a message " +
		"seen before counts as new, and is written \"(combined from similar events): …\", is random " +
		"upstream; the engine forgets deterministically. Explains Event lines that agree once that " +
		"prefix is set aside, only for an object and reason that had at least 10 distinct messages in the window.",
	claim: eventAggregationChoice,
}}

// allowed names the allowances that together explain every line of a
// tick's diff, or returns "".
func allowed(lines []string, ours, theirs outcome) string {
	var used []string
	for _, a := range allowances {
		if rest := a.claim(lines, ours, theirs); len(rest) < len(lines) {
			used = append(used, a.name)
			lines = rest
		}
	}
	if len(lines) > 0 {
		return ""
	}
	return strings.Join(used, ", ")
}

func equalRankVictims(lines []string, ours, theirs outcome) []string {
	if theirs.couldDelete == nil {
		return lines
	}
	var victims []string
	for _, c := range ours.changes {
		if c.verb == "delete" && c.kind == "Pod" {
			victims = append(victims, c.name)
		}
	}
	upstream := 0
	for _, c := range theirs.changes {
		if c.verb == "delete" && c.kind == "Pod" {
			upstream++
		}
	}
	// Only a different choice among as many pods: never a different count.
	if len(victims) == 0 || len(victims) != upstream || !theirs.couldDelete(victims) {
		return lines
	}
	var rest []string
	for _, l := range lines {
		if !strings.Contains(l, " delete Pod/") && !strings.Contains(l, " SuccessfulDelete ") {
			rest = append(rest, l)
		}
	}
	return rest
}

const combined = "(combined from similar events): "

func eventAggregationChoice(lines []string, _, theirs outcome) []string {
	unprefixed := func(l string) string { return strings.Replace(l, combined, "", 1) }
	pending := map[string][]int{} // engine line without prefix → indexes
	for i, l := range lines {
		if strings.HasPrefix(l, "- engine:   ") {
			k := unprefixed(strings.TrimPrefix(l, "- engine:   "))
			pending[k] = append(pending[k], i)
		}
	}
	claimed := map[int]bool{}
	for i, l := range lines {
		if !strings.HasPrefix(l, "+ upstream: ") {
			continue
		}
		k := unprefixed(strings.TrimPrefix(l, "+ upstream: "))
		if !theirs.randomAggregation[aggregationPrefix(k)] {
			continue // not in the random regime: the prefix must agree
		}
		if q := pending[k]; len(q) > 0 && (strings.Contains(l, combined) || strings.Contains(lines[q[0]], combined)) {
			claimed[i], claimed[q[0]] = true, true
			pending[k] = q[1:]
		}
	}
	var rest []string
	for i, l := range lines {
		if !claimed[i] {
			rest = append(rest, l)
		}
	}
	return rest
}

// aggregationPrefix is the "Kind/name: Type Reason " part of an event line.
func aggregationPrefix(line string) string {
	i := strings.Index(line, ": ")
	if i < 0 {
		return line
	}
	f := strings.SplitN(line[i+2:], " ", 3)
	if len(f) < 2 {
		return line
	}
	return line[:i+2] + f[0] + " " + f[1] + " "
}

package conformance

import (
	"encoding/json"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// The deliberate differences between the engine and the upstream
// controllers, each with its reason. A tick's diff is allowed only when
// one of these explains every line of it; nothing else may differ.
//
// These differences are normalised away rather than allowed, because they
// concern identifiers, encodings and goroutine order, not decisions:
//
//   - pod-template-hash: upstream hashes the spew dump of its Go struct
//     for the pod template (controller.ComputeHash); the engine hashes its
//     own, smaller representation. The harness maps upstream's hash of
//     each template to the engine's, in the objects upstream sends to the
//     API server and in what it reports. (A ControllerRevision's hash is
//     the revision-name allowance's: it shows in the diff.)
//   - names from generateName: each API server draws its own random
//     suffix; created pods are paired in order (a DaemonSet's by the node
//     they are pinned to first), created EndpointSlices by the pods and
//     ports they hold (pairSlices).
//   - a ControllerRevision's data: the engine stores the template patch as
//     a typed value, upstream as the JSON bytes its getPatch encodes, and
//     finds a template's revision by comparing those bytes; the harness
//     encodes the engine's revisions as upstream does (encodeRevision).
//   - the uids and resourceVersions of created objects: each API server
//     assigns its own; a created Job's uid is paired with the engine's
//     where it shows (its selector and labels, the CronJob's
//     status.active), and so is its resourceVersion in status.active.
//   - the order of a Job's status.uncountedTerminatedPods: the Job
//     controller treats each list as a set, and upstream appends the
//     finished pods in the order its pod indexer returns them
//     (FilterPodsByOwner, a map's order), the engine in its cache's; both
//     sides' lists are compared sorted (uncountedAsSets).
//   - the order of the Events of concurrent writes: the DaemonSet
//     controller's syncNodes and the StatefulSet controller's
//     slowStartBatch create and delete pods from goroutines, so the order
//     in which their Events reach client-go's correlator (which one its
//     spam filter drops, which it aggregates) is the goroutines'; the
//     harness passes upstream's Events in the engine's order where they
//     are the same (inEngineOrder). And when a DaemonSet sync deletes
//     other pods than the engine's as the daemon-node-order allowance
//     allows, its Events name the engine's choice before the correlator
//     sees them, so that the correlator's history stays the run's.
//   - the order of the HorizontalPodAutoscaler controller's pod lister:
//     upstream's lists pods in its indexer's order, a Go map's, which
//     decides only which pod calculateRequests names when pods lack a
//     request for the resource ("missing request for cpu in container
//     proxy of Pod …"); the harness gives it a lister that returns them
//     in name order, the engine's, one of the orders upstream's could
//     (namedPodLister).
//   - the order of the disruption controller's pod lister: getExpectedScale
//     goes over a budget's pods in the order its lister returns them, a
//     Go map's, and fails at the first whose controller is gone ("found
//     no controllers for pod …", which the SyncFailed condition and the
//     CalculateExpectedPodCountFailed Event repeat), or whose controller
//     has no scale subresource; the harness gives it the name-ordered
//     lister too, the engine's order, one of upstream's (namedPodLister).
//   - the HPAs an AmbiguousSelector message lists: upstream collects them
//     in a Go map (hpasControllingPodsUnderSelector), the engine sorts
//     them; the harness sorts upstream's list in its Events and error and
//     in the statuses it sends the API server, before they are stored, so
//     a status that differs from the stored one only in that order is the
//     no-op it would be in name order (hpasSorted).
//   - upstream's HPA controller has no clock: it reads time.Now() for its
//     recommendations, scale events, windows, periods and CPU
//     initialization period; the harness makes the wall clock the tick's
//     time, to the millisecond (replayHPA).
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
	// First: it re-diffs the whole outcome, so it must see every line.
	name: "revision-name",
	reason: "The DaemonSet and StatefulSet controllers name a template's ControllerRevision <owner>-<hash> and label " +
		"the revision and the pods made from it with the hash: upstream's DaemonSet hash is controller.ComputeHash (FNV " +
		"over a spew dump of its Go struct), its StatefulSet hash history.HashControllerRevision (FNV over the revision's " +
		"JSON patch); the engine hashes its own JSON of the template (engine/controller/controllerutil ComputeHash) for both, " +
		"and cannot compute upstream's without its Go types. Both find a template's existing revision by content, not by " +
		"name (daemon.Match, history.FindEqualRevisions: the harness gives upstream the engine's revisions encoded as " +
		"upstream encodes them), so only revisions created in the tick carry the other name. Explains the lines that " +
		"vanish once upstream's hash of the tick's template (with the collision count) is replaced by the engine's hash " +
		"of the same template everywhere in upstream's writes, Events and error — the revisions are then paired by name, " +
		"and their revision numbers, templates and labels compared; a status field upstream moved from the engine's name " +
		"of the revision to its own (after the garbage collector deleted the revision, say) did not change, and an update " +
		"that changed nothing else was a no-op; what is left stays unexplained, restated with the engine's names.",
	claim: revisionName,
}, {
	name: "daemon-node-order",
	reason: "A DaemonSet's rolling update ranges over its pods by node in a Go map (rollingUpdate, update.go), and takes " +
		"the first of its candidates: without maxSurge, the old available pods alone on their nodes to delete (as many " +
		"as maxUnavailable leaves); with maxSurge, the nodes whose one pod is old and available to give a new pod (as " +
		"many as maxSurge leaves) and the old available pods on nodes that should no longer run one. How many does not " +
		"depend on the order, which ones does; the engine, which must be deterministic, goes in node-name order. " +
		"Explains deleted pods (with their SuccessfulDelete Events) and the node a created pod is pinned to " +
		"(its node affinity) only when both sides delete and create as many, and every pod and node one side chose and " +
		"the other did not is one of those candidates, read from the cache the sync read.",
	claim: daemonNodeOrder,
}, {
	name: "equal-rank-victims",
	reason: "When a ReplicaSet scales down, upstream sorts its pods with sort.Sort (not stable) " +
		"over the informer's map order, so among pods ActivePodsWithRanks.Less cannot tell apart " +
		"the one deleted depends on an order nobody controls; the engine, which must be " +
		"deterministic, sorts stably in name order. The Job controller's scale-down " +
		"(activePodsForRemoval: sort.Sort(controller.ActivePods) over its pod indexer's order) is the same, " +
		"and removes each victim's tracking finalizer before it deletes it. Explains the pod deletions (and their " +
		"SuccessfulDelete Events, and the removals of the same pods' finalizers) only when upstream's own sort, over some order of the same pods " +
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
}, {
	name: "portless-slice-churn",
	reason: "k8s.io/endpointslice v0.34.4 keys port mappings by a spew hash of the ports, so the nil ports " +
		"of a stored slice without ports and the empty list getEndpointPorts returns for a Service with no " +
		"ports (headless) or none its pods resolve fall in different mappings: every sync, upstream " +
		"deletes the slice and recreates its endpoints, which finalize turns into an update of the same " +
		"slice, rewriting the same endpoints in a new order (kubernetes/kubernetes#133474, fixed by " +
		"#136502 after v1.34.4). The engine keys mappings by content, as the fix does, and writes nothing. " +
		"Explains an update of a portless slice only upstream made, only when it leaves the slice's " +
		"endpoints the same set.",
	claim: portlessSliceChurn,
}, {
	name: "endpoint-order",
	reason: "Upstream's EndpointSlice reconciler places the endpoints it has to place with " +
		"EndpointSet.PopAny, which pops from a Go map in no defined order, and iterates port mappings " +
		"and equally full slices in map order too (so which new slice takes over a slice being " +
		"replaced, keeping its name, is random); the engine, which must be deterministic, goes in " +
		"pod-name and port-mapping order. Consumers read a Service's slices as one set of endpoints. " +
		"Explains the differences in the slices a sync wrote only when both sides created and " +
		"updated as many slices, deleted the same ones, wrote slices that agree but for their names " +
		"and which endpoints of a port mapping each holds (ports, labels, owner, how many endpoints), " +
		"and wrote the same endpoints altogether.",
	claim: endpointOrder,
}, {
	name: "skipped-pods-order",
	reason: "When pods sit on a Node its cache does not hold, upstream's EndpointSlice reconciler " +
		"reports each skipped pod in the order its pod lister returns them, a map's order; the engine " +
		"lists them by name. Explains a sync error (or FailedToUpdateEndpointSlices Event) that lists " +
		"the same \"skipping Pod …\" errors in another order, with the rest of the message the same. " +
		"(The replayer puts the list in upstream's Events in name order before client-go's correlator " +
		"sees them, so that aggregation does not depend on that order.)",
	claim: skippedPodsOrder,
}, {
	name: "prefilter-postfilter",
	reason: "For a pod a PreFilter plugin rejects (VolumeBinding: unbound immediate claims), the replay " +
		"cannot run upstream's DefaultPreemption PostFilter to completion (it returns an error, \"not found\", " +
		"in the harness), so upstream's FailedScheduling message ends in that error where a real scheduler " +
		"writes the PostFilter plugins' messages; the engine writes them as for a pod every node filtered " +
		"out. Explains the FailedScheduling line only when the PreFilter part of the message (up to the " +
		"first \". \") is the same on both sides.",
	claim: preFilterPostFilter,
}, {
	name: "batch-error-order",
	reason: "A StatefulSet with Parallel pod management runs a slow-start batch of pod syncs in goroutines " +
		"(slowStartBatch) and returns their errors as an aggregate in the order the goroutines finished; the " +
		"engine runs them in ordinal order. Explains a sync error only when both are \"[…]\" aggregates of the " +
		"same errors in another order.",
	claim: batchErrorOrder,
}, {
	name: "last-change-trigger-time",
	reason: "Upstream's EndpointSlice and Endpoints controllers stamp the slices and Endpoints they " +
		"write with endpoints.kubernetes.io/last-change-trigger-time (the earliest pod Ready transition " +
		"or Service creation not seen by their previous sync: TriggerTimeTracker), an annotation only " +
		"the SLI of endpoint propagation latency reads; the engine does not write it. Explains that " +
		"annotation set by upstream where the engine left it out, nothing else.",
	claim: lastChangeTriggerTime,
}, {
	name: "pod-failure-backoff-active",
	reason: "When the Job controller needs more pods but the pod failure backoff holds their creation back, " +
		"v1.34.4's manageJob returns 0 active pods instead of the pods that are running, and syncJob writes " +
		"status.active 0 (kubernetes/kubernetes#139428) — with pods ready, a real API server refuses that status " +
		"(\"cannot set more ready pods than active\"), which blocks the controller's counting of finished pods " +
		"until the backoff ends. The engine has the fix (#139457, on the 1.34 branch as #139752) and reports the " +
		"active pods. Explains status.active written as 0 upstream where the engine wrote the active count or left " +
		"it as it was (and an update upstream made for that field alone), only in a sync upstream requeued for " +
		"the backoff.",
	claim: podFailureBackoffActive,
}, {
	name: "fail-job-pod-order",
	reason: "When several failed pods match a FailJob rule of a Job's podFailurePolicy, upstream's getFailJobMessage " +
		"names the first of them in the order its pod indexer returns the Job's pods, a map's; the engine goes in its " +
		"cache's order. Explains a FailureTarget or Failed condition's message, and the Warning Event that repeats it, " +
		"that name another pod than upstream's, only when both messages are ones upstream gives for a failed pod of the " +
		"Job, read from the cache the sync read.",
	claim: failJobPodOrder,
}, {
	name: "pod-condition-observed-generation",
	reason: "With PodObservedGenerationTracking (beta, on by default since v1.34), the disruption controller's " +
		"syncStalePodDisruption sets the observedGeneration of the DisruptionTarget condition it resets to the pod's " +
		"metadata.generation (disruption.go:795, apipod.CalculatePodConditionObservedGeneration). The engine models no " +
		"observedGeneration of pods or of their conditions anywhere: api.PodCondition has no such field (engine/api, " +
		"outside the disruption controller), so its reset writes the condition without it. Explains only that field of " +
		"the pod's DisruptionTarget condition, set by upstream to the pod's generation in an update the engine made too.",
	claim: podConditionObservedGeneration,
}}

// allowed names the allowances that together explain every line of a
// tick's diff, or returns "".
func allowed(lines []string, ours, theirs outcome) string {
	name, _ := explain(lines, ours, theirs)
	return name
}

// explain is allowed, with the lines no allowance explains (which may be
// restated: the revision-name allowance re-diffs the tick).
func explain(lines []string, ours, theirs outcome) (string, []string) {
	var used []string
	for _, a := range allowances {
		if rest := a.claim(lines, ours, theirs); len(rest) < len(lines) {
			used = append(used, a.name)
			lines = rest
		}
	}
	if len(lines) > 0 {
		return "", lines
	}
	return strings.Join(used, ", "), nil
}

func equalRankVictims(lines []string, ours, theirs outcome) []string {
	if theirs.couldDelete == nil {
		return lines
	}
	var victims []string
	deleted := map[string]bool{}
	for _, c := range ours.changes {
		if c.verb == "delete" && c.kind == "Pod" {
			victims = append(victims, c.name)
			deleted[c.name] = true
		}
	}
	upstream := 0
	for _, c := range theirs.changes {
		if c.verb == "delete" && c.kind == "Pod" {
			upstream++
			deleted[c.name] = true
		}
	}
	// Only a different choice among as many pods: never a different count.
	if len(victims) == 0 || len(victims) != upstream || !theirs.couldDelete(victims) {
		return lines
	}
	return dropLines(lines, func(_ int, l string) bool {
		return strings.Contains(l, " delete Pod/") || strings.Contains(l, " SuccessfulDelete ") || finalizerRemoval(l, deleted)
	})
}

// finalizerRemoval reports a line of an update, on one side only, of one
// of the deleted pods that removed finalizers and changed nothing else
// (the Job controller's deleteJobPods, before it deletes a pod).
func finalizerRemoval(l string, deleted map[string]bool) bool {
	parts := strings.Split(l, "\n")
	m := podUpdateLine.FindStringSubmatch(parts[0])
	if m == nil || !deleted[m[2]] || len(parts) == 1 {
		return false
	}
	for _, p := range parts[1:] {
		if !strings.HasPrefix(strings.TrimSpace(p), "metadata.finalizers[") {
			return false
		}
	}
	return true
}

var podUpdateLine = regexp.MustCompile(`^[-+] (engine|upstream): +update Pod/(\S+)$`)

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
	return dropLines(lines, func(i int, _ string) bool { return claimed[i] })
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

// sliceWrite matches a line of a diff about an EndpointSlice written.
var sliceWrite = regexp.MustCompile(`^(~ (create|update) EndpointSlice/|[-+] (engine|upstream): +(create|update) EndpointSlice/)`)

func endpointOrder(lines []string, ours, theirs outcome) []string {
	engineWrote := map[string]bool{}
	for _, c := range ours.changes {
		engineWrote[c.kind+"/"+c.name] = true
	}
	type written struct {
		creates, updates  int
		deletes           []string
		slices, endpoints map[string]int
	}
	sum := func(cs []change, skip func(change) bool) written {
		w := written{slices: map[string]int{}, endpoints: map[string]int{}}
		for _, c := range cs {
			if c.kind != "EndpointSlice" || skip(c) {
				continue
			}
			switch c.verb {
			case "delete":
				w.deletes = append(w.deletes, c.name)
				continue
			case "create":
				w.creates++
			default:
				w.updates++
			}
			w.slices[c.slice]++
			for _, e := range c.endpoints {
				w.endpoints[e]++
			}
		}
		slices.Sort(w.deletes)
		return w
	}
	a := sum(ours.changes, func(change) bool { return false })
	// Upstream's churn of a portless slice the engine left alone is the
	// portless-slice-churn allowance's.
	b := sum(theirs.changes, func(c change) bool { return !engineWrote[c.kind+"/"+c.name] && isPortlessChurn(c, theirs) })
	if a.creates+a.updates == 0 || a.creates != b.creates || a.updates != b.updates || !slices.Equal(a.deletes, b.deletes) ||
		!maps.Equal(a.slices, b.slices) || !maps.Equal(a.endpoints, b.endpoints) {
		return lines
	}
	return dropLines(lines, func(_ int, l string) bool { return sliceWrite.MatchString(l) && !triggerTimeLine.MatchString(l) })
}

// triggerTimeLine matches the annotation set by upstream alone.
var triggerTimeLine = regexp.MustCompile(`^~ \w+ (EndpointSlice|Endpoints)/\S+ metadata\.annotations\.endpoints\.kubernetes\.io/last-change-trigger-time: engine \(unchanged\), upstream "[^"]+"$`)

func lastChangeTriggerTime(lines []string, _, _ outcome) []string {
	return dropLines(lines, func(_ int, l string) bool { return triggerTimeLine.MatchString(l) })
}

// upstreamSliceUpdate matches an EndpointSlice update only upstream made.
var upstreamSliceUpdate = regexp.MustCompile(`^\+ upstream: update EndpointSlice/(\S+)\n`)

func portlessSliceChurn(lines []string, _, theirs outcome) []string {
	churned := map[string]bool{}
	for _, c := range theirs.changes {
		if isPortlessChurn(c, theirs) {
			churned[c.name] = true
		}
	}
	return dropLines(lines, func(_ int, l string) bool {
		m := upstreamSliceUpdate.FindStringSubmatch(l)
		return m != nil && churned[m[1]]
	})
}

// isPortlessChurn reports an update of a stored slice without ports that
// leaves its endpoints the same set.
func isPortlessChurn(c change, theirs outcome) bool {
	if c.verb != "update" || c.kind != "EndpointSlice" || !theirs.portlessSlices[c.name] {
		return false
	}
	for p := range c.setFields {
		if p != "metadata.generation" && p != "metadata.annotations."+lastChangeTriggerTimeKey {
			return false
		}
	}
	return true
}

// skippedPods matches the list of pods a sync skipped, and one of them.
var (
	skippedPods = regexp.MustCompile(`skipping Pod .*Not Found`)
	skippedPod  = regexp.MustCompile(`skipping Pod \S+ for Service \S+: Node \S+ Not Found`)
)

// skippedPodsKey is a line with its list of skipped pods sorted.
func skippedPodsKey(l string) string {
	return skippedPods.ReplaceAllStringFunc(l, func(list string) string {
		items := skippedPod.FindAllString(list, -1)
		slices.Sort(items)
		return strings.Join(items, ", ")
	})
}

func skippedPodsOrder(lines []string, _, _ outcome) []string {
	key := func(l string) string {
		for p, kind := range map[string]string{"- engine:   ": "event", "+ upstream: ": "event", "- engine error:   ": "error", "+ upstream error: ": "error"} {
			if strings.HasPrefix(l, p) {
				return kind + " " + skippedPodsKey(strings.TrimPrefix(l, p))
			}
		}
		return ""
	}
	pending := map[string][]int{}
	for i, l := range lines {
		if strings.HasPrefix(l, "- engine") && skippedPods.MatchString(l) {
			k := key(l)
			pending[k] = append(pending[k], i)
		}
	}
	claimed := map[int]bool{}
	for i, l := range lines {
		if !strings.HasPrefix(l, "+ upstream") || !skippedPods.MatchString(l) {
			continue
		}
		if q := pending[key(l)]; len(q) > 0 {
			claimed[i], claimed[q[0]] = true, true
			pending[key(l)] = q[1:]
		}
	}
	return dropLines(lines, func(i int, _ string) bool { return claimed[i] })
}

const lastChangeTriggerTimeKey = "endpoints.kubernetes.io/last-change-trigger-time"

var failedScheduling = regexp.MustCompile(`^[-+] (engine|upstream): +FailedScheduling: (0/\d+ nodes are available: [^.]*\.) `)

// preFilterPostFilter claims a pair of FailedScheduling lines whose
// PreFilter parts agree, when upstream's ends in the replay's error.
func preFilterPostFilter(lines []string, _, _ outcome) []string {
	var ours, theirs string
	for _, l := range lines {
		m := failedScheduling.FindStringSubmatch(l)
		switch {
		case m == nil:
		case m[1] == "engine":
			ours = m[2]
		case strings.HasSuffix(l, ". not found"):
			theirs = m[2]
		}
	}
	if ours == "" || ours != theirs {
		return lines
	}
	return dropLines(lines, func(_ int, l string) bool { return failedScheduling.MatchString(l) })
}

// revisionName re-diffs the tick with upstream's hash of the tick's
// template replaced by the engine's, and claims what that explains.
func revisionName(lines []string, ours, theirs outcome) []string {
	hashes := theirs.revisionHashes
	if len(hashes) == 0 {
		return lines
	}
	renamed := theirs
	renamed.changes = make([]change, 0, len(theirs.changes))
	for _, c := range theirs.changes {
		changed := len(c.fields)
		c.fields, c.setFields, c.endpoints = maps.Clone(c.fields), maps.Clone(c.setFields), slices.Clone(c.endpoints)
		// A field upstream changed only from the engine's name of the
		// template's revision to its own (status.updateRevision of a set
		// whose revisions the garbage collector deleted) did not change;
		// an update that changed nothing else was a no-op.
		for p, v := range c.fields {
			if old, ok := c.previous[p]; ok && renameText(hashes, v) == old {
				delete(c.fields, p)
			}
		}
		if c.verb == "update" && changed > 0 && len(c.fields) == 0 {
			continue
		}
		renamed.changes = append(renamed.changes, c)
	}
	renamed.events = make([]string, len(theirs.events))
	for i, e := range theirs.events {
		renamed.events[i] = renameText(hashes, e)
	}
	renamed.err = renameText(hashes, theirs.err)
	// What is left is the difference, restated with the engine's names
	// (a revision whose template or labels differ, say).
	return compare(ours, renamed, hashes)
}

var (
	podDeleteLine  = regexp.MustCompile(`^[-+] (engine|upstream): +delete Pod/(\S+)$`)
	podDeletedLine = regexp.MustCompile(`^[-+] (engine|upstream): +DaemonSet/\S+: Normal SuccessfulDelete (?:` + regexp.QuoteMeta(combined) + `)?Deleted pod: (\S+)$`)
	podPinnedLine  = regexp.MustCompile(`^~ create Pod/\S+ ` + regexp.QuoteMeta(nodeAffinityField) + `: engine ("[^"]*"), upstream ("[^"]*")$`)
)

func daemonNodeOrder(lines []string, ours, theirs outcome) []string {
	pods, nodes, _, ok := daemonExchange(ours, theirs)
	if !ok || len(pods)+len(nodes) == 0 {
		return lines
	}
	var rest []string
	for _, l := range lines {
		if m := podDeleteLine.FindStringSubmatch(l); m != nil && pods[m[2]] {
			continue
		}
		if m := podDeletedLine.FindStringSubmatch(l); m != nil && pods[m[2]] {
			continue
		}
		if m := podPinnedLine.FindStringSubmatch(l); m != nil {
			var a, b string
			if json.Unmarshal([]byte(m[1]), &a) == nil && json.Unmarshal([]byte(m[2]), &b) == nil && nodes[a] && nodes[b] {
				continue
			}
		}
		rest = append(rest, l)
	}
	return rest
}

// daemonExchange compares the pods a DaemonSet sync deleted and the nodes
// it gave new pods on both sides: ok when both sides chose as many and
// every pod and node one side chose and the other did not is one of the
// candidates upstream picks among by map order. pods and nodes are those
// chosen by one side only; pairs maps each pod only upstream deleted to
// one only the engine deleted (in name order), for upstream's Events.
func daemonExchange(ours, theirs outcome) (pods, nodes map[string]bool, pairs map[string]string, ok bool) {
	x := theirs.exchangeable
	if x == nil {
		return nil, nil, nil, false
	}
	deleted := func(o outcome) map[string]bool {
		out := map[string]bool{}
		for _, c := range o.changes {
			if c.verb == "delete" && c.kind == "Pod" {
				out[c.name] = true
			}
		}
		return out
	}
	pinned := func(o outcome) map[string]bool {
		out := map[string]bool{}
		for _, c := range o.changes {
			if c.verb == "create" && c.kind == "Pod" {
				var node string
				if json.Unmarshal([]byte(targetNode(c)), &node) == nil {
					out[node] = true
				}
			}
		}
		return out
	}
	exchanged := func(a, b, candidates map[string]bool) (onlyA, onlyB []string, ok bool) {
		if len(a) != len(b) {
			return nil, nil, false
		}
		for k := range a {
			if !b[k] {
				onlyA = append(onlyA, k)
			}
		}
		for k := range b {
			if !a[k] {
				onlyB = append(onlyB, k)
			}
		}
		for _, k := range append(slices.Clone(onlyA), onlyB...) {
			if !candidates[k] {
				return nil, nil, false
			}
		}
		slices.Sort(onlyA)
		slices.Sort(onlyB)
		return onlyA, onlyB, true
	}
	oursOnly, theirsOnly, ok := exchanged(deleted(ours), deleted(theirs), x.deletions)
	if !ok {
		return nil, nil, nil, false
	}
	oursAt, theirsAt, ok := exchanged(pinned(ours), pinned(theirs), x.creations)
	if !ok {
		return nil, nil, nil, false
	}
	pods, nodes, pairs = map[string]bool{}, map[string]bool{}, map[string]string{}
	for i, p := range theirsOnly {
		pods[p], pods[oursOnly[i]] = true, true
		pairs[p] = oursOnly[i]
	}
	for _, n := range append(oursAt, theirsAt...) {
		nodes[n] = true
	}
	return pods, nodes, pairs, true
}

var syncError = regexp.MustCompile(`^[-+] (engine|upstream) error: +"\[(.*)\]"$`)

// batchErrorOrder claims an engine and an upstream sync error that list
// the same aggregated errors in another order.
func batchErrorOrder(lines []string, _, _ outcome) []string {
	var ours, theirs []string
	for _, l := range lines {
		m := syncError.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		parts := strings.Split(m[2], ", ")
		sort.Strings(parts)
		if m[1] == "engine" {
			ours = parts
		} else {
			theirs = parts
		}
	}
	if ours == nil || strings.Join(ours, "\n") != strings.Join(theirs, "\n") {
		return lines
	}
	return dropLines(lines, func(_ int, l string) bool { return syncError.MatchString(l) })
}

var (
	backoffActiveLine  = regexp.MustCompile(`^~ update Job/\S+ status\.active: engine (\d+|\(unchanged\)), upstream (<removed>|0)$`)
	backoffActiveWrite = regexp.MustCompile(`^\+ upstream: update Job/\S+\n +status\.active = (<removed>|0)$`)
)

func podFailureBackoffActive(lines []string, _, theirs outcome) []string {
	if !theirs.backoffRequeue {
		return lines
	}
	return dropLines(lines, func(_ int, l string) bool {
		return backoffActiveLine.MatchString(l) || backoffActiveWrite.MatchString(l)
	})
}

var (
	conditionMessageLine = regexp.MustCompile(`^~ update Job/\S+ status\.conditions\[\d+\]\.message: engine ("(?:[^"\\]|\\.)*"), upstream ("(?:[^"\\]|\\.)*")$`)
	failJobEventLine     = regexp.MustCompile(`^[-+] (engine|upstream): +Job/\S+: Warning PodFailurePolicy (.*)$`)
)

func failJobPodOrder(lines []string, _, theirs outcome) []string {
	known := theirs.failJobMessages
	if len(known) == 0 {
		return lines
	}
	var rest []string
	events := map[string]int{}
	for _, l := range lines {
		if m := conditionMessageLine.FindStringSubmatch(l); m != nil {
			var a, b string
			if json.Unmarshal([]byte(m[1]), &a) == nil && json.Unmarshal([]byte(m[2]), &b) == nil && known[a] && known[b] {
				continue
			}
		}
		if m := failJobEventLine.FindStringSubmatch(l); m != nil && known[m[2]] {
			events[m[1]]++
			continue
		}
		rest = append(rest, l)
	}
	if events["engine"] != events["upstream"] {
		return lines // another count of Events is no other choice
	}
	return rest
}

// conditionGenerationLine matches a pod condition's observedGeneration set
// by upstream alone in an update both sides made.
var conditionGenerationLine = regexp.MustCompile(`^~ update (Pod/\S+ status\.conditions\[\d+\]\.observedGeneration): engine \(unchanged\), upstream (\d+)$`)

func podConditionObservedGeneration(lines []string, _, theirs outcome) []string {
	if len(theirs.conditionGenerations) == 0 {
		return lines
	}
	var rest []string
	for _, l := range lines {
		if m := conditionGenerationLine.FindStringSubmatch(l); m != nil && theirs.conditionGenerations[m[1]] == m[2] {
			continue
		}
		rest = append(rest, l)
	}
	return rest
}

// dropLines is lines without those drop says an allowance explains (nil
// when none is left).
func dropLines(lines []string, drop func(i int, l string) bool) []string {
	var rest []string
	for i, l := range lines {
		if !drop(i, l) {
			rest = append(rest, l)
		}
	}
	return rest
}

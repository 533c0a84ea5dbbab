package conformance

import (
	"context"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unsafe"

	apps "k8s.io/api/apps/v1"
	autoscaling "k8s.io/api/autoscaling/v2"
	batch "k8s.io/api/batch/v1"
	core "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	policy "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/record"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/controller/daemon"
	"github.com/stateflow/stateflow/engine/controller/job"
	"github.com/stateflow/stateflow/engine/controller/podautoscaler"
	"github.com/stateflow/stateflow/engine/controller/statefulset"
	"github.com/stateflow/stateflow/engine/informer"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
)

// outcome is what one sync did, in comparable form.
type outcome struct {
	changes []change
	events  []string
	// raw are upstream's Events before correlation; randomAggregation
	// holds the "Kind/name: Type Reason " prefixes whose aggregation was in
	// client-go's random regime (see allowances.go).
	raw               []*core.Event
	randomAggregation map[string]bool
	err               string
	// hashes maps upstream's pod-template-hash values to the engine's
	// for the same template (see allowances.go).
	hashes map[string]string
	// verdicts, for a scheduling cycle, are upstream's verdict on each
	// node ("node n: score 153" or "node n: filtered: reasons"), and
	// engineVerdicts the engine scheduler's; skip says the tick scheduled
	// nothing (the pod was gone, bound or already assumed).
	verdicts, engineVerdicts []string
	skip                     bool
	// expectations, for a ReplicaSet sync, is what upstream's controller
	// expects to observe after it, and engineExpectations the engine's.
	expectations, engineExpectations string
	// couldDelete, for a ReplicaSet sync, says whether upstream could have
	// chosen these pods to delete (see deletionChoices).
	couldDelete func(victims []string) bool
	// portlessSlices, for an EndpointSlice sync, names the stored slices
	// without ports (see the portless-slice-churn allowance).
	portlessSlices map[string]bool
	// revisionHashes, for a DaemonSet or StatefulSet sync, maps
	// upstream's hash of the template to the engine's (see the
	// revision-name allowance).
	revisionHashes map[string]string
	// exchangeable, for a DaemonSet sync, is what its rolling update
	// chooses by map order (see the daemon-node-order allowance).
	exchangeable *daemonChoice
	// proxyRules, for a kube-proxy sync, are the rules upstream's
	// pkg/proxy programs on the node for each Service port, and
	// engineProxyRules those the proxier holds after the tick;
	// ruleChanges are the changes from the rules the node held before
	// the tick to those it holds after, and engineRuleChanges the ones
	// the tick's trace records (see kubeproxy.go).
	proxyRules, engineProxyRules   map[string]portRules
	ruleChanges, engineRuleChanges []string
	// requeue, for a Job, CronJob or TTL-after-finished sync, is when
	// upstream's controller would look at the key again, and
	// engineRequeue when the engine's does (both "" when not comparable;
	// see requeue.go).
	requeue, engineRequeue string
	// backoffRequeue, for a Job sync, says upstream put the Job back in
	// its queue for the pod failure backoff (see the
	// pod-failure-backoff-active allowance).
	backoffRequeue bool
	// failJobMessages, for a Job sync, are the messages upstream could
	// give a FailJob failure (see the fail-job-pod-order allowance).
	failJobMessages map[string]bool
	// conditionGenerations, for a disruption controller's sync of a pod,
	// maps the observedGeneration field of the pod's DisruptionTarget
	// condition ("Pod/name status.conditions[i].observedGeneration") to
	// the pod's generation (see the pod-condition-observed-generation
	// allowance).
	conditionGenerations map[string]string
}

// Difference is one tick on which the engine and the upstream controller
// disagree, with a readable diff.
type Difference struct {
	Tick      int
	Time      int64
	Component string
	Object    string
	Lines     []string // "- engine: …" and "+ upstream: …"
	Allowance string   // the allowance that explains it, if any
	// Residue, when no allowance explains every line, is what is left
	// once they have claimed theirs.
	Residue []string
}

func (d Difference) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "tick %d (%s) %s %s:", d.Tick, trace.FormatTime(d.Time), d.Component, d.Object)
	if d.Allowance != "" {
		fmt.Fprintf(&b, " [allowed: %s]", d.Allowance)
	}
	for _, l := range d.Lines {
		b.WriteString("\n    " + l)
	}
	if d.Allowance == "" && len(d.Residue) > 0 && !slices.Equal(d.Residue, d.Lines) {
		b.WriteString("\n  left unexplained by the allowances:")
		for _, l := range d.Residue {
			b.WriteString("\n    " + l)
		}
	}
	return b.String()
}

// Report sums up a run: the ticks replayed per component, and the
// differences, allowed or not.
type Report struct {
	Checked     map[string]int
	Differences []Difference
}

// Unexplained returns the differences no allowance explains.
func (r *Report) Unexplained() []Difference {
	var out []Difference
	for _, d := range r.Differences {
		if d.Allowance == "" {
			out = append(out, d)
		}
	}
	return out
}

// replayer re-decides one tick of one component upstream.
type replayer func(ctx context.Context, in *tickInput) (outcome, error)

// tickInput is everything a component had at a tick.
type tickInput struct {
	tick *trace.Tick
	view *informer.Cache  // the component's cache as the tick read it
	live []runtime.Object // the API server's objects before the tick
	// engineLive are the same objects as the engine holds them.
	engineLive []api.Object
	rv         int64
	quota      int // the engine's pod quota per namespace
	// names counts the names upstream drew from generateName in the run,
	// so that each is new, as the engine's are.
	names *int
	clock clock
	comp  reconcile.Component // the engine's component
	// before is the component as it was before the tick, for the local
	// state a sync changes (the ReplicaSet controller's expectations).
	before reconcile.Component
	// run is the state upstream's controllers keep across the syncs of
	// one run (nil: a fresh one).
	run *runState
}

// Check steps e until stop says so (or nothing is left to do), and
// replays every tick of a covered controller through upstream.
func Check(e *engine.Engine, stop func(*engine.Engine) bool) (*Report, error) {
	return checkOnly(e, stop, nil)
}

// checkOnly is Check replaying only the ticks of the named components
// (nil: every covered one).
func checkOnly(e *engine.Engine, stop func(*engine.Engine) bool, only map[string]bool) (*Report, error) {
	ctx := context.Background()
	rep := &Report{Checked: map[string]int{}}
	correlators := map[string]*correlator{}
	names := new(int)
	run := newRunState()
	for !stop(e) {
		// Deliveries due before the tick reach the caches (and the
		// expectations) first: copy the components after them.
		e.Drain()
		rvBefore := e.Store().ResourceVersion()
		snapshots := map[string]reconcile.Component{}
		for _, c := range e.Components() {
			if localState[c.Name()] && (only == nil || only[c.Name()]) {
				snapshots[actorOf(c)] = c.Clone()
			}
		}
		tk := e.Step()
		if tk == nil {
			break
		}
		replay, ok := replayers[tk.Component]
		if !ok || (only != nil && !only[tk.Component]) {
			continue
		}
		var in *tickInput
		var err error
		if tk.Host != "" {
			in, err = nodeTickInput(tk, componentOn(e, tk.Component, tk.Host))
		} else {
			in, err = newTickInput(e, tk, component(e, tk.Component), rvBefore)
		}
		if err != nil {
			return rep, fmt.Errorf("tick %d: %w", tk.Seq, err)
		}
		in.before = snapshots[tk.Actor()]
		in.names = names
		in.run = run
		theirs, err := replay(ctx, in)
		if err != nil {
			return rep, fmt.Errorf("tick %d: replaying %s upstream: %w", tk.Seq, tk.Component, err)
		}
		if theirs.skip {
			if len(tk.Effects) > 0 {
				rep.Differences = append(rep.Differences, Difference{Tick: tk.Seq, Time: tk.Time, Component: tk.Actor(), Object: tk.Object.String(),
					Lines: []string{"- engine wrote although upstream would not have acted (the pod was gone, bound or already assumed)"}})
			}
			rep.Checked[tk.Component]++
			continue
		}
		ours, err := engineOutcome(tk, in.clock)
		if err != nil {
			return rep, fmt.Errorf("tick %d: %w", tk.Seq, err)
		}
		corr := correlators[tk.Component]
		if corr == nil {
			corr = newCorrelator()
			correlators[tk.Component] = corr
		}
		ours, theirs, renames := pairUp(in, ours, theirs, corr)
		rep.Checked[tk.Component]++
		compared := compare(ours, theirs, renames)
		if theirs.verdicts != nil {
			compared = compareVerdicts(ours, theirs)
		}
		if lines := compared; len(lines) > 0 {
			d := Difference{Tick: tk.Seq, Time: tk.Time, Component: tk.Actor(), Object: tk.Object.String(), Lines: lines}
			d.Allowance, d.Residue = explain(lines, ours, theirs)
			rep.Differences = append(rep.Differences, d)
		}
	}
	return rep, nil
}

// pairUp readies a replayed tick for comparison: upstream's names paired
// with the engine's (returned, for compare), its Events renamed alike and
// passed through the component's correlator, and the names of pods whose
// creation failed set aside.
func pairUp(in *tickInput, ours, theirs outcome, corr *correlator) (outcome, outcome, map[string]string) {
	tk := in.tick
	renames := nameMap(ours, theirs)
	activeVersions(ours, theirs, renames)
	for _, ev := range theirs.raw {
		ev.Message = renameText(renames, ev.Message)
	}
	if _, _, pairs, ok := daemonExchange(ours, theirs); ok {
		// An allowed other choice of pods (daemon-node-order): its
		// Events name the pods the run deleted, so that the
		// correlator's history stays the run's.
		for _, ev := range theirs.raw {
			ev.Message = renameText(pairs, ev.Message)
		}
	}
	if concurrentEvents[tk.Component] {
		theirs.raw = inEngineOrder(theirs.raw, ours.events)
	}
	theirs.events, theirs.randomAggregation = corr.correlate(tk.Component, tk.Time, theirs.raw)
	if tk.Object.Kind == api.KindReplicaSet || tk.Object.Kind == api.KindDaemonSet || tk.Object.Kind == api.KindJob {
		unnamed := failedPodNames(tk.Object.Name+"-", in, ours, theirs)
		ours, theirs = unnamed(ours), unnamed(theirs)
	}
	return ours, theirs, renames
}

// activeVersion is the resourceVersion of a Job a CronJob lists in
// status.active.
var activeVersion = regexp.MustCompile(`^status\.active\[\d+\]\.resourceVersion$`)

// activeVersions gives the Jobs a CronJob sync created, where upstream's
// status.active lists them, the engine's resourceVersions of the same
// Jobs: each API server counts its own (the engine's Events, for one,
// take versions too).
func activeVersions(ours, theirs outcome, names map[string]string) {
	versions := map[string]string{}
	for _, c := range ours.changes {
		if c.verb == "create" {
			versions[c.kind+"/"+c.name] = c.rv
		}
	}
	pairs := map[string]string{}
	for _, c := range theirs.changes {
		if v := versions[c.kind+"/"+renameText(names, c.name)]; c.verb == "create" && v != "" {
			pairs[fmt.Sprintf("%q", c.rv)] = fmt.Sprintf("%q", v)
		}
	}
	for _, c := range theirs.changes {
		for p, v := range c.fields {
			if to, ok := pairs[v]; ok && c.kind == "CronJob" && activeVersion.MatchString(p) {
				c.fields[p] = to
			}
		}
	}
}

// component is the engine's component of that name as it is now (a
// checkpoint may have made the live one a copy).
func component(e *engine.Engine, name string) reconcile.Component {
	for _, c := range e.Components() {
		if c.Name() == name && c.Host() == "" {
			return c
		}
	}
	return nil
}

func newTickInput(e *engine.Engine, tk *trace.Tick, comp reconcile.Component, rv int64) (*tickInput, error) {
	clk := newClock(tk.Time)
	if virtualTime[tk.Component] {
		clk = virtualClock(tk.Time)
	}
	objs := liveBefore(e.Store(), tk, tk.Object.Namespace, append(slices.Clone(liveKinds), metricsKinds[tk.Component]...))
	live, err := clk.toK8sAll(slices.DeleteFunc(slices.Clone(objs), func(o api.Object) bool { return o.GetKind() == api.KindPodMetrics }))
	if err != nil {
		return nil, err
	}
	return &tickInput{tick: tk, view: comp.Cache(), live: live, engineLive: objs, rv: rv, quota: e.Store().PodQuota(), clock: clk, comp: comp}, nil
}

// liveKinds are the kinds the replayed controllers read or write.
var liveKinds = []string{api.KindDeployment, api.KindReplicaSet, api.KindPod, api.KindService, api.KindEndpointSlice, api.KindEndpoints,
	api.KindDaemonSet, api.KindStatefulSet, api.KindControllerRevision, api.KindPersistentVolumeClaim, api.KindJob, api.KindCronJob,
	api.KindHorizontalPodAutoscaler, api.KindPodDisruptionBudget, api.KindReplicationController}

// metricsKinds are the metrics API's kinds a component reads: they join
// the engine's live objects of its ticks (the metrics API is not the
// fake clientset's; the replayer serves them itself).
var metricsKinds = map[string][]string{podautoscaler.Name: {api.KindPodMetrics}}

// liveBefore rebuilds the API server's objects of the kinds in the
// namespace as they were before the tick: the store after it, with each
// object the tick wrote put back as its first write found it.
func liveBefore(s apiserver.Reader, tk *trace.Tick, ns string, kinds []string) []api.Object {
	objs := map[api.Key]api.Object{}
	for _, kind := range kinds {
		for _, o := range s.List(kind, ns) {
			objs[api.KeyOf(o)] = o
		}
	}
	seen := map[api.Key]bool{}
	for _, ef := range tk.Effects {
		if ef.Class == trace.Event || seen[ef.Object] {
			continue
		}
		seen[ef.Object] = true
		if ef.Before == nil {
			delete(objs, ef.Object)
		} else {
			objs[ef.Object] = ef.Before
		}
	}
	out := make([]api.Object, 0, len(objs))
	for _, kind := range kinds {
		for k, o := range objs {
			if k.Kind == kind {
				out = append(out, o)
			}
		}
	}
	return out
}

// engineOutcome is the engine's tick in comparable form.
func engineOutcome(tk *trace.Tick, clk clock) (outcome, error) {
	out := outcome{err: tk.Err()}
	for _, ef := range tk.Effects {
		if ef.Class == trace.Event {
			ev, _ := api.EventOf(ef.After)
			out.events = append(out.events, eventLine(ev.InvolvedObject.Kind, ev.InvolvedObject.Name, ev.Type, ev.Reason, ev.Message))
			continue
		}
		var before, after runtime.Object
		var err error
		if ef.Before != nil {
			if before, err = clk.toK8s(ef.Before); err != nil {
				return out, err
			}
		}
		if ef.After != nil {
			if after, err = clk.toK8s(ef.After); err != nil {
				return out, err
			}
		}
		c, err := changeOf(ef.Op.String(), ef.Object.Kind, ef.Object.Name, before, after, clk, false)
		if err != nil {
			return out, err
		}
		out.changes = append(out.changes, c)
	}
	return out, nil
}

// upstreamOutcome turns the fake API server's writes and the recorder's
// Events into comparable form; failed writes left nothing behind.
func upstreamOutcome(srv *apiServer, rec *recorder, err error, clk clock) (outcome, error) {
	out := outcome{err: errorText(err), raw: rec.events}
	for _, w := range srv.writes {
		if w.err != nil || (w.verb == "update" && reflect.DeepEqual(w.before, w.after)) {
			continue
		}
		c, cerr := changeOf(w.verb, w.kind, w.name, w.before, w.after, clk, true)
		if cerr != nil {
			return out, cerr
		}
		c.generated = w.generated
		out.changes = append(out.changes, c)
	}
	return out, nil
}

// nameMap maps the names upstream chose to the engine's: EndpointSlices
// created from generateName, paired by content (pairSlices), other
// objects created from generateName, paired in order, template hashes,
// and the uids of the objects both created.
func nameMap(ours, theirs outcome) map[string]string {
	names := pairNames(ours.changes, theirs.changes, func(c change) string {
		if g, ok := c.fields["metadata.generateName"]; ok && c.kind != "EndpointSlice" {
			return g
		}
		return ""
	})
	for from, to := range pairSlices(ours.changes, theirs.changes) {
		names[from] = to
	}
	for from, to := range theirs.hashes {
		names[from] = to
	}
	// The uids of created objects: a created Job's selects its pods, and
	// a CronJob lists it in status.active.
	uids := map[string]string{}
	for _, c := range ours.changes {
		if c.verb == "create" {
			uids[c.kind+"/"+c.name] = c.uid
		}
	}
	for _, c := range theirs.changes {
		if u := uids[c.kind+"/"+renameText(names, c.name)]; c.verb == "create" && u != "" && c.uid != "" {
			names[c.uid] = u
		}
	}
	return names
}

// compare returns the readable differences between two outcomes: writes
// paired by operation and object (upstream's names mapped to the
// engine's), then Events as multisets, then the error.
func compare(ours, theirs outcome, names map[string]string) []string {
	rename(names, theirs.changes)
	var lines []string
	lines = append(lines, diffChanges(ours.changes, theirs.changes)...)
	lines = append(lines, diffLists(ours.events, theirs.events)...)
	if ours.err != renameText(names, theirs.err) {
		lines = append(lines, fmt.Sprintf("- engine error:   %q", ours.err), fmt.Sprintf("+ upstream error: %q", theirs.err))
	}
	if theirs.expectations != theirs.engineExpectations {
		lines = append(lines, "- engine "+theirs.engineExpectations, "+ upstream "+theirs.expectations)
	}
	if theirs.requeue != theirs.engineRequeue {
		lines = append(lines, "- engine "+theirs.engineRequeue, "+ upstream "+theirs.requeue)
	}
	if theirs.proxyRules != nil {
		lines = append(lines, diffProxyRules(theirs.engineProxyRules, theirs.proxyRules)...)
		lines = append(lines, diffTrace(theirs.engineRuleChanges, theirs.ruleChanges)...)
	}
	return lines
}

// diffChanges pairs writes by operation and object, in order, and reports
// unpaired writes whole and paired ones field by field.
func diffChanges(ours, theirs []change) []string {
	key := func(c change) string { return c.verb + " " + c.kind + "/" + c.name }
	pending := map[string][]change{}
	for _, c := range theirs {
		pending[key(c)] = append(pending[key(c)], c)
	}
	var lines []string
	for _, c := range ours {
		q := pending[key(c)]
		if len(q) == 0 {
			lines = append(lines, "- engine:   "+c.String())
			continue
		}
		t := q[0]
		pending[key(c)] = q[1:]
		lines = append(lines, diffFields(key(c), c.fields, t.fields)...)
	}
	for _, c := range theirs {
		if q := pending[key(c)]; len(q) > 0 {
			lines = append(lines, "+ upstream: "+q[0].String())
			pending[key(c)] = q[1:]
		}
	}
	return lines
}

func diffFields(what string, ours, theirs map[string]string) []string {
	var lines []string
	for _, p := range sortedKeys(ours, theirs) {
		a, okA := ours[p]
		b, okB := theirs[p]
		if okA && okB && a == b {
			continue
		}
		if !okA {
			a = "(unchanged)"
		}
		if !okB {
			b = "(unchanged)"
		}
		lines = append(lines, fmt.Sprintf("~ %s %s: engine %s, upstream %s", what, p, a, b))
	}
	return lines
}

// sortedKeys are the keys of the maps, each once, sorted.
func sortedKeys[V any](ms ...map[string]V) []string {
	set := map[string]bool{}
	for _, m := range ms {
		for k := range m {
			set[k] = true
		}
	}
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// field returns a settable view of the unexported field name of the
// struct ptr points to: the upstream controllers keep their recorder,
// sync handler, pod control, clock and expectations unexported, and the
// harness must reach them to drive one sync as upstream's own unit tests
// do from inside the package.
func field(ptr any, name string) reflect.Value {
	v := reflect.ValueOf(ptr).Elem().FieldByName(name)
	if !v.IsValid() {
		panic(fmt.Sprintf("%T has no field %s: the upstream controller changed", ptr, name))
	}
	return reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
}

// stopController shuts down what an upstream controller's constructor
// started: its event broadcaster and its work queue (a long run would
// otherwise keep their goroutines).
func stopController(ctrl any) {
	field(ctrl, "eventBroadcaster").Interface().(record.EventBroadcaster).Shutdown()
	field(ctrl, "queue").Interface().(interface{ ShutDown() }).ShutDown()
}

// kindOfObject names the kind of a typed object that carries no TypeMeta.
func kindOfObject(o runtime.Object) string {
	switch o.(type) {
	case *apps.Deployment:
		return "Deployment"
	case *apps.ReplicaSet:
		return "ReplicaSet"
	case *core.ReplicationController:
		return "ReplicationController"
	case *core.Pod:
		return "Pod"
	case *core.Node:
		return "Node"
	case *core.Service:
		return "Service"
	case *core.Endpoints:
		return "Endpoints"
	case *discovery.EndpointSlice:
		return "EndpointSlice"
	case *apps.DaemonSet:
		return "DaemonSet"
	case *apps.StatefulSet:
		return "StatefulSet"
	case *apps.ControllerRevision:
		return "ControllerRevision"
	case *core.PersistentVolumeClaim:
		return "PersistentVolumeClaim"
	case *batch.Job:
		return "Job"
	case *batch.CronJob:
		return "CronJob"
	case *autoscaling.HorizontalPodAutoscaler:
		return "HorizontalPodAutoscaler"
	case *policy.PodDisruptionBudget:
		return "PodDisruptionBudget"
	}
	return fmt.Sprintf("%T", o)
}

// failedPodNames returns a rewriter that replaces, in a ReplicaSet sync's
// texts (Events, the error, field values), the names drawn from
// generateName for pods whose creation failed — refused by a quota, say —
// by "<generated>": each API server draws its own, and a failed create
// leaves no object to pair them by.
func failedPodNames(generateName string, in *tickInput, ours, theirs outcome) func(outcome) outcome {
	known := map[string]bool{}
	for _, o := range in.live {
		if m, err := meta.Accessor(o); err == nil {
			known[m.GetName()] = true
		}
	}
	for _, c := range ours.changes {
		known[c.name] = true
	}
	for _, c := range theirs.changes {
		known[c.name] = true // upstream's own name, before the pairing renames it
	}
	re := regexp.MustCompile(regexp.QuoteMeta(generateName) + `(h[0-9]{4,}|[a-z0-9]{5})\b`)
	fix := func(s string) string {
		return re.ReplaceAllStringFunc(s, func(n string) string {
			if known[n] {
				return n
			}
			return generateName + "<generated>"
		})
	}
	return func(o outcome) outcome {
		o.err = fix(o.err)
		events := make([]string, len(o.events))
		for i, e := range o.events {
			events[i] = fix(e)
		}
		o.events = events
		changes := make([]change, len(o.changes))
		for i, c := range o.changes {
			fields := make(map[string]string, len(c.fields))
			for p, v := range c.fields {
				fields[p] = fix(v)
			}
			c.fields = fields
			changes[i] = c
		}
		o.changes = changes
		return o
	}
}

// concurrentEvents names the components whose upstream controllers create
// and delete pods from concurrent goroutines (the DaemonSet controller's
// syncNodes, the StatefulSet controller's slowStartBatch for Parallel
// sets, the Job controller's manageJob and deleteActivePods), so that the
// order of their Events is the goroutines' order.
var concurrentEvents = map[string]bool{daemon.Name: true, statefulset.Name: true, job.Name: true}

// inEngineOrder puts upstream's Events of a sync in the order in which the
// engine wrote the same Events, the rest after them in their own order.
// The order decides what client-go's correlator does with them (which
// Event the spam filter drops, which is aggregated), and for Events of
// concurrent writes it is the order in which goroutines happened to run:
// the engine's, which must be deterministic, is one of those orders.
func inEngineOrder(raw []*core.Event, engine []string) []*core.Event {
	rank := map[string][]int{}
	for i, l := range engine {
		l = strings.Replace(l, combined, "", 1)
		rank[l] = append(rank[l], i)
	}
	type ranked struct {
		ev   *core.Event
		rank int
	}
	rs := make([]ranked, len(raw))
	for i, ev := range raw {
		l := eventLine(ev.InvolvedObject.Kind, ev.InvolvedObject.Name, ev.Type, ev.Reason, ev.Message)
		rs[i] = ranked{ev, len(engine) + i}
		if q := rank[l]; len(q) > 0 {
			rs[i].rank, rank[l] = q[0], q[1:]
		}
	}
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].rank < rs[j].rank })
	out := make([]*core.Event, len(rs))
	for i, r := range rs {
		out[i] = r.ev
	}
	return out
}

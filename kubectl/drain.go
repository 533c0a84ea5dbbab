package kubectl

// This file is kubectl drain (pkg/cmd/drain and pkg/drain): cordon the
// node, pick its pods with kubectl's filters, evict them all at once
// through the Eviction API, retry a refusal (429) every 5 s, poll every
// second until each is gone, and end with "drained" or the errors.
// Unlike the other commands it runs on the virtual clock: it is an
// engine.Client whose every step is a tick.

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/stateflow/stateflow/engine/api/labels"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/eviction"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
)

const (
	// evictErrorRetryDelay is how long kubectl waits after a 429.
	evictErrorRetryDelay = 5_000
	// deletePollInterval is waitForDelete's interval.
	deletePollInterval = 1_000
)

// The filters' messages (pkg/drain/filters.go).
const (
	daemonSetFatal      = "DaemonSet-managed Pods (use --ignore-daemonsets to ignore)"
	daemonSetWarning    = "ignoring DaemonSet-managed Pods"
	localStorageFatal   = "Pods with local storage (use --delete-emptydir-data to override)"
	localStorageWarning = "deleting Pods with local storage"
	unmanagedFatal      = "cannot delete Pods that declare no controller (use --force to override)"
	unmanagedWarning    = "deleting Pods that declare no controller"
)

// drainer is one kubectl drain: its flags, then its progress. It is an
// engine.Client.
type drainer struct {
	node             string
	ignoreDaemonSets bool
	deleteEmptyDir   bool
	force            bool
	grace            *int64
	timeout          int64 // ms; 0: none
	selector         string
	// disableEviction deletes the pods instead of evicting them
	// (--disable-eviction): no PodDisruptionBudget is asked.
	disableEviction bool
	// dryRun (--dry-run=client) prints what it would do and changes
	// nothing.
	dryRun bool

	started  bool
	deadline int64
	pods     []drainPod
	errs     []string
	log      []printed
	// why are this step's reasons for refusals (the 429's cause, which
	// kubectl does not print), for the tick's explanation.
	why      []string
	finished bool
	// err is the command's error as kubectl's last line prints it (exit
	// 1), once finished.
	err string
}

// drainPod is one pod's goroutine: evicting (retrying), then waiting for
// the pod to be gone.
type drainPod struct {
	ns, name, uid string
	waiting, done bool
	next          int64
}

// printed is a line kubectl wrote, to stderr or stdout.
type printed struct {
	stderr bool
	text   string
}

var _ engine.Client = (*drainer)(nil)

// buildDrain parses kubectl drain's flags.
func buildDrain(s *Session, args []string) (*Mutation, error) {
	d, err := parseDrain(args)
	if err != nil {
		return nil, err
	}
	return &Mutation{Object: api.Key{Kind: api.KindNode, Name: d.node}, client: d}, nil
}

func parseDrain(args []string) (*drainer, error) {
	p, err := parseFlags("drain", args, []flagSpec{{"ignore-daemonsets", "", false}, {"delete-emptydir-data", "", false}, {"force", "", false},
		{"grace-period", "", true}, {"timeout", "", true}, {"pod-selector", "", true}, {"disable-eviction", "", false}, {"dry-run", "", true}})
	if err != nil {
		return nil, err
	}
	if len(p.args) != 1 {
		return nil, usageErr("drain", "USAGE: drain NODE [flags]")
	}
	d := &drainer{node: strings.TrimPrefix(strings.TrimPrefix(p.args[0], "node/"), "nodes/"), ignoreDaemonSets: p.bool("ignore-daemonsets"),
		deleteEmptyDir: p.bool("delete-emptydir-data"), force: p.bool("force"), selector: p.str("pod-selector"), disableEviction: p.bool("disable-eviction")}
	switch dry, err := dryRunStrategy(p.str("dry-run")); {
	case err != nil:
		return nil, err
	case dry == "server":
		return nil, errorf("--dry-run=server is not simulated for drain; use --dry-run=client")
	case dry == "client":
		d.dryRun = true
	}
	if p.has("grace-period") {
		g, err := strconv.ParseInt(p.str("grace-period"), 10, 64)
		if err != nil || strconv.FormatInt(g, 10) != p.str("grace-period") {
			return nil, errorf("invalid argument %q for \"--grace-period\" flag: strconv.ParseInt: parsing %q: invalid syntax", p.str("grace-period"), p.str("grace-period"))
		}
		if g >= 0 {
			d.grace = &g
		}
	}
	if p.has("timeout") {
		t, err := time.ParseDuration(p.str("timeout"))
		if err != nil {
			return nil, errorf("invalid argument %q for \"--timeout\" flag: %v", p.str("timeout"), err)
		}
		d.timeout = t.Milliseconds()
	}
	if _, err := labels.Parse(d.selector); err != nil {
		return nil, errorf("%v", err)
	}
	return d, nil
}

// Clone implements engine.Client.
func (d *drainer) Clone() engine.Client {
	c := *d
	c.pods, c.errs, c.log = slices.Clone(d.pods), slices.Clone(d.errs), slices.Clone(d.log)
	return &c
}

// Step implements engine.Client: the first step cordons, filters and
// starts the evictions; later ones take each pod's due retry or poll.
func (d *drainer) Step(tick reconcile.Tick) (int64, string, error) {
	before := len(d.log)
	d.why = nil
	if !d.started {
		d.started = true
		d.start(tick)
	}
	if !d.finished {
		d.advance(tick)
	}
	d.explain(tick, before)
	var printed strings.Builder
	for _, l := range d.log[before:] {
		printed.WriteString(l.text + "\n")
	}
	if d.finished {
		if d.err != "" {
			printed.WriteString(d.err + "\n")
			return 0, printed.String(), fmt.Errorf("%s", strings.TrimPrefix(d.err, "error: "))
		}
		return 0, printed.String(), nil
	}
	next := int64(-1)
	for _, p := range d.pods {
		if !p.done && (next < 0 || p.next < next) {
			next = p.next
		}
	}
	return next - tick.Now(), printed.String(), nil
}

// Waiting implements engine.Client.
func (d *drainer) Waiting() string {
	var retrying, waiting []string
	for _, p := range d.pods {
		switch {
		case p.done:
		case p.waiting:
			waiting = append(waiting, p.ns+"/"+p.name)
		default:
			retrying = append(retrying, p.ns+"/"+p.name)
		}
	}
	if len(retrying) > 0 {
		return fmt.Sprintf("kubectl drain %s retries the eviction of %s every 5 s (a PodDisruptionBudget refuses it)", d.node, strings.Join(retrying, ", "))
	}
	return fmt.Sprintf("kubectl drain %s waits for %s to be deleted", d.node, strings.Join(waiting, ", "))
}

func (d *drainer) out(format string, args ...any) {
	d.log = append(d.log, printed{text: fmt.Sprintf(format, args...)})
}

func (d *drainer) errOut(format string, args ...any) {
	d.log = append(d.log, printed{stderr: true, text: fmt.Sprintf(format, args...)})
}

// start is RunDrain up to the evictions: cordon, list and filter the
// node's pods (GetPodsForDeletion), print the warnings.
func (d *drainer) start(tick reconcile.Tick) {
	if d.dryRun {
		d.dryRunStart(tick)
		return
	}
	line, err := setUnschedulable(tick, api.Key{Kind: api.KindNode, Name: d.node}, true)
	if err != nil {
		d.finished, d.err = true, err.Error()
		return
	}
	d.out("%s", strings.TrimSuffix(line, "\n"))
	pods, warnings, errs := d.podsForDeletion(tick)
	if len(errs) > 0 {
		d.fail(aggregate(errs))
		return
	}
	if warnings != "" {
		d.errOut("Warning: %s", warnings)
	}
	if len(pods) == 0 {
		d.out("node/%s drained", d.node)
		d.finished = true
		return
	}
	if d.timeout > 0 {
		d.deadline = tick.Now() + d.timeout
	}
	for _, p := range pods {
		d.pods = append(d.pods, drainPod{ns: p.Namespace, name: p.Name, uid: p.UID, next: tick.Now()})
	}
	if d.disableEviction {
		d.deletePods(tick)
	}
}

// dryRunStart is a client dry run: kubectl reads the node and its pods,
// prints what it would do, and writes nothing.
func (d *drainer) dryRunStart(tick reconcile.Tick) {
	d.finished = true
	o, ok := tick.LiveGet(api.Key{Kind: api.KindNode, Name: d.node})
	if !ok {
		d.err = fmt.Sprintf("Error from server (NotFound): nodes %q not found", d.node)
		return
	}
	word := "cordoned"
	if o.(*api.Node).Spec.Unschedulable {
		word = "already cordoned"
	}
	d.out("node/%s %s (dry run)", d.node, word)
	pods, warnings, errs := d.podsForDeletion(tick)
	if len(errs) > 0 {
		d.fail(aggregate(errs))
		return
	}
	if warnings != "" {
		d.errOut("Warning: %s", warnings)
	}
	for _, p := range pods {
		d.out("evicting pod %s/%s (dry run)", p.Namespace, p.Name)
	}
	d.out("node/%s drained (dry run)", d.node)
}

// deletePods is --disable-eviction's deletePods: every pod deleted at
// once, no budget asked, then polled every second until gone.
func (d *drainer) deletePods(tick reconcile.Tick) {
	for i := range d.pods {
		p := &d.pods[i]
		p.waiting = true
		key := api.Key{Kind: api.KindPod, Namespace: p.ns, Name: p.name}
		err := tick.Delete(trace.Translate, key, apiserver.DeleteOptions{GracePeriodSeconds: d.grace}, "kubectl drain --disable-eviction: deleted pod/"+p.name)
		if err != nil && !apiserver.IsReason(err, apiserver.ReasonNotFound) {
			for j := range d.pods {
				d.pods[j].done = true
			}
			d.errs = append(d.errs, err.Error())
			return
		}
	}
}

// advance runs every pod's step that is due, then ends the drain when
// every pod is done.
func (d *drainer) advance(tick reconcile.Tick) {
	for i := range d.pods {
		if p := &d.pods[i]; !p.done && p.next <= tick.Now() {
			d.stepPod(tick, p)
		}
	}
	for _, p := range d.pods {
		if !p.done {
			return
		}
	}
	d.finish(tick)
}

// stepPod is one turn of evictPods' loop for the pod, or one poll of
// waitForDelete.
func (d *drainer) stepPod(tick reconcile.Tick, p *drainPod) {
	now := tick.Now()
	if p.waiting {
		switch {
		case d.deadline > 0 && now >= d.deadline && d.disableEviction:
			// deletePods waits for every pod in one poll, which the
			// timeout ends for all of them.
			for i := range d.pods {
				d.pods[i].done = true
			}
			d.errs = append(d.errs, "context deadline exceeded")
			return
		case d.deadline > 0 && now >= d.deadline:
			d.podFailed(p, fmt.Sprintf("error when waiting for pod %q in namespace %q to terminate: context deadline exceeded", p.name, p.ns))
			return
		}
		d.poll(tick, p)
		return
	}
	d.out("evicting pod %s/%s", p.ns, p.name)
	if d.deadline > 0 && now >= d.deadline {
		d.podFailed(p, fmt.Sprintf("error when evicting pods/%q -n %q: global timeout reached: %v", p.name, p.ns, time.Duration(d.timeout)*time.Millisecond))
		return
	}
	key := api.Key{Kind: api.KindPod, Namespace: p.ns, Name: p.name}
	_, err := eviction.Evict(tick, key, apiserver.DeleteOptions{GracePeriodSeconds: d.grace})
	switch {
	case err == nil:
		p.waiting = true
		d.poll(tick, p)
	case apiserver.IsReason(err, apiserver.ReasonNotFound):
		p.done = true
	case apiserver.IsReason(err, apiserver.ReasonTooManyRequests):
		d.errOut("error when evicting pods/%q -n %q (will retry after 5s): %v", p.name, p.ns, err)
		if se := (*apiserver.StatusError)(nil); errors.As(err, &se) && len(se.Causes) > 0 {
			d.why = append(d.why, se.Causes...)
		}
		p.next = now + evictErrorRetryDelay
	default:
		d.podFailed(p, fmt.Sprintf("error when evicting pods/%q -n %q: %v", p.name, p.ns, err))
	}
}

// poll is waitForDelete's condition: the pod is gone, or another pod
// took its name.
func (d *drainer) poll(tick reconcile.Tick, p *drainPod) {
	o, ok := tick.LiveGet(api.Key{Kind: api.KindPod, Namespace: p.ns, Name: p.name})
	if !ok || o.Meta().UID != p.uid {
		verb := "evicted"
		if d.disableEviction {
			verb = "deleted"
		}
		d.out("pod/%s %s", p.name, verb)
		p.done = true
		return
	}
	p.next = tick.Now() + deletePollInterval
}

func (d *drainer) podFailed(p *drainPod, msg string) {
	p.done = true
	d.errs = append(d.errs, msg)
}

// finish is the end of deleteOrEvictPodsSimple and RunDrain.
func (d *drainer) finish(tick reconcile.Tick) {
	if len(d.errs) == 0 {
		d.out("node/%s drained", d.node)
		d.finished = true
		return
	}
	agg := aggregate(d.errs)
	if pending, _, _ := d.podsForDeletion(tick); len(pending) > 0 {
		d.errOut("There are pending pods in node %q when an error occurred: %s", d.node, agg)
		for _, p := range pending {
			d.errOut("pod/%s", p.Name)
		}
	}
	d.fail(agg)
}

// fail is RunDrain's report of a node it could not drain.
func (d *drainer) fail(agg string) {
	d.errOut("error: unable to drain node %q due to error: %s, continuing command...", d.node, agg)
	d.errOut("There are pending nodes to be drained:")
	d.errOut(" %s", d.node)
	d.finished, d.err = true, "error: "+agg
}

// aggregate is utilerrors.NewAggregate's message: one error as it is,
// more in brackets, duplicates once.
func aggregate(errs []string) string {
	var uniq []string
	for _, e := range errs {
		if !slices.Contains(uniq, e) {
			uniq = append(uniq, e)
		}
	}
	if len(uniq) == 1 {
		return uniq[0]
	}
	return "[" + strings.Join(uniq, ", ") + "]"
}

// explain sets the tick's explanation: what kubectl printed in this
// step, and why an eviction was refused.
func (d *drainer) explain(tick reconcile.Tick, from int) {
	var lines []string
	for _, l := range d.log[from:] {
		lines = append(lines, l.text)
	}
	if len(lines) == 0 {
		var waiting []string
		for _, p := range d.pods {
			if p.waiting && !p.done {
				waiting = append(waiting, "pod/"+p.name)
			}
		}
		tick.Explain("kubectl drain %s: waits for %s to be deleted (polls every 1s)", d.node, strings.Join(waiting, ", "))
		return
	}
	if len(d.why) > 0 {
		lines = append(lines, "the API server's reason: "+strings.Join(d.why, "; "))
	}
	tick.Explain("kubectl drain %s: %s", d.node, strings.Join(lines, "; "))
}

// podsForDeletion is GetPodsForDeletion: the node's pods (all
// namespaces, --pod-selector) through kubectl's filters in order:
// DaemonSet pods are an error or skipped with a warning, mirror pods
// skipped, pods with emptyDir and pods without a controller an error
// unless the flag allows them. It returns the pods to evict, the
// warnings and the errors.
func (d *drainer) podsForDeletion(tick reconcile.Tick) ([]*api.Pod, string, []string) {
	sel, _ := labels.Parse(d.selector)
	var pods []*api.Pod
	warnings, failed := map[string][]string{}, map[string][]string{}
	var warnOrder, failOrder []string
	for _, o := range tick.LiveList(api.KindPod, "") {
		p := o.(*api.Pod)
		if p.Spec.NodeName != d.node || !sel.Matches(labels.Set(p.Labels)) {
			continue
		}
		del, reason, msg := d.filter(tick, p)
		name := p.Namespace + "/" + p.Name
		switch {
		case reason == "Warning":
			if _, ok := warnings[msg]; !ok {
				warnOrder = append(warnOrder, msg)
			}
			warnings[msg] = append(warnings[msg], name)
		case reason == "Error":
			if _, ok := failed[msg]; !ok {
				failOrder = append(failOrder, msg)
			}
			failed[msg] = append(failed[msg], name)
		}
		if del {
			pods = append(pods, p)
		}
	}
	var errs []string
	for _, msg := range failOrder {
		errs = append(errs, fmt.Sprintf("cannot delete %s: %s", msg, strings.Join(failed[msg], ", ")))
	}
	var ws []string
	for _, msg := range warnOrder {
		ws = append(ws, msg+": "+strings.Join(warnings[msg], ", "))
	}
	return pods, strings.Join(ws, "; "), errs
}

// filter runs makeFilters' filters on a pod until one drops it: whether
// to delete it, and the status of the last filter that ran ("",
// "Warning", "Error", "Skip") with its message. As upstream, a warning
// of an earlier filter is lost when a later one passes the pod.
func (d *drainer) filter(tick reconcile.Tick, p *api.Pod) (bool, string, string) {
	finished := p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed
	ref := p.ControllerRef()
	if ref != nil && ref.Kind == api.KindDaemonSet && ref.APIVersion == "apps/v1" && !finished {
		_, found := tick.LiveGet(api.Key{Kind: api.KindDaemonSet, Namespace: p.Namespace, Name: ref.Name})
		switch {
		case !found && !d.force:
			return false, "Error", apiserver.NotFound(api.KindDaemonSet, ref.Name).Error()
		case found && !d.ignoreDaemonSets:
			return false, "Error", daemonSetFatal
		case found:
			return false, "Warning", daemonSetWarning
		}
	}
	if _, mirror := p.Annotations["kubernetes.io/config.mirror"]; mirror {
		return false, "Skip", ""
	}
	if hasLocalStorage(p) && !finished && !d.deleteEmptyDir {
		return false, "Error", localStorageFatal
	}
	switch {
	case finished || ref != nil:
		return true, "", ""
	case d.force:
		return true, "Warning", unmanagedWarning
	}
	return false, "Error", unmanagedFatal
}

func hasLocalStorage(p *api.Pod) bool {
	for _, v := range p.Spec.Volumes {
		if v.EmptyDir != nil {
			return true
		}
	}
	return false
}

// output is what kubectl printed so far: stdout, stderr, and both as a
// terminal interleaves them; with the command's error once it finished.
func (d *drainer) output() (stdout, stderr, terminal string) {
	var o, e, t strings.Builder
	for _, l := range d.log {
		if l.stderr {
			e.WriteString(l.text + "\n")
		} else {
			o.WriteString(l.text + "\n")
		}
		t.WriteString(l.text + "\n")
	}
	return o.String(), e.String(), t.String()
}

// drain runs kubectl drain in the console: it starts the drain as a
// client of the simulation and moves the simulation on until the drain
// ends, or the console stops waiting (an hour of virtual time, or its
// WatchTicks); a drain that outlives the wait goes on in the simulation.
func (s *Session) drain(args []string) (string, error) {
	d, err := parseDrain(args)
	if err != nil {
		return "", err
	}
	t := s.Cluster.Start(engine.KubectlActor, api.Key{Kind: api.KindNode, Name: d.node}, d)
	deadline := s.Cluster.Now() + maxWatchMS
	for ticks := 0; ; ticks++ {
		c, running, ok := s.Cluster.Client(t.Seq)
		if !ok {
			return "", errorf("internal error: the drain was lost")
		}
		cur := c.(*drainer)
		stdout, stderr, terminal := cur.output()
		if !running {
			s.terminal = terminal
			if cur.err != "" {
				s.terminal += cur.err + "\n"
				return stdout, &cmdError{msg: stderr + cur.err, code: 1}
			}
			if stderr != "" {
				return stdout, &cmdError{msg: strings.TrimSuffix(stderr, "\n"), code: 0}
			}
			return stdout, nil
		}
		next, more := s.Cluster.NextTime()
		if !more || next > deadline || !s.watchBudget(ticks) {
			note := fmt.Sprintf("(the console stopped waiting at %s; the drain goes on in the simulation: step on to see it finish)", trace.FormatTime(s.Cluster.Now()))
			s.terminal = terminal + note + "\n"
			return stdout, &cmdError{msg: stderr + note, code: 0}
		}
		s.Cluster.Step()
	}
}

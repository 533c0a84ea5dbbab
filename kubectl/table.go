package kubectl

import (
	"fmt"
	"sort"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/stateflow/stateflow/engine/api"
)

// table is rows of cells with a header, printed like kubectl's
// human-readable printer (tabwriter, padding 3).
type table struct {
	header []string
	rows   [][]string
}

func (t *table) String(noHeaders bool) string {
	lines := t.rows
	if !noHeaders {
		lines = append([][]string{t.header}, t.rows...)
	}
	if !sameWidth(lines) {
		return tabwrite(lines)
	}
	return pad(lines)
}

// pad aligns cells as tabwriter with padding 3 does when every line has
// the same number of cells: each column but the last is as wide as its
// widest cell (in runes) plus three spaces. It is what the events panel
// prints at every step, so it avoids tabwriter's per-cell bookkeeping.
func pad(lines [][]string) string {
	if len(lines) == 0 {
		return ""
	}
	widths := make([]int, len(lines[0]))
	size := 0
	for _, l := range lines {
		for i, c := range l {
			n := utf8.RuneCountInString(c)
			widths[i] = max(widths[i], n)
			size += len(c) + 3
		}
	}
	var b strings.Builder
	b.Grow(size + len(lines))
	for _, l := range lines {
		last := len(l) - 1
		for i, c := range l[:last] {
			b.WriteString(c)
			for n := utf8.RuneCountInString(c); n < widths[i]+3; n++ {
				b.WriteByte(' ')
			}
		}
		b.WriteString(l[last])
		b.WriteByte('\n')
	}
	return b.String()
}

// tabwrite prints lines with text/tabwriter, for ragged tables.
func tabwrite(lines [][]string) string {
	var b strings.Builder
	w := tabwriter.NewWriter(&b, 0, 8, 3, ' ', 0)
	for _, l := range lines {
		fmt.Fprintln(w, strings.Join(l, "\t"))
	}
	w.Flush()
	return b.String()
}

func sameWidth(lines [][]string) bool {
	for _, l := range lines {
		if len(l) == 0 || len(l) != len(lines[0]) {
			return false
		}
	}
	return true
}

// columns returns the header of kind's table.
func columns(kind string, wide bool) []string {
	p, ok := printerFor(kind)
	if !ok {
		return []string{"NAME"}
	}
	h := make([]string, 0, len(p.columns))
	for _, c := range p.columns {
		if wide || !c.wide {
			h = append(h, c.name)
		}
	}
	return h
}

// row returns the cells of one object (pkg/printers/internalversion).
func row(o api.Object, name string, wide bool, now int64) []string {
	if p, ok := printerFor(o.GetKind()); ok {
		return p.row(o, name, wide, now)
	}
	return []string{name}
}

func deploymentRow(x *api.Deployment, name string, wide bool, now int64) []string {
	r := []string{name, fmt.Sprintf("%d/%d", x.Status.ReadyReplicas, x.Replicas()), fmt.Sprint(x.Status.UpdatedReplicas), fmt.Sprint(x.Status.AvailableReplicas), age(x.CreationTimestamp, now)}
	if wide {
		r = append(r, containerNames(&x.Spec.Template.Spec), images(&x.Spec.Template.Spec), x.Spec.Selector.String())
	}
	return r
}

func replicaSetRow(x *api.ReplicaSet, name string, wide bool, now int64) []string {
	r := []string{name, fmt.Sprint(x.Replicas()), fmt.Sprint(x.Status.Replicas), fmt.Sprint(x.Status.ReadyReplicas), age(x.CreationTimestamp, now)}
	if wide {
		r = append(r, containerNames(&x.Spec.Template.Spec), images(&x.Spec.Template.Spec), x.Spec.Selector.String())
	}
	return r
}

func namespaceRow(x *api.Namespace, name string, now int64) []string {
	return []string{name, x.Status.Phase, age(x.CreationTimestamp, now)}
}

func endpointsRow(x *api.Endpoints, name string, now int64) []string {
	return []string{name, formatEndpoints(x), age(x.CreationTimestamp, now)}
}

func endpointSliceRow(x *api.EndpointSlice, name string, now int64) []string {
	return []string{name, x.AddressType, formatDiscoveryPorts(x.Ports), formatDiscoveryEndpoints(x.Endpoints), age(x.CreationTimestamp, now)}
}

func controllerRevisionRow(x *api.ControllerRevision, name string, now int64) []string {
	return []string{name, revisionController(x), fmt.Sprint(x.Revision), age(x.CreationTimestamp, now)}
}

func containerNames(s *api.PodSpec) string {
	var n []string
	for _, c := range s.Containers {
		n = append(n, c.Name)
	}
	return strings.Join(n, ",")
}

func images(s *api.PodSpec) string {
	var n []string
	for _, c := range s.Containers {
		n = append(n, c.Image)
	}
	return strings.Join(n, ",")
}

// podRow follows printPod: READY, the STATUS reason, RESTARTS with the
// time of the last restart.
func podRow(p *api.Pod, name string, wide bool, now int64) []string {
	c := printPod(p)
	restartCol := fmt.Sprint(c.restarts)
	if c.restarts > 0 && c.lastRestart.Set {
		restartCol = fmt.Sprintf("%d (%s ago)", c.restarts, age(c.lastRestart, now))
	}
	r := []string{name, fmt.Sprintf("%d/%d", c.ready, c.total), c.reason, restartCol, age(p.CreationTimestamp, now)}
	if wide {
		r = append(r, orNone(p.Status.PodIP), orNone(p.Spec.NodeName), "<none>", "<none>")
	}
	return r
}

// PodStatus is printPod's STATUS column (the reason a pod shows in
// kubectl get pods: Pending, Init:0/1, ContainerCreating, Running,
// CrashLoopBackOff, Terminating, Completed, …).
func PodStatus(p *api.Pod) string { return printPod(p).reason }

// PodReady is printPod's READY column: the ready containers and started
// sidecars, of the containers and sidecars.
func PodReady(p *api.Pod) (ready, total int) {
	c := printPod(p)
	return c.ready, c.total
}

// podColumns are the columns printPod computes.
type podColumns struct {
	ready, total, restarts int
	reason                 string
	lastRestart            api.Time
}

// printPod is pkg/printers/internalversion printPod: the init containers
// first (Init:N/M, Init:<reason>; sidecars count in READY once started),
// then, once the pod has initialized, the containers from last to first.
func printPod(p *api.Pod) podColumns {
	c := podColumns{total: len(p.Spec.Containers), reason: p.Status.Phase}
	if p.Status.Reason != "" {
		c.reason = p.Status.Reason
	}
	if cond := p.Status.Condition(api.PodScheduled); cond != nil && cond.Reason == api.PodReasonSchedulingGated {
		c.reason = api.PodReasonSchedulingGated
	}
	for i := range p.Spec.InitContainers {
		if api.IsRestartableInitContainer(&p.Spec.InitContainers[i]) {
			c.total++
		}
	}
	var sidecarRestarts int
	var lastSidecarRestart api.Time
	initializing := false
	for i, cs := range p.Status.InitContainerStatuses {
		c.restarts += int(cs.RestartCount)
		last := cs.LastTerminationState.Terminated
		if last != nil && last.FinishedAt.MS > c.lastRestart.MS {
			c.lastRestart = last.FinishedAt
		}
		sidecar := i < len(p.Spec.InitContainers) && api.IsRestartableInitContainer(&p.Spec.InitContainers[i])
		if sidecar {
			sidecarRestarts += int(cs.RestartCount)
			if last != nil && last.FinishedAt.MS > lastSidecarRestart.MS {
				lastSidecarRestart = last.FinishedAt
			}
		}
		t := cs.State.Terminated
		switch {
		case t != nil && t.ExitCode == 0:
			continue
		case sidecar && cs.Started != nil && *cs.Started:
			if cs.Ready {
				c.ready++
			}
			continue
		case t != nil && t.Reason == "":
			c.reason = fmt.Sprintf("Init:ExitCode:%d", t.ExitCode)
		case t != nil:
			c.reason = "Init:" + t.Reason
		case cs.State.Waiting != nil && cs.State.Waiting.Reason != "" && cs.State.Waiting.Reason != "PodInitializing":
			c.reason = "Init:" + cs.State.Waiting.Reason
		default:
			c.reason = fmt.Sprintf("Init:%d/%d", i, len(p.Spec.InitContainers))
		}
		initializing = true
		break
	}
	if !initializing || condStatus(p, api.PodInitialized) == api.ConditionTrue {
		c.restarts, c.lastRestart = sidecarRestarts, lastSidecarRestart
		hasRunning := false
		for i := len(p.Status.ContainerStatuses) - 1; i >= 0; i-- {
			cs := p.Status.ContainerStatuses[i]
			c.restarts += int(cs.RestartCount)
			if t := cs.LastTerminationState.Terminated; t != nil && t.FinishedAt.MS > c.lastRestart.MS {
				c.lastRestart = t.FinishedAt
			}
			switch {
			case cs.State.Waiting != nil && cs.State.Waiting.Reason != "":
				c.reason = cs.State.Waiting.Reason
			case cs.State.Terminated != nil && cs.State.Terminated.Reason != "":
				c.reason = cs.State.Terminated.Reason
			case cs.State.Terminated != nil:
				c.reason = fmt.Sprintf("ExitCode:%d", cs.State.Terminated.ExitCode)
			case cs.Ready && cs.State.Running != nil:
				hasRunning = true
				c.ready++
			}
		}
		if c.reason == "Completed" && hasRunning {
			c.reason = "Running"
			if !api.IsPodReady(p) {
				c.reason = "NotReady"
			}
		}
	}
	if p.DeletionTimestamp != nil && p.Status.Reason == "NodeLost" {
		c.reason = "Unknown"
	} else if p.DeletionTimestamp != nil && p.Status.Phase != api.PodSucceeded && p.Status.Phase != api.PodFailed {
		c.reason = "Terminating"
	}
	return c
}

// condStatus is the status of the pod's condition t, "" without one.
func condStatus(p *api.Pod, t string) string {
	if c := p.Status.Condition(t); c != nil {
		return c.Status
	}
	return ""
}

func nodeRow(n *api.Node, name string, wide bool, now int64) []string {
	status := "Unknown"
	if c := n.Status.Condition(api.NodeReady); c != nil {
		switch c.Status {
		case api.ConditionTrue:
			status = "Ready"
		case api.ConditionFalse:
			status = "NotReady"
		}
	}
	if n.Spec.Unschedulable {
		status += ",SchedulingDisabled"
	}
	var roles []string
	for k := range n.Labels {
		if r, ok := strings.CutPrefix(k, "node-role.kubernetes.io/"); ok && r != "" {
			roles = append(roles, r)
		}
	}
	sort.Strings(roles)
	r := []string{name, status, orNone(strings.Join(roles, ",")), age(n.CreationTimestamp, now), n.Status.NodeInfo.KubeletVersion}
	if wide {
		ip := "<none>"
		for _, a := range n.Status.Addresses {
			if a.Type == "InternalIP" {
				ip = a.Address
			}
		}
		r = append(r, ip, "<none>", n.Status.NodeInfo.OSImage, "6.1.0-28-amd64", n.Status.NodeInfo.ContainerRuntimeVersion)
	}
	return r
}

func eventRow(e *api.Event, wide bool, now int64) []string {
	first := age(e.FirstTimestamp, now)
	last := age(e.LastTimestamp, now)
	if e.LastTimestamp.IsZero() {
		last = first
	}
	target := strings.ToLower(e.InvolvedObject.Kind)
	if e.InvolvedObject.Name != "" {
		target += "/" + e.InvolvedObject.Name
	}
	count := max(e.Count, 1)
	if wide {
		src := e.Source.Component
		if e.Source.Host != "" {
			src += ", " + e.Source.Host
		}
		return []string{last, e.Type, e.Reason, target, e.InvolvedObject.FieldPath, src, strings.TrimSpace(e.Message), first, fmt.Sprint(count), e.Name}
	}
	return []string{last, e.Type, e.Reason, target, strings.TrimSpace(e.Message)}
}

func orNone(s string) string {
	if s == "" {
		return "<none>"
	}
	return s
}

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
	ready, restarts := 0, 0
	var lastRestart api.Time
	for _, c := range p.Status.ContainerStatuses {
		restarts += int(c.RestartCount)
		if c.Ready && c.State.Running != nil {
			ready++
		}
		if t := c.LastTerminationState.Terminated; t != nil && t.FinishedAt.MS > lastRestart.MS {
			lastRestart = t.FinishedAt
		}
	}
	restartCol := fmt.Sprint(restarts)
	if restarts > 0 && lastRestart.Set {
		restartCol = fmt.Sprintf("%d (%s ago)", restarts, age(lastRestart, now))
	}
	r := []string{name, fmt.Sprintf("%d/%d", ready, len(p.Spec.Containers)), PodStatus(p), restartCol, age(p.CreationTimestamp, now)}
	if wide {
		r = append(r, orNone(p.Status.PodIP), orNone(p.Spec.NodeName), "<none>", "<none>")
	}
	return r
}

// PodStatus is printPod's STATUS column (the reason a pod shows in
// kubectl get pods: Pending, ContainerCreating, Running, CrashLoopBackOff,
// Terminating, Completed, …).
func PodStatus(p *api.Pod) string {
	reason := p.Status.Phase
	if p.Status.Reason != "" {
		reason = p.Status.Reason
	}
	hasRunning := false
	for i := len(p.Status.ContainerStatuses) - 1; i >= 0; i-- {
		c := p.Status.ContainerStatuses[i]
		switch {
		case c.State.Waiting != nil && c.State.Waiting.Reason != "":
			reason = c.State.Waiting.Reason
		case c.State.Terminated != nil && c.State.Terminated.Reason != "":
			reason = c.State.Terminated.Reason
		case c.State.Terminated != nil && c.State.Terminated.Reason == "":
			reason = fmt.Sprintf("ExitCode:%d", c.State.Terminated.ExitCode)
		case c.Ready && c.State.Running != nil:
			hasRunning = true
		}
	}
	if reason == "Completed" && hasRunning {
		reason = "Running"
		if !api.IsPodReady(p) {
			reason = "NotReady"
		}
	}
	if p.DeletionTimestamp != nil && p.Status.Reason == "NodeLost" {
		return "Unknown"
	}
	if p.DeletionTimestamp != nil && p.Status.Phase != api.PodSucceeded && p.Status.Phase != api.PodFailed {
		return "Terminating"
	}
	return reason
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

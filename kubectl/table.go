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
	switch kind {
	case api.KindDeployment:
		h := []string{"NAME", "READY", "UP-TO-DATE", "AVAILABLE", "AGE"}
		if wide {
			h = append(h, "CONTAINERS", "IMAGES", "SELECTOR")
		}
		return h
	case api.KindReplicaSet:
		h := []string{"NAME", "DESIRED", "CURRENT", "READY", "AGE"}
		if wide {
			h = append(h, "CONTAINERS", "IMAGES", "SELECTOR")
		}
		return h
	case api.KindPod:
		h := []string{"NAME", "READY", "STATUS", "RESTARTS", "AGE"}
		if wide {
			h = append(h, "IP", "NODE", "NOMINATED NODE", "READINESS GATES")
		}
		return h
	case api.KindNode:
		h := []string{"NAME", "STATUS", "ROLES", "AGE", "VERSION"}
		if wide {
			h = append(h, "INTERNAL-IP", "EXTERNAL-IP", "OS-IMAGE", "KERNEL-VERSION", "CONTAINER-RUNTIME")
		}
		return h
	case api.KindEvent:
		if wide {
			return []string{"LAST SEEN", "TYPE", "REASON", "OBJECT", "SUBOBJECT", "SOURCE", "MESSAGE", "FIRST SEEN", "COUNT", "NAME"}
		}
		return []string{"LAST SEEN", "TYPE", "REASON", "OBJECT", "MESSAGE"}
	case api.KindNamespace:
		return []string{"NAME", "STATUS", "AGE"}
	case api.KindService:
		h := []string{"NAME", "TYPE", "CLUSTER-IP", "EXTERNAL-IP", "PORT(S)", "AGE"}
		if wide {
			h = append(h, "SELECTOR")
		}
		return h
	case api.KindEndpoints:
		return []string{"NAME", "ENDPOINTS", "AGE"}
	case api.KindEndpointSlice:
		return []string{"NAME", "ADDRESSTYPE", "PORTS", "ENDPOINTS", "AGE"}
	case api.KindDaemonSet:
		h := []string{"NAME", "DESIRED", "CURRENT", "READY", "UP-TO-DATE", "AVAILABLE", "NODE SELECTOR", "AGE"}
		if wide {
			h = append(h, "CONTAINERS", "IMAGES", "SELECTOR")
		}
		return h
	case api.KindControllerRevision:
		return []string{"NAME", "CONTROLLER", "REVISION", "AGE"}
	case api.KindStatefulSet:
		h := []string{"NAME", "READY", "AGE"}
		if wide {
			h = append(h, "CONTAINERS", "IMAGES")
		}
		return h
	case api.KindJob:
		return wideColumns(wide, "NAME", "STATUS", "COMPLETIONS", "DURATION", "AGE")
	case api.KindCronJob:
		return wideColumns(wide, "NAME", "SCHEDULE", "TIMEZONE", "SUSPEND", "ACTIVE", "LAST SCHEDULE", "AGE")
	case api.KindHorizontalPodAutoscaler:
		return []string{"NAME", "REFERENCE", "TARGETS", "MINPODS", "MAXPODS", "REPLICAS", "AGE"}
	case api.KindPodDisruptionBudget:
		return []string{"NAME", "MIN AVAILABLE", "MAX UNAVAILABLE", "ALLOWED DISRUPTIONS", "AGE"}
	case api.KindPodMetrics, api.KindNodeMetrics:
		return metricsColumns
	case api.KindPersistentVolumeClaim:
		h := []string{"NAME", "STATUS", "VOLUME", "CAPACITY", "ACCESS MODES", "STORAGECLASS", "VOLUMEATTRIBUTESCLASS", "AGE"}
		if wide {
			h = append(h, "VOLUMEMODE")
		}
		return h
	}
	return []string{"NAME"}
}

// wideColumns is a workload's header: with -o wide, its template's
// containers and images and its selector follow.
func wideColumns(wide bool, h ...string) []string {
	if wide {
		h = append(h, "CONTAINERS", "IMAGES", "SELECTOR")
	}
	return h
}

// row returns the cells of one object (pkg/printers/internalversion).
func row(o api.Object, name string, wide bool, now int64) []string {
	switch x := o.(type) {
	case *api.Deployment:
		r := []string{name, fmt.Sprintf("%d/%d", x.Status.ReadyReplicas, x.Replicas()), fmt.Sprint(x.Status.UpdatedReplicas), fmt.Sprint(x.Status.AvailableReplicas), age(x.CreationTimestamp, now)}
		if wide {
			r = append(r, containerNames(&x.Spec.Template.Spec), images(&x.Spec.Template.Spec), x.Spec.Selector.String())
		}
		return r
	case *api.ReplicaSet:
		r := []string{name, fmt.Sprint(x.Replicas()), fmt.Sprint(x.Status.Replicas), fmt.Sprint(x.Status.ReadyReplicas), age(x.CreationTimestamp, now)}
		if wide {
			r = append(r, containerNames(&x.Spec.Template.Spec), images(&x.Spec.Template.Spec), x.Spec.Selector.String())
		}
		return r
	case *api.Pod:
		return podRow(x, name, wide, now)
	case *api.Node:
		return nodeRow(x, name, wide, now)
	case *api.Event:
		return eventRow(x, wide, now)
	case *api.Namespace:
		return []string{name, x.Status.Phase, age(x.CreationTimestamp, now)}
	case *api.Service:
		return serviceRow(x, name, wide, now)
	case *api.Endpoints:
		return []string{name, formatEndpoints(x), age(x.CreationTimestamp, now)}
	case *api.EndpointSlice:
		return []string{name, x.AddressType, formatDiscoveryPorts(x.Ports), formatDiscoveryEndpoints(x.Endpoints), age(x.CreationTimestamp, now)}
	case *api.DaemonSet:
		return daemonSetRow(x, name, wide, now)
	case *api.ControllerRevision:
		return []string{name, revisionController(x), fmt.Sprint(x.Revision), age(x.CreationTimestamp, now)}
	case *api.StatefulSet:
		return statefulSetRow(x, name, wide, now)
	case *api.PersistentVolumeClaim:
		return claimRow(x, name, wide, now)
	case *api.Job:
		return jobRow(x, name, wide, now)
	case *api.CronJob:
		return cronJobRow(x, name, wide, now)
	case *api.HorizontalPodAutoscaler:
		return hpaRow(x, name, now)
	case *api.PodDisruptionBudget:
		return pdbRow(x, name, now)
	case *api.PodMetrics:
		return podMetricsRow(x, name)
	case *api.NodeMetrics:
		return nodeMetricsRow(x, name)
	}
	return []string{name}
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

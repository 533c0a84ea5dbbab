package kubectl

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/controller/deployment"
)

// prefixWriter writes "label:\tvalue" lines at indentation levels through
// one tabwriter, as kubectl describe's PrefixWriter does.
type prefixWriter struct {
	b strings.Builder
	w *tabwriter.Writer
}

func newPrefixWriter() *prefixWriter {
	p := &prefixWriter{}
	p.w = tabwriter.NewWriter(&p.b, 0, 8, 2, ' ', 0)
	return p
}

func (p *prefixWriter) line(level int, format string, args ...any) {
	fmt.Fprintf(p.w, strings.Repeat("  ", level)+format+"\n", args...)
}

func (p *prefixWriter) String() string {
	p.w.Flush()
	return p.b.String()
}

func (s *Session) describe(args []string) (string, error) {
	p, _, results, err := s.lookup("describe", args, []flagSpec{{"selector", "l", true}, {"all-namespaces", "A", false}, {"show-events", "", false}})
	if err != nil {
		return "", err
	}
	var parts []string
	for _, r := range results {
		for _, o := range r.objs {
			parts = append(parts, s.describeObject(o, !p.has("show-events") || p.bool("show-events")))
		}
	}
	if len(parts) == 0 {
		return "", s.noResources(p, results)
	}
	return strings.Join(parts, "\n\n"), nil
}

func (s *Session) describeObject(o api.Object, events bool) string {
	w := newPrefixWriter()
	if describe := helperFor(o.GetKind()).describe; describe != nil {
		describe(s, w, o)
	} else {
		w.line(0, "Name:\t%s", o.Meta().Name)
	}
	if events && !helperFor(o.GetKind()).noEvents {
		s.describeEvents(w, o)
	}
	return w.String()
}

func timestamp(t api.Time) string { return t.Wall().Format("Mon, 02 Jan 2006 15:04:05 -0700") }

func metaLines(w *prefixWriter, m *api.ObjectMeta, namespaced bool) {
	w.line(0, "Name:\t%s", m.Name)
	if namespaced {
		w.line(0, "Namespace:\t%s", m.Namespace)
	}
	w.line(0, "CreationTimestamp:\t%s", timestamp(m.CreationTimestamp))
	mapLines(w, 0, "Labels", m.Labels, "=")
	annotationLines(w, m.Annotations)
}

func mapLines(w *prefixWriter, level int, label string, m map[string]string, sep string) {
	if len(m) == 0 {
		w.line(level, "%s:\t<none>", label)
		return
	}
	for i, k := range api.SortedKeys(m) {
		if i == 0 {
			w.line(level, "%s:\t%s%s%s", label, k, sep, m[k])
		} else {
			w.line(level, "\t%s%s%s", k, sep, m[k])
		}
	}
}

func (s *Session) describeDeployment(w *prefixWriter, d *api.Deployment) {
	metaLines(w, &d.ObjectMeta, true)
	w.line(0, "Selector:\t%s", d.Spec.Selector.String())
	st := d.Status
	w.line(0, "Replicas:\t%d desired | %d updated | %d total | %d available | %d unavailable", d.Replicas(), st.UpdatedReplicas, st.Replicas, st.AvailableReplicas, st.UnavailableReplicas)
	w.line(0, "StrategyType:\t%s", d.Spec.Strategy.Type)
	w.line(0, "MinReadySeconds:\t%d", d.Spec.MinReadySeconds)
	if ru := d.Spec.Strategy.RollingUpdate; ru != nil {
		w.line(0, "RollingUpdateStrategy:\t%s max unavailable, %s max surge", ru.MaxUnavailable, ru.MaxSurge)
	}
	w.line(0, "Pod Template:")
	templateLines(w, 1, &d.Spec.Template)
	if len(st.Conditions) > 0 {
		w.line(0, "Conditions:")
		w.line(1, "Type\tStatus\tReason")
		w.line(1, "----\t------\t------")
		for _, c := range st.Conditions {
			w.line(1, "%s \t%s\t%s", c.Type, c.Status, c.Reason)
		}
	}
	rss := ownedReplicaSets(s.Cluster.Store().List(api.KindReplicaSet, d.Namespace), d)
	newRS := deployment.FindNewReplicaSet(d, rss)
	var old []string
	for _, rs := range rss {
		if newRS == nil || rs.UID != newRS.UID {
			if rs.Replicas() > 0 || rs.Status.Replicas > 0 {
				old = append(old, fmt.Sprintf("%s (%d/%d replicas created)", rs.Name, rs.Status.Replicas, rs.Replicas()))
			}
		}
	}
	w.line(0, "OldReplicaSets:\t%s", orNone(strings.Join(old, ", ")))
	if newRS != nil {
		w.line(0, "NewReplicaSet:\t%s (%d/%d replicas created)", newRS.Name, newRS.Status.Replicas, newRS.Replicas())
	} else {
		w.line(0, "NewReplicaSet:\t<none>")
	}
}

func templateLines(w *prefixWriter, level int, t *api.PodTemplateSpec) {
	mapLines(w, level, "Labels", t.Labels, "=")
	if len(t.Annotations) > 0 {
		mapLines(w, level, "Annotations", t.Annotations, ": ")
	}
	if t.Spec.ServiceAccountName != "" {
		w.line(level, "Service Account:\t%s", t.Spec.ServiceAccountName)
	}
	if len(t.Spec.InitContainers) > 0 {
		w.line(level, "Init Containers:")
		for _, c := range t.Spec.InitContainers {
			containerLines(w, level, " ", &c, nil, nil)
		}
	}
	w.line(level, "Containers:")
	for _, c := range t.Spec.Containers {
		containerLines(w, level, " ", &c, nil, nil)
	}
	volumeLines(w, level, t.Spec.Volumes)
	topologySpreadLines(w, level, t.Spec.TopologySpreadConstraints)
	if t.Spec.PriorityClassName != "" {
		w.line(level, "Priority Class Name:\t%s", t.Spec.PriorityClassName)
	}
	mapLines(w, level, "Node-Selectors", t.Spec.NodeSelector, "=")
	tolerationLines(w, level, t.Spec.Tolerations)
}

// topologySpreadLines is describeTopologySpreadConstraints: sorted by
// topology key, one line each.
func topologySpreadLines(w *prefixWriter, level int, cs []api.TopologySpreadConstraint) {
	sorted := slices.Clone(cs)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].TopologyKey < sorted[j].TopologyKey })
	for i, c := range sorted {
		label := "Topology Spread Constraints:"
		if i > 0 {
			label = ""
		}
		line := fmt.Sprintf("%s:%s when max skew %d is exceeded", c.TopologyKey, c.WhenUnsatisfiable, c.MaxSkew)
		if c.LabelSelector != nil {
			line += " for selector " + c.LabelSelector.String()
		}
		w.line(level, "%s\t%s", label, line)
	}
}

// describeTemplate is the pod template as rollout history --revision prints it.
func describeTemplate(t *api.PodTemplateSpec) string {
	w := newPrefixWriter()
	w.line(0, "Pod Template:")
	templateLines(w, 1, t)
	return w.String()
}

// portLines is describeContainerPorts and describeContainerHostPorts:
// each port as 80/TCP, with its name in brackets, on one "Port" line, or a
// "Ports" line when there are several.
func portLines(w *prefixWriter, level int, label string, ports []api.ContainerPort, number func(api.ContainerPort) int32) {
	list := make([]string, 0, len(ports))
	for _, p := range ports {
		s := fmt.Sprintf("%d/%s", number(p), p.Protocol)
		if p.Name != "" {
			s += " (" + p.Name + ")"
		}
		list = append(list, s)
	}
	if len(list) > 1 {
		label += "s"
	}
	w.line(level, "%s:\t%s", label, orNone(strings.Join(list, ", ")))
}

// containerLines is describeContainers for one container of pod, or of a
// template when pod is nil. Its name takes one more space in a template
// than in a pod (describeContainerBasicInfo's nameIndent).
func containerLines(w *prefixWriter, level int, nameIndent string, c *api.Container, st *api.ContainerStatus, pod *api.Pod) {
	w.line(level, "%s%s:", nameIndent, c.Name)
	l := level + 1
	if st != nil && st.ContainerID != "" {
		w.line(l, "Container ID:\t%s", st.ContainerID)
	}
	w.line(l, "Image:\t%s", c.Image)
	if st != nil && st.ImageID != "" {
		w.line(l, "Image ID:\t%s", st.ImageID)
	}
	portLines(w, l, "Port", c.Ports, func(p api.ContainerPort) int32 { return p.ContainerPort })
	portLines(w, l, "Host Port", c.Ports, func(p api.ContainerPort) int32 { return p.HostPort })
	commandLines(w, l, "Command", c.Command)
	commandLines(w, l, "Args", c.Args)
	if st != nil {
		stateLines(w, l, "State", st.State)
		if st.LastTerminationState.Terminated != nil {
			stateLines(w, l, "Last State", st.LastTerminationState)
		}
		w.line(l, "Ready:\t%v", st.Ready)
		w.line(l, "Restart Count:\t%d", st.RestartCount)
	}
	resourceLines(w, l, "Limits", c.Resources.Limits)
	resourceLines(w, l, "Requests", c.Resources.Requests)
	if c.LivenessProbe != nil {
		w.line(l, "Liveness:\t%s", probe(c.LivenessProbe))
	}
	if c.ReadinessProbe != nil {
		w.line(l, "Readiness:\t%s", probe(c.ReadinessProbe))
	}
	if c.StartupProbe != nil {
		w.line(l, "Startup:\t%s", probe(c.StartupProbe))
	}
	if len(c.EnvFrom) > 0 {
		envFromLines(w, l, c.EnvFrom)
	}
	envLines(w, l, c, pod)
	mountLines(w, l, c.VolumeMounts)
}

// commandLines is describeContainerCommand's list of a container's
// command or args: one line each, a multi-line one split.
func commandLines(w *prefixWriter, level int, label string, words []string) {
	if len(words) == 0 {
		return
	}
	w.line(level, "%s:", label)
	for _, word := range words {
		for _, l := range strings.Split(word, "\n") {
			w.line(level+1, "%s", l)
		}
	}
}

// envLines is describeContainerEnvVars for the variables Stateflow has:
// a value, a field of the pod followed by its path, a resource of the
// container (resourceFieldValue), or a key of a ConfigMap or a Secret
// (never its value).
func envLines(w *prefixWriter, level int, c *api.Container, pod *api.Pod) {
	env := c.Env
	if len(env) == 0 {
		w.line(level, "Environment:\t<none>")
		return
	}
	w.line(level, "Environment:")
	for _, e := range env {
		switch f := e.ValueFrom; {
		case f == nil:
			w.line(level+1, "%s:\t%s", e.Name, e.Value)
		case f.FieldRef != nil:
			w.line(level+1, "%s:\t%s (%s:%s)", e.Name, fieldRefValue(pod, f.FieldRef.FieldPath), f.FieldRef.APIVersion, f.FieldRef.FieldPath)
		case f.ResourceFieldRef != nil:
			value, r := resourceFieldValue(f.ResourceFieldRef, c), f.ResourceFieldRef.Resource
			if value == "0" && (r == "limits.cpu" || r == "limits.memory") {
				value = "node allocatable"
			}
			w.line(level+1, "%s:\t%s (%s)", e.Name, value, r)
		case f.SecretKeyRef != nil:
			r := f.SecretKeyRef
			w.line(level+1, "%s:\t<set to the key '%s' in secret '%s'>\tOptional: %t", e.Name, r.Key, r.Name, isSet(r.Optional))
		case f.ConfigMapKeyRef != nil:
			r := f.ConfigMapKeyRef
			w.line(level+1, "%s:\t<set to the key '%s' of config map '%s'>\tOptional: %t", e.Name, r.Key, r.Name, isSet(r.Optional))
		}
	}
}

// envFromLines is describeContainerEnvFrom: each ConfigMap or Secret
// whose keys all become variables.
func envFromLines(w *prefixWriter, level int, from []api.EnvFromSource) {
	w.line(level, "Environment Variables from:")
	for _, e := range from {
		kind, name, optional := "", "", false
		if r := e.ConfigMapRef; r != nil {
			kind, name, optional = "ConfigMap", r.Name, isSet(r.Optional)
		} else if r := e.SecretRef; r != nil {
			kind, name, optional = "Secret", r.Name, isSet(r.Optional)
		}
		if e.Prefix != "" {
			kind += " with prefix '" + e.Prefix + "'"
		}
		w.line(level+1, "%s\t%s\tOptional: %t", name, kind, optional)
	}
}

// fieldRefValue is what describe's EnvValueRetriever finds for a field
// of pod (nil for a template, which has no values): kubectl's scheme
// converts only metadata.name and metadata.namespace, so any other field
// (a label, status.podIP) shows empty.
func fieldRefValue(pod *api.Pod, path string) string {
	switch {
	case pod == nil:
		return ""
	case path == "metadata.name":
		return pod.Name
	case path == "metadata.namespace":
		return pod.Namespace
	}
	return ""
}

func stateLines(w *prefixWriter, level int, label string, s api.ContainerState) {
	switch {
	case s.Running != nil:
		w.line(level, "%s:\tRunning", label)
		w.line(level+1, "Started:\t%s", timestamp(s.Running.StartedAt))
	case s.Waiting != nil:
		w.line(level, "%s:\tWaiting", label)
		w.line(level+1, "Reason:\t%s", s.Waiting.Reason)
		if s.Waiting.Message != "" {
			w.line(level+1, "Message:\t%s", s.Waiting.Message)
		}
	case s.Terminated != nil:
		w.line(level, "%s:\tTerminated", label)
		w.line(level+1, "Reason:\t%s", s.Terminated.Reason)
		w.line(level+1, "Exit Code:\t%d", s.Terminated.ExitCode)
		w.line(level+1, "Started:\t%s", timestamp(s.Terminated.StartedAt))
		w.line(level+1, "Finished:\t%s", timestamp(s.Terminated.FinishedAt))
	default:
		w.line(level, "%s:\tWaiting", label)
	}
}

func resourceLines(w *prefixWriter, level int, label string, l api.ResourceList) {
	if len(l) == 0 {
		return
	}
	w.line(level, "%s:", label)
	names := make(map[string]string, len(l))
	for k := range l {
		names[k] = ""
	}
	for _, k := range api.SortedKeys(names) {
		q := l[k]
		w.line(level+1, "%s:\t%s", k, q.String())
	}
}

// probe renders a probe as kubectl describe does.
func probe(p *api.Probe) string {
	var handler string
	switch {
	case p.HTTPGet != nil:
		handler = fmt.Sprintf("http-get %s://:%s%s", strings.ToLower(p.HTTPGet.Scheme), p.HTTPGet.Port.String(), p.HTTPGet.Path)
	case p.TCPSocket != nil:
		handler = "tcp-socket :" + p.TCPSocket.Port.String()
	case p.Exec != nil:
		handler = "exec [" + strings.Join(p.Exec.Command, " ") + "]"
	case p.GRPC != nil && p.GRPC.Service != nil:
		handler = fmt.Sprintf("grpc <pod>:%d %s", p.GRPC.Port, *p.GRPC.Service)
	default:
		handler = "unknown"
	}
	return fmt.Sprintf("%s delay=%ds timeout=%ds period=%ds #success=%d #failure=%d", handler, p.InitialDelaySeconds, p.TimeoutSeconds, p.PeriodSeconds, p.SuccessThreshold, p.FailureThreshold)
}

// tolerationLines is printPodTolerationsMultiline: one toleration a line,
// sorted by key, the later ones in the first one's column.
func tolerationLines(w *prefixWriter, level int, ts []api.Toleration) {
	if len(ts) == 0 {
		w.line(level, "Tolerations:\t<none>")
		return
	}
	ts = append([]api.Toleration(nil), ts...)
	sort.SliceStable(ts, func(i, j int) bool { return ts[i].Key < ts[j].Key })
	for i, t := range ts {
		s := t.Key
		if t.Value != "" {
			s += "=" + t.Value
		}
		if t.Effect != "" {
			s += ":" + t.Effect
		}
		if t.Operator == "Exists" && t.Value == "" {
			if t.Key != "" || t.Effect != "" {
				s += " "
			}
			s += "op=Exists"
		}
		if t.TolerationSeconds != nil {
			s += fmt.Sprintf(" for %ds", *t.TolerationSeconds)
		}
		label := "Tolerations:"
		if i > 0 {
			label = ""
		}
		w.line(level, "%s\t%s", label, s)
	}
}

func (s *Session) describeReplicaSet(w *prefixWriter, rs *api.ReplicaSet) {
	w.line(0, "Name:\t%s", rs.Name)
	w.line(0, "Namespace:\t%s", rs.Namespace)
	w.line(0, "Selector:\t%s", rs.Spec.Selector.String())
	mapLines(w, 0, "Labels", rs.Labels, "=")
	annotationLines(w, rs.Annotations)
	if ref := rs.ControllerRef(); ref != nil {
		w.line(0, "Controlled By:\t%s/%s", ref.Kind, ref.Name)
	}
	w.line(0, "Replicas:\t%d current / %d desired", rs.Status.Replicas, rs.Replicas())
	running, waiting, succeeded, failed := s.podPhases(rs.Namespace, rs.Spec.Selector, rs.UID)
	w.line(0, "Pods Status:\t%d Running / %d Waiting / %d Succeeded / %d Failed", running, waiting, succeeded, failed)
	w.line(0, "Pod Template:")
	templateLines(w, 1, &rs.Spec.Template)
	if len(rs.Status.Conditions) > 0 {
		w.line(0, "Conditions:")
		w.line(1, "Type\tStatus\tReason")
		w.line(1, "----\t------\t------")
		for _, c := range rs.Status.Conditions {
			w.line(1, "%s \t%s\t%s", c.Type, c.Status, c.Reason)
		}
	}
}

func (s *Session) describePod(w *prefixWriter, p *api.Pod) {
	w.line(0, "Name:\t%s", p.Name)
	w.line(0, "Namespace:\t%s", p.Namespace)
	if p.Spec.Priority != nil {
		w.line(0, "Priority:\t%d", *p.Spec.Priority)
	}
	if p.Spec.PriorityClassName != "" {
		w.line(0, "Priority Class Name:\t%s", p.Spec.PriorityClassName)
	}
	if p.Spec.ServiceAccountName != "" {
		w.line(0, "Service Account:\t%s", p.Spec.ServiceAccountName)
	}
	node := "<none>"
	if p.Spec.NodeName != "" {
		node = p.Spec.NodeName + "/" + p.Status.HostIP
	}
	w.line(0, "Node:\t%s", node)
	if p.Status.StartTime != nil {
		w.line(0, "Start Time:\t%s", timestamp(*p.Status.StartTime))
	}
	mapLines(w, 0, "Labels", p.Labels, "=")
	annotationLines(w, p.Annotations)
	status := p.Status.Phase
	if p.DeletionTimestamp != nil {
		requested := api.At(p.DeletionTimestamp.MS - valueOr64(p.DeletionGracePeriodSeconds)*1000)
		status = "Terminating (lasts " + age(requested, s.Cluster.Now()) + ")"
		w.line(0, "Status:\t%s", status)
		w.line(0, "Termination Grace Period:\t%ds", valueOr64(p.DeletionGracePeriodSeconds))
	} else {
		w.line(0, "Status:\t%s", status)
	}
	w.line(0, "IP:\t%s", p.Status.PodIP)
	if p.Status.PodIP != "" {
		w.line(0, "IPs:")
		w.line(1, "IP:\t%s", p.Status.PodIP)
	} else {
		w.line(0, "IPs:\t<none>")
	}
	if ref := p.ControllerRef(); ref != nil {
		w.line(0, "Controlled By:\t%s/%s", ref.Kind, ref.Name)
	}
	if len(p.Spec.InitContainers) > 0 {
		podContainerLines(w, "Init Containers", p.Spec.InitContainers, p.Status.InitContainerStatuses, p)
	}
	podContainerLines(w, "Containers", p.Spec.Containers, p.Status.ContainerStatuses, p)
	if len(p.Status.Conditions) > 0 {
		w.line(0, "Conditions:")
		w.line(1, "Type\tStatus")
		for _, c := range p.Status.Conditions {
			w.line(1, "%s \t%s ", c.Type, c.Status)
		}
	}
	volumeLines(w, 0, p.Spec.Volumes)
	w.line(0, "QoS Class:\t%s", p.Status.QOSClass)
	mapLines(w, 0, "Node-Selectors", p.Spec.NodeSelector, "=")
	tolerationLines(w, 0, p.Spec.Tolerations)
	topologySpreadLines(w, 0, p.Spec.TopologySpreadConstraints)
}

// podContainerLines is describeContainers for a pod's containers (or
// init containers) with their statuses.
func podContainerLines(w *prefixWriter, label string, cs []api.Container, statuses []api.ContainerStatus, p *api.Pod) {
	w.line(0, "%s:", label)
	for i := range cs {
		var st *api.ContainerStatus
		for j := range statuses {
			if statuses[j].Name == cs[i].Name {
				st = &statuses[j]
			}
		}
		containerLines(w, 1, "", &cs[i], st, p)
	}
}

func valueOr(p *int32) int32 {
	if p == nil {
		return 0
	}
	return *p
}

func valueOr64(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}

// describeEvents prints the object's Events, oldest first, with repeats
// as "<age> (xN over <first>)".
func (s *Session) describeEvents(w *prefixWriter, o api.Object) {
	m := o.Meta()
	ns := m.Namespace
	if ns == "" {
		ns = "default"
	}
	var evs []*api.Event
	s.Cluster.Store().EachEventRecord(func(r *api.EventRecord) bool {
		if ref := r.Ref(); r.Namespace == ns && ref.Kind == o.GetKind() && ref.Name == m.Name && (ref.UID == "" || ref.UID == m.UID) {
			evs = append(evs, r.Event())
		}
		return true
	})
	if len(evs) == 0 {
		w.line(0, "Events:\t<none>")
		return
	}
	// By last timestamp, then by name (the order the API server lists them in).
	slices.SortFunc(evs, func(a, b *api.Event) int {
		return cmp.Or(cmp.Compare(a.LastTimestamp.MS, b.LastTimestamp.MS), cmp.Compare(a.Name, b.Name))
	})
	now := s.Cluster.Now()
	w.line(0, "Events:")
	w.line(1, "Type\tReason\tAge\tFrom\tMessage")
	w.line(1, "----\t------\t----\t----\t-------")
	for _, e := range evs {
		// DescribeEvents (kubectl v1.34): HumanDuration ("4m30s",
		// "(x7 over 105s)"), the first timestamp for a single Event.
		a := age(e.FirstTimestamp, now)
		if e.Count > 1 {
			a = fmt.Sprintf("%s (x%d over %s)", age(e.LastTimestamp, now), e.Count, a)
		}
		w.line(1, "%s\t%s\t%s\t%s\t%s", e.Type, e.Reason, a, e.Source.Component, strings.TrimSpace(e.Message))
	}
}

// skipAnnotations are the annotations describe does not print.
var skipAnnotations = map[string]bool{lastAppliedAnnotation: true}

// maxAnnotationLen is how long "key: value" may be before describe
// prints the value on lines of its own.
const maxAnnotationLen = 140

// annotationLines is describe.go's printAnnotationsMultiline: sorted,
// without kubectl's last-applied-configuration, and a long or multi-line
// value on indented lines of its own, each cut at 138 bytes.
func annotationLines(w *prefixWriter, annotations map[string]string) {
	var keys []string
	for k := range annotations {
		if !skipAnnotations[k] {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		w.line(0, "Annotations:\t<none>")
		return
	}
	sort.Strings(keys)
	for i, k := range keys {
		label := "Annotations:"
		if i > 0 {
			label = ""
		}
		v := strings.TrimSuffix(annotations[k], "\n")
		if len(v)+len(k)+2 <= maxAnnotationLen && !strings.Contains(v, "\n") {
			w.line(0, "%s\t%s: %s", label, k, v)
			continue
		}
		w.line(0, "%s\t%s:", label, k)
		for _, l := range strings.Split(v, "\n") {
			if len(l) > maxAnnotationLen-2 {
				l = l[:maxAnnotationLen-2] + "..."
			}
			w.line(0, "\t  %s", l)
		}
	}
}

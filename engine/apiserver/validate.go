package apiserver

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/api/labels"
	"github.com/stateflow/stateflow/engine/timezone"
)

// The messages below are those of k8s.io/apimachinery/pkg/util/validation
// and pkg/apis/{apps,core}/validation, so users meet the words a real API
// server would answer with.
const (
	dns1123SubdomainMsg = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
	dns1123LabelMsg     = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
)

// isDNS1123Label matches [a-z0-9]([-a-z0-9]*[a-z0-9])? of at most 63
// characters, without a regular expression (this runs on every write).
func isDNS1123Label(s string) bool {
	if len(s) == 0 || len(s) > 63 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		alnum := c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
		if !alnum && (c != '-' || i == 0 || i == len(s)-1) {
			return false
		}
	}
	return true
}

// isDNS1123Subdomain is dot-separated labels, at most 253 characters.
func isDNS1123Subdomain(s string) bool {
	if len(s) == 0 || len(s) > 253 {
		return false
	}
	for part := range strings.SplitSeq(s, ".") { // every Event's name: no slice
		if !isDNS1123Label(part) {
			return false
		}
	}
	return true
}

type errs []FieldError

func (e *errs) add(path, format string, args ...any) {
	*e = append(*e, FieldError{Path: path, Detail: fmt.Sprintf(format, args...)})
}

func (e *errs) required(path string) { e.add(path, "Required value") }

func (e *errs) invalid(path string, value any, detail string) {
	e.add(path, "Invalid value: %s: %s", formatValue(value), detail)
}

// formatValue mirrors field.Error's rendering: numbers bare, strings
// quoted, anything else with %#v.
func formatValue(v any) string {
	switch t := v.(type) {
	case int, int32, int64, bool:
		return fmt.Sprint(t)
	case string:
		return fmt.Sprintf("%q", t)
	}
	return fmt.Sprintf("%#v", v)
}

// Validate checks obj as the API server would on create and returns an
// *InvalidError naming every failing field, or nil. The zones a CronJob
// names load with timezone.Default.
func Validate(obj api.Object) error { return validate(obj, timezone.Default) }

func validate(obj api.Object, zones timezone.Loader) error {
	if zones == nil {
		zones = timezone.Default
	}
	var e errs
	validateMeta(&e, obj)
	if f := strategyOf(obj).validate; f != nil {
		f(&e, obj, zones)
	}
	return e.asError(obj)
}

func validateMeta(e *errs, obj api.Object) {
	m := obj.Meta()
	switch {
	case m.Name == "" && m.GenerateName == "":
		e.add("metadata.name", "Required value: name or generateName is required")
	case m.Name != "" && obj.GetKind() == api.KindNamespace && !isDNS1123Label(m.Name):
		e.invalid("metadata.name", m.Name, dns1123LabelMsg)
	case m.Name != "" && !isDNS1123Subdomain(m.Name):
		e.invalid("metadata.name", m.Name, dns1123SubdomainMsg)
	}
	if api.Namespaced(obj.GetKind()) && m.Namespace != "" && !isDNS1123Label(m.Namespace) {
		e.invalid("metadata.namespace", m.Namespace, dns1123LabelMsg)
	}
	validateLabels(e, "metadata.labels", m.Labels)
}

// validateLabels is ValidateLabels of apimachinery's
// pkg/apis/meta/v1/validation: qualified-name keys, label-syntax values.
func validateLabels(e *errs, path string, set map[string]string) {
	for _, k := range api.SortedKeys(set) {
		for _, msg := range labels.IsLabelKey(k) {
			e.invalid(path, k, msg)
		}
		for _, msg := range labels.IsLabelValue(set[k]) {
			e.invalid(path, set[k], msg)
		}
	}
}

func validateDeployment(e *errs, d *api.Deployment) {
	s := &d.Spec
	validateReplicas(e, "spec.replicas", s.Replicas)
	validateSelector(e, s.Selector, &s.Template, "deployment")
	validateLabels(e, "spec.template.metadata.labels", s.Template.Labels)
	validatePodSpec(e, "spec.template.spec", &s.Template.Spec, true)
	validateAlwaysRestart(e, "spec.template.spec", s.Template.Spec.RestartPolicy)
	validateStrategy(e, &s.Strategy)
	if s.MinReadySeconds < 0 {
		e.invalid("spec.minReadySeconds", int64(s.MinReadySeconds), "must be greater than or equal to 0")
	}
	if s.RevisionHistoryLimit != nil && *s.RevisionHistoryLimit < 0 {
		e.invalid("spec.revisionHistoryLimit", int64(*s.RevisionHistoryLimit), "must be greater than or equal to 0")
	}
	if p := s.ProgressDeadlineSeconds; p != nil {
		if *p < 0 {
			e.invalid("spec.progressDeadlineSeconds", int64(*p), "must be greater than or equal to 0")
		} else if *p <= s.MinReadySeconds {
			e.invalid("spec.progressDeadlineSeconds", int64(*p), "must be greater than minReadySeconds")
		}
	}
}

func validateReplicaSet(e *errs, r *api.ReplicaSet) {
	validateReplicas(e, "spec.replicas", r.Spec.Replicas)
	validateSelector(e, r.Spec.Selector, &r.Spec.Template, "replicaset")
	validateLabels(e, "spec.template.metadata.labels", r.Spec.Template.Labels)
	validatePodSpec(e, "spec.template.spec", &r.Spec.Template.Spec, true)
	validateAlwaysRestart(e, "spec.template.spec", r.Spec.Template.Spec.RestartPolicy)
	if r.Spec.MinReadySeconds < 0 {
		e.invalid("spec.minReadySeconds", int64(r.Spec.MinReadySeconds), "must be greater than or equal to 0")
	}
}

func validateReplicas(e *errs, path string, r *int32) {
	if r != nil && *r < 0 {
		e.invalid(path, int64(*r), "must be greater than or equal to 0")
	}
}

func validateSelector(e *errs, sel *api.LabelSelector, t *api.PodTemplateSpec, what string) {
	if sel == nil {
		e.required("spec.selector")
		return
	}
	if !validateLabelSelector(e, "spec.selector", sel) {
		// ValidateDeploymentSpec (pkg/apis/apps/validation) checks the
		// template's labels only against a selector that parses.
		return
	}
	if sel.Empty() {
		e.add("spec.selector", "Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for %s", what)
		return
	}
	if !sel.Matches(t.Labels) {
		e.invalid("spec.template.metadata.labels", t.Labels, "`selector` does not match template `labels`")
	}
}

// validateLabelSelector is ValidateLabelSelector (apimachinery
// meta/v1/validation): the matchLabels as labels, then each
// requirement's operator and values, key and value syntax. It reports
// whether the selector is valid.
func validateLabelSelector(e *errs, path string, sel *api.LabelSelector) bool {
	before := len(*e)
	validateLabels(e, path+".matchLabels", sel.MatchLabels)
	for i, r := range sel.MatchExpressions {
		rp := fmt.Sprintf("%s.matchExpressions[%d]", path, i)
		if err := r.Validate(); err != nil {
			field, detail, _ := strings.Cut(err.Error(), ": ")
			e.add(rp+"."+field, "%s", detail)
		}
		for _, msg := range labels.IsLabelKey(r.Key) {
			e.invalid(rp+".key", r.Key, msg)
		}
		for j, v := range r.Values {
			for _, msg := range labels.IsLabelValue(v) {
				e.invalid(fmt.Sprintf("%s.values[%d]", rp, j), v, msg)
			}
		}
	}
	return len(*e) == before
}

func validateStrategy(e *errs, st *api.DeploymentStrategy) {
	switch st.Type {
	case api.RecreateStrategy:
		if st.RollingUpdate != nil {
			e.add("spec.strategy.rollingUpdate", "Forbidden: may not be specified when strategy `type` is '%s'", api.RecreateStrategy)
		}
		return
	case api.RollingUpdateStrategy:
	default:
		e.add("spec.strategy.type", "Unsupported value: %q: supported values: \"Recreate\", \"RollingUpdate\"", st.Type)
		return
	}
	ru := st.RollingUpdate
	if ru == nil {
		return
	}
	surge := validateIntOrPercent(e, "spec.strategy.rollingUpdate.maxSurge", ru.MaxSurge)
	unavail := validateIntOrPercent(e, "spec.strategy.rollingUpdate.maxUnavailable", ru.MaxUnavailable)
	if surge == 0 && unavail == 0 && ru.MaxSurge != nil && ru.MaxUnavailable != nil {
		e.add("spec.strategy.rollingUpdate.maxUnavailable", "Invalid value: %s: may not be 0 when `maxSurge` is 0", intstrValue(*ru.MaxUnavailable))
	}
	if ru.MaxUnavailable != nil && ru.MaxUnavailable.IsString && unavail > 100 {
		e.add("spec.strategy.rollingUpdate.maxUnavailable", "Invalid value: %q: must not be greater than 100%%", ru.MaxUnavailable.StrVal)
	}
}

// intstrValue is how the API server prints an intstr.IntOrString bad
// value: field.Error renders it as JSON (apimachinery v0.34): 0, "25%".
func intstrValue(v api.IntOrString) string {
	if v.IsString {
		return strconv.Quote(v.StrVal)
	}
	return strconv.Itoa(int(v.IntVal))
}

// validateIntOrPercent returns the value (the percentage for strings).
func validateIntOrPercent(e *errs, path string, v *api.IntOrString) int {
	if v == nil {
		return 0
	}
	if !v.IsString {
		if v.IntVal < 0 {
			e.invalid(path, int64(v.IntVal), "must be greater than or equal to 0")
		}
		return int(v.IntVal)
	}
	// IsValidPercent: the pattern [0-9]+% (so "05%" is 5 %, and "-5%" is
	// not a percent at all).
	digits := strings.TrimSuffix(v.StrVal, "%")
	if digits == v.StrVal || digits == "" || strings.TrimLeft(digits, "0123456789") != "" {
		e.add(path, "Invalid value: %q: a valid percent string must be a numeric string followed by an ending '%%' (e.g. '1%%',  or '93%%', regex used for validation is '[0-9]+%%')", v.StrVal)
		return -1
	}
	p, _ := strconv.Atoi(digits)
	return p
}

func validatePodSpec(e *errs, path string, s *api.PodSpec, template bool) {
	validateVolumes(e, path, s.Volumes)
	if len(s.Containers) == 0 {
		e.required(path + ".containers")
	}
	for i := range s.Containers {
		c := &s.Containers[i]
		p := containerPath{spec: path, list: ".containers", i: i}
		validateContainer(e, p, c, s, template, slices.ContainsFunc(s.Containers[:i], sameName(c)))
		if c.RestartPolicy != nil {
			e.add(p.field(".restartPolicy"), "Forbidden: may not be set for non-init containers")
		}
		validateProbe(e, p, ".livenessProbe", c.LivenessProbe)
		validateProbe(e, p, ".readinessProbe", c.ReadinessProbe)
		validateProbe(e, p, ".startupProbe", c.StartupProbe)
	}
	for i := range s.InitContainers {
		validateInitContainer(e, containerPath{spec: path, list: ".initContainers", i: i}, s, i, template)
	}
	switch s.RestartPolicy {
	case "", "Always", "OnFailure", "Never":
	default:
		e.add(path+".restartPolicy", "Unsupported value: %q: supported values: \"Always\", \"OnFailure\", \"Never\"", s.RestartPolicy)
	}
	if g := s.TerminationGracePeriodSeconds; g != nil && *g < 0 {
		e.invalid(path+".terminationGracePeriodSeconds", *g, "must be greater than or equal to 0")
	}
	if len(s.SchedulingGates) > 0 {
		validateSchedulingGates(e, path+".schedulingGates", s.SchedulingGates)
	}
	if len(s.TopologySpreadConstraints) > 0 {
		validateTopologySpread(e, path, s.TopologySpreadConstraints)
	}
	validatePodAffinity(e, path, s.Affinity)
}

// validateSchedulingGates is validateSchedulingGates of
// pkg/apis/core/validation: qualified names, none twice.
func validateSchedulingGates(e *errs, path string, gates []api.PodSchedulingGate) {
	for i, g := range gates {
		at := fmt.Sprintf("%s[%d]", path, i)
		for _, msg := range labels.IsLabelKey(g.Name) {
			e.invalid(at, g.Name, msg)
		}
		if slices.ContainsFunc(gates[:i], func(o api.PodSchedulingGate) bool { return o.Name == g.Name }) {
			e.add(at, "Duplicate value: %q", g.Name)
		}
	}
}

// validateContainer is validateContainerCommon of
// pkg/apis/core/validation: what every container, init or not, must be.
// duplicate says an earlier container has its name.
func validateContainer(e *errs, p containerPath, c *api.Container, s *api.PodSpec, template, duplicate bool) {
	switch {
	case c.Name == "":
		e.required(p.field(".name"))
	case !isDNS1123Label(c.Name):
		e.invalid(p.field(".name"), c.Name, dns1123LabelMsg)
	case duplicate:
		e.add(p.field(".name"), "Duplicate value: %q", c.Name)
	}
	if c.Image == "" && template {
		e.required(p.field(".image"))
	} else if c.Image != strings.TrimSpace(c.Image) {
		e.invalid(p.field(".image"), c.Image, "must not have leading or trailing whitespace")
	}
	validatePorts(e, p, c.Ports)
	validateEnvSources(e, p, c)
	validateResources(e, p, &c.Resources)
	validateVolumeMounts(e, p, c.VolumeMounts, s.Volumes)
}

// validateInitContainer is validateInitContainers for init container i:
// a name no container or earlier init container has, a restartPolicy
// that can only be Always (a sidecar), and probes and hooks only on
// sidecars.
func validateInitContainer(e *errs, p containerPath, s *api.PodSpec, i int, template bool) {
	c := &s.InitContainers[i]
	dup := slices.ContainsFunc(s.Containers, sameName(c)) || slices.ContainsFunc(s.InitContainers[:i], sameName(c))
	validateContainer(e, p, c, s, template, dup)
	if c.RestartPolicy != nil && *c.RestartPolicy != api.ContainerRestartPolicyAlways {
		e.add(p.field(".restartPolicy"), "Unsupported value: %q: supported values: \"Always\"", *c.RestartPolicy)
	}
	if api.IsRestartableInitContainer(c) {
		validateProbe(e, p, ".livenessProbe", c.LivenessProbe)
		validateProbe(e, p, ".readinessProbe", c.ReadinessProbe)
		validateProbe(e, p, ".startupProbe", c.StartupProbe)
		return
	}
	for _, f := range [...]struct {
		name string
		set  bool
	}{{".lifecycle", c.Lifecycle != nil}, {".livenessProbe", c.LivenessProbe != nil}, {".readinessProbe", c.ReadinessProbe != nil}, {".startupProbe", c.StartupProbe != nil}} {
		if f.set {
			e.add(p.field(f.name), "Forbidden: may not be set for init containers without restartPolicy=Always")
		}
	}
}

func sameName(c *api.Container) func(api.Container) bool {
	return func(o api.Container) bool { return o.Name == c.Name }
}

// containerPath is the field path of a pod spec's container i, made only
// when an error names it: validating a valid pod allocates nothing.
type containerPath struct {
	spec, list string // list is ".containers" or ".initContainers"
	i          int
}

// field is the path of the container's field f (".name", ".ports[0]").
func (p containerPath) field(f string) string {
	return p.spec + p.list + "[" + strconv.Itoa(p.i) + "]" + f
}

// validateAlwaysRestart is the workload controllers' rule for their pod
// templates (ValidatePodTemplateSpecForReplicaSet and friends): their
// pods must always restart.
func validateAlwaysRestart(e *errs, path, policy string) {
	if policy == "OnFailure" || policy == "Never" {
		e.add(path+".restartPolicy", "Unsupported value: %q: supported values: \"Always\"", policy)
	}
}

// validatePorts is validateContainerPorts of pkg/apis/core/validation.
func validatePorts(e *errs, c containerPath, ports []api.ContainerPort) {
	for i, port := range ports {
		if port.ContainerPort == 0 {
			e.required(c.field(".ports[" + strconv.Itoa(i) + "].containerPort"))
			continue
		}
		for _, msg := range isValidPortNum(int(port.ContainerPort)) {
			e.invalid(c.field(".ports["+strconv.Itoa(i)+"].containerPort"), int64(port.ContainerPort), msg)
		}
	}
}

// validateProbe checks a probe has exactly one handler (validateHandler
// in pkg/apis/core/validation).
func validateProbe(e *errs, c containerPath, field string, pr *api.Probe) {
	if pr == nil {
		return
	}
	// validateHandler: the handlers in upstream's order; any after the
	// first is forbidden, and only the first is validated.
	first := ""
	for _, h := range [...]struct {
		name string
		set  bool
	}{{"exec", pr.Exec != nil}, {"httpGet", pr.HTTPGet != nil}, {"tcpSocket", pr.TCPSocket != nil}, {"grpc", pr.GRPC != nil}} {
		switch {
		case h.set && first != "":
			e.add(c.field(field+"."+h.name), "Forbidden: may not specify more than 1 handler type")
		case h.set:
			first = h.name
		}
	}
	switch {
	case first == "":
		e.add(c.field(field), "Required value: must specify a handler type")
	case first == "grpc" && (pr.GRPC.Port < 1 || pr.GRPC.Port > 65535):
		e.invalid(c.field(field+".grpc.port"), pr.GRPC.Port, "must be between 1 and 65535, inclusive")
	}
}

func validateNode(e *errs, n *api.Node) {
	for i, t := range n.Spec.Taints {
		p := fmt.Sprintf("spec.taints[%d]", i)
		if t.Key == "" {
			e.required(p + ".key")
		}
		switch t.Effect {
		case api.TaintNoSchedule, api.TaintPreferNoSchedule, api.TaintNoExecute:
		case "":
			e.required(p + ".effect")
		default:
			e.add(p+".effect", "Unsupported value: %q: supported values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\"", t.Effect)
		}
	}
}

// isValidPortNum is validation.IsValidPortNum of k8s.io/apimachinery
// (pkg/util/validation/validation.go), whose package would bring klog
// into the playground.
func isValidPortNum(port int) []string {
	if 1 <= port && port <= 65535 {
		return nil
	}
	return []string{"must be between 1 and 65535, inclusive"}
}

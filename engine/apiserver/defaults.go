package apiserver

import (
	"slices"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
)

// Default tolerations added to every pod by the DefaultTolerationSeconds
// admission plugin (plugin/pkg/admission/defaulttolerationseconds).
const defaultTolerationSeconds = 300

// defaultDeployment applies pkg/apis/apps/v1/defaults.go.
func defaultDeployment(d *api.Deployment) {
	if d.Spec.Replicas == nil {
		d.Spec.Replicas = api.Int32(1)
	}
	if d.Spec.Strategy.Type == "" {
		d.Spec.Strategy.Type = api.RollingUpdateStrategy
	}
	if d.Spec.Strategy.Type == api.RollingUpdateStrategy {
		if d.Spec.Strategy.RollingUpdate == nil {
			d.Spec.Strategy.RollingUpdate = &api.RollingUpdateDeployment{}
		}
		ru := d.Spec.Strategy.RollingUpdate
		if ru.MaxUnavailable == nil {
			v := api.FromString("25%")
			ru.MaxUnavailable = &v
		}
		if ru.MaxSurge == nil {
			v := api.FromString("25%")
			ru.MaxSurge = &v
		}
	}
	if d.Spec.RevisionHistoryLimit == nil {
		d.Spec.RevisionHistoryLimit = api.Int32(10)
	}
	if d.Spec.ProgressDeadlineSeconds == nil {
		d.Spec.ProgressDeadlineSeconds = api.Int32(600)
	}
	defaultPodSpec(&d.Spec.Template.Spec)
}

func defaultReplicaSet(r *api.ReplicaSet) {
	if r.Spec.Replicas == nil {
		r.Spec.Replicas = api.Int32(1)
	}
	defaultPodSpec(&r.Spec.Template.Spec)
}

// defaultPodSpec applies pkg/apis/core/v1/defaults.go for the fields the
// simulation keeps. It sets s's own fields; the containers, which a pod
// a controller made shares with its template, are copied first when one
// of them lacks a default (copyContainers), so the template stays as it
// was.
func defaultPodSpec(s *api.PodSpec) {
	if s.RestartPolicy == "" {
		s.RestartPolicy = "Always"
	}
	if s.TerminationGracePeriodSeconds == nil {
		s.TerminationGracePeriodSeconds = api.Int64(api.DefaultTerminationGraceSec)
	}
	if s.DNSPolicy == "" {
		s.DNSPolicy = "ClusterFirst"
	}
	if s.SchedulerName == "" {
		s.SchedulerName = api.DefaultSchedulerName
	}
	if s.SecurityContext == nil {
		s.SecurityContext = &struct{}{}
	}
	defaultVolumes(s)
	s.InitContainers = defaultContainers(s.InitContainers)
	s.Containers = defaultContainers(s.Containers)
}

// defaultContainers returns cs with every container's defaults set: cs
// itself when none lacks one, else a deep copy (cs may be shared with a
// template).
func defaultContainers(cs []api.Container) []api.Container {
	for i := range cs {
		if defaultContainer(&cs[i], false) {
			cs = copyContainers(cs)
			for j := range cs {
				defaultContainer(&cs[j], true)
			}
			return cs
		}
	}
	return cs
}

// copyContainers returns deep copies of cs, which the pod may share with
// its template.
func copyContainers(cs []api.Container) []api.Container {
	own := api.PodSpec{Containers: cs}
	return own.DeepCopy().Containers
}

// defaultContainer reports whether c lacks a default, and with apply
// sets them: checking and setting read the same conditions, so a check
// can never miss a default that setting would write.
func defaultContainer(c *api.Container, apply bool) (lacks bool) {
	set := func(f func()) {
		lacks = true
		if apply {
			f()
		}
	}
	if c.TerminationMessagePath == "" {
		set(func() { c.TerminationMessagePath = "/dev/termination-log" })
	}
	if c.TerminationMessagePolicy == "" {
		set(func() { c.TerminationMessagePolicy = "File" })
	}
	if c.ImagePullPolicy == "" {
		set(func() { c.ImagePullPolicy = defaultPullPolicy(c.Image) })
	}
	for i := range c.Env {
		// SetDefaults_ObjectFieldSelector
		if f := c.Env[i].ValueFrom; f != nil && f.FieldRef != nil && f.FieldRef.APIVersion == "" {
			set(func() { f.FieldRef.APIVersion = "v1" })
		}
	}
	for i := range c.Ports {
		if c.Ports[i].Protocol == "" {
			set(func() { c.Ports[i].Protocol = "TCP" })
		}
	}
	for _, p := range []*api.Probe{c.LivenessProbe, c.ReadinessProbe, c.StartupProbe} {
		if defaultProbe(p, apply) {
			lacks = true
		}
	}
	return lacks
}

// defaultPullPolicy is Always for ":latest" or an untagged image, else
// IfNotPresent (SetDefaults_Container).
func defaultPullPolicy(image string) string {
	if strings.Contains(image, "@") {
		return "IfNotPresent"
	}
	last := image[strings.LastIndex(image, "/")+1:]
	i := strings.LastIndex(last, ":")
	if i < 0 || last[i+1:] == "latest" {
		return "Always"
	}
	return "IfNotPresent"
}

// defaultProbe reports whether p lacks a default, and with apply sets
// them (as defaultContainer).
func defaultProbe(p *api.Probe, apply bool) (lacks bool) {
	if p == nil {
		return false
	}
	set := func(f func()) {
		lacks = true
		if apply {
			f()
		}
	}
	if p.TimeoutSeconds == 0 {
		set(func() { p.TimeoutSeconds = 1 })
	}
	if p.PeriodSeconds == 0 {
		set(func() { p.PeriodSeconds = 10 })
	}
	if p.SuccessThreshold == 0 {
		set(func() { p.SuccessThreshold = 1 })
	}
	if p.FailureThreshold == 0 {
		set(func() { p.FailureThreshold = 3 })
	}
	if p.HTTPGet != nil && p.HTTPGet.Scheme == "" {
		set(func() { p.HTTPGet.Scheme = "HTTP" })
	}
	if p.GRPC != nil && p.GRPC.Service == nil {
		// GRPCAction's +default="" (zz_generated.defaults.go).
		set(func() { p.GRPC.Service = new(string) })
	}
	return lacks
}

// admitPod applies what admission adds to a new pod: the default
// tolerations, priority 0, the default service account, and the initial
// status (phase Pending, qosClass). Like defaultPodSpec it writes only p's
// own fields, copying what p shares before changing it (the containers,
// the tolerations); the pods that lack only the default tolerations share
// one slice of them, and every pod without a priority one 0 (shared).
// The pods made from one template share the spec admission made for the
// first of them (specs, when not nil).
func admitPod(p *api.Pod, shared *admitted, specs *podSpecs) {
	if specs != nil && p.Spec != nil {
		if spec, ok := specs.admittedFrom(p.Spec); ok {
			p.Spec = spec
			p.Status = api.PodStatus{Phase: api.PodPending, QOSClass: qosClass(spec)}
			return
		}
	}
	from := p.Spec
	ownSpec(p)
	defaultPodSpec(p.Spec)
	defaultRequestsFromLimits(p.Spec)
	if p.Spec.ServiceAccountName == "" {
		p.Spec.ServiceAccountName = "default"
	}
	if p.Spec.Priority == nil {
		p.Spec.Priority = shared.priority
	}
	if p.Spec.PreemptionPolicy == nil {
		p.Spec.PreemptionPolicy = shared.preemptionPolicy(api.PreemptLowerPriority)
	}
	p.Spec.Tolerations = shared.withDefaultTolerations(p.Spec.Tolerations)
	p.Status = api.PodStatus{Phase: api.PodPending, QOSClass: qosClass(p.Spec)}
	if specs != nil && from != nil {
		specs.keepAdmitted(from, p.Spec)
	}
}

// ownSpec gives p a spec of its own to change (an empty one if it has
// none): a pod's spec is shared by the versions that did not change it,
// and by a new pod with the template it was made from. The copy is
// shallow; what it points at is copied before a change (copyContainers).
func ownSpec(p *api.Pod) {
	spec := api.PodSpec{}
	if p.Spec != nil {
		spec = *p.Spec
	}
	p.Spec = &spec
}

// admitted are the values admission adds to many pods, made once and
// shared by the pods and by the store's clones: stored objects are never
// changed, so neither are these.
type admitted struct {
	priority    *int32
	tolerations []api.Toleration // the two default tolerations, at full capacity
	// priorities and policies are the values the Priority admission
	// plugin gives pods, one pointer per value, so that the pods of one
	// template keep sharing a spec (sameSpec compares pointers).
	priorities map[int32]*int32
	policies   map[string]*string
}

func newAdmitted() *admitted {
	a := &admitted{priority: api.Int32(0), priorities: map[int32]*int32{}, policies: map[string]*string{}}
	a.priorities[0] = a.priority
	a.tolerations = slices.Clip(a.withDefaultTolerations([]api.Toleration{}))
	return a
}

// priorityOf is the shared pointer to priority v.
func (a *admitted) priorityOf(v int32) *int32 { return sharedPtr(a.priorities, v) }

// preemptionPolicy is the shared pointer to policy.
func (a *admitted) preemptionPolicy(policy string) *string { return sharedPtr(a.policies, policy) }

// sharedPtr is the one pointer to v that m keeps, made the first time.
func sharedPtr[T comparable](m map[T]*T, v T) *T {
	p, ok := m[v]
	if !ok {
		p = &v
		m[v] = p
	}
	return p
}

// defaultTolerated are the taints DefaultTolerationSeconds tolerates for
// defaultTolerationSeconds, in the order it adds them.
var defaultTolerated = [...]string{"node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable"}

// withDefaultTolerations is ts with the default tolerations it lacks
// added (DefaultTolerationSeconds), in a new slice when it lacks one: the
// shared one when ts is empty.
func (a *admitted) withDefaultTolerations(ts []api.Toleration) []api.Toleration {
	if len(ts) == 0 && a.tolerations != nil {
		return a.tolerations
	}
	for _, key := range defaultTolerated {
		if !hasToleration(ts, key) {
			ts = append(slices.Clip(ts), api.Toleration{Key: key, Operator: "Exists",
				Effect: api.TaintNoExecute, TolerationSeconds: api.Int64(defaultTolerationSeconds)})
		}
	}
	return ts
}

func hasToleration(ts []api.Toleration, key string) bool {
	for _, t := range ts {
		if (t.Key == key || t.Key == "" && t.Operator == "Exists") && (t.Effect == "" || t.Effect == api.TaintNoExecute) {
			return true
		}
	}
	return false
}

// qosClass follows pkg/apis/core/helper/qos: BestEffort without any
// request or limit, Guaranteed when every container's limits equal its
// requests for cpu and memory, Burstable otherwise.
func qosClass(s *api.PodSpec) string {
	any, guaranteed := false, true
	for _, cs := range [2][]api.Container{s.InitContainers, s.Containers} {
		for _, c := range cs {
			if len(c.Resources.Requests) > 0 || len(c.Resources.Limits) > 0 {
				any = true
			}
			for _, r := range []string{"cpu", "memory"} {
				lim, ok := c.Resources.Limits[r]
				if !ok {
					guaranteed = false
					continue
				}
				if req, ok := c.Resources.Requests[r]; ok && req.MilliValue() != lim.MilliValue() {
					guaranteed = false
				}
			}
		}
	}
	switch {
	case !any:
		return "BestEffort"
	case guaranteed:
		return "Guaranteed"
	}
	return "Burstable"
}

// defaultRequestsFromLimits copies a limit into a missing request, as
// SetDefaults_Pod does for pods (not for templates), on containers of
// s's own (copyContainers) when one lacks a request.
func defaultRequestsFromLimits(s *api.PodSpec) {
	s.InitContainers = requestsFromLimits(s.InitContainers)
	s.Containers = requestsFromLimits(s.Containers)
}

// requestsFromLimits returns cs with a limit copied into each missing
// request: cs itself when none lacks one, else a deep copy.
func requestsFromLimits(cs []api.Container) []api.Container {
	lacks := func(c *api.Container) bool {
		for name := range c.Resources.Limits {
			if _, ok := c.Resources.Requests[name]; !ok {
				return true
			}
		}
		return false
	}
	i := 0
	for i < len(cs) && !lacks(&cs[i]) {
		i++
	}
	if i == len(cs) {
		return cs
	}
	cs = copyContainers(cs)
	for i := range cs {
		c := &cs[i]
		for name, lim := range c.Resources.Limits {
			if _, ok := c.Resources.Requests[name]; !ok {
				if c.Resources.Requests == nil {
					c.Resources.Requests = api.ResourceList{}
				}
				c.Resources.Requests[name] = lim
			}
		}
	}
	return cs
}

// ApplyDefaults fills in the API defaults of obj's spec in place, as the
// API server does when it decodes a request.
func ApplyDefaults(obj api.Object) {
	if f := strategyOf(obj).defaults; f != nil {
		f(obj)
	}
}

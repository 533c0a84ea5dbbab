package kubectl

// This file is kubectl autoscale (k8s.io/kubectl pkg/cmd/autoscale): an
// autoscaling/v2 HorizontalPodAutoscaler for a Deployment, ReplicaSet or
// StatefulSet, named after it unless --name says otherwise, with the
// checks in cobra's order (flags, required flags, Complete, Validate,
// Run) and kubectl's fallback to autoscaling/v1 when the v2 create fails.

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
)

var autoscaleFlags = []flagSpec{{"min", "", true}, {"max", "", true}, {"cpu-percent", "", true}, {"cpu", "", true}, {"memory", "", true},
	{"name", "", true}, {"dry-run", "", true}, {"output", "o", true}, {"filename", "f", true}, {"field-manager", "", true}}

// cpuPercentDeprecated is pflag's notice for --cpu-percent, on stderr.
const cpuPercentDeprecated = "Flag --cpu-percent has been deprecated, Use --cpu with percentage or resource quantity format (e.g., '70%' for utilization or '500m' for milliCPU)."

// missingResource is the resource builder's error without arguments.
const missingResource = `You must provide one or more resources by argument or filename.
Example resource specifications include:
   '-f rsrc.yaml'
   '--filename=rsrc.json'
   '<resource> <name>'
   '<resource>'`

// autoscaleArgs is a parsed kubectl autoscale.
type autoscaleArgs struct {
	p                    *parsed
	target               api.Key
	res                  resource
	name                 string
	min, max, cpuPercent int32
	cpu, memory, dryRun  string
	cpuPercentSet        bool
}

// autoscale runs kubectl autoscale: a tick that creates the
// HorizontalPodAutoscaler, or none for a dry run.
func (s *Session) autoscale(args []string) (string, error) {
	a, err := parseAutoscale(s, args)
	if a != nil && a.cpuPercentSet {
		s.notice(cpuPercentDeprecated)
	}
	if err != nil {
		return "", err
	}
	if a.dryRun != "" {
		ns := s.namespace(a.p)
		return a.run(s.Cluster.Store().Get, func(h *api.HorizontalPodAutoscaler) (api.Object, error) { return dryRunCreate(s.Cluster, ns, h) })
	}
	return s.do(a.mutation(), "autoscale "+strings.Join(args, " "))
}

// buildAutoscale is autoscale as a scenario action.
func buildAutoscale(s *Session, args []string) (*Mutation, error) {
	a, err := parseAutoscale(s, args)
	if err != nil {
		return nil, err
	}
	if a.dryRun != "" {
		return nil, errorf("a scenario action changes the cluster: --dry-run has no place in one")
	}
	return a.mutation(), nil
}

func (a *autoscaleArgs) mutation() *Mutation {
	hpa := api.Key{Kind: api.KindHorizontalPodAutoscaler, Namespace: a.target.Namespace, Name: a.name}
	return &Mutation{Object: hpa, run: func(tick reconcile.Tick) (string, error) {
		return a.run(tick.LiveGet, func(h *api.HorizontalPodAutoscaler) (api.Object, error) {
			return tick.Create(trace.Translate, h, fmt.Sprintf("kubectl autoscale: %s/%s, %d to %d pods", a.res.qualified(), a.target.Name, a.minOr1(), a.max))
		})
	}}
}

// minOr1 is the minimum once the API server has defaulted it.
func (a *autoscaleArgs) minOr1() int32 { return max(a.min, 1) }

// parseAutoscale reads the flags and the target, and runs Complete's and
// Validate's checks.
func parseAutoscale(s *Session, args []string) (*autoscaleArgs, error) {
	p, err := parseFlags("autoscale", args, autoscaleFlags)
	if err != nil {
		return nil, err
	}
	a := &autoscaleArgs{p: p, cpu: p.str("cpu"), memory: p.str("memory")}
	for _, f := range []struct {
		name string
		v    *int32
	}{{"min", &a.min}, {"max", &a.max}, {"cpu-percent", &a.cpuPercent}} {
		if *f.v, err = int32Flag(p, f.name); err != nil {
			return nil, err
		}
	}
	a.cpuPercentSet = p.has("cpu-percent")
	if err := requireFlags(p, []string{"max"}); err != nil {
		return a, err
	}
	if a.dryRun, err = dryRunStrategy(p.str("dry-run")); err != nil {
		return a, err
	}
	if err := a.validate(); err != nil {
		return a, err
	}
	return a, a.resolveTarget(s)
}

// int32Flag is an int32 flag's value, -1 when unset.
func int32Flag(p *parsed, name string) (int32, error) {
	if !p.has(name) {
		return -1, nil
	}
	n, err := strconv.ParseInt(p.str(name), 0, 32)
	if err != nil {
		return 0, usageErr("autoscale", "invalid argument %q for \"--%s\" flag: %v", p.str(name), name, err)
	}
	return int32(n), nil
}

// validate is AutoscaleOptions.Validate.
func (a *autoscaleArgs) validate() error {
	switch {
	case a.max < 1:
		return errorf("--max=MAXPODS is required and must be at least 1, max: %d", a.max)
	case a.max < a.min:
		return errorf("--max=MAXPODS must be larger or equal to --min=MINPODS, max: %d, min: %d", a.max, a.min)
	case a.cpuPercent > 0 && a.cpu != "":
		return errorf("--cpu-percent and --cpu are mutually exclusive")
	}
	for _, r := range []struct{ input, name string }{{a.cpu, "cpu"}, {a.memory, "memory"}} {
		if r.input == "" {
			continue
		}
		if _, err := parseResourceInput(r.input, r.name); err != nil {
			return err
		}
	}
	return nil
}

// resolveTarget reads TYPE NAME or TYPE/NAME, as the resource builder
// does for one object.
func (a *autoscaleArgs) resolveTarget(s *Session) error {
	if a.p.has("filename") {
		return errorf("the simulated cluster has no files to read: name the object, as in 'kubectl autoscale deployment/NAME --max=N'")
	}
	if len(a.p.args) == 0 {
		return errorf("%s", missingResource)
	}
	if len(a.p.args) == 1 && !strings.Contains(a.p.args[0], "/") {
		if _, err := resolve(a.p.args[0]); err != nil {
			return err
		}
		return errorf("Stateflow autoscales one object per command: name it, as in 'kubectl autoscale %s NAME'", a.p.args[0])
	}
	k, r, rest, err := target("autoscale", a.p.args, s.namespace(a.p))
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return errorf("Stateflow autoscales one object per command; got extra arguments %v", rest)
	}
	a.target, a.res, a.name = k, r, k.Name
	if n := a.p.str("name"); n != "" {
		a.name = n
	}
	return nil
}

// run is Run for the one target: the object must exist and have a scale
// subresource; then the v2 HorizontalPodAutoscaler is created, or as a
// fallback the v1 one kubectl would build.
func (a *autoscaleArgs) run(get func(api.Key) (api.Object, bool), create func(*api.HorizontalPodAutoscaler) (api.Object, error)) (string, error) {
	if _, ok := get(a.target); !ok {
		return "", serverErr("NotFound", fmt.Sprintf("%s %q not found", a.res.pluralQualified(), a.target.Name))
	}
	if helperFor(a.target.Kind).replicas == nil {
		return "", errorf("cannot autoscale a %s: could not find scale subresource for %s/%s, Resource=%s in discovery information",
			a.target.Kind, a.res.group, a.res.ver(), a.res.plural)
	}
	if a.dryRun == "client" {
		return printObject(a.p, resourceFor(api.KindHorizontalPodAutoscaler), a.hpaV2(), "created (dry run)")
	}
	created, err := create(a.hpaV2())
	if err != nil {
		if ok, why := a.canCreateV1(); !ok {
			return "", errorf("failed to create autoscaling/v2 HPA and the configuration is incompatible with autoscaling/v1: %s", why)
		}
		if created, err = create(a.hpaV1()); err != nil {
			return "", apiErr(err)
		}
	}
	op := "autoscaled"
	if a.dryRun == "server" {
		op += " (server dry run)"
	}
	return printObject(a.p, resourceFor(api.KindHorizontalPodAutoscaler), created, op)
}

// newHPA is the object both versions build: the name, the target by its
// group/version and kind, the bounds (--min only when positive).
func (a *autoscaleArgs) newHPA() *api.HorizontalPodAutoscaler {
	h := &api.HorizontalPodAutoscaler{TypeMeta: api.TypeMeta{APIVersion: "autoscaling/v2", Kind: api.KindHorizontalPodAutoscaler},
		ObjectMeta: api.ObjectMeta{Name: a.name, Namespace: a.p.str("namespace")}}
	h.Spec.ScaleTargetRef = api.CrossVersionObjectReference{APIVersion: a.res.apiVersion(), Kind: a.target.Kind, Name: a.target.Name}
	h.Spec.MaxReplicas = a.max
	if a.min > 0 {
		h.Spec.MinReplicas = api.Int32(a.min)
	}
	return h
}

// hpaV2 is createHorizontalPodAutoscalerV2: a cpu utilization metric for
// --cpu-percent, then --cpu's and --memory's; none leaves the API
// server's default (cpu at 80 %).
func (a *autoscaleArgs) hpaV2() *api.HorizontalPodAutoscaler {
	h := a.newHPA()
	if a.cpuPercent > 0 {
		h.Spec.Metrics = append(h.Spec.Metrics, resourceMetric("cpu", metricTarget{kind: api.UtilizationMetricType, percent: a.cpuPercent}))
	}
	for _, r := range []struct{ input, name string }{{a.cpu, "cpu"}, {a.memory, "memory"}} {
		if t, err := parseResourceInput(r.input, r.name); r.input != "" && err == nil {
			h.Spec.Metrics = append(h.Spec.Metrics, resourceMetric(r.name, t))
		}
	}
	return h
}

// hpaV1 is createHorizontalPodAutoscalerV1 as the API server stores it:
// only --cpu-percent (when not negative) becomes a target.
func (a *autoscaleArgs) hpaV1() *api.HorizontalPodAutoscaler {
	h := a.newHPA()
	if a.cpuPercent >= 0 {
		h.Spec.Metrics = []api.MetricSpec{resourceMetric("cpu", metricTarget{kind: api.UtilizationMetricType, percent: a.cpuPercent})}
	}
	return h
}

// canCreateV1 is canCreateHPAV1: a v1 HorizontalPodAutoscaler can say
// what was asked when there is no memory target and the cpu one is a
// percentage; its error is parseResourceInput's for --cpu ("empty input"
// without one), or none.
func (a *autoscaleArgs) canCreateV1() (bool, string) {
	t, err := parseResourceInput(a.cpu, "cpu")
	if err != nil {
		return false, strings.TrimPrefix(err.Error(), "error: ")
	}
	if (a.cpuPercent >= 0 && a.memory == "") || (a.memory == "" && t.kind == api.UtilizationMetricType) {
		return true, ""
	}
	return false, "%!w(<nil>)"
}

// dryRunCreate is the API server's answer to a create with
// dryRun=All: an existing name, or the object validated and defaulted.
func dryRunCreate(c Cluster, ns string, h *api.HorizontalPodAutoscaler) (api.Object, error) {
	h = h.DeepCopy()
	h.Namespace = ns
	if _, ok := c.Store().Get(api.KeyOf(h)); ok {
		return nil, &apiserver.StatusError{Reason: apiserver.ReasonAlreadyExists,
			Message: fmt.Sprintf("%s %q already exists", resourceFor(api.KindHorizontalPodAutoscaler).pluralQualified(), h.Name)}
	}
	if err := apiserver.DryRun(h, c.TimeZones()); err != nil {
		return nil, err
	}
	apiserver.ApplyDefaults(h)
	return h, nil
}

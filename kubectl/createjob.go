package kubectl

// This file is kubectl create job and kubectl create cronjob
// (pkg/cmd/create/create_job.go, create_cronjob.go), and what they share
// with create poddisruptionbudget (pdb.go): the object each
// builds from its flags, its checks in cobra's order (required flags,
// then Complete, Validate and Run), and what it prints.

import (
	"errors"
	"fmt"
	"maps"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
)

// createHint is what the other create subcommands answer.
const createHint = "use 'kubectl apply -f -' with a manifest (Stateflow's create makes only jobs, cronjobs, poddisruptionbudgets, configmaps and generic secrets: 'kubectl create job', 'kubectl create cronjob', 'kubectl create poddisruptionbudget', 'kubectl create configmap', 'kubectl create secret generic')"

// instantiateAnnotation marks a Job made from a CronJob by hand.
const instantiateAnnotation = "cronjob.kubernetes.io/instantiate"

// createFlags are the flags create job and create cronjob share.
var createFlags = []flagSpec{{"image", "", true}, {"dry-run", "", true}, {"output", "o", true}}

// create runs create job, create cronjob (alias cj) and create
// poddisruptionbudget (alias pdb).
func (s *Session) create(args []string) (string, error) {
	c, o, err := s.createObject(args)
	if err != nil {
		return "", err
	}
	return s.runCreate(c, o)
}

// buildCreate is create as a scenario action: the object is created at
// the action's tick.
func buildCreate(s *Session, args []string) (*Mutation, error) {
	c, o, err := s.createObject(args)
	if err != nil {
		return nil, err
	}
	if c.dryRun != "" {
		return nil, errorf("a scenario action cannot be a dry run")
	}
	if o.Meta().Namespace == "" {
		o.Meta().Namespace = s.namespace(c.p) // as runCreate does
	}
	return createMutation(resourceFor(o.GetKind()), o, nil), nil
}

// createObject reads a create subcommand's flags and builds the object
// it creates.
func (s *Session) createObject(args []string) (*createArgs, api.Object, error) {
	if len(args) > 0 {
		switch args[0] {
		case "job":
			return s.createJob(args[1:])
		case "cronjob", "cj":
			return s.createCronJob(args[1:])
		case "poddisruptionbudget", "pdb":
			return s.createPDB(args[1:])
		case "configmap", "cm":
			return s.createConfigMap(args[1:])
		case "secret":
			return s.createSecret(args[1:])
		}
	}
	what := "create"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		what += " " + args[0]
	}
	return nil, nil, errorf("%q is not supported by Stateflow's simulated cluster: %s", what, createHint)
}

// createArgs is a parsed create job or create cronjob: the flags, the
// NAME and the command after "--".
type createArgs struct {
	p       *parsed
	name    string
	command []string
	dryRun  string // "client", "server" or ""
}

// namespace is the namespace create puts in the object it builds: only
// one --namespace names (EnforceNamespace); the API server fills in the
// rest from the request.
func (c *createArgs) namespace() string { return c.p.str("namespace") }

// parseCreate parses the flags of cmd ("create job"), checks the flags
// cobra requires, then reads the NAME and the command after "--"
// (NameFromCommandArgs: exactly one argument before the dash), the
// dry-run strategy and -o.
func parseCreate(cmd string, args []string, specs []flagSpec, required ...string) (*createArgs, error) {
	before, command := splitDash(args)
	p, err := parseFlags(cmd, before, specs)
	if err != nil {
		return nil, err
	}
	if err := requireFlags(p, required); err != nil {
		return nil, err
	}
	if len(p.args) != 1 {
		return nil, &cmdError{msg: fmt.Sprintf("error: exactly one NAME is required, got %d\nSee 'kubectl %s -h' for help and examples", len(p.args), cmd), code: 1}
	}
	c := &createArgs{p: p, name: p.args[0], command: command}
	if c.dryRun, err = dryRunStrategy(p.str("dry-run")); err != nil {
		return nil, err
	}
	return c, checkCreateOutput(p.str("output"))
}

// splitDash splits args at the first "--": the words before it, and the
// command after it.
func splitDash(args []string) (before, command []string) {
	for i, a := range args {
		if a == "--" {
			return args[:i], args[i+1:]
		}
	}
	return args, nil
}

// requireFlags is cobra's check of the flags a command marks required,
// all named at once, in flag order.
func requireFlags(p *parsed, required []string) error {
	var missing []string
	for _, f := range required {
		if !p.has(f) {
			missing = append(missing, f)
		}
	}
	if len(missing) > 0 {
		return errorf("required flag(s) \"%s\" not set", strings.Join(missing, `", "`))
	}
	return nil
}

// dryRunStrategy is GetDryRunStrategy: "client", "server", or "" for
// none.
func dryRunStrategy(v string) (string, error) {
	switch v {
	case "", "none":
		return "", nil
	case "client", "server":
		return v, nil
	}
	return "", errorf("Invalid dry-run value (%s). Must be \"none\", \"server\", or \"client\".", v)
}

// checkCreateOutput is PrintFlags.ToPrinter's check of -o for the
// formats Stateflow prints.
func checkCreateOutput(o string) error {
	format, _, _ := strings.Cut(o, "=")
	switch format {
	case "", "name", "yaml", "json", "jsonpath", "jsonpath-as-json":
		return nil
	}
	return errorf("unable to match a printer suitable for the output format %q, allowed formats are: go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,name,template,templatefile,yaml", format)
}

// createJob is create job: a Job running --image (with the command after
// "--"), or one made from the CronJob --from names.
func (s *Session) createJob(args []string) (*createArgs, api.Object, error) {
	c, err := parseCreate("create job", args, append([]flagSpec{{"from", "", true}}, createFlags...))
	if err != nil {
		return nil, nil, err
	}
	image, from := c.p.str("image"), c.p.str("from")
	if (image == "") == (from == "") {
		return nil, nil, errorf("either --image or --from must be specified")
	}
	if len(c.command) > 0 && from != "" {
		return nil, nil, errorf("cannot specify --from and command")
	}
	ns := c.namespace()
	if image != "" {
		return c, newJob(c.name, ns, image, c.command), nil
	}
	if s.Cluster == nil {
		// A scenario action is parsed before the cluster exists.
		return nil, nil, errorf("create job --from cannot be a scenario action: it reads the CronJob when it runs; use create job --image")
	}
	cj, err := s.fromCronJob(from, s.namespace(c.p))
	if err != nil {
		return nil, nil, err
	}
	return c, jobFromCronJob(c.name, ns, cj), nil
}

// newJob is createJob: one container named after the Job, never
// restarted.
func newJob(name, ns, image string, command []string) *api.Job {
	j := &api.Job{TypeMeta: api.TypeMeta{APIVersion: "batch/v1", Kind: api.KindJob}, ObjectMeta: api.ObjectMeta{Name: name, Namespace: ns}}
	j.Spec.Template.Spec = api.PodSpec{Containers: []api.Container{{Name: name, Image: image, Command: command}}, RestartPolicy: "Never"}
	return j
}

// jobFromCronJob is createJobFromCronJob: the CronJob's Job template,
// its labels, and its annotations with instantiate: manual, owned by the
// CronJob as its controller (without blockOwnerDeletion, which would
// need the cronjobs/finalizers permission).
func jobFromCronJob(name, ns string, cj *api.CronJob) *api.Job {
	annotations := map[string]string{instantiateAnnotation: "manual"}
	maps.Copy(annotations, cj.Spec.JobTemplate.Annotations)
	t := cj.DeepCopy().Spec.JobTemplate
	j := &api.Job{TypeMeta: api.TypeMeta{APIVersion: "batch/v1", Kind: api.KindJob}, Spec: t.Spec}
	j.ObjectMeta = api.ObjectMeta{Name: name, Namespace: ns, Labels: t.Labels, Annotations: annotations,
		OwnerReferences: []api.OwnerReference{{APIVersion: "batch/v1", Kind: api.KindCronJob, Name: cj.Name, UID: cj.UID, Controller: api.Bool(true)}}}
	return j
}

// fromCronJob resolves --from as the resource builder does
// (ResourceTypeOrNameArgs with one argument): TYPE/NAME of an existing
// CronJob; any other type is refused once found.
func (s *Session) fromCronJob(from, ns string) (*api.CronJob, error) {
	t, name, ok := strings.Cut(from, "/")
	if !ok {
		if _, err := resolve(from); err != nil {
			return nil, err
		}
		return nil, errorf("resource(s) were provided, but no name was specified")
	}
	if strings.Contains(name, "/") {
		return nil, errorf("arguments in resource/name form may not have more than one slash")
	}
	if t == "" || name == "" || strings.Contains(t, ",") {
		return nil, errorf("arguments in resource/name form must have a single resource and name")
	}
	r, err := resolve(t)
	if err != nil {
		return nil, err
	}
	key := api.Key{Kind: r.kind, Namespace: ns, Name: name}
	if r.cluster {
		key.Namespace = ""
	}
	o, found := s.Cluster.Store().Get(key)
	if !found {
		return nil, serverErr("NotFound", fmt.Sprintf("%s %q not found", r.pluralQualified(), name))
	}
	cj, ok := o.(*api.CronJob)
	if !ok {
		return nil, errorf("unknown object type *v1.%s", r.kind)
	}
	return cj, nil
}

// createCronJob is create cronjob: a CronJob on --schedule whose Job
// template runs --image (with the command after "--") and restarts as
// --restart says (OnFailure by default).
func (s *Session) createCronJob(args []string) (*createArgs, api.Object, error) {
	c, err := parseCreate("create cronjob", args, append([]flagSpec{{"schedule", "", true}, {"restart", "", true}}, createFlags...), "image", "schedule")
	if err != nil {
		return nil, nil, err
	}
	restart := c.p.str("restart")
	if restart == "" {
		restart = "OnFailure"
	}
	cj := &api.CronJob{TypeMeta: api.TypeMeta{APIVersion: "batch/v1", Kind: api.KindCronJob}, ObjectMeta: api.ObjectMeta{Name: c.name, Namespace: c.namespace()}}
	cj.Spec.Schedule = c.p.str("schedule")
	cj.Spec.JobTemplate.Name = c.name
	cj.Spec.JobTemplate.Spec.Template.Spec = api.PodSpec{Containers: []api.Container{{Name: c.name, Image: c.p.str("image"), Command: c.command}}, RestartPolicy: restart}
	return c, cj, nil
}

// runCreate creates o, unless --dry-run=client, and prints it as -o asks
// ("job.batch/NAME created" by default).
func (s *Session) runCreate(c *createArgs, o api.Object) (string, error) {
	r := resourceFor(o.GetKind())
	if c.dryRun == "client" {
		return createdOutput(c, r, o, " (dry run)")
	}
	o = o.DeepCopyObject()
	if o.Meta().Namespace == "" {
		o.Meta().Namespace = s.namespace(c.p)
	}
	if c.dryRun == "server" {
		if err := apiserver.DryRun(o, s.Cluster.TimeZones()); err != nil {
			return "", createFailed(r, err)
		}
		apiserver.ApplyDefaults(o)
		return createdOutput(c, r, o, " (server dry run)")
	}
	var created api.Object
	m := createMutation(r, o, &created)
	if _, err := s.do(m, "create "+strings.ToLower(o.GetKind())+" "+o.Meta().Name); err != nil {
		return "", err
	}
	return createdOutput(c, r, created, "")
}

// createMutation creates a copy of o at its tick (a scenario's action
// runs in every engine that replays the scenario, and the API server
// keeps what it is given); created, when not nil, gets what it stored.
func createMutation(r resource, o api.Object, created *api.Object) *Mutation {
	return &Mutation{Object: api.KeyOf(o), run: func(tick reconcile.Tick) (string, error) {
		stored, err := tick.Create(trace.Translate, o.DeepCopyObject(), "kubectl create: "+r.qualified()+"/"+o.Meta().Name+" created")
		if err != nil {
			return "", createFailed(r, err)
		}
		if created != nil {
			*created = stored
		}
		return r.qualified() + "/" + o.Meta().Name + " created\n", nil
	}}
}

// createFailed is how the create subcommands report an error from the
// API server: wrapped, so an invalid object is not described field by
// field but by the server's message. create job and create cronjob name
// the kind ("failed to create job"), create poddisruptionbudget the
// resource ("failed to create poddisruptionbudgets").
func createFailed(r resource, err error) error {
	msg := err.Error()
	if ie := (*apiserver.InvalidError)(nil); errors.As(err, &ie) {
		msg = invalidMessage(ie)
	}
	switch r.kind {
	case api.KindPodDisruptionBudget:
		return errorf("failed to create %s: %s", r.plural, msg)
	case api.KindSecret:
		return errorf("failed to create secret %s", msg) // create_secret.go has no colon
	}
	return errorf("failed to create %s: %s", strings.ToLower(r.kind), msg)
}

// createdOutput prints the created object as -o asks.
func createdOutput(c *createArgs, r resource, o api.Object, dry string) (string, error) {
	return printObject(c.p, r, o, "created"+dry)
}

// printObject prints an object a command made or changed as -o asks
// (PrintFlags.ToPrinter): its name with the operation ("created",
// "autoscaled (dry run)"), yaml, json or a jsonpath.
func printObject(p *parsed, r resource, o api.Object, operation string) (string, error) {
	if err := checkCreateOutput(p.str("output")); err != nil {
		return "", err
	}
	format, arg, _ := strings.Cut(p.str("output"), "=")
	switch format {
	case "name":
		return r.qualified() + "/" + o.Meta().Name + "\n", nil
	case "yaml":
		return toYAML(toMap(o)), nil
	case "json":
		return toJSON(toMap(o)), nil
	case "jsonpath", "jsonpath-as-json":
		return jsonPath(arg, toMap(o), format == "jsonpath-as-json")
	}
	return r.qualified() + "/" + o.Meta().Name + " " + operation + "\n", nil
}

package kubectl

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
)

// Mutation is a parsed kubectl command that changes the cluster. Run
// performs it as one tick, reading live objects, and returns what kubectl
// prints.
type Mutation struct {
	// Object is the object the command is about.
	Object api.Key
	// Line is the command, for the tick's explanation.
	Line string
	run  func(ctx reconcile.Context) (string, error)
}

// Run performs the mutation within a tick.
func (m *Mutation) Run(ctx reconcile.Context) (string, error) {
	out, err := m.run(ctx)
	if err != nil {
		ctx.Explain("kubectl %s: %s", m.Line, strings.TrimPrefix(err.Error(), "error: "))
		return out, err
	}
	ctx.Explain("kubectl %s: %s", m.Line, strings.TrimSpace(strings.ReplaceAll(out, "\n", "; ")))
	return out, nil
}

// ParseMutation parses a mutating kubectl command line (scale, set image,
// rollout pause|resume|restart|undo, delete, cordon, uncordon, drain,
// label, annotate, taint) for a scenario action, in namespace ns.
func ParseMutation(line, ns string) (*Mutation, error) {
	words, err := Split(line)
	if err != nil {
		return nil, err
	}
	if len(words) > 0 && words[0] == "kubectl" {
		words = words[1:]
	}
	if len(words) == 0 {
		return nil, errorf("a command is required")
	}
	s := &Session{Namespace: ns}
	line = strings.Join(words, " ")
	b, ok := mutators[words[0]]
	switch {
	case words[0] == "rollout" && len(words) > 1:
		b, ok = rolloutMutators[words[1]]
		words = words[1:]
	case words[0] == "set" && len(words) > 1 && words[1] == "image":
		b, ok = mutators["image"]
		words = words[1:]
	case words[0] == "image":
		ok = false
	}
	if !ok {
		return nil, errorf("%q does not change the cluster; a scenario action needs one of: scale, set image, rollout pause|resume|restart|undo, delete, cordon, uncordon, drain, label, annotate, taint", strings.Join(words[:min(2, len(words))], " "))
	}
	m, err := b(s, words[1:])
	if err != nil {
		return nil, err
	}
	m.Line = line
	return m, nil
}

type builder func(s *Session, args []string) (*Mutation, error)

var mutators, rolloutMutators map[string]builder

func init() {
	mutators = map[string]builder{"scale": buildScale, "image": buildSetImage, "delete": buildDelete, "cordon": buildCordon(true),
		"uncordon": buildCordon(false), "drain": buildDrain, "label": buildMeta("label"), "annotate": buildMeta("annotate"), "taint": buildTaint}
	rolloutMutators = map[string]builder{"pause": buildPause(true), "resume": buildPause(false), "restart": buildRestart, "undo": buildUndo}
}

// do runs a mutation now, as a tick of the engine.
func (s *Session) do(m *Mutation, line string) (string, error) {
	m.Line = line
	var out string
	var runErr error
	s.Cluster.Act(engine.KubectlActor, m.Object, func(ctx reconcile.Context) error {
		out, runErr = m.Run(ctx)
		return runErr
	})
	return out, runErr
}

func (s *Session) mutating(b builder, verb string) command {
	return func(s *Session, args []string) (string, error) {
		m, err := b(s, args)
		if err != nil {
			return "", err
		}
		return s.do(m, verb+" "+strings.Join(args, " "))
	}
}

func (s *Session) scale(args []string) (string, error) {
	return s.mutating(buildScale, "scale")(s, args)
}

func (s *Session) set(args []string) (string, error) {
	if len(args) == 0 || args[0] != "image" {
		return "", usageErr("set", "unknown command %q for \"kubectl set\" (Stateflow supports set image)", strings.Join(args[:min(1, len(args))], ""))
	}
	return s.mutating(buildSetImage, "set image")(s, args[1:])
}

func (s *Session) delete(args []string) (string, error) {
	return s.mutating(buildDelete, "delete")(s, args)
}

func (s *Session) cordon(args []string) (string, error) {
	return s.mutating(buildCordon(true), "cordon")(s, args)
}

func (s *Session) uncordon(args []string) (string, error) {
	return s.mutating(buildCordon(false), "uncordon")(s, args)
}

func (s *Session) drain(args []string) (string, error) {
	return s.mutating(buildDrain, "drain")(s, args)
}

func (s *Session) label(args []string) (string, error) {
	return s.mutating(buildMeta("label"), "label")(s, args)
}

func (s *Session) annotate(args []string) (string, error) {
	return s.mutating(buildMeta("annotate"), "annotate")(s, args)
}

func (s *Session) taint(args []string) (string, error) {
	return s.mutating(buildTaint, "taint")(s, args)
}

// target resolves "TYPE NAME" or "TYPE/NAME" to one key in ns.
func target(cmd string, args []string, ns string, kinds ...string) (api.Key, resource, []string, error) {
	if len(args) == 0 {
		return api.Key{}, resource{}, nil, usageErr(cmd, "you must specify the type of resource and its name")
	}
	var r resource
	var name string
	rest := args[1:]
	if t, n, ok := strings.Cut(args[0], "/"); ok {
		var err error
		if r, err = resolve(t); err != nil {
			return api.Key{}, r, nil, err
		}
		name = n
	} else {
		var err error
		if r, err = resolve(args[0]); err != nil {
			return api.Key{}, r, nil, err
		}
		if len(args) < 2 {
			return api.Key{}, r, nil, usageErr(cmd, "resource(s) were provided, but no name was specified")
		}
		name, rest = args[1], args[2:]
	}
	if len(kinds) > 0 && !contains(kinds, r.kind) {
		return api.Key{}, r, nil, errorf("%s is not supported for %s (only %s)", cmd, r.plural, strings.ToLower(strings.Join(kinds, ", ")))
	}
	k := api.Key{Kind: r.kind, Namespace: ns, Name: name}
	if r.cluster {
		k.Namespace = ""
	}
	return k, r, rest, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func live(ctx reconcile.Context, k api.Key) (api.Object, error) {
	o, ok := ctx.LiveGet(k)
	if !ok {
		return nil, serverErr("NotFound", fmt.Sprintf("%s %q not found", resourceFor(k.Kind).pluralQualified(), k.Name))
	}
	return o.DeepCopyObject(), nil
}

func apiErr(err error) error {
	if se, ok := err.(*apiserver.StatusError); ok {
		return serverErr(string(se.Reason), se.Message)
	}
	if ie, ok := err.(*apiserver.InvalidError); ok {
		return &cmdError{msg: "The " + strings.Replace(ie.Error(), ".apps \"", " \"", 1), code: 1}
	}
	return err
}

func buildScale(s *Session, args []string) (*Mutation, error) {
	p, err := parseFlags("scale", args, []flagSpec{{"replicas", "", true}, {"current-replicas", "", true}})
	if err != nil {
		return nil, err
	}
	k, r, _, err := target("scale", p.args, s.namespace(p), api.KindDeployment, api.KindReplicaSet)
	if err != nil {
		return nil, err
	}
	if !p.has("replicas") {
		return nil, usageErr("scale", "required flag(s) \"replicas\" not set")
	}
	n, err := strconv.Atoi(p.str("replicas"))
	if err != nil || n < 0 {
		return nil, errorf("The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0")
	}
	return &Mutation{Object: k, run: func(ctx reconcile.Context) (string, error) {
		o, err := live(ctx, k)
		if err != nil {
			return "", err
		}
		switch x := o.(type) {
		case *api.Deployment:
			x.Spec.Replicas = api.Int32(int32(n))
		case *api.ReplicaSet:
			x.Spec.Replicas = api.Int32(int32(n))
		}
		if _, err := ctx.Update(trace.Translate, o, fmt.Sprintf("kubectl scale: %s spec.replicas=%d", k.Short(), n)); err != nil {
			return "", apiErr(err)
		}
		return r.qualified() + "/" + k.Name + " scaled\n", nil
	}}, nil
}

func buildSetImage(s *Session, args []string) (*Mutation, error) {
	p, err := parseFlags("set image", args, []flagSpec{{"all", "", false}})
	if err != nil {
		return nil, err
	}
	k, r, rest, err := target("set image", p.args, s.namespace(p), api.KindDeployment, api.KindReplicaSet, api.KindPod)
	if err != nil {
		return nil, err
	}
	images := map[string]string{}
	var order []string
	for _, a := range rest {
		c, img, ok := strings.Cut(a, "=")
		if !ok || c == "" || img == "" {
			return nil, usageErr("set image", "expected CONTAINER_NAME_1=CONTAINER_IMAGE_1, got %q", a)
		}
		images[c] = img
		order = append(order, c)
	}
	if len(images) == 0 {
		return nil, usageErr("set image", "at least one image update is required")
	}
	return &Mutation{Object: k, run: func(ctx reconcile.Context) (string, error) {
		o, err := live(ctx, k)
		if err != nil {
			return "", err
		}
		spec := podSpecOf(o)
		changed := false
		for _, c := range order {
			found := false
			for i := range spec.Containers {
				if spec.Containers[i].Name == c || c == "*" {
					found = true
					if spec.Containers[i].Image != images[c] {
						spec.Containers[i].Image = images[c]
						changed = true
					}
				}
			}
			if !found {
				return "", errorf("unable to find container named %q", c)
			}
		}
		if !changed {
			return "", nil
		}
		if _, err := ctx.Update(trace.Translate, o, fmt.Sprintf("kubectl set image: %s %s", k.Short(), strings.Join(rest, " "))); err != nil {
			return "", apiErr(err)
		}
		return r.qualified() + "/" + k.Name + " image updated\n", nil
	}}, nil
}

func podSpecOf(o api.Object) *api.PodSpec {
	switch x := o.(type) {
	case *api.Deployment:
		return &x.Spec.Template.Spec
	case *api.ReplicaSet:
		return &x.Spec.Template.Spec
	case *api.Pod:
		return &x.Spec
	}
	return &api.PodSpec{}
}

func buildDelete(s *Session, args []string) (*Mutation, error) {
	p, err := parseFlags("delete", args, []flagSpec{{"cascade", "", true}, {"grace-period", "", true}, {"force", "", false}, {"wait", "", false}, {"now", "", false}})
	if err != nil {
		return nil, err
	}
	k, r, rest, err := target("delete", p.args, s.namespace(p), api.KindDeployment, api.KindReplicaSet, api.KindPod, api.KindNode)
	if err != nil {
		return nil, err
	}
	if len(rest) > 0 {
		return nil, usageErr("delete", "Stateflow deletes one object per command; got extra arguments %v", rest)
	}
	cascade := p.str("cascade")
	switch cascade {
	case "", "true", "background":
		cascade = "background"
	case "foreground", "orphan":
	case "false":
		cascade = "orphan"
	default:
		return nil, errorf("invalid cascade value (%s). Must be \"background\", \"foreground\", or \"orphan\"", cascade)
	}
	opts := apiserver.DeleteOptions{Propagation: cascade}
	if p.has("grace-period") {
		g, err := strconv.Atoi(p.str("grace-period"))
		if err != nil {
			return nil, errorf("invalid argument %q for \"--grace-period\" flag", p.str("grace-period"))
		}
		if g >= 0 {
			opts.GracePeriodSeconds = api.Int64(int64(g))
		}
	}
	if p.bool("force") || p.bool("now") {
		g := int64(0)
		if p.bool("now") {
			g = 1
		}
		opts.GracePeriodSeconds = &g
	}
	return &Mutation{Object: k, run: func(ctx reconcile.Context) (string, error) {
		if _, err := live(ctx, k); err != nil {
			return "", err
		}
		if err := ctx.Delete(trace.Translate, k, opts, fmt.Sprintf("kubectl delete %s (cascade=%s)", k.Short(), cascade)); err != nil {
			return "", apiErr(err)
		}
		out := fmt.Sprintf("%s %q deleted\n", r.qualified(), k.Name)
		if p.bool("force") {
			out = "Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.\n" + out
		}
		return out, nil
	}}, nil
}

func buildCordon(on bool) builder {
	verb := map[bool]string{true: "cordon", false: "uncordon"}[on]
	return func(s *Session, args []string) (*Mutation, error) {
		p, err := parseFlags(verb, args, []flagSpec{{"dry-run", "", true}})
		if err != nil {
			return nil, err
		}
		if len(p.args) != 1 {
			return nil, usageErr(verb, "USAGE: %s NODE [flags]", verb)
		}
		k := api.Key{Kind: api.KindNode, Name: strings.TrimPrefix(strings.TrimPrefix(p.args[0], "node/"), "nodes/")}
		return &Mutation{Object: k, run: func(ctx reconcile.Context) (string, error) { return setUnschedulable(ctx, k, on) }}, nil
	}
}

func setUnschedulable(ctx reconcile.Context, k api.Key, on bool) (string, error) {
	o, err := live(ctx, k)
	if err != nil {
		return "", err
	}
	n := o.(*api.Node)
	word := map[bool]string{true: "cordoned", false: "uncordoned"}[on]
	if n.Spec.Unschedulable == on {
		return "node/" + k.Name + " already " + word + "\n", nil
	}
	n.Spec.Unschedulable = on
	if _, err := ctx.Update(trace.Translate, n, fmt.Sprintf("kubectl: node/%s spec.unschedulable=%v", k.Name, on)); err != nil {
		return "", apiErr(err)
	}
	return "node/" + k.Name + " " + word + "\n", nil
}

// buildDrain cordons a node and evicts its pods (kubectl drain without
// waiting: the evicted pods terminate gracefully in later ticks).
func buildDrain(s *Session, args []string) (*Mutation, error) {
	p, err := parseFlags("drain", args, []flagSpec{{"ignore-daemonsets", "", false}, {"delete-emptydir-data", "", false}, {"force", "", false},
		{"grace-period", "", true}, {"timeout", "", true}, {"pod-selector", "", true}})
	if err != nil {
		return nil, err
	}
	if len(p.args) != 1 {
		return nil, usageErr("drain", "USAGE: drain NODE [flags]")
	}
	k := api.Key{Kind: api.KindNode, Name: strings.TrimPrefix(p.args[0], "node/")}
	force := p.bool("force")
	return &Mutation{Object: k, run: func(ctx reconcile.Context) (string, error) {
		out, err := setUnschedulable(ctx, k, true)
		if err != nil {
			return "", err
		}
		pods := podsOnNode(ctx, k.Name)
		var unmanaged []string
		for _, pod := range pods {
			if pod.ControllerRef() == nil {
				unmanaged = append(unmanaged, pod.Namespace+"/"+pod.Name)
			}
		}
		if len(unmanaged) > 0 && !force {
			return out, errorf("unable to drain node %q due to error: cannot delete Pods that declare no controller (use --force to override): %s, continuing command...", k.Name, strings.Join(unmanaged, ", "))
		}
		for _, pod := range pods {
			out += fmt.Sprintf("evicting pod %s/%s\n", pod.Namespace, pod.Name)
			if err := ctx.Delete(trace.Translate, api.KeyOf(pod), apiserver.DeleteOptions{UID: pod.UID}, "kubectl drain: evicted pod/"+pod.Name); err != nil {
				return out, apiErr(err)
			}
		}
		for _, pod := range pods {
			out += "pod/" + pod.Name + " evicted\n"
		}
		return out + "node/" + k.Name + " drained\n", nil
	}}, nil
}

// podsOnNode lists, from the API server, the live pods bound to node.
// The reconcile context has no list call, so it scans by key.
func podsOnNode(ctx reconcile.Context, node string) []*api.Pod {
	lister, ok := ctx.(interface {
		List(kind, ns string) []api.Object
	})
	if !ok {
		return nil
	}
	var out []*api.Pod
	for _, o := range lister.List(api.KindPod, "") {
		if p := o.(*api.Pod); p.Spec.NodeName == node && p.DeletionTimestamp == nil {
			out = append(out, p)
		}
	}
	return out
}

// buildMeta is kubectl label and kubectl annotate.
func buildMeta(verb string) builder {
	past := map[string]string{"label": "labeled", "annotate": "annotated"}[verb]
	return func(s *Session, args []string) (*Mutation, error) {
		p, err := parseFlags(verb, args, []flagSpec{{"overwrite", "", false}})
		if err != nil {
			return nil, err
		}
		k, r, rest, err := target(verb, p.args, s.namespace(p))
		if err != nil {
			return nil, err
		}
		set, remove := map[string]string{}, []string{}
		for _, a := range rest {
			if key, ok := strings.CutSuffix(a, "-"); ok && !strings.Contains(a, "=") {
				remove = append(remove, key)
				continue
			}
			key, val, ok := strings.Cut(a, "=")
			if !ok {
				return nil, errorf("at least one %s update is required", map[string]string{"label": "label", "annotate": "annotation"}[verb])
			}
			set[key] = val
		}
		if len(set)+len(remove) == 0 {
			return nil, errorf("at least one %s update is required", map[string]string{"label": "label", "annotate": "annotation"}[verb])
		}
		return &Mutation{Object: k, run: func(ctx reconcile.Context) (string, error) {
			o, err := live(ctx, k)
			if err != nil {
				return "", err
			}
			m := o.Meta()
			target := &m.Labels
			if verb == "annotate" {
				target = &m.Annotations
			}
			if *target == nil {
				*target = map[string]string{}
			}
			keys := make([]string, 0, len(set))
			for key := range set {
				keys = append(keys, key)
			}
			sort.Strings(keys)
			for _, key := range keys {
				if cur, ok := (*target)[key]; ok && cur != set[key] && !p.bool("overwrite") {
					return "", errorf("'%s' already has a value (%s), and --overwrite is false", key, cur)
				}
				(*target)[key] = set[key]
			}
			for _, key := range remove {
				delete(*target, key)
			}
			if _, err := ctx.Update(trace.Translate, o, fmt.Sprintf("kubectl %s %s %s", verb, k.Short(), strings.Join(rest, " "))); err != nil {
				return "", apiErr(err)
			}
			return r.qualified() + "/" + k.Name + " " + past + "\n", nil
		}}, nil
	}
}

// buildTaint is kubectl taint nodes NODE key[=value]:Effect[-].
func buildTaint(s *Session, args []string) (*Mutation, error) {
	p, err := parseFlags("taint", args, []flagSpec{{"overwrite", "", false}})
	if err != nil {
		return nil, err
	}
	k, _, rest, err := target("taint", p.args, "", api.KindNode)
	if err != nil {
		return nil, err
	}
	if len(rest) == 0 {
		return nil, usageErr("taint", "at least one taint update is required")
	}
	type change struct {
		taint  api.Taint
		remove bool
	}
	var changes []change
	for _, a := range rest {
		spec, remove := strings.CutSuffix(a, "-")
		kv, effect, _ := strings.Cut(spec, ":")
		key, val, _ := strings.Cut(kv, "=")
		if !remove && effect == "" {
			return nil, errorf("invalid taint spec: %s, unknown taint effect", a)
		}
		if effect != "" && effect != api.TaintNoSchedule && effect != api.TaintPreferNoSchedule && effect != api.TaintNoExecute {
			return nil, errorf("invalid taint spec: %s, invalid taint effect: %s, unsupported taint effect", a, effect)
		}
		changes = append(changes, change{api.Taint{Key: key, Value: val, Effect: effect}, remove})
	}
	return &Mutation{Object: k, run: func(ctx reconcile.Context) (string, error) {
		o, err := live(ctx, k)
		if err != nil {
			return "", err
		}
		n := o.(*api.Node)
		verb := "tainted"
		for _, c := range changes {
			var kept []api.Taint
			found := false
			for _, t := range n.Spec.Taints {
				match := t.Key == c.taint.Key && (c.taint.Effect == "" || t.Effect == c.taint.Effect)
				if match {
					found = true
					if c.remove || p.bool("overwrite") {
						continue
					}
					return "", errorf("node %s already has %s taint(s) with same effect(s) and --overwrite is false", k.Name, c.taint.Key)
				}
				kept = append(kept, t)
			}
			if c.remove && !found {
				return "", errorf("taint %q not found", c.taint.Key)
			}
			if c.remove {
				verb = "untainted"
			} else {
				now := api.At(ctx.Now())
				c.taint.TimeAdded = nil
				if c.taint.Effect == api.TaintNoExecute {
					c.taint.TimeAdded = &now
				}
				kept = append(kept, c.taint)
			}
			n.Spec.Taints = kept
		}
		if _, err := ctx.Update(trace.Translate, n, fmt.Sprintf("kubectl taint node/%s %s", k.Name, strings.Join(rest, " "))); err != nil {
			return "", apiErr(err)
		}
		return "node/" + k.Name + " " + verb + "\n", nil
	}}, nil
}

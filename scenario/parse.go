package scenario

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/kubelet"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/timezone"
	"github.com/stateflow/stateflow/engine/trace"
)

// Limits on a scenario: its size in bytes and the pods its workloads ask
// for (Kubernetes' own supported maximum).
const (
	MaxInputBytes = 1 << 20
	MaxPods       = 150_000
)

// Scenario is a parsed scenario, ready to run.
type Scenario struct {
	// Name is the Scenario document's metadata.name, if any.
	Name string
	// Description is the Scenario's spec.description.
	Description string
	// Namespace is the kubectl console's current namespace.
	Namespace string
	// Objects are the workload manifests in file order.
	Objects []api.Object
	// Config is the engine configuration.
	Config engine.Config
	// Warnings are the problems that did not stop the scenario.
	Warnings []Diagnostic
	// Lesson is the Lesson document, if the file has one.
	Lesson *Lesson
}

// parser accumulates diagnostics while reading documents.
type parser struct {
	sc       *Scenario
	errs     Errors
	scenario *yaml.Node
	docs     []docObject
	fields   fieldCheck // the fields of the documents read so far
	nodes    []*api.Node
	seen     map[api.Key]int // key → line of its first definition
	faults   []fault
	// nodesSpec is spec.nodes, for the nodes add-node actions add;
	// joining are those nodes.
	nodesSpec *NodesSpec
	joining   []joiningNode
}

type docObject struct {
	obj  api.Object
	node *yaml.Node
	doc  int
}

// Options are what a scenario's text does not say.
type Options struct {
	// TimeZones loads the zones CronJobs name, to validate them and for
	// the engine the scenario configures (Config.TimeZones); nil is
	// timezone.Default.
	TimeZones timezone.Loader
}

// Parse reads a scenario. It returns an Errors value listing every error
// with its position; warnings are in Scenario.Warnings.
func Parse(src []byte) (*Scenario, error) { return ParseWith(src, Options{}) }

// ParseWith is Parse with options.
func ParseWith(src []byte, opts Options) (*Scenario, error) {
	if len(src) > MaxInputBytes {
		return nil, Errors{{Severity: Error, Message: fmt.Sprintf("the scenario is %d bytes; the limit is %d bytes (1 MiB)", len(src), MaxInputBytes)}}
	}
	if !utf8.Valid(src) {
		line := 1 + bytes.Count(src[:invalidUTF8At(src)], []byte("\n"))
		return nil, Errors{{Severity: Error, Line: line, Message: "the scenario is not valid UTF-8 text"}}
	}
	if line, col, r, ok := controlCharacter(src); ok {
		return nil, Errors{{Severity: Error, Line: line, Column: col, Message: fmt.Sprintf("the scenario contains the control character %U, which YAML does not allow; delete it", r)}}
	}
	p := &parser{sc: &Scenario{Namespace: "default"}, seen: map[api.Key]int{}}
	p.fields.unknown = p.fieldProblem
	p.sc.Config.TimeZones = opts.TimeZones
	p.readDocuments(src)
	p.noteUnsimulated()
	if len(p.errs) == 0 {
		p.build()
	}
	if len(p.errs) > 0 {
		return nil, p.errs
	}
	if len(p.sc.Objects) == 0 {
		p.warnf(0, 0, "", "the scenario declares no objects: add a Deployment, ReplicaSet or Pod, or pick an example")
	}
	return p.sc, nil
}

// controlCharacter finds the first character YAML forbids in a stream (C0
// controls other than tab, line feed and carriage return, DEL, and C1
// controls other than NEL), with its line and column (in characters).
func controlCharacter(src []byte) (line, col int, r rune, found bool) {
	line, col = 1, 1
	for _, r := range string(src) {
		switch {
		case r == '\n':
			line, col = line+1, 1
			continue
		case r < 0x20 && r != '\t' && r != '\r', r == 0x7f, r >= 0x80 && r <= 0x9f && r != 0x85:
			return line, col, r, true
		}
		col++
	}
	return 0, 0, 0, false
}

func invalidUTF8At(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return len(b)
}

var lineRE = regexp.MustCompile(`line (\d+)`)

func (p *parser) errorf(line, col int, path, format string, args ...any) {
	d := Diagnostic{Severity: Error, Line: line, Column: col, Path: path, Message: fmt.Sprintf(format, args...)}
	for _, e := range p.errs {
		if e == d {
			return // yaml.v3 repeats a type error once per alias use
		}
	}
	p.errs = append(p.errs, d)
}

// fieldProblem records an unknown field: an error in a Kubernetes
// object, a warning in Stateflow's own documents.
func (p *parser) fieldProblem(d Diagnostic) {
	if d.Severity == Error {
		p.errorf(d.Line, d.Column, d.Path, "%s", d.Message)
		return
	}
	p.sc.Warnings = append(p.sc.Warnings, d)
}

// noteUnsimulated gives the file's one note of the real fields it sets
// that Stateflow does not simulate, at the first of them.
func (p *parser) noteUnsimulated() {
	if len(p.fields.unsimulated) == 0 {
		return
	}
	p.warnf(p.fields.first.Line, p.fields.first.Column, "", "not simulated, so ignored: %s", strings.Join(p.fields.unsimulated, ", "))
}

func (p *parser) warnf(line, col int, path, format string, args ...any) {
	p.sc.Warnings = append(p.sc.Warnings, Diagnostic{Severity: Warning, Line: line, Column: col, Path: path, Message: fmt.Sprintf(format, args...)})
}

// readDocuments decodes each YAML document and dispatches it by kind.
func (p *parser) readDocuments(src []byte) {
	dec := yaml.NewDecoder(bytes.NewReader(src))
	for doc := 1; ; doc++ {
		var n yaml.Node
		err := dec.Decode(&n)
		if errors.Is(err, io.EOF) {
			return
		}
		if err != nil {
			p.syntaxError(err)
			return
		}
		if len(n.Content) == 0 || n.Content[0].Tag == "!!null" {
			continue
		}
		p.document(n.Content[0], doc)
	}
}

// syntaxError reports a YAML syntax error; yaml.v3 gives a line, no column.
func (p *parser) syntaxError(err error) {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	line := 0
	if m := lineRE.FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = strings.TrimSpace(strings.TrimPrefix(strings.Replace(msg, m[0], "", 1), ":"))
	}
	p.errorf(line, 0, "", "YAML syntax error: %s", msg)
}

func (p *parser) document(n *yaml.Node, doc int) {
	if n.Kind != yaml.MappingNode {
		p.errorf(n.Line, n.Column, "", "document %d is not a mapping: a Kubernetes object starts with apiVersion and kind", doc)
		return
	}
	kind, apiVersion := scalar(n, "kind"), scalar(n, "apiVersion")
	switch kind {
	case "":
		p.errorf(n.Line, n.Column, "kind", "document %d: Object 'Kind' is missing", doc)
	case "List":
		if items := child(n, "items"); items != nil && items.Kind == yaml.SequenceNode {
			for _, it := range items.Content {
				p.document(it, doc)
			}
		}
	case "Scenario":
		p.scenarioDocument(n, apiVersion, doc)
	case "Lesson":
		p.lessonDocument(n, apiVersion, doc)
	default:
		if k := kindNamed(kind); k != nil {
			p.object(n, doc, k, apiVersion)
			return
		}
		p.warnf(n.Line, n.Column, "", "document %d: kind %s (%s) is not simulated; it is ignored", doc, kind, apiVersion)
	}
}

func scalar(n *yaml.Node, key string) string {
	if c := child(n, key); c != nil && c.Kind == yaml.ScalarNode {
		return c.Value
	}
	return ""
}

// object decodes, checks and records one manifest.
func (p *parser) object(n *yaml.Node, doc int, k *kind, apiVersion string) {
	kind := k.name
	obj, ok := p.decodeVersion(n, k, apiVersion)
	if !ok {
		return
	}
	if err := apiserver.DryRun(obj, p.sc.Config.TimeZones); err != nil {
		p.invalid(n, err)
		return
	}
	key := api.KeyOf(obj)
	if api.Namespaced(kind) && key.Namespace == "" {
		key.Namespace = "default"
	}
	if first, dup := p.seen[key]; dup {
		at := nodeAt(n, "metadata.name")
		p.errorf(at.Line, at.Column, "metadata.name", "%s %q already exists (defined at line %d)", apiserver.Resource(kind), key.Name, first)
		return
	}
	p.seen[key] = nodeAt(n, "metadata.name").Line
	if k.record != nil {
		k.record(p, obj, n, doc)
		return
	}
	setLastApplied(obj, n)
	p.docs = append(p.docs, docObject{obj: obj, node: n, doc: doc})
}

// decodeVersion decodes a manifest of kind k written for apiVersion: the
// kind's own version, or an older one the API server still serves,
// converted. It warns of the fields that version does not have.
func (p *parser) decodeVersion(n *yaml.Node, k *kind, apiVersion string) (api.Object, bool) {
	var into any
	var convert func() api.Object
	if want := api.APIVersionOf(k.name); apiVersion == want {
		obj := k.new()
		into, convert = obj, func() api.Object { return obj }
	} else if k.older != nil {
		into, convert = k.older(apiVersion)
	}
	if into == nil {
		at := nodeAt(n, "apiVersion")
		p.errorf(at.Line, at.Column, "apiVersion", "no matches for kind %q in version %q (use %q)", k.name, apiVersion, api.APIVersionOf(k.name))
		return nil, false
	}
	if !p.decode(n, into) {
		return nil, false
	}
	p.fields.walk(n, reflect.TypeOf(into), realKind(apiVersion, k.name), "")
	return convert(), true
}

// LastAppliedAnnotation is where kubectl apply records what it applied.
const LastAppliedAnnotation = "kubectl.kubernetes.io/last-applied-configuration"

// setLastApplied records the manifest as written, in JSON, the way
// kubectl apply does (with an empty annotations map, as kubectl leaves it).
func setLastApplied(obj api.Object, n *yaml.Node) {
	var m map[string]any
	if err := n.Decode(&m); err != nil {
		return
	}
	delete(m, "status")
	meta, _ := m["metadata"].(map[string]any)
	if meta == nil {
		meta = map[string]any{}
		m["metadata"] = meta
	}
	for _, k := range []string{"uid", "resourceVersion", "generation", "creationTimestamp", "managedFields", "selfLink"} {
		delete(meta, k)
	}
	ann, _ := meta["annotations"].(map[string]any)
	if ann == nil {
		ann = map[string]any{}
	}
	delete(ann, LastAppliedAnnotation)
	meta["annotations"] = ann
	b, err := json.Marshal(m)
	if err != nil {
		return
	}
	om := obj.Meta()
	if om.Annotations == nil {
		om.Annotations = map[string]string{}
	}
	om.Annotations[LastAppliedAnnotation] = string(b) + "\n"
}

// decode decodes n into out, reporting type errors with their lines.
func (p *parser) decode(n *yaml.Node, out any) bool {
	err := n.Decode(out)
	if err == nil {
		return true
	}
	var te *yaml.TypeError
	if errors.As(err, &te) {
		seen := map[string]bool{}
		for _, msg := range te.Errors {
			if seen[msg] {
				continue
			}
			seen[msg] = true
			line := 0
			if m := lineRE.FindStringSubmatch(msg); m != nil {
				line, _ = strconv.Atoi(m[1])
				msg = strings.TrimSpace(strings.TrimPrefix(strings.Replace(msg, m[0], "", 1), ":"))
			}
			if d, ok := typeMismatch(n, line, msg); ok {
				p.errs = append(p.errs, d)
				continue
			}
			p.errorf(line, 0, "", "%s", msg)
		}
		return false
	}
	line, col := 0, 0
	msg := err.Error()
	if m := positionRE.FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		col, _ = strconv.Atoi(m[2])
		msg = strings.TrimSpace(strings.TrimPrefix(strings.Replace(msg, m[0], "", 1), ":"))
	} else if m := lineRE.FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = strings.TrimSpace(strings.TrimPrefix(strings.Replace(msg, m[0], "", 1), ":"))
	}
	p.errorf(line, col, pathAtPosition(n, "", line, col), "%s", msg)
	return false
}

// positionRE finds "line L:C" in the errors of the API types' YAML readers.
var positionRE = regexp.MustCompile(`line (\d+):(\d+)`)

// invalid maps an API validation error to the positions of its fields.
func (p *parser) invalid(n *yaml.Node, err error) {
	var inv *apiserver.InvalidError
	if !errors.As(err, &inv) {
		p.errorf(n.Line, n.Column, "", "%v", err)
		return
	}
	for _, f := range inv.Fields {
		at := nodeAt(n, f.Path)
		p.errorf(at.Line, at.Column, f.Path, "%s", f.Detail)
	}
}

// scenarioDocument reads the one Scenario document.
func (p *parser) scenarioDocument(n *yaml.Node, apiVersion string, doc int) {
	if p.scenario != nil {
		p.errorf(n.Line, n.Column, "", "document %d: a scenario may hold only one Scenario document (the first is at line %d)", doc, p.scenario.Line)
		return
	}
	p.scenario = n
	var sd scenarioDoc
	if !p.decodeOwn(n, "Scenario", apiVersion, &sd) {
		return
	}
	p.sc.Name = sd.Metadata.Name
	p.sc.Description = sd.Spec.Description
	p.applySpec(n, &sd.Spec)
}

func (p *parser) applySpec(n *yaml.Node, s *Spec) {
	cfg := &p.sc.Config
	if s.Seed != nil {
		cfg.Seed = *s.Seed
	}
	if s.Kubectl.Namespace != "" {
		p.sc.Namespace = s.Kubectl.Namespace
	}
	cfg.Latency = map[string]int64{}
	for comp, v := range s.Latency {
		path := "spec.latency." + comp
		if _, known := engine.DefaultLatency(comp); !known {
			at := nodeAt(n, path)
			p.warnf(at.Line, at.Column, path, "unknown component %q (known: %s)", comp, knownComponents())
			continue
		}
		if ms, ok := p.duration(n, path, v); ok {
			cfg.Latency[comp] = ms
		}
	}
	cfg.Images = kubelet.Behaviors{}
	for img, spec := range s.Images {
		cfg.Images[img] = p.behavior(n, "spec.images[\""+img+"\"]", spec)
	}
	if s.Nodes != nil && s.Nodes.Count != nil && (*s.Nodes.Count < 0 || *s.Nodes.Count > MaxNodes) {
		at := nodeAt(n, "spec.nodes.count")
		p.errorf(at.Line, at.Column, "spec.nodes.count", "Invalid value: %d: must be between 0 and %d", *s.Nodes.Count, MaxNodes)
		return
	}
	p.nodesSpec = s.Nodes
	for i, a := range s.Actions {
		p.action(n, i, a)
	}
	for i, t := range s.Traffic {
		p.traffic(n, i, t)
	}
	for i, l := range s.Load {
		p.load(n, i, l)
	}
	if s.Quota != nil {
		if s.Quota.Pods < 1 {
			at := nodeAt(n, "spec.quota.pods")
			p.errorf(at.Line, at.Column, "spec.quota.pods", "Invalid value: %d: must be at least 1", s.Quota.Pods)
		}
		cfg.PodLimit = s.Quota.Pods
	}
}

func (p *parser) duration(n *yaml.Node, path, v string) (int64, bool) {
	ms, err := ParseDuration(v)
	if err != nil {
		at := nodeAt(n, path)
		p.errorf(at.Line, at.Column, path, "%v", err)
		return 0, false
	}
	return ms, true
}

func (p *parser) behavior(n *yaml.Node, path string, s ImageSpec) kubelet.Behavior {
	b := kubelet.DefaultBehavior
	for _, f := range []struct {
		name string
		v    string
		dst  *int64
	}{{"pull", s.Pull, &b.PullMS}, {"start", s.Start, &b.StartMS}, {"ready", s.Ready, &b.ReadyMS}, {"exitAfter", s.ExitAfter, &b.ExitAfterMS},
		{"stop", s.Stop, &b.StopMS}, {"livenessFailAfter", s.LivenessFailAfter, &b.LivenessFailAfterMS}} {
		if f.v == "" {
			continue
		}
		if ms, ok := p.duration(n, path+"."+f.name, f.v); ok {
			*f.dst = ms
		}
	}
	if s.Flap != nil {
		up, okUp := p.duration(n, path+".flap.up", s.Flap.Up)
		down, okDown := p.duration(n, path+".flap.down", s.Flap.Down)
		if okUp && okDown && (up == 0 || down == 0) {
			at := nodeAt(n, path+".flap")
			p.errorf(at.Line, at.Column, path+".flap", "up and down must both be longer than 0")
		}
		b.FlapUpMS, b.FlapDownMS = up, down
	}
	b.PullError = s.PullError
	if s.ExitCode != nil {
		if c := *s.ExitCode; c < 0 || c > 255 {
			at := nodeAt(n, path+".exitCode")
			p.errorf(at.Line, at.Column, path+".exitCode", "Invalid value: %d: must be between 0 and 255 (a process exit status)", c)
		}
		b.ExitCode = *s.ExitCode
	}
	if s.Size != nil {
		b.SizeBytes = s.Size.Value()
	}
	return b
}

// build turns the documents into the engine configuration: nodes and
// namespaces exist from the start, each manifest is applied as a kubectl
// tick at time 0, in file order.
func (p *parser) build() {
	cfg := &p.sc.Config
	// Generated nodes come first: those of the Scenario's nodes block,
	// else 3 when no Node document declares the cluster, wherever the
	// documents stand in the file.
	if p.nodesSpec != nil || len(p.nodes) == 0 {
		p.nodes = append(generateNodes(p.nodesSpec), p.nodes...)
	}
	if len(p.nodes) > MaxNodes {
		p.errorf(0, 0, "", "the scenario has %d nodes; the limit is %d", len(p.nodes), MaxNodes)
		return
	}
	names := map[string]bool{}
	for i, n := range p.nodes {
		if names[n.Name] {
			p.errorf(0, 0, "", "nodes %q already exists (a generated node has the same name as a Node document)", n.Name)
			return
		}
		names[n.Name] = true
		completeNode(n, i)
	}
	cfg.Nodes = p.nodes
	for i, j := range p.joining {
		if names[j.node.Name] {
			p.errorf(j.line.Line, j.line.Column, j.path, "nodes %q already exists", j.node.Name)
			continue
		}
		names[j.node.Name] = true
		completeNode(j.node, len(p.nodes)+i)
		cfg.JoiningNodes = append(cfg.JoiningNodes, j.node)
	}
	if len(p.nodes)+len(p.joining) > MaxNodes {
		p.errorf(0, 0, "", "the scenario has %d nodes with those it adds; the limit is %d", len(p.nodes)+len(p.joining), MaxNodes)
	}
	p.checkPods()
	if len(p.errs) == 0 {
		p.checkCapacity()
		p.checkContainers()
		p.checkSpreadKeys()
	}
	joinsAt := map[string]int64{}
	for _, j := range p.joining {
		joinsAt[j.node.Name] = j.at
	}
	for _, f := range p.faults {
		if at, joins := joinsAt[f.node]; joins && f.at >= 0 && f.at < at {
			p.errorf(f.line.Line, f.line.Column, f.path+".node", "node %q joins the cluster at %s: a fault at %s has no node to act on", f.node, trace.FormatTime(at), trace.FormatTime(f.at))
			continue
		}
		if !names[f.node] {
			path := f.path + ".node"
			if f.bare {
				path = f.path
			}
			p.errorf(f.line.Line, f.line.Column, path, "nodes %q not found (the scenario's nodes are %s)", f.node, nodeNames(p.nodes))
		}
	}
	declared := map[string]bool{"default": true, "kube-system": true, "kube-public": true, "kube-node-lease": true}
	for _, ns := range cfg.Namespaces {
		declared[ns] = true
	}
	for _, d := range p.docs {
		ns := d.obj.Meta().Namespace
		if ns == "" {
			ns = "default"
			d.obj.Meta().Namespace = ns
		}
		if !declared[ns] {
			declared[ns] = true
			cfg.Namespaces = append(cfg.Namespaces, ns)
			at := nodeAt(d.node, "metadata.namespace")
			p.warnf(at.Line, at.Column, "metadata.namespace", "namespace %q is not declared in the scenario; it is created for you", ns)
		}
		p.sc.Objects = append(p.sc.Objects, d.obj)
		cfg.Actions = append(cfg.Actions, applyAction(d.obj))
	}
}

// applyAction is "kubectl apply -f" of one manifest at time 0.
func applyAction(obj api.Object) engine.Action {
	key := api.KeyOf(obj)
	return engine.Action{At: 0, Component: engine.KubectlActor, Object: key, Run: func(tick reconcile.Tick) error {
		ref := strings.ToLower(key.Kind) + resourceGroup(key.Kind) + "/" + key.Name
		_, err := tick.Create(trace.Translate, obj.DeepCopyObject(), "kubectl apply: "+ref+" created")
		if err != nil {
			tick.Explain("kubectl apply -f: %s failed: %v", ref, err)
			return err
		}
		tick.Explain("kubectl apply -f: %s created; desired state enters the API server", ref)
		return nil
	}}
}

func resourceGroup(kind string) string {
	if api.APIVersionOf(kind) == "apps/v1" {
		return ".apps"
	}
	return ""
}

func nodeNames(ns []*api.Node) string {
	var out []string
	for i, n := range ns {
		if i == 5 {
			out = append(out, fmt.Sprintf("… %d in all", len(ns)))
			break
		}
		out = append(out, n.Name)
	}
	return strings.Join(out, ", ")
}

// checkPods refuses workloads that together ask for more than MaxPods.
func (p *parser) checkPods() {
	total := int64(0)
	for _, d := range p.docs {
		if pods := kindNamed(d.obj.GetKind()).pods; pods != nil {
			n, _ := pods(d.obj)
			total += n
		}
	}
	if total > MaxPods {
		p.errorf(0, 0, "", "the workloads ask for %d pods; the simulated cluster holds at most %d (Kubernetes' supported maximum)", total, MaxPods)
	}
}

func replicasOrOne(r *int32) int64 {
	if r == nil {
		return 1
	}
	return int64(*r)
}

// knownComponents lists the components whose latency a scenario sets, in
// the order the tick log offers them.
func knownComponents() string {
	return strings.Join(engine.Components(), ", ")
}

// decodeOwn decodes one of Stateflow's own documents (Scenario, Lesson)
// into out, a pointer: its apiVersion must be APIVersion, and a field out
// does not have is a warning. It reports whether out was decoded.
func (p *parser) decodeOwn(n *yaml.Node, kind, apiVersion string, out any) bool {
	if apiVersion != APIVersion {
		at := nodeAt(n, "apiVersion")
		p.errorf(at.Line, at.Column, "apiVersion", "the %s document's apiVersion must be %q, not %q", kind, APIVersion, apiVersion)
	}
	if !p.decode(n, out) {
		return false
	}
	p.fields.walk(n, reflect.TypeOf(out).Elem(), noReal, "")
	return true
}

package kubectl

// This file is kubectl top pod and top node (k8s.io/kubectl pkg/cmd/top):
// the metrics API's PodMetrics and NodeMetrics as the metrics-server
// serves them, the checks in cobra's order (Complete, Validate, Run) and
// kubectl's messages when there are none.

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/stateflow/stateflow/engine/api/labels"
	"k8s.io/apimachinery/pkg/fields"

	"github.com/stateflow/stateflow/engine/api"
)

var topPodFlags = []flagSpec{{"selector", "l", true}, {"field-selector", "", true}, {"sort-by", "", true}, {"containers", "", false},
	{"all-namespaces", "A", false}, {"no-headers", "", false}, {"use-protocol-buffers", "", false}, {"sum", "", false}, {"show-swap", "", false}}

var topNodeFlags = []flagSpec{{"selector", "l", true}, {"sort-by", "", true}, {"no-headers", "", false}, {"use-protocol-buffers", "", false},
	{"show-capacity", "", false}, {"show-swap", "", false}}

// topHelp is what kubectl top alone prints (cobra's help, on stderr, then
// exit 1), shortened.
const topHelp = `Display resource (CPU/memory) usage.

 This command provides a view of recent resource consumption for nodes and pods. It fetches metrics from the Metrics
Server, which aggregates this data from the kubelet on each node. The Metrics Server must be installed and running in the
cluster for this command to work.

Available Commands:
  node          Display resource (CPU/memory) usage of nodes
  pod           Display resource (CPU/memory) usage of pods

Usage:
  kubectl top [flags] [options]

Use "kubectl <command> --help" for more information about a given command.
Use "kubectl options" for a list of global command-line options (applies to all commands).`

// metricsCreationDelay is how long top pod expects a pod's metrics to
// take to appear.
const metricsCreationDelay = 2 * time.Minute

// top runs top pod (pods, po) or top node (nodes, no).
func (s *Session) top(args []string) (string, error) {
	sub, rest := subcommand(args)
	switch sub {
	case "pod", "pods", "po":
		return s.topPod(rest)
	case "node", "nodes", "no":
		return s.topNode(rest)
	case "":
		if _, err := parseFlags("top", rest, nil); err != nil {
			return "", err
		}
		return "", &cmdError{msg: topHelp, code: 1}
	}
	return "", &cmdError{msg: fmt.Sprintf("error: unknown command %q\nSee 'kubectl top -h' for help and examples", strings.Join(args, " ")), code: 1}
}

// subcommand finds the first word that is not a flag or a global flag's
// value, as cobra does, and returns it and the other words.
func subcommand(args []string) (string, []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") {
			return a, append(append([]string(nil), args[:i]...), args[i+1:]...)
		}
		if takesValue(a) {
			i++
		}
	}
	return "", args
}

// takesValue reports whether a is a global flag whose value is the next
// word.
func takesValue(a string) bool {
	if strings.Contains(a, "=") {
		return false
	}
	for _, f := range globalFlags {
		if f.value && (a == "--"+f.long || (f.short != "" && a == "-"+f.short)) {
			return true
		}
	}
	return false
}

// topArgs is top pod's or top node's parsed command line.
type topArgs struct {
	p      *parsed
	name   string
	labels labels.Selector
	fields fields.Selector
}

// parseTop is Complete and Validate (bothNamed is the error for a NAME
// with a selector), then the selectors' parse of Run.
func parseTop(cmd, use, bothNamed string, args []string, specs []flagSpec) (*topArgs, error) {
	p, err := parseFlags(cmd, args, specs)
	if err != nil {
		return nil, err
	}
	if len(p.args) > 1 {
		return nil, &cmdError{msg: fmt.Sprintf("error: %s\nSee 'kubectl %s -h' for help and examples", use, cmd), code: 1}
	}
	t := &topArgs{p: p}
	if len(p.args) == 1 {
		t.name = p.args[0]
	}
	if sb := p.str("sort-by"); sb != "" && sb != "cpu" && sb != "memory" {
		return nil, errorf("--sort-by accepts only cpu or memory")
	}
	if t.name != "" && (p.str("selector") != "" || p.str("field-selector") != "") {
		return nil, errorf("%s", bothNamed)
	}
	if t.labels, err = labelSelector(p.str("selector")); err != nil {
		return nil, err
	}
	if t.fields, err = fields.ParseSelector(p.str("field-selector")); err != nil {
		return nil, errorf("%v", err)
	}
	return t, nil
}

// topPod is RunTopPod.
func (s *Session) topPod(args []string) (string, error) {
	t, err := parseTop("top pod", "pod [NAME | -l label]", "only one of NAME or selector can be provided", args, topPodFlags)
	if err != nil {
		return "", err
	}
	if !s.metricsAPI() {
		return "", errorf("Metrics API not available")
	}
	ms, err := s.podMetrics(t)
	if err != nil {
		return "", err
	}
	p := t.p
	out := printPodMetrics(ms, podPrint{withNamespace: p.bool("all-namespaces"), containers: p.bool("containers"), noHeaders: p.bool("no-headers"),
		sum: p.bool("sum"), swap: p.bool("show-swap"), sortBy: p.str("sort-by")})
	if len(ms) > 0 {
		return out, nil
	}
	if err := s.verifyEmptyMetrics(t); err != nil {
		return "", err
	}
	if p.bool("all-namespaces") {
		return "", &cmdError{msg: "No resources found", code: 0}
	}
	return "", &cmdError{msg: fmt.Sprintf("No resources found in %s namespace.", s.namespace(p)), code: 0}
}

// podMetrics is the metrics-server's answer: the named pod's metrics,
// or those of the Running pods the selectors match, in (namespace, name)
// order.
func (s *Session) podMetrics(t *topArgs) ([]*api.PodMetrics, error) {
	st := s.Cluster.Store()
	ns := s.namespace(t.p)
	if t.name != "" {
		// The metrics-server looks the pod up among the Running pods
		// first.
		k := api.Key{Kind: api.KindPodMetrics, Namespace: ns, Name: t.name}
		p, ok := st.Get(api.Key{Kind: api.KindPod, Namespace: ns, Name: t.name})
		o, found := st.Get(k)
		if !ok || p.(*api.Pod).Status.Phase != api.PodRunning || !found {
			return nil, metricsNotFound(st.Get, k)
		}
		return []*api.PodMetrics{o.(*api.PodMetrics)}, nil
	}
	if t.p.bool("all-namespaces") {
		ns = ""
	}
	var out []*api.PodMetrics
	for _, o := range st.List(api.KindPod, ns) {
		p := o.(*api.Pod)
		meta := fields.Set{"metadata.name": p.Name, "metadata.namespace": p.Namespace}
		if p.Status.Phase != api.PodRunning || !t.labels.Matches(labels.Set(p.Labels)) || !t.fields.Matches(meta) {
			continue
		}
		if m, ok := st.Get(api.Key{Kind: api.KindPodMetrics, Namespace: p.Namespace, Name: p.Name}); ok {
			out = append(out, m.(*api.PodMetrics))
		}
	}
	return out, nil
}

// verifyEmptyMetrics explains an empty answer: nothing if no pod
// matches (in the current namespace, even with -A, as kubectl asks),
// else a pod older than two minutes without metrics, else "metrics not
// available yet".
func (s *Session) verifyEmptyMetrics(t *topArgs) error {
	fs, err := fieldSelector(t.p.str("field-selector"), resourceFor(api.KindPod))
	if err != nil {
		return err
	}
	var pods []*api.Pod
	for _, o := range s.Cluster.Store().List(api.KindPod, s.namespace(t.p)) {
		if p := o.(*api.Pod); t.labels.Matches(labels.Set(p.Labels)) && fs.Matches(fieldSet{p, api.KindPod}) {
			pods = append(pods, p)
		}
	}
	if len(pods) == 0 {
		return nil
	}
	for _, p := range pods {
		if a := time.Duration(s.Cluster.Now()-p.CreationTimestamp.MS) * time.Millisecond; a > metricsCreationDelay {
			return errorf("Metrics not available for pod %s/%s, age: %s", p.Namespace, p.Name, a)
		}
	}
	return errors.New("metrics not available yet")
}

// topNode is RunTopNode: the nodes' usage against their allocatable
// (or capacity).
func (s *Session) topNode(args []string) (string, error) {
	t, err := parseTop("top node", "node [NAME | -l label]", "only one of NAME or --selector can be provided", args, topNodeFlags)
	if err != nil {
		return "", err
	}
	if !s.metricsAPI() {
		return "", errorf("Metrics API not available")
	}
	ms, err := s.nodeMetrics(t)
	if err != nil {
		return "", err
	}
	if len(ms) == 0 {
		return "", errorf("metrics not available yet")
	}
	available := map[string]api.ResourceList{}
	for _, n := range s.topNodes(t) {
		available[n.Name] = n.Status.Allocatable
		if t.p.bool("show-capacity") {
			available[n.Name] = n.Status.Capacity
		}
	}
	return printNodeMetrics(ms, available, t.p.bool("no-headers"), t.p.bool("show-swap"), t.p.str("sort-by")), nil
}

// nodeMetrics is the metrics-server's answer for nodes, by name.
func (s *Session) nodeMetrics(t *topArgs) ([]*api.NodeMetrics, error) {
	st := s.Cluster.Store()
	if t.name != "" {
		k := api.Key{Kind: api.KindNodeMetrics, Name: t.name}
		if o, ok := st.Get(k); ok {
			return []*api.NodeMetrics{o.(*api.NodeMetrics)}, nil
		}
		return nil, metricsNotFound(st.Get, k)
	}
	var out []*api.NodeMetrics
	for _, n := range s.topNodes(t) {
		if m, ok := st.Get(api.Key{Kind: api.KindNodeMetrics, Name: n.Name}); ok {
			out = append(out, m.(*api.NodeMetrics))
		}
	}
	return out, nil
}

// topNodes is the named node, or the nodes the selector matches.
func (s *Session) topNodes(t *topArgs) []*api.Node {
	var out []*api.Node
	for _, o := range s.Cluster.Store().List(api.KindNode, "") {
		n := o.(*api.Node)
		if (t.name == "" && t.labels.Matches(labels.Set(n.Labels))) || n.Name == t.name {
			out = append(out, n)
		}
	}
	return out
}

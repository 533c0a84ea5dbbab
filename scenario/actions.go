package scenario

import (
	"fmt"
	"strings"

	"github.com/stateflow/stateflow/engine/api/labels"

	"gopkg.in/yaml.v3"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/kubelet"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/kubectl"
)

// MaxActions bounds a scenario's timed actions.
const MaxActions = 10_000

// action checks one timed action and schedules it.
func (p *parser) action(n *yaml.Node, i int, a ActionSpec) {
	path := fmt.Sprintf("spec.actions[%d]", i)
	at := nodeAt(n, path)
	if i >= MaxActions {
		if i == MaxActions {
			p.errorf(at.Line, at.Column, "spec.actions", "a scenario may have at most %d actions", MaxActions)
		}
		return
	}
	if a.At == "" {
		p.errorf(at.Line, at.Column, path+".at", "Required value: when the action happens, such as 30s")
		return
	}
	ms, ok := p.duration(n, path+".at", a.At)
	if !ok {
		return
	}
	kinds := 0
	for _, set := range []bool{a.Kubectl != "", a.Node != "", a.KillPod != "", a.FailImage != "", a.AddNode != ""} {
		if set {
			kinds++
		}
	}
	switch {
	case kinds > 1:
		p.errorf(at.Line, at.Column, path, "an action does one thing: kubectl, node, kill-pod, fail-image or add-node")
	case (len(a.Labels) > 0 || len(a.Taints) > 0) && a.AddNode == "":
		p.errorf(at.Line, at.Column, path, "labels and taints describe the node of an add-node action")
	case a.AddNode != "":
		p.addNode(n, path, ms, a)
	case a.KillPod != "":
		p.killPod(n, path, ms, a.KillPod)
	case a.FailImage != "":
		image := a.FailImage
		p.sc.Config.Actions = append(p.sc.Config.Actions, engine.Action{At: ms, Component: engine.ScenarioActor, Object: api.Key{Kind: "Image", Name: image},
			Fault: engine.FailImage(image)})
	case a.Kubectl != "":
		m, err := kubectl.ParseMutation(a.Kubectl, p.sc.Namespace)
		if err != nil {
			c := nodeAt(n, path+".kubectl")
			p.errorf(c.Line, c.Column, path+".kubectl", "%v", err)
			return
		}
		act := engine.Action{At: ms, Component: engine.KubectlActor, Object: m.Object, Client: m.Client(),
			Run: func(tick reconcile.Tick) error { _, err := m.Run(tick); return err }}
		p.sc.Config.Actions = append(p.sc.Config.Actions, act)
	case a.Node != "":
		p.nodeFault(n, path, ms, a)
	default:
		p.errorf(at.Line, at.Column, path, "Required value: an action needs kubectl (a command), node (a fault), kill-pod, fail-image or add-node")
	}
}

// nodeFault schedules a node fault: NotReady and Unreachable take the
// node's kubelet down (reporting Ready=False, or silent), Ready brings it back.
func (p *parser) nodeFault(n *yaml.Node, path string, ms int64, a ActionSpec) {
	c := nodeAt(n, path+".condition")
	switch a.Condition {
	case string(kubelet.NotReady), string(kubelet.Unreachable), string(kubelet.Ready):
	case "":
		p.errorf(c.Line, c.Column, path+".condition", "Required value: NotReady, Unreachable or Ready")
		return
	default:
		p.errorf(c.Line, c.Column, path+".condition", "Unsupported value: %q: supported values: \"NotReady\", \"Unreachable\", \"Ready\"", a.Condition)
		return
	}
	p.faults = append(p.faults, fault{path: path, node: a.Node, line: nodeAt(n, path+".node"), at: ms})
	key := api.Key{Kind: api.KindNode, Name: a.Node}
	p.sc.Config.Actions = append(p.sc.Config.Actions, engine.Action{At: ms, Component: engine.ScenarioActor, Object: key,
		Fault: engine.SetNodeHealth(a.Node, kubelet.Health(a.Condition))})
}

// addNode schedules a node joining the cluster: a node like the
// generated ones, with the action's labels and taints added; build
// completes it (addresses, pod CIDR) and checks its name is new.
func (p *parser) addNode(n *yaml.Node, path string, ms int64, a ActionSpec) {
	spec := NodesSpec{}
	if p.nodesSpec != nil {
		spec = *p.nodesSpec
	}
	one := 1
	spec.Count = &one
	node := generateNodes(&spec)[0]
	node.Name = a.AddNode
	for k, v := range a.Labels {
		node.Labels[k] = v
	}
	node.Spec.Taints = append(node.Spec.Taints, a.Taints...)
	p.joining = append(p.joining, joiningNode{node: node, path: path + ".add-node", line: nodeAt(n, path+".add-node"), at: ms})
	p.sc.Config.Actions = append(p.sc.Config.Actions, engine.Action{At: ms, Component: engine.ScenarioActor,
		Object: api.Key{Kind: api.KindNode, Name: a.AddNode}, Fault: engine.AddNode(node)})
}

// joiningNode is a node an add-node action adds, for build to complete.
type joiningNode struct {
	node *api.Node
	path string
	line *yaml.Node
	at   int64
}

// fault remembers a node fault so build can check the node exists.
type fault struct {
	path, node string
	line       *yaml.Node
	bare       bool  // path names the node itself, not a parent with a node field
	at         int64 // when a node fault happens; -1 for a traffic sender
}

// killPod schedules the kill-pod fault: a pod name, or a label selector.
func (p *parser) killPod(n *yaml.Node, path string, ms int64, target string) {
	var match func(map[string]string) bool
	if strings.ContainsAny(target, "=!") || strings.Contains(target, " in ") {
		sel, err := labels.Parse(target)
		if err != nil {
			at := nodeAt(n, path+".kill-pod")
			p.errorf(at.Line, at.Column, path+".kill-pod", "%q is neither a pod name nor a label selector: %v", target, err)
			return
		}
		match = func(l map[string]string) bool { return sel.Matches(labels.Set(l)) }
	}
	ns := p.sc.Namespace
	p.sc.Config.Actions = append(p.sc.Config.Actions, engine.Action{At: ms, Component: engine.ScenarioActor, Object: api.Key{Kind: api.KindPod, Namespace: ns, Name: target},
		Fault: engine.KillPod(ns, target, match)})
}

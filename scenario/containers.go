package scenario

import (
	"fmt"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/kubelet"
)

// checkContainers warns, once per image, where a container's ending is an
// assumption: its image has no spec.images entry, its command does not
// say how it ends, and its pod does not restart it, so it is taken to
// exit 0 after kubelet.DefaultRunMS (kubelet.Infer). The warning stands
// at the container's image and says what to write to decide otherwise.
func (p *parser) checkContainers() {
	warned := map[string]bool{}
	for _, d := range p.docs {
		k := kindNamed(d.obj.GetKind())
		if k == nil || k.template == nil {
			continue
		}
		spec, prefix := k.template(d.obj)
		for i := range spec.InitContainers {
			c := &spec.InitContainers[i]
			because := fmt.Sprintf("init container %s runs to completion before %s's containers start", c.Name, api.KeyOf(d.obj).Short())
			p.warnAssumed(d, spec, c, fmt.Sprintf("%s.initContainers[%d].image", prefix, i), because, warned)
		}
		for i := range spec.Containers {
			c := &spec.Containers[i]
			because := fmt.Sprintf("%s's pods do not restart (restartPolicy %s)", api.KeyOf(d.obj).Short(), restartPolicy(spec))
			p.warnAssumed(d, spec, c, fmt.Sprintf("%s.containers[%d].image", prefix, i), because, warned)
		}
	}
}

// warnAssumed warns at path when container c's ending is assumed, once
// per image (warned).
func (p *parser) warnAssumed(d docObject, spec *api.PodSpec, c *api.Container, path, because string, warned map[string]bool) {
	if _, described := p.sc.Config.Images[c.Image]; described || warned[c.Image] {
		return
	}
	if inf := kubelet.Infer(spec, c); inf.Assumed {
		warned[c.Image] = true
		at := nodeAt(d.node, path)
		p.warnf(at.Line, at.Column, path, "image %s: no behaviour given in the Scenario's spec.images; %s, because %s. Describe the image (exitAfter, exitCode) to decide otherwise",
			c.Image, inf.Reason, because)
	}
}

// restartPolicy is the pod spec's policy as the API server defaults it.
func restartPolicy(spec *api.PodSpec) string {
	if spec.RestartPolicy == "" {
		return "Always"
	}
	return spec.RestartPolicy
}

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
		for i := range spec.Containers {
			c := &spec.Containers[i]
			if _, described := p.sc.Config.Images[c.Image]; described || warned[c.Image] {
				continue
			}
			if inf := kubelet.Infer(spec, c); inf.Assumed {
				warned[c.Image] = true
				path := fmt.Sprintf("%s.containers[%d].image", prefix, i)
				at := nodeAt(d.node, path)
				p.warnf(at.Line, at.Column, path, "image %s: no behaviour given in the Scenario's spec.images; %s, because %s's pods do not restart (restartPolicy %s). Describe the image (exitAfter, exitCode) to decide otherwise",
					c.Image, inf.Reason, api.KeyOf(d.obj).Short(), restartPolicy(spec))
			}
		}
	}
}

// restartPolicy is the pod spec's policy as the API server defaults it.
func restartPolicy(spec *api.PodSpec) string {
	if spec.RestartPolicy == "" {
		return "Always"
	}
	return spec.RestartPolicy
}

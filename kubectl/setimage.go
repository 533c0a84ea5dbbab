package kubectl

// This file is kubectl set image (pkg/cmd/set/set_image.go).

import (
	"errors"
	"fmt"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
)

func buildSetImage(s *Session, args []string) (*Mutation, error) {
	p, err := parseFlags("set image", args, []flagSpec{{"all", "", false}})
	if err != nil {
		return nil, err
	}
	k, r, rest, err := target("set image", p.args, s.namespace(p), api.KindDeployment, api.KindReplicaSet, api.KindReplicationController, api.KindDaemonSet, api.KindStatefulSet, api.KindPod,
		api.KindJob, api.KindCronJob)
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
	return &Mutation{Object: k, run: func(tick reconcile.Tick) (string, error) {
		o, err := live(tick, k)
		if err != nil {
			return "", err
		}
		spec := podSpecOf(o)
		if spec == nil {
			spec = &api.PodSpec{} // a ReplicationController without a template
		}
		changed := false
		for _, c := range order {
			// set_image.go: the containers, then the init containers.
			found, ch := setImage(spec.Containers, c, images[c])
			foundInit, chInit := setImage(spec.InitContainers, c, images[c])
			if !found && !foundInit {
				return "", errorf("unable to find container named %q", c)
			}
			changed = changed || ch || chInit
		}
		if !changed {
			return "", nil
		}
		if _, err := tick.Update(trace.Translate, o, fmt.Sprintf("kubectl set image: %s %s", k.Short(), strings.Join(rest, " "))); err != nil {
			return "", patchFailed(err)
		}
		return r.qualified() + "/" + k.Name + " image updated\n", nil
	}}, nil
}

func podSpecOf(o api.Object) *api.PodSpec {
	if podSpec := helperFor(o.GetKind()).podSpec; podSpec != nil {
		return podSpec(o)
	}
	return &api.PodSpec{}
}

// patchFailed is how set image reports a patch the API server refused:
// the server's message (its group with the kind, "Job.batch"), after
// "failed to patch image update to pod template".
func patchFailed(err error) error {
	msg := err.Error()
	if ie := (*apiserver.InvalidError)(nil); errors.As(err, &ie) {
		msg = invalidMessage(ie)
	}
	return errorf("failed to patch image update to pod template: %s", msg)
}

// setImage sets the image of the container named name ("*": every one)
// and says whether one was found and whether an image changed.
func setImage(cs []api.Container, name, image string) (found, changed bool) {
	for i := range cs {
		if cs[i].Name == name || name == "*" {
			found = true
			if cs[i].Image != image {
				cs[i].Image = image
				changed = true
			}
		}
	}
	return found, changed
}

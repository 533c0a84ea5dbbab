package kubelet

// This file is makeEnvironmentVariables' part that can fail
// (pkg/kubelet/kubelet_pods.go): a container that reads a ConfigMap or a
// Secret that does not exist, or a key it does not have, is not created.
// startContainer (kuberuntime_container.go) records a Failed Event,
// "Error: " and the error, and the container waits with the reason
// CreateContainerConfigError until a later sync finds what it reads.

import (
	"fmt"
	"math"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/reconcile"
)

// syncErrorBackOffMS is the pod worker's wait after a sync that failed
// (kubelet.go backOffPeriod), jittered by up to half of it
// (workerBackOffPeriodJitterFactor).
const syncErrorBackOffMS = 10_000

// containerConfigError is why the container's environment cannot be
// made, "" when it can: envFrom first, then env, in order. The kubelet
// reads the objects through its ConfigMap and Secret managers; here they
// are read from the API server at the sync.
func containerConfigError(tick reconcile.Tick, ns string, c *api.Container) string {
	for _, from := range c.EnvFrom {
		if r := from.ConfigMapRef; r != nil && !isTrue(r.Optional) {
			if _, ok := tick.LiveGet(api.Key{Kind: api.KindConfigMap, Namespace: ns, Name: r.Name}); !ok {
				return fmt.Sprintf("configmap %q not found", r.Name)
			}
		}
		if r := from.SecretRef; r != nil && !isTrue(r.Optional) {
			if _, ok := tick.LiveGet(api.Key{Kind: api.KindSecret, Namespace: ns, Name: r.Name}); !ok {
				return fmt.Sprintf("secret %q not found", r.Name)
			}
		}
	}
	for _, v := range c.Env {
		if v.ValueFrom == nil {
			continue
		}
		if r := v.ValueFrom.ConfigMapKeyRef; r != nil {
			if msg := keyError(tick, api.KindConfigMap, ns, r.Name, r.Key, isTrue(r.Optional)); msg != "" {
				return msg
			}
		}
		if r := v.ValueFrom.SecretKeyRef; r != nil {
			if msg := keyError(tick, api.KindSecret, ns, r.Name, r.Key, isTrue(r.Optional)); msg != "" {
				return msg
			}
		}
	}
	return ""
}

// keyError is why one key of a ConfigMap or a Secret cannot be read, ""
// when it can or the reference is optional.
func keyError(tick reconcile.Tick, kind, ns, name, key string, optional bool) string {
	o, ok := tick.LiveGet(api.Key{Kind: kind, Namespace: ns, Name: name})
	switch {
	case optional:
		return ""
	case !ok && kind == api.KindConfigMap:
		return fmt.Sprintf("configmap %q not found", name)
	case !ok:
		return fmt.Sprintf("secret %q not found", name)
	}
	var has bool
	switch o := o.(type) {
	case *api.ConfigMap:
		_, has = o.Data[key] // not binaryData: a variable is text
	case *api.Secret:
		_, has = o.Data[key]
	}
	if has {
		return ""
	}
	return fmt.Sprintf("couldn't find key %s in %s %s/%s", key, kind, ns, name)
}

func isTrue(b *bool) bool { return b != nil && *b }

// configFailed leaves the container waiting with CreateContainerConfigError
// until the pod worker's next sync after a failure.
func (k *Kubelet) configFailed(w *worker, c *container, msg string) {
	w.event(c, api.EventWarning, "Failed", "Error: "+msg)
	backoff := syncErrorBackOffMS + int64(math.Floor(w.tick.Rand().Float64()*0.5*syncErrorBackOffMS))
	c.stage, c.waiting, c.waitingMsg, c.pullRetryAt = stageWaiting, "CreateContainerConfigError", msg, w.now+backoff
	w.Note("%s: %s; the pod worker retries in %s", c.name, msg, goDuration(backoff))
}

package kubelet

// This file is the volume manager's part that can keep a pod from
// starting (pkg/kubelet/volumemanager, pkg/volume/configmap,
// pkg/volume/secret, pkg/volume/projected): a ConfigMap or a Secret
// volume whose object, or a key its items name, is missing cannot be set
// up. syncPod waits for the pod's volumes before it creates the sandbox,
// so the pod has no IP and its containers wait in ContainerCreating; each
// failed SetUp records a FailedMount Event (one per failing volume) and
// is retried after the
// operation executor's exponential backoff (500 ms doubling to 2 min
// 2 s). Once the object exists, the next retry mounts it and the pod
// starts. The other sources (emptyDir, hostPath, the downward API, a
// claim the scheduler already bound) mount at once.

import (
	"fmt"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/reconcile"
)

// mountBackoff bounds the wait before a failed volume SetUp is retried
// (pkg/util/goroutinemap/exponentialbackoff).
const (
	mountInitialBackoffMS = 500
	mountMaxBackoffMS     = 122_000
)

// mountErrors are why the pod's volumes cannot all be set up, none when
// they can: one message per ConfigMap or Secret volume (or projected
// source) whose object or item key is missing and that is not optional,
// as its Event says it ("MountVolume.SetUp failed for volume "config" :
// configmap "app" not found"). The volume manager sets each volume up
// apart and records a FailedMount for each that fails.
func mountErrors(tick reconcile.Tick, p *api.Pod) []string {
	var out []string
	for i := range p.Spec.Volumes {
		v := &p.Spec.Volumes[i]
		if msg := volumeSourceError(tick, p.Namespace, v); msg != "" {
			out = append(out, fmt.Sprintf("MountVolume.SetUp failed for volume %q : %s", v.Name, msg))
		}
	}
	return out
}

// volumeSourceError is why one volume cannot be set up, "".
func volumeSourceError(tick reconcile.Tick, ns string, v *api.Volume) string {
	switch {
	case v.ConfigMap != nil:
		return objectError(tick, api.KindConfigMap, ns, v.ConfigMap.Name, v.ConfigMap.Items, isTrue(v.ConfigMap.Optional))
	case v.Secret != nil:
		return objectError(tick, api.KindSecret, ns, v.Secret.SecretName, v.Secret.Items, isTrue(v.Secret.Optional))
	case v.Projected != nil:
		for _, s := range v.Projected.Sources {
			msg := ""
			switch {
			case s.ConfigMap != nil:
				msg = objectError(tick, api.KindConfigMap, ns, s.ConfigMap.Name, s.ConfigMap.Items, isTrue(s.ConfigMap.Optional))
			case s.Secret != nil:
				msg = objectError(tick, api.KindSecret, ns, s.Secret.Name, s.Secret.Items, isTrue(s.Secret.Optional))
			}
			if msg != "" {
				return msg
			}
		}
	}
	return ""
}

// objectError is why a ConfigMap or a Secret cannot be written into a
// volume: it is missing, or lacks a key its items name (an optional one
// is skipped, and written empty).
func objectError(tick reconcile.Tick, kind, ns, name string, items []api.KeyToPath, optional bool) string {
	o, ok := tick.LiveGet(api.Key{Kind: kind, Namespace: ns, Name: name})
	switch {
	case !ok && optional:
		return ""
	case !ok && kind == api.KindConfigMap:
		return fmt.Sprintf("configmap %q not found", name)
	case !ok:
		return fmt.Sprintf("secret %q not found", name)
	}
	for _, it := range items {
		if hasKey(o, it.Key) || optional {
			continue
		}
		if kind == api.KindConfigMap {
			return "configmap references non-existent config key: " + it.Key
		}
		return "references non-existent secret key: " + it.Key
	}
	return ""
}

// hasKey says a ConfigMap (its data or binaryData) or a Secret holds key.
func hasKey(o api.Object, key string) bool {
	switch o := o.(type) {
	case *api.ConfigMap:
		_, text := o.Data[key]
		_, binary := o.BinaryData[key]
		return text || binary
	case *api.Secret:
		_, ok := o.Data[key]
		return ok
	}
	return false
}

// mount sets up the pod's volumes if it can at w.now: it reports
// whether they are mounted; while they are not, each attempt records a
// FailedMount Event and the next waits twice as long.
func (k *Kubelet) mount(w *worker, p *api.Pod, rt *podRuntime) bool {
	if rt.mounted {
		return true
	}
	if w.now < rt.mountRetryAt {
		return false
	}
	msgs := mountErrors(w.tick, p)
	if len(msgs) == 0 {
		rt.mounted = true
		k.sandbox(w, rt)
		return true
	}
	for _, msg := range msgs {
		w.event(nil, api.EventWarning, "FailedMount", msg)
	}
	rt.mountBackoffMS = min(max(2*rt.mountBackoffMS, mountInitialBackoffMS), mountMaxBackoffMS)
	rt.mountRetryAt = w.now + rt.mountBackoffMS
	more := ""
	if len(msgs) > 1 {
		more = fmt.Sprintf(", and %d more", len(msgs)-1)
	}
	w.Note("volumes not mounted (%s%s); retry in %dms", msgs[0], more, rt.mountBackoffMS)
	return false
}

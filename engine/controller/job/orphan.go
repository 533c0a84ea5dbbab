package job

import (
	"fmt"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/informer"
	"github.com/stateflow/stateflow/engine/reconcile"
)

// syncOrphanPod is syncOrphanPod and handleSingleOrphanPod: a pod that
// still carries the tracking finalizer but whose Job is gone, finished or
// not its controller any more loses the finalizer, so its deletion can
// finish.
func (c *Controller) syncOrphanPod(tick reconcile.Tick, key api.Key) error {
	p, ok := informer.Get[*api.Pod](c.Informer, key)
	if !ok {
		tick.Explain("pod/%s: gone", key.Name)
		return nil
	}
	tick.Read(p)
	if ref := p.ControllerRef(); ref != nil {
		if ref.Kind != api.KindJob || ref.APIVersion != "batch/v1" {
			tick.Explain("pod/%s belongs to %s/%s: not a Job's", p.Name, ref.Kind, ref.Name)
			return nil
		}
		if j := c.resolveControllerRef(p.Namespace, ref); j != nil && !j.Finished() {
			tick.Explain("pod/%s belongs to job/%s, which is running", p.Name, j.Name)
			return nil
		}
	}
	if !hasJobTrackingFinalizer(p) {
		tick.Explain("pod/%s has no tracking finalizer left", p.Name)
		return nil
	}
	err := removeTrackingFinalizer(tick, p, fmt.Sprintf("pod/%s has no running Job: its tracking finalizer goes", p.Name))
	if err != nil && !notFound(err) {
		return err
	}
	tick.Explain("pod/%s has no running Job: removed its tracking finalizer so its deletion can finish", p.Name)
	return nil
}

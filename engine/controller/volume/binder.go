package volume

import (
	"fmt"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/informer"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
)

// Name is the component name in the trace.
const Name = "persistentvolume-binder"

// Provisioner is the provisioner of the default StorageClass (kind's).
const Provisioner = "rancher.io/local-path"

// Binder binds Pending claims to volumes provisioned for them.
type Binder struct {
	reconcile.Base
}

// New returns a binder with an empty cache.
func New() *Binder {
	return &Binder{Base: reconcile.NewBase(Name, "", informer.New(api.KindPersistentVolumeClaim))}
}

// Clone implements reconcile.Component.
func (b *Binder) Clone() reconcile.Component { return &Binder{Base: b.CloneBase()} }

// Observe queues every new claim, and any claim not yet bound to a
// volume.
func (b *Binder) Observe(ev apiserver.WatchEvent, q reconcile.Queue) {
	c, ok := ev.Object.(*api.PersistentVolumeClaim)
	if ok && ev.Type != apiserver.Deleted && c.Status.Phase != api.ClaimBound && (ev.Type == apiserver.Added || c.Spec.VolumeName == "") {
		q.Add(api.KeyOf(c))
	}
}

// Reconcile provisions a volume for the claim and binds it: the volume's
// name into the claim's spec, then Bound with the capacity asked for.
func (b *Binder) Reconcile(tick reconcile.Tick, key api.Key) (reconcile.Result, error) {
	c, ok := informer.Get[*api.PersistentVolumeClaim](b.Informer, key)
	if !ok {
		return reconcile.Gone(tick, key, "nothing to bind")
	}
	tick.Read(c)
	if c.Status.Phase == api.ClaimBound || c.DeletionTimestamp != nil {
		tick.Explain("pvc/%s needs no binding", c.Name)
		return reconcile.Result{}, nil
	}
	volume := "pvc-" + c.UID
	cur := c
	if c.Spec.VolumeName == "" {
		next := c.DeepCopy()
		next.Spec.VolumeName = volume
		// What the PV controller and the provisioner leave on a bound
		// claim; the scheduler's volume binding reads bind-completed.
		a := map[string]string{}
		for k, v := range c.Annotations {
			a[k] = v
		}
		a["pv.kubernetes.io/bind-completed"] = "yes"
		a["pv.kubernetes.io/bound-by-controller"] = "yes"
		a["volume.beta.kubernetes.io/storage-provisioner"] = Provisioner
		a["volume.kubernetes.io/storage-provisioner"] = Provisioner
		next.Annotations = a
		out, err := tick.Update(trace.Realize, next, fmt.Sprintf("pvc/%s: provisioned volume %s", c.Name, volume))
		if err != nil {
			return reconcile.Result{}, err
		}
		cur = out.(*api.PersistentVolumeClaim)
	}
	bound := cur.DeepCopy()
	bound.Status = api.PersistentVolumeClaimStatus{Phase: api.ClaimBound, AccessModes: cur.Spec.AccessModes,
		Capacity: api.ResourceList{"storage": cur.Spec.Resources.Requests["storage"]}}
	if _, err := tick.UpdateStatus(trace.Realize, bound, fmt.Sprintf("pvc/%s Bound to %s", c.Name, cur.Spec.VolumeName)); err != nil {
		return reconcile.Result{}, err
	}
	tick.Explain("pvc/%s: provisioned %s of storage and bound it", c.Name, cur.Spec.Resources.Requests["storage"].String())
	return reconcile.Result{}, nil
}

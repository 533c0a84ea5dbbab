package gc

import (
	"fmt"
	"sort"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/informer"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
)

// Name is the component name.
const Name = "garbage-collector"

// Collector is the garbage collector with its view of owned objects.
type Collector struct {
	reconcile.Base
}

// New returns an empty collector.
func New() *Collector {
	return &Collector{Base: reconcile.NewBase(Name, "", informer.New(api.KindDeployment, api.KindReplicaSet, api.KindPod, api.KindService, api.KindEndpointSlice, api.KindDaemonSet, api.KindControllerRevision, api.KindStatefulSet, api.KindPersistentVolumeClaim, api.KindJob, api.KindCronJob, api.KindReplicationController))}
}

// Clone implements reconcile.Component.
func (c *Collector) Clone() reconcile.Component {
	return &Collector{Base: c.CloneBase()}
}

// Observe tracks objects and queues the ones whose owners went away or
// that wait for a deletion finalizer.
func (c *Collector) Observe(ev apiserver.WatchEvent, q reconcile.Queue) {
	m := ev.Object.Meta()
	k := ev.Key()
	if ev.Type == apiserver.Deleted {
		for _, kind := range c.Watches() {
			for _, dep := range c.Informer.Owned(kind, m.UID) {
				q.Add(api.KeyOf(dep))
			}
		}
		c.wakeOwners(m, q)
		return
	}
	startsDeleting := ev.Old == nil || ev.Old.Meta().DeletionTimestamp == nil
	if m.DeletionTimestamp != nil && startsDeleting && hasFinalizer(m, apiserver.FinalizerOrphan, apiserver.FinalizerForeground) {
		q.Add(k)
	}
	if ev.Type == apiserver.Added {
		for _, ref := range m.OwnerReferences {
			if _, ok := c.owner(m.Namespace, ref); !ok {
				q.Add(k) // maybe dangling: check
			}
		}
	}
}

// wakeOwners re-checks the owners of a deleted object that wait for
// their dependents in foreground deletion.
func (c *Collector) wakeOwners(m *api.ObjectMeta, q reconcile.Queue) {
	for _, ref := range m.OwnerReferences {
		if o, ok := c.owner(m.Namespace, ref); ok && o.Meta().DeletionTimestamp != nil && hasFinalizer(o.Meta(), apiserver.FinalizerForeground) {
			q.Add(api.KeyOf(o))
		}
	}
}

// owner returns the cached object an owner reference names, in the
// dependent's namespace, if it is the one with the reference's UID (as
// the real collector's isDangling looks owners up by their coordinates).
func (c *Collector) owner(ns string, ref api.OwnerReference) (api.Object, bool) {
	o, ok := c.Informer.Get(api.Key{Kind: ref.Kind, Namespace: ns, Name: ref.Name})
	if !ok || o.Meta().UID != ref.UID {
		return nil, false
	}
	return o, true
}

func hasFinalizer(m *api.ObjectMeta, names ...string) bool {
	for _, f := range m.Finalizers {
		for _, n := range names {
			if f == n {
				return true
			}
		}
	}
	return false
}

// Reconcile handles one object: an owner being deleted with a finalizer,
// or a dependent whose owner may be gone.
func (c *Collector) Reconcile(tick reconcile.Tick, key api.Key) (reconcile.Result, error) {
	o, ok := c.Informer.Get(key)
	if !ok {
		return reconcile.Gone(tick, key, "nothing to collect")
	}
	tick.Read(o)
	m := o.Meta()
	switch {
	case m.DeletionTimestamp != nil && hasFinalizer(m, apiserver.FinalizerOrphan):
		return reconcile.Result{}, c.orphan(tick, o)
	case m.DeletionTimestamp != nil && hasFinalizer(m, apiserver.FinalizerForeground):
		return reconcile.Result{}, c.foreground(tick, o)
	}
	return reconcile.Result{}, c.collectIfDangling(tick, o)
}

func (c *Collector) dependents(uid string) []api.Object {
	var out []api.Object
	for _, kind := range c.Watches() {
		out = append(out, c.Informer.Owned(kind, uid)...)
	}
	sort.Slice(out, func(i, j int) bool { return api.KeyOf(out[i]).String() < api.KeyOf(out[j]).String() })
	return out
}

// orphan removes the owner's reference from every dependent, then the
// orphan finalizer, which lets the owner go.
func (c *Collector) orphan(tick reconcile.Tick, owner api.Object) error {
	uid := owner.Meta().UID
	deps := c.dependents(uid)
	for _, d := range deps {
		live, ok := tick.LiveGet(api.KeyOf(d))
		if !ok {
			continue
		}
		cp := live.DeepCopyObject()
		var refs []api.OwnerReference
		for _, r := range cp.Meta().OwnerReferences {
			if r.UID != uid {
				refs = append(refs, r)
			}
		}
		cp.Meta().OwnerReferences = refs
		if _, err := tick.Update(trace.Translate, cp, fmt.Sprintf("orphaned %s: removed its ownerReference to %s", api.KeyOf(d).Short(), api.KeyOf(owner).Short())); err != nil {
			return err
		}
	}
	if err := c.removeFinalizer(tick, owner, apiserver.FinalizerOrphan); err != nil {
		return err
	}
	tick.Explain("%s deleted with --cascade=orphan: released %d dependents, then removed the orphan finalizer", api.KeyOf(owner).Short(), len(deps))
	return nil
}

// foreground deletes the dependents first and lets the owner go once none
// that blocks its deletion is left.
func (c *Collector) foreground(tick reconcile.Tick, owner api.Object) error {
	deps := c.dependents(owner.Meta().UID)
	blocking := 0
	for _, d := range deps {
		if d.Meta().DeletionTimestamp == nil {
			if err := tick.Delete(trace.Translate, api.KeyOf(d), apiserver.DeleteOptions{UID: d.Meta().UID, Propagation: "foreground"},
				fmt.Sprintf("deleted %s before its owner %s (foreground)", api.KeyOf(d).Short(), api.KeyOf(owner).Short())); err != nil && !apiserver.IsReason(err, apiserver.ReasonNotFound) {
				return err
			}
		}
		blocking++
	}
	if blocking > 0 {
		tick.Explain("%s waits in foreground deletion for %d dependents to go", api.KeyOf(owner).Short(), blocking)
		return nil
	}
	if err := c.removeFinalizer(tick, owner, apiserver.FinalizerForeground); err != nil {
		return err
	}
	tick.Explain("%s has no dependents left; removed the foregroundDeletion finalizer", api.KeyOf(owner).Short())
	return nil
}

func (c *Collector) removeFinalizer(tick reconcile.Tick, owner api.Object, name string) error {
	live, ok := tick.LiveGet(api.KeyOf(owner))
	if !ok {
		return nil
	}
	cp := live.DeepCopyObject()
	var keep []string
	for _, f := range cp.Meta().Finalizers {
		if f != name {
			keep = append(keep, f)
		}
	}
	cp.Meta().Finalizers = keep
	_, err := tick.Update(trace.Translate, cp, fmt.Sprintf("removed the %s finalizer of %s", name, api.KeyOf(owner).Short()))
	return err
}

// collectIfDangling deletes an object whose every owner is gone
// (background propagation), checking the owners against the API server
// as the real collector does before it deletes.
func (c *Collector) collectIfDangling(tick reconcile.Tick, o api.Object) error {
	m := o.Meta()
	if len(m.OwnerReferences) == 0 || m.DeletionTimestamp != nil {
		tick.Explain("%s has live owners or none; nothing to collect", api.KeyOf(o).Short())
		return nil
	}
	for _, ref := range m.OwnerReferences {
		ok := api.Key{Kind: ref.Kind, Namespace: m.Namespace, Name: ref.Name}
		if live, exists := tick.LiveGet(ok); exists && live.Meta().UID == ref.UID {
			tick.Explain("%s still has its owner %s", api.KeyOf(o).Short(), ok.Short())
			return nil
		}
	}
	if err := tick.Delete(trace.Translate, api.KeyOf(o), apiserver.DeleteOptions{UID: m.UID, Propagation: "background"},
		fmt.Sprintf("deleted %s: its owner %s/%s is gone", api.KeyOf(o).Short(), m.OwnerReferences[0].Kind, m.OwnerReferences[0].Name)); err != nil && !apiserver.IsReason(err, apiserver.ReasonNotFound) {
		return err
	}
	tick.Explain("%s's owner %s %s is gone: deleted it (background cascade)", api.KeyOf(o).Short(), m.OwnerReferences[0].Kind, m.OwnerReferences[0].Name)
	return nil
}

package replicaset

import "github.com/stateflow/stateflow/engine/api"

// target is what one sync controls: the ReplicaSet the controller reads,
// and obj, the object it was read from — the ReplicaSet itself, or a
// ReplicationController converted (AsReplicaSet), as
// pkg/controller/replication runs this controller over
// ReplicationControllers. Keys, owner references, Events and status
// writes name obj, passed as it is (a target turned into an api.Object
// would be boxed, an allocation per use); target's GetKind is obj's all
// the same.
type target struct {
	*api.ReplicaSet
	obj api.Object
}

// GetKind is the kind of the object the target was read from.
func (t target) GetKind() string { return t.obj.GetKind() }

// targetOf reads o, a ReplicaSet or a ReplicationController, as a target.
func targetOf(o api.Object) target {
	if rc, ok := o.(*api.ReplicationController); ok {
		return target{rc.AsReplicaSet(), rc}
	}
	rs := o.(*api.ReplicaSet)
	return target{rs, rs}
}

// withStatus is a copy of t's object with status st, to write.
func (t target) withStatus(st api.ReplicaSetStatus) api.Object {
	if rc, ok := t.obj.(*api.ReplicationController); ok {
		cp := rc.DeepCopy()
		cp.Status = api.ReplicationControllerStatus(st)
		return cp
	}
	cp := t.ReplicaSet.DeepCopy()
	cp.Status = st
	return cp
}

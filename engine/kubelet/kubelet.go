package kubelet

import (
	"reflect"
	"slices"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/informer"
	"github.com/stateflow/stateflow/engine/reconcile"
)

// Name is the component name in Event sources.
const Name = "kubelet"

// Kubelet is the kubelet of one node.
type Kubelet struct {
	node     string
	hostIP   string
	ipPrefix string
	nextIP   int
	reconcile.Base
	images    map[string]bool
	pods      podTable
	behaviors Behaviors
	// pullFailures are images whose pulls fail from now on (fail-image).
	pullFailures map[string]string
	// health is what a scenario fault made of this kubelet.
	health Health
	// gen says which pod runtimes this kubelet may change in place
	// (podRuntime.gen == gen); the others it shares with its clones or the
	// kubelet it was cloned from.
	gen uint64
	// patch is the status patch being sent (the store keeps only its
	// status and copies the rest from the stored pod), empty between
	// writes: a report allocates no pod of its own.
	patch api.Pod
	// texts are strings made once and shared with the clones.
	texts *texts
	// conds is the room a report makes the pod's conditions in: the
	// store keeps its own copy of what it stores (one per distinct list),
	// so a report allocates no list. Not state: a clone starts without it.
	conds []api.PodCondition
}

// New returns the kubelet of node, whose pods get addresses from podCIDR
// (an "a.b.c.0/24" network) and whose images behave as behaviors says.
func New(node, hostIP, podCIDR string, behaviors Behaviors) *Kubelet {
	prefix := strings.TrimSuffix(podCIDR, "0/24")
	return &Kubelet{node: node, hostIP: hostIP, ipPrefix: prefix, nextIP: 2, Base: reconcile.NewBase(Name, node, informer.ForNode(node)),
		images: map[string]bool{}, behaviors: behaviors, health: Ready, texts: newTexts()}
}

// Clone implements reconcile.Component.
func (k *Kubelet) Clone() reconcile.Component {
	// Neither side owns the pod runtimes now: each copies one before it
	// first changes it (runtime), so both stay independent however they
	// are used.
	k.gen += 2
	c := *k
	c.gen = k.gen + 1
	c.Base = k.CloneBase()
	c.pullFailures = make(map[string]string, len(k.pullFailures))
	for i, m := range k.pullFailures {
		c.pullFailures[i] = m
	}
	c.images = make(map[string]bool, len(k.images))
	for i := range k.images {
		c.images[i] = true
	}
	c.pods = slices.Clone(k.pods)
	c.conds = nil
	return &c
}

// runtime returns the runtime of the pod with key, to change: copied
// first if a clone of this kubelet, or the kubelet it was cloned from,
// shares it.
func (k *Kubelet) runtime(key api.Key) (*podRuntime, bool) {
	i, ok := k.pods.find(key)
	if !ok {
		return nil, false
	}
	rt := k.pods[i]
	if rt.gen != k.gen {
		rt = rt.clone()
		rt.gen = k.gen
		k.pods[i] = rt
	}
	return rt, true
}

// Observe queues the pod for its pod worker, and the pods whose
// containers wait for a Service when it changes (wait.go). A change of
// status alone (usually the kubelet's own report coming back) does not
// wake the worker, as the kubelet's pod config ignores status changes.
func (k *Kubelet) Observe(ev apiserver.WatchEvent, q reconcile.Queue) {
	if ev.Object.GetKind() == api.KindNode || k.health != Ready {
		return
	}
	if ev.Object.GetKind() == api.KindService {
		k.serviceChanged(ev.Key(), q)
		return
	}
	if ev.Type == apiserver.Modified {
		if ev.StatusOnly {
			return // the spec, deletion, labels and annotations are the old ones
		}
		old, cur := ev.Old.(*api.Pod), ev.Object.(*api.Pod)
		if reflect.DeepEqual(&old.Spec, &cur.Spec) && reflect.DeepEqual(old.DeletionTimestamp, cur.DeletionTimestamp) &&
			reflect.DeepEqual(old.Labels, cur.Labels) && reflect.DeepEqual(old.Annotations, cur.Annotations) {
			return
		}
	}
	q.Add(ev.Key())
}

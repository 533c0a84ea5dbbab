package deployment

import (
	"fmt"
	"math/rand/v2"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
)

// fakeCtx is a reconcile.Tick that accepts every write and remembers
// it, unless told to refuse it.
type fakeCtx struct {
	now       int64
	updates   map[string]api.Object
	events    []string
	explained string           // the tick's explanation, as Reconcile set it
	createErr error            // when set, every Create fails with it
	updateErr map[string]error // Update of the named object fails with it
}

func newFake() *fakeCtx {
	return &fakeCtx{updates: map[string]api.Object{}, updateErr: map[string]error{}}
}

func (f *fakeCtx) Now() int64       { return f.now }
func (f *fakeCtx) Rand() *rand.Rand { return rand.New(rand.NewPCG(1, 2)) }
func (f *fakeCtx) Create(_ trace.Class, o api.Object, _ string) (api.Object, error) {
	if f.createErr != nil {
		return nil, f.createErr
	}
	f.updates[o.Meta().Name] = o
	return o, nil
}
func (f *fakeCtx) Update(_ trace.Class, o api.Object, _ string) (api.Object, error) {
	if err := f.updateErr[o.Meta().Name]; err != nil {
		return nil, err
	}
	f.updates[o.Meta().Name] = o
	return o, nil
}
func (f *fakeCtx) UpdateStatus(c trace.Class, o api.Object, s string) (api.Object, error) {
	return f.Update(c, o, s)
}
func (f *fakeCtx) PatchStatus(c trace.Class, o api.Object, s string) (api.Object, error) {
	return f.Update(c, o, s)
}
func (f *fakeCtx) Delete(trace.Class, api.Key, apiserver.DeleteOptions, string) error { return nil }
func (f *fakeCtx) Bind(*api.Pod, string, string) error                                { return nil }
func (f *fakeCtx) LiveGet(api.Key) (api.Object, bool)                                 { return nil, false }
func (f *fakeCtx) LiveList(string, string) []api.Object                               { return nil }
func (f *fakeCtx) Event(_ api.Object, _, typ, reason, msg string) {
	f.events = append(f.events, fmt.Sprintf("%s %s %s", typ, reason, msg))
}
func (f *fakeCtx) Read(api.Object)          {}
func (f *fakeCtx) Program(trace.RuleChange) {}
func (f *fakeCtx) Explain(format string, args ...any) {
	f.explained = fmt.Sprintf(format, args...)
}

func (f *fakeCtx) replicas(name string) (int32, bool) {
	o, ok := f.updates[name]
	if !ok {
		return 0, false
	}
	return o.(*api.ReplicaSet).Replicas(), true
}

func newSyncer(f *fakeCtx) *syncer { return &syncer{tick: f, cache: New().Informer, now: f.now} }

func intstr(s string) *api.IntOrString {
	if s == "" {
		return nil
	}
	if s[len(s)-1] == '%' {
		v := api.FromString(s)
		return &v
	}
	var i int32
	fmt.Sscan(s, &i)
	v := api.FromInt(i)
	return &v
}

// newDeployment is a RollingUpdate deployment; "" leaves a fencepost unset.
func newDeployment(replicas int32, surge, unavailable string) *api.Deployment {
	d := &api.Deployment{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default", UID: "d-uid", Generation: 1}}
	d.Spec.Replicas = api.Int32(replicas)
	d.Spec.Strategy = api.DeploymentStrategy{Type: api.RollingUpdateStrategy, RollingUpdate: &api.RollingUpdateDeployment{MaxSurge: intstr(surge), MaxUnavailable: intstr(unavailable)}}
	return d
}

// newRS is a ReplicaSet created at second created, with spec replicas and
// available pods.
func newRS(name string, created int64, replicas, available int32) *api.ReplicaSet {
	rs := &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", UID: name + "-uid", CreationTimestamp: api.At(created * 1000), Annotations: map[string]string{}}}
	rs.Spec.Replicas = api.Int32(replicas)
	rs.Status.Replicas, rs.Status.ReadyReplicas, rs.Status.AvailableReplicas = replicas, available, available
	return rs
}

// withTemplate gives d the selector app=web and a one-container template
// running image, so that it owns and recognises ReplicaSets.
func withTemplate(d *api.Deployment, image string) *api.Deployment {
	d.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	d.Spec.Template = api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "web"}},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "web", Image: image}}}}
	return d
}

// ownedRS is newRS controlled by d, running image: d's new ReplicaSet when
// image is d's, an old one otherwise.
func ownedRS(d *api.Deployment, name, image string, created int64, replicas, available int32) *api.ReplicaSet {
	rs := newRS(name, created, replicas, available)
	rs.OwnerReferences = []api.OwnerReference{api.NewControllerRef(d, "apps/v1")}
	rs.Labels = map[string]string{"app": "web"}
	rs.Spec.Selector = d.Spec.Selector.DeepCopy()
	rs.Spec.Template = d.Spec.Template.DeepCopy()
	rs.Spec.Template.Spec.Containers[0].Image = image
	return rs
}

// syncOnce runs one sync of d (Reconcile) on a controller whose cache holds
// d and rss, as if it had seen their ADDED watch events.
func syncOnce(f *fakeCtx, d *api.Deployment, rss ...*api.ReplicaSet) (reconcile.Result, error) {
	c := New()
	v := apiserver.EmptyVersion().With(d)
	for _, rs := range rss {
		v = v.With(rs)
	}
	c.Informer.Apply(apiserver.WatchEvent{Type: apiserver.Added, Object: d, Version: v})
	return c.Reconcile(f, api.KeyOf(d))
}

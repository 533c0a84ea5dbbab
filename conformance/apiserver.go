package conformance

import (
	"fmt"
	batchdefaults "k8s.io/kubernetes/pkg/apis/batch/v1"
	"maps"
	"reflect"
	"slices"
	"strings"
	"time"

	apps "k8s.io/api/apps/v1"
	autoscaling "k8s.io/api/autoscaling/v2"
	batch "k8s.io/api/batch/v1"
	core "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	policy "k8s.io/api/policy/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/kubernetes/pkg/apis/core/v1/helper/qos"

	engineapiserver "github.com/stateflow/stateflow/engine/apiserver"
)

// write is one write the upstream controller made through the fake API
// server, with the stored object before and after it.
type write struct {
	verb   string // create, update, delete
	sub    string // "status" for the status subresource
	kind   string
	name   string
	before runtime.Object // nil for a create
	after  runtime.Object // nil for a delete
	err    error
	// generated says the server drew the name from generateName.
	generated bool
}

// apiServer is a client-go fake clientset whose reactors behave like the
// engine's (and the real) API server for the calls the controllers make:
// generateName, uid, generation and resourceVersion on create; a Conflict
// when an update carries a stale resourceVersion; the status subresource
// keeping spec (and labels) and the main resource keeping status
// (pkg/registry/apps/{deployment,replicaset}/strategy.go,
// pkg/registry/core/pod/strategy.go). Every write is recorded.
type apiServer struct {
	client  *fake.Clientset
	tracker clienttesting.ObjectTracker
	rv      int64
	names   *int // names drawn from generateName so far in the run
	writes  []write
	now     metav1.Time // creationTimestamp of created objects
	// podQuota is the engine's pod ResourceQuota per namespace (0: none).
	podQuota int
	// hashes maps upstream's pod-template-hash of a template to the
	// engine's: objects upstream sends are translated on the way in, so a
	// ReplicaSet upstream names web-<its hash> meets the engine's
	// web-<engine hash> (see allowances.go).
	hashes map[string]string
	// aliases maps the name upstream gives the ControllerRevision of a
	// template to the engine's name for it: a create of the one finds the
	// other existing, and a get of the one returns the other, as on a real
	// server where both sides would compute the same name (see the
	// revision-name allowance).
	aliases map[string]string
	// rewrite, if set, normalises what upstream sends before the server
	// stores it (see hpasSorted).
	rewrite func(runtime.Object)
}

func newAPIServer(objs []runtime.Object, rv int64, now metav1.Time) *apiServer {
	client := fake.NewSimpleClientset(objs...)
	s := &apiServer{client: client, tracker: client.Tracker(), rv: rv, now: now, names: new(int)}
	client.PrependReactor("create", "*", s.create)
	client.PrependReactor("update", "*", s.update)
	client.PrependReactor("patch", "*", s.patch)
	client.PrependReactor("delete", "*", s.delete)
	client.PrependReactor("get", "controllerrevisions", s.getAlias)
	return s
}

// getAlias answers a get of a revision by upstream's name for it with the
// engine's revision of the same template, if the name is not taken.
func (s *apiServer) getAlias(a clienttesting.Action) (bool, runtime.Object, error) {
	name := a.(clienttesting.GetAction).GetName()
	if s.get(a.GetResource(), a.GetNamespace(), name) != nil || s.aliases[name] == "" {
		return false, nil, nil
	}
	if o := s.get(a.GetResource(), a.GetNamespace(), s.aliases[name]); o != nil {
		return true, o.DeepCopyObject(), nil
	}
	return false, nil, nil
}

// newAPIServerFor is the API server as a tick found it: its objects, its
// resourceVersion, the engine's pod quota, and the run's name counter.
func newAPIServerFor(in *tickInput) *apiServer {
	s := newAPIServer(in.live, in.rv, in.clock.metaNow())
	s.podQuota = in.quota
	if in.names != nil {
		s.names = in.names
	}
	return s
}

func (s *apiServer) nextRV() string {
	s.rv++
	return fmt.Sprint(s.rv)
}

func kindOf(gvr schema.GroupVersionResource) string {
	switch gvr.Resource {
	case "deployments":
		return "Deployment"
	case "replicasets":
		return "ReplicaSet"
	case "replicationcontrollers":
		return "ReplicationController"
	case "pods":
		return "Pod"
	case "services":
		return "Service"
	case "endpointslices":
		return "EndpointSlice"
	case "endpoints":
		return "Endpoints"
	case "events":
		return "Event"
	case "daemonsets":
		return "DaemonSet"
	case "statefulsets":
		return "StatefulSet"
	case "controllerrevisions":
		return "ControllerRevision"
	case "persistentvolumeclaims":
		return "PersistentVolumeClaim"
	case "jobs":
		return "Job"
	case "cronjobs":
		return "CronJob"
	case "horizontalpodautoscalers":
		return "HorizontalPodAutoscaler"
	case "poddisruptionbudgets":
		return "PodDisruptionBudget"
	}
	return gvr.Resource
}

func (s *apiServer) get(gvr schema.GroupVersionResource, ns, name string) runtime.Object {
	o, err := s.tracker.Get(gvr, ns, name)
	if err != nil {
		return nil
	}
	return o
}

func (s *apiServer) create(a clienttesting.Action) (bool, runtime.Object, error) {
	ca := a.(clienttesting.CreateAction)
	obj := s.translate(ca.GetObject())
	m, _ := meta.Accessor(obj)
	generated := false
	if m.GetName() == "" && m.GetGenerateName() != "" {
		*s.names++
		m.SetName(fmt.Sprintf("%sh%04d", m.GetGenerateName(), *s.names))
		generated = true
	}
	gvr := a.GetResource()
	w := write{verb: "create", kind: kindOf(gvr), name: m.GetName(), generated: generated}
	alias := s.aliases[m.GetName()]
	if s.get(gvr, a.GetNamespace(), m.GetName()) != nil || alias != "" && s.get(gvr, a.GetNamespace(), alias) != nil {
		w.err = apierrors.NewAlreadyExists(gvr.GroupResource(), m.GetName())
		s.writes = append(s.writes, w)
		return true, nil, w.err
	}
	m.SetNamespace(a.GetNamespace())
	if err := s.admitQuota(gvr, a.GetNamespace(), m.GetName()); err != nil {
		w.err = err
		s.writes = append(s.writes, w)
		return true, nil, err
	}
	m.SetUID(types.UID(fmt.Sprintf("uid-%08d", s.rv+1)))
	m.SetResourceVersion(s.nextRV())
	m.SetCreationTimestamp(s.now)
	m.SetGeneration(1)
	switch o := obj.(type) {
	case *apps.Deployment:
		o.Status = apps.DeploymentStatus{}
	case *apps.ReplicaSet:
		o.Status = apps.ReplicaSetStatus{}
	case *core.ReplicationController:
		o.Status = core.ReplicationControllerStatus{}
	case *core.Pod:
		requestsFromLimits(o)
		o.Status = core.PodStatus{Phase: core.PodPending, QOSClass: qos.GetPodQOS(o)}
		admitPod(o)
	case *core.Endpoints:
		o.Generation = 0 // no generation (pkg/registry/core/endpoint/strategy.go)
	case *apps.ControllerRevision:
		o.Generation = 0 // no generation (pkg/registry/apps/controllerrevision/strategy.go)
	case *core.PersistentVolumeClaim:
		o.Generation = 0 // no generation (pkg/registry/core/persistentvolumeclaim/strategy.go)
		admitClaim(o)
	case *batch.Job:
		admitJob(o)
	case *batch.CronJob:
		o.Status = batch.CronJobStatus{}
	}
	if err := s.tracker.Create(gvr, obj, a.GetNamespace()); err != nil {
		w.err = err
		s.writes = append(s.writes, w)
		return true, nil, err
	}
	w.after = obj
	s.writes = append(s.writes, w)
	return true, obj.DeepCopyObject(), nil
}

func (s *apiServer) update(a clienttesting.Action) (bool, runtime.Object, error) {
	ua := a.(clienttesting.UpdateAction)
	obj := s.translate(ua.GetObject())
	m, _ := meta.Accessor(obj)
	gvr := a.GetResource()
	w := write{verb: "update", sub: a.GetSubresource(), kind: kindOf(gvr), name: m.GetName()}
	old := s.get(gvr, a.GetNamespace(), m.GetName())
	if old == nil {
		w.err = apierrors.NewNotFound(gvr.GroupResource(), m.GetName())
		s.writes = append(s.writes, w)
		return true, nil, w.err
	}
	om, _ := meta.Accessor(old)
	if rv := m.GetResourceVersion(); rv != "" && rv != om.GetResourceVersion() {
		w.err = apierrors.NewConflict(gvr.GroupResource(), m.GetName(), fmt.Errorf("the object has been modified; please apply your changes to the latest version and try again"))
		s.writes = append(s.writes, w)
		return true, nil, w.err
	}
	prepareForUpdate(obj, old, a.GetSubresource() == "status")
	if sameButType(obj, old) {
		// A no-op update does not bump the resourceVersion.
		w.before, w.after = old, old
		s.writes = append(s.writes, w)
		return true, old.DeepCopyObject(), nil
	}
	m.SetResourceVersion(s.nextRV())
	if err := s.tracker.Update(gvr, obj, a.GetNamespace()); err != nil {
		w.err = err
		s.writes = append(s.writes, w)
		return true, nil, err
	}
	w.before, w.after = old, obj
	s.finishDeletion(&w, gvr, a.GetNamespace())
	s.writes = append(s.writes, w)
	return true, obj.DeepCopyObject(), nil
}

// sameButType reports whether an update leaves the stored object as it
// is, kind and apiVersion aside: the stored objects carry them, the
// copies controllers take from their informers do not.
func sameButType(obj, old runtime.Object) bool {
	a, b := obj.DeepCopyObject(), old.DeepCopyObject()
	for _, o := range []runtime.Object{a, b} {
		if t, err := meta.TypeAccessor(o); err == nil {
			t.SetKind("")
			t.SetAPIVersion("")
		}
	}
	return apiequality.Semantic.DeepEqual(a, b)
}

// finishDeletion completes, after a write, the deletion of an object
// that waited with no grace left for its finalizers, once the write
// removed the last one (ShouldDeleteDuringUpdate): the write is then a
// delete.
func (s *apiServer) finishDeletion(w *write, gvr schema.GroupVersionResource, ns string) {
	m, err := meta.Accessor(w.after)
	if err != nil || m.GetDeletionTimestamp() == nil || len(m.GetFinalizers()) > 0 {
		return
	}
	if g := m.GetDeletionGracePeriodSeconds(); g == nil || *g != 0 {
		return
	}
	if s.tracker.Delete(gvr, ns, m.GetName()) == nil {
		w.verb, w.after = "delete", nil
	}
}

// patch applies the patch with the tracker's own reaction (JSON, merge
// and strategic merge patches), then records it as an update.
func (s *apiServer) patch(a clienttesting.Action) (bool, runtime.Object, error) {
	pa := a.(clienttesting.PatchAction)
	gvr := a.GetResource()
	w := write{verb: "update", sub: a.GetSubresource(), kind: kindOf(gvr), name: pa.GetName()}
	old := s.get(gvr, a.GetNamespace(), pa.GetName())
	_, obj, err := clienttesting.ObjectReaction(s.tracker)(a)
	if err != nil {
		w.err = err
		s.writes = append(s.writes, w)
		return true, nil, err
	}
	if old != nil {
		keepSubSecond(reflect.ValueOf(obj), reflect.ValueOf(old))
	}
	m, _ := meta.Accessor(obj)
	if old != nil && !apiequality.Semantic.DeepEqual(obj, old) {
		m.SetResourceVersion(s.nextRV())
		if err := s.tracker.Update(gvr, obj, a.GetNamespace()); err != nil {
			return true, nil, err
		}
	}
	w.before, w.after = old, obj
	if old != nil {
		s.finishDeletion(&w, gvr, a.GetNamespace())
	}
	s.writes = append(s.writes, w)
	return true, obj.DeepCopyObject(), nil
}

// keepSubSecond undoes what the patch reaction's JSON round trip does to
// the stored object's timestamps: the clock's wall-clock times carry a
// sub-second offset (newClock), which JSON's RFC 3339 seconds drop, so a
// patch that leaves a time alone would otherwise change it. Where the
// patched object's time is the old one truncated to the second, the old
// one is put back. It walks both objects in parallel (same type; a
// slice only when its length is unchanged).
func keepSubSecond(patched, old reflect.Value) {
	if patched.Type() != old.Type() {
		return
	}
	switch patched.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !patched.IsNil() && !old.IsNil() {
			keepSubSecond(patched.Elem(), old.Elem())
		}
	case reflect.Struct:
		if !patched.CanAddr() {
			return
		}
		if t, ok := patched.Addr().Interface().(*metav1.Time); ok {
			if o := old.Interface().(metav1.Time); !o.IsZero() && t.Time.Equal(o.Time.Truncate(time.Second)) {
				*t = o
			}
			return
		}
		for i := range patched.NumField() {
			if patched.Field(i).CanSet() {
				keepSubSecond(patched.Field(i), old.Field(i))
			}
		}
	case reflect.Slice:
		if patched.Len() == old.Len() {
			for i := range patched.Len() {
				keepSubSecond(patched.Index(i), old.Index(i))
			}
		}
	}
}

func (s *apiServer) delete(a clienttesting.Action) (bool, runtime.Object, error) {
	da := a.(clienttesting.DeleteAction)
	gvr := a.GetResource()
	w := write{verb: "delete", kind: kindOf(gvr), name: da.GetName()}
	old := s.get(gvr, a.GetNamespace(), da.GetName())
	if old == nil {
		w.err = apierrors.NewNotFound(gvr.GroupResource(), da.GetName())
		s.writes = append(s.writes, w)
		return true, nil, w.err
	}
	if om, _ := meta.Accessor(old); om.GetDeletionTimestamp() != nil {
		// Already being deleted (a pod in its grace period): the
		// deletion changes nothing.
		return true, nil, nil
	}
	if pre := da.GetDeleteOptions().Preconditions; pre != nil && pre.UID != nil {
		if om, _ := meta.Accessor(old); om.GetUID() != *pre.UID {
			w.err = apierrors.NewConflict(gvr.GroupResource(), da.GetName(), fmt.Errorf("Precondition failed: UID in precondition: %v, UID in object meta: %v", *pre.UID, om.GetUID()))
			s.writes = append(s.writes, w)
			return true, nil, w.err
		}
	}
	if p, ok := old.(*core.Pod); ok && len(p.Finalizers) > 0 {
		// Finalizers hold the pod: it is only marked.
		marked := markPodDeleting(p, da.GetDeleteOptions().GracePeriodSeconds, s.now)
		marked.ResourceVersion = s.nextRV()
		if err := s.tracker.Update(gvr, marked, a.GetNamespace()); err != nil {
			return true, nil, err
		}
		w.before = old
		s.writes = append(s.writes, w)
		return true, nil, nil
	}
	if err := s.tracker.Delete(gvr, a.GetNamespace(), da.GetName()); err != nil {
		return true, nil, err
	}
	w.before = old
	s.writes = append(s.writes, w)
	return true, nil, nil
}

// markPodDeleting is a pod's deletion while finalizers hold it (the
// engine's deletePodWithFinalizers, the registry's BeforeDelete): a
// graceful deletion gets its deadline, one with no grace left (a pod not
// bound, or finished) a zero grace period; either way the pod stays.
func markPodDeleting(p *core.Pod, gracePeriod *int64, now metav1.Time) *core.Pod {
	grace := int64(core.DefaultTerminationGracePeriodSeconds)
	if p.Spec.TerminationGracePeriodSeconds != nil {
		grace = *p.Spec.TerminationGracePeriodSeconds
	}
	if gracePeriod != nil {
		grace = *gracePeriod
	}
	if p.Spec.NodeName == "" || p.Status.Phase == core.PodSucceeded || p.Status.Phase == core.PodFailed {
		grace = 0
	}
	c := p.DeepCopy()
	at := metav1.NewTime(now.Add(time.Duration(grace) * time.Second))
	c.DeletionTimestamp, c.DeletionGracePeriodSeconds = &at, &grace
	return c
}

// admitJob is what the engine's API server, as the Job registry
// strategy's PrepareForCreate and SetDefaults_Job, does to a new Job: a
// Job without labels takes its template's (the same map, so the labels
// generateSelector adds show on both), the template gets the job-name and
// controller-uid labels and the selector the controller-uid, and the
// status starts empty. A Job that has no labels then (its template had
// none either) takes the template's as the stored Job is read back.
func admitJob(j *batch.Job) {
	// The request is decoded through the defaults of batch/v1
	// (SetDefaults_Job, and the pod template's): what a controller
	// leaves out, such as a CronJob's Job made from its undefaulted
	// template, the server fills in.
	batchdefaults.SetObjectDefaults_Job(j)
	if len(j.Labels) == 0 && j.Spec.Template.Labels != nil {
		j.Labels = j.Spec.Template.Labels
	}
	if j.Spec.ManualSelector == nil || !*j.Spec.ManualSelector {
		t := &j.Spec.Template
		if t.Labels == nil {
			t.Labels = map[string]string{}
		}
		for k, v := range map[string]string{"job-name": j.Name, batch.JobNameLabel: j.Name,
			"controller-uid": string(j.UID), batch.ControllerUidLabel: string(j.UID)} {
			if _, ok := t.Labels[k]; !ok {
				t.Labels[k] = v
			}
		}
		if j.Spec.Selector == nil {
			j.Spec.Selector = &metav1.LabelSelector{}
		}
		if j.Spec.Selector.MatchLabels == nil {
			j.Spec.Selector.MatchLabels = map[string]string{}
		}
		if _, ok := j.Spec.Selector.MatchLabels[batch.ControllerUidLabel]; !ok {
			j.Spec.Selector.MatchLabels[batch.ControllerUidLabel] = string(j.UID)
		}
	}
	// Read back through SetDefaults_Job, a Job still without labels takes
	// the template's, the generated ones included.
	if len(j.Labels) == 0 && len(j.Spec.Template.Labels) > 0 {
		j.Labels = maps.Clone(j.Spec.Template.Labels)
	}
	j.Status = batch.JobStatus{}
}

// admitQuota is the ResourceQuota admission of the engine's pod quota:
// a pod may not be created while the namespace has that many active pods.
func (s *apiServer) admitQuota(gvr schema.GroupVersionResource, ns, name string) error {
	if s.podQuota <= 0 || gvr.Resource != "pods" {
		return nil
	}
	list, err := s.tracker.List(gvr, core.SchemeGroupVersion.WithKind("Pod"), ns)
	if err != nil {
		return err
	}
	used := 0
	for _, p := range list.(*core.PodList).Items {
		if p.Status.Phase != core.PodSucceeded && p.Status.Phase != core.PodFailed && p.DeletionTimestamp == nil {
			used++
		}
	}
	if used < s.podQuota {
		return nil
	}
	return apierrors.NewForbidden(gvr.GroupResource(), name, fmt.Errorf("exceeded quota: pod-quota, requested: pods=1, used: pods=%d, limited: pods=%d", used, s.podQuota))
}

// translate returns a copy of o with upstream's template hashes replaced
// by the engine's in every string (names, labels, selectors), leaving
// everything else, timestamps included, untouched.
func (s *apiServer) translate(o runtime.Object) runtime.Object {
	cp := o.DeepCopyObject()
	if len(s.hashes) > 0 {
		replaceStrings(reflect.ValueOf(cp), func(v string) string {
			for from, to := range s.hashes {
				v = strings.ReplaceAll(v, from, to)
			}
			return v
		})
	}
	if s.rewrite != nil {
		s.rewrite(cp)
	}
	return cp
}

// replaceStrings applies f to every settable string reachable from v,
// map keys and values included.
func replaceStrings(v reflect.Value, f func(string) string) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			replaceStrings(v.Elem(), f)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				replaceStrings(v.Field(i), f)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			replaceStrings(v.Index(i), f)
		}
	case reflect.Map:
		if v.Type().Key().Kind() != reflect.String || v.Type().Elem().Kind() != reflect.String || v.IsNil() {
			return
		}
		m := reflect.MakeMapWithSize(v.Type(), v.Len())
		for _, k := range v.MapKeys() {
			m.SetMapIndex(reflect.ValueOf(f(k.String())).Convert(k.Type()), reflect.ValueOf(f(v.MapIndex(k).String())).Convert(v.Type().Elem()))
		}
		v.Set(m)
	case reflect.String:
		if v.CanSet() {
			v.SetString(f(v.String()))
		}
	}
}

// admitPod applies the mutating admission plugins the engine's API server
// applies to a new pod, as a default cluster enables them:
// ServiceAccount (the "default" account; the engine mounts no token
// volume), Priority (0 and PreemptLowerPriority without a
// priorityClassName and no default class)
// and DefaultTolerationSeconds (tolerate not-ready and unreachable nodes
// for 300 s) — plugin/pkg/admission/{serviceaccount,priority,
// defaulttolerationseconds}; and the defaults of what a controller adds
// to a defaulted template (SetDefaults_ObjectFieldSelector: the Job
// controller's JOB_COMPLETION_INDEX).
func admitPod(p *core.Pod) {
	for _, cs := range [][]core.Container{p.Spec.InitContainers, p.Spec.Containers} {
		for i := range cs {
			for _, e := range cs[i].Env {
				if f := e.ValueFrom; f != nil && f.FieldRef != nil && f.FieldRef.APIVersion == "" {
					f.FieldRef.APIVersion = "v1"
				}
			}
		}
	}
	if p.Spec.ServiceAccountName == "" {
		p.Spec.ServiceAccountName = "default"
	}
	if p.Spec.Priority == nil {
		zero := int32(0)
		p.Spec.Priority = &zero
	}
	if p.Spec.PreemptionPolicy == nil {
		policy := core.PreemptLowerPriority
		p.Spec.PreemptionPolicy = &policy
	}
	for _, key := range []string{core.TaintNodeNotReady, core.TaintNodeUnreachable} {
		found := false
		for _, t := range p.Spec.Tolerations {
			if t.Key == key && (t.Effect == core.TaintEffectNoExecute || t.Effect == "") {
				found = true
			}
		}
		if !found {
			secs := int64(300)
			p.Spec.Tolerations = append(p.Spec.Tolerations, core.Toleration{Key: key, Operator: core.TolerationOpExists, Effect: core.TaintEffectNoExecute, TolerationSeconds: &secs})
		}
	}
}

// requestsFromLimits is SetDefaults_Pod's first rule
// (pkg/apis/core/v1/defaults.go): a pod, not a template, takes each limit
// as the request it lacks — an extended resource's limit alone, say. (The
// rest of SetDefaults_Pod is left out: the engine does not store
// enableServiceLinks, docs/fidelity.md §5.8.)
func requestsFromLimits(p *core.Pod) {
	for _, cs := range [][]core.Container{p.Spec.InitContainers, p.Spec.Containers} {
		for i := range cs {
			r := &cs[i].Resources
			for name, lim := range r.Limits {
				if _, ok := r.Requests[name]; !ok {
					if r.Requests == nil {
						r.Requests = core.ResourceList{}
					}
					r.Requests[name] = lim.DeepCopy()
				}
			}
		}
	}
}

// admitClaim is what the engine's API server, as a default cluster's,
// does to a new claim: SetDefaults_PersistentVolumeClaim (Filesystem
// volumes), the DefaultStorageClass admission plugin, and the status the
// registry strategy resets (Pending, by the defaults).
func admitClaim(c *core.PersistentVolumeClaim) {
	if c.Spec.VolumeMode == nil {
		fs := core.PersistentVolumeFilesystem
		c.Spec.VolumeMode = &fs
	}
	if c.Spec.StorageClassName == nil {
		class := engineapiserver.DefaultStorageClass
		c.Spec.StorageClassName = &class
	}
	if !slices.Contains(c.Finalizers, "kubernetes.io/pvc-protection") { // StorageObjectInUseProtection
		c.Finalizers = append(c.Finalizers, "kubernetes.io/pvc-protection")
	}
	c.Status = core.PersistentVolumeClaimStatus{Phase: core.ClaimPending}
}

// prepareForUpdate is the registry strategies' PrepareForUpdate: the main
// resource keeps the stored status and bumps generation when the spec
// changes (for Deployments, annotations too); the status subresource keeps
// the stored spec (and a Deployment's labels).
func prepareForUpdate(obj, old runtime.Object, status bool) {
	m, _ := meta.Accessor(obj)
	om, _ := meta.Accessor(old)
	m.SetGeneration(om.GetGeneration())
	m.SetUID(om.GetUID())
	m.SetCreationTimestamp(om.GetCreationTimestamp())
	if e, ok := obj.(*discovery.EndpointSlice); ok {
		// Anything but metadata, or the labels, bumps the generation
		// (pkg/registry/discovery/endpointslice/strategy.go).
		oe := old.(*discovery.EndpointSlice)
		a, b := e.DeepCopy(), oe.DeepCopy()
		a.ObjectMeta, b.ObjectMeta = metav1.ObjectMeta{}, metav1.ObjectMeta{}
		if !apiequality.Semantic.DeepEqual(a, b) || !apiequality.Semantic.DeepEqual(e.Labels, oe.Labels) {
			e.Generation = oe.Generation + 1
		}
		return
	}
	hasStatus, bumps := updateStrategy(obj)
	if !hasStatus {
		return
	}
	v, ov := reflect.ValueOf(obj).Elem(), reflect.ValueOf(old).Elem()
	spec, oldSpec := v.FieldByName("Spec"), ov.FieldByName("Spec")
	if status {
		spec.Set(oldSpec)
		if d, ok := obj.(*apps.Deployment); ok {
			d.Labels = old.(*apps.Deployment).Labels
		}
		return
	}
	v.FieldByName("Status").Set(ov.FieldByName("Status"))
	changed := !apiequality.Semantic.DeepEqual(spec.Interface(), oldSpec.Interface())
	if d, ok := obj.(*apps.Deployment); ok {
		changed = changed || !apiequality.Semantic.DeepEqual(d.Annotations, old.(*apps.Deployment).Annotations)
	}
	if bumps && changed {
		m.SetGeneration(om.GetGeneration() + 1)
	}
}

// updateStrategy says whether a kind's strategy keeps its spec and status
// apart (a status subresource) and whether a change of its spec bumps
// its generation: pkg/registry/{apps,batch,policy}/*/strategy.go do; the
// HorizontalPodAutoscaler's, the claim's and the pod's strategies keep no
// generation.
func updateStrategy(obj runtime.Object) (hasStatus, bumpsGeneration bool) {
	switch obj.(type) {
	case *apps.Deployment, *apps.ReplicaSet, *apps.DaemonSet, *apps.StatefulSet, *batch.Job, *batch.CronJob, *policy.PodDisruptionBudget,
		*core.ReplicationController:
		return true, true
	case *autoscaling.HorizontalPodAutoscaler, *core.PersistentVolumeClaim, *core.Pod:
		return true, false
	}
	return false, false
}

// errorText is the text of err as the engine's trace writes it, "" for nil.
func errorText(err error) string {
	if err == nil {
		return ""
	}
	return strings.TrimSpace(err.Error())
}

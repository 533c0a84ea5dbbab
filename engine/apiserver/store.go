package apiserver

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/timezone"
)

// alphanums is the alphabet of generated name suffixes and template hashes
// (k8s.io/apimachinery/pkg/util/rand): no vowels, no confusable digits.
const alphanums = "bcdfghjklmnpqrstvwxz2456789"

// Store is the simulated API server. It is not safe for concurrent use;
// the engine drives it from one goroutine.
type Store struct {
	cur    *Version // the objects as of the latest write, but Events
	events events   // the Events (events.go)
	pivot  *Pivot   // scratch for lookups
	// evPivot is the scratch key of an Event lookup.
	evPivot api.EventRecord
	rv      int64
	now     int64
	pcg     rand.PCG
	rng     *rand.Rand
	sink    func(WatchEvent)
	// podQuota, when positive, is a ResourceQuota on pods in every namespace.
	podQuota int
	// zones loads the time zones CronJobs name (SetTimeZones).
	zones timezone.Loader
	// writes counts the writes so far; last is the latest.
	writes uint64
	last   Write
	// admitted are the values admission gives many pods, shared by the
	// pods and the store's clones.
	admitted *admitted
	// repeated keeps one copy of values many stored objects repeat
	// (repeated.go), shared the same way.
	repeated *repeated
	// specs are the pod specs admission and binding made, shared by the
	// pods made from one template (podspecs.go), and by the clones.
	specs *podSpecs
}

// Write is one write the store made, as its watch event says it: the
// object after (for Deleted, the last state) and before (nil for Added).
type Write struct {
	Type        string
	Object, Old api.Object
}

// Before and After are the object before the write (nil for a create) and
// after it (nil for a deletion).
func (w Write) Before() api.Object {
	if w.Type == Added {
		return nil
	}
	return w.Old
}

// After is the object after the write, nil when it went.
func (w Write) After() api.Object {
	if w.Type == Deleted {
		return nil
	}
	return w.Object
}

// Writes is how many writes the store has made, and the latest: a caller
// that counts before and after a call knows what the call wrote without
// looking the object up again.
func (s *Store) Writes() (uint64, Write) { return s.writes, s.last }

// SetPodQuota makes admission refuse pods beyond n per namespace, like a
// ResourceQuota named pod-quota with pods: n (0 removes it).
func (s *Store) SetPodQuota(n int) { s.podQuota = n }

// SetTimeZones sets how the CronJob strategy loads the zones a CronJob
// names (by default timezone.Default).
func (s *Store) SetTimeZones(l timezone.Loader) { s.zones = l }

// TimeZones is how the store loads the zones CronJobs name (SetTimeZones;
// timezone.Default when none was set).
func (s *Store) TimeZones() timezone.Loader {
	if s.zones == nil {
		return timezone.Default
	}
	return s.zones
}

// validate is Validate with the store's time zones.
func (s *Store) validate(obj api.Object) error { return validate(obj, s.TimeZones()) }

// PodQuota is the pod ResourceQuota of every namespace, 0 for none.
func (s *Store) PodQuota() int { return s.podQuota }

// New returns an empty store whose generated names and UIDs come from seed.
func New(seed uint64) *Store {
	s := &Store{cur: EmptyVersion(), events: newEvents(), pivot: new(Pivot), pcg: *rand.NewPCG(seed, 0x5747e5f10), admitted: newAdmitted(), repeated: newRepeated(), specs: newPodSpecs()}
	s.rng = rand.New(&s.pcg)
	return s
}

// SetSink installs the function that receives every watch event.
func (s *Store) SetSink(f func(WatchEvent)) { s.sink = f }

// SetNow sets the virtual time stamped on writes.
func (s *Store) SetNow(ms int64) { s.now = ms }

// Now returns the virtual time of the store's clock.
func (s *Store) Now() int64 { return s.now }

// Current is the Version as of the latest write: every object but the
// Events, which no informer watches.
func (s *Store) Current() *Version { return s.cur }

// ResourceVersion returns the newest resourceVersion handed out.
func (s *Store) ResourceVersion() int64 { return s.rv }

// Clone returns a store with the same contents and random state, in
// O(1): it shares the current Version, which no write changes, and the
// Events, which from now on neither side changes in place.
func (s *Store) Clone() *Store {
	c := *s
	c.rng = rand.New(&c.pcg)
	c.pivot = new(Pivot)
	c.events.gen, s.events.gen = s.events.stamp(), s.events.stamp()
	return &c
}

// Get returns the stored object, or false. An Event is built from its
// record (api.EventRecord.Event).
func (s *Store) Get(k api.Key) (api.Object, bool) {
	if k.Kind == api.KindEvent {
		r, ok := s.eventRecord(k.Namespace, k.Name)
		if !ok {
			return nil, false
		}
		return r.Event(), true
	}
	return s.cur.Lookup(k, s.pivot)
}

// Len returns how many objects are stored.
func (s *Store) Len() int { return s.cur.Len() + s.events.tree.Len() }

// Count returns how many objects of kind are stored.
func (s *Store) Count(kind string) int {
	if kind == api.KindEvent {
		return s.events.tree.Len()
	}
	return s.cur.Count(kind)
}

// Each calls f for every object of kind until f returns false. Events are
// built from their records; EachEvent scans the records.
func (s *Store) Each(kind string, f func(api.Object) bool) {
	if kind == api.KindEvent {
		s.EachEvent("", func(r *api.EventRecord) bool { return f(r.Event()) })
		return
	}
	s.cur.Ascend(kind, "", f)
}

// List returns the objects of kind in namespace ns ("" for all), sorted
// by namespace and name.
func (s *Store) List(kind, ns string) []api.Object {
	if kind == api.KindEvent {
		var out []api.Object
		s.EachEvent(ns, func(r *api.EventRecord) bool { out = append(out, r.Event()); return true })
		return out
	}
	return s.cur.List(kind, ns)
}

// RandomString returns n characters from the name-suffix alphabet, drawn
// from the store's seeded generator.
func (s *Store) RandomString(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphanums[s.rng.IntN(len(alphanums))]
	}
	return string(b)
}

func (s *Store) newUID() string {
	const hex = "0123456789abcdef"
	b := make([]byte, 36)
	for i := range b {
		switch i {
		case 8, 13, 18, 23:
			b[i] = '-'
		case 14:
			b[i] = '4'
		default:
			b[i] = hex[s.rng.IntN(16)]
		}
	}
	return string(b)
}

// put stores o (new, or replacing old) as the latest Version; an Event
// (written whole, as kubectl does) as its record.
func (s *Store) put(o, old api.Object) {
	if e, ok := o.(*api.Event); ok {
		s.putEvent(fullRecord(e))
		return
	}
	s.keepRepeated(o)
	s.cur = s.cur.with(o, old, s.rv)
}

// remove deletes old from the latest Version, or from the Events.
func (s *Store) remove(old api.Object) {
	if old.GetKind() == api.KindEvent {
		m := old.Meta()
		s.removeEvent(m.Namespace, m.Name)
		return
	}
	s.cur = s.cur.without(old, s.rv)
}

func (s *Store) emit(typ string, obj, old api.Object) { s.emitWrite(typ, obj, old, false) }

// emitWrite is emit, saying whether only the status changed (a status
// write of a kind whose new version is the old one with a new status).
func (s *Store) emitWrite(typ string, obj, old api.Object, statusOnly bool) {
	s.writes++
	s.last = Write{Type: typ, Object: obj, Old: old}
	if s.sink != nil {
		s.sink(WatchEvent{Type: typ, Object: obj, Old: old, RV: s.rv, Version: s.cur, StatusOnly: statusOnly})
	}
}

func (s *Store) bump(o api.Object) {
	s.rv++
	o.Meta().ResourceVersion = strconv.FormatInt(s.rv, 10)
}

// Create stores a new object. The store takes ownership of obj. It applies
// defaults and admission, validates, and assigns uid, resourceVersion,
// generation and creationTimestamp; a generateName gets a random suffix.
func (s *Store) Create(obj api.Object) (api.Object, error) { return s.create(obj, "") }

// Bootstrap creates what the API server itself creates when it starts
// (the system PriorityClasses), as Create does but with a uid derived
// from the object's kind and name: the random uids and names of
// everything a scenario creates stay what they were before the API
// server had such objects.
func (s *Store) Bootstrap(obj api.Object) (api.Object, error) {
	return s.create(obj, api.DerivedUUID(obj.GetKind()+"/"+obj.Meta().Name))
}

func (s *Store) create(obj api.Object, uid string) (api.Object, error) {
	m := obj.Meta()
	if !api.Namespaced(obj.GetKind()) {
		m.Namespace = ""
	} else if m.Namespace == "" {
		m.Namespace = "default"
	}
	// Mutating admission runs before the registry names the object (a
	// forbidden pod of a ReplicaSet is named by its generateName).
	if admit := strategyOf(obj).admit; admit != nil {
		if err := admit(s, obj); err != nil {
			return nil, err
		}
	}
	if m.Name == "" && m.GenerateName != "" {
		base := m.GenerateName
		if len(base) > 58 {
			base = base[:58]
		}
		m.Name = base + s.RandomString(5)
	}
	prepareForCreate(obj, s.admitted, s.specs)
	if err := s.validate(obj); err != nil {
		return nil, err
	}
	if api.Namespaced(obj.GetKind()) && obj.GetKind() != api.KindEvent {
		if _, ok := s.Get(api.Key{Kind: api.KindNamespace, Name: m.Namespace}); !ok {
			return nil, NotFound(api.KindNamespace, m.Namespace)
		}
	}
	// The object goes into the next Version before the checks below, so
	// looking for its name and inserting it are one descent; the Version
	// becomes the store's only once every check has passed. Nothing after
	// this changes what the indexes read (owners, node name).
	var next *Version
	if obj.GetKind() == api.KindEvent {
		if _, taken := s.eventRecord(m.Namespace, m.Name); taken {
			return nil, alreadyExists(api.KindEvent, m.Name)
		}
	} else {
		n, added := s.cur.withNew(obj, s.rv+1)
		if !added {
			return nil, alreadyExists(obj.GetKind(), m.Name)
		}
		next = n
	}
	if err := s.admitQuota(obj); err != nil {
		return nil, err
	}
	st := strategyOf(obj)
	if st.allocate != nil {
		if err := st.allocate(s, obj); err != nil {
			return nil, err
		}
	}
	m.UID = uid
	if uid == "" {
		m.UID = s.newUID()
	}
	if st.named != nil {
		st.named(obj)
	}
	m.CreationTimestamp = api.At(s.now)
	m.DeletionTimestamp, m.DeletionGracePeriodSeconds = nil, nil
	if st.hasSpec {
		m.Generation = 1
	}
	s.bump(obj)
	if next != nil {
		s.cur = next
	} else {
		s.putEvent(fullRecord(obj.(*api.Event)))
	}
	s.emit(Added, obj, nil)
	return obj, nil
}

// current returns the stored object for obj and checks the optimistic
// concurrency precondition: a non-empty resourceVersion must match.
func (s *Store) current(obj api.Object) (api.Object, error) {
	old, ok := s.Get(api.KeyOf(obj))
	if !ok {
		return nil, NotFound(obj.GetKind(), obj.Meta().Name)
	}
	if uid := obj.Meta().UID; uid != "" && uid != old.Meta().UID {
		return nil, conflict(obj.GetKind(), obj.Meta().Name)
	}
	if rv := obj.Meta().ResourceVersion; rv != "" && rv != old.Meta().ResourceVersion {
		return nil, conflict(obj.GetKind(), obj.Meta().Name)
	}
	return old, nil
}

// Update replaces an object's metadata and spec (not its status). The
// generation is bumped when the spec changed.
func (s *Store) Update(obj api.Object) (api.Object, error) {
	old, err := s.current(obj)
	if err != nil {
		return nil, err
	}
	keepSystemMeta(obj.Meta(), old.Meta())
	if f := strategyOf(obj).prepareForUpdate; f != nil {
		if err := f(s, obj, old); err != nil {
			return nil, err
		}
	}
	if err := s.validate(obj); err != nil {
		return nil, err
	}
	if m, om := obj.Meta(), old.Meta(); m.DeletionTimestamp != nil && len(m.Finalizers) == 0 && om.DeletionGracePeriodSeconds != nil && *om.DeletionGracePeriodSeconds == 0 {
		// ShouldDeleteDuringUpdate: the last finalizer of an object whose
		// deletion (with no grace left, for a pod) waited for it.
		return s.finishDeletion(obj, old), nil
	}
	return s.replace(obj, old), nil
}

func immutableSelector(obj api.Object, old, cur *api.LabelSelector) error {
	if reflect.DeepEqual(old, cur) {
		return nil
	}
	return &InvalidError{Kind: obj.GetKind(), Name: obj.Meta().Name, Fields: []FieldError{{
		Path: "spec.selector", Detail: fmt.Sprintf("Invalid value: %s: field is immutable", fmtSelector(cur))}}}
}

func fmtSelector(s *api.LabelSelector) string {
	if s == nil {
		return "null"
	}
	return fmt.Sprintf("v1.LabelSelector{MatchLabels:%#v, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}", s.MatchLabels)
}

// keepSystemMeta copies the fields clients cannot change on update.
func keepSystemMeta(m, old *api.ObjectMeta) {
	m.UID = old.UID
	m.Namespace = old.Namespace
	m.CreationTimestamp = old.CreationTimestamp
	m.DeletionTimestamp = old.DeletionTimestamp
	m.DeletionGracePeriodSeconds = old.DeletionGracePeriodSeconds
	m.Generation = old.Generation
	m.GenerateName = old.GenerateName
}

// replace stores obj in place of old. An update that changes nothing is
// not written: like the real API server's GuaranteedUpdate, which skips
// the write when the encoded object is unchanged, it keeps the
// resourceVersion, sends no watch event and returns the stored object.
func (s *Store) replace(obj, old api.Object) api.Object {
	obj.Meta().ResourceVersion = old.Meta().ResourceVersion
	if reflect.DeepEqual(obj, old) {
		return old
	}
	return s.modify(obj, old)
}

// modify stores obj, a changed version of old, at the next
// resourceVersion and tells the watchers.
func (s *Store) modify(obj, old api.Object) api.Object { return s.modifyAs(obj, old, false) }

// modifyAs is modify, saying whether only the status changed.
func (s *Store) modifyAs(obj, old api.Object, statusOnly bool) api.Object {
	s.bump(obj)
	s.put(obj, old)
	s.emitWrite(Modified, obj, old, statusOnly)
	return obj
}

// UpdateStatus replaces only the status of an object (the /status
// subresource), with the resourceVersion precondition.
func (s *Store) UpdateStatus(obj api.Object) (api.Object, error) {
	old, err := s.current(obj)
	if err != nil {
		return nil, err
	}
	return s.replaceStatus(withStatusOf(old, obj), old), nil
}

// PatchStatus replaces the status without a resourceVersion precondition,
// as the kubelet's status manager patches pod status.
func (s *Store) PatchStatus(obj api.Object) (api.Object, error) {
	old, ok := s.Get(api.KeyOf(obj))
	if !ok || (obj.Meta().UID != "" && obj.Meta().UID != old.Meta().UID) {
		return nil, NotFound(obj.GetKind(), obj.Meta().Name)
	}
	return s.replaceStatus(withStatusOf(old, obj), old), nil
}

// replaceStatus is replace of a status write made by withStatusOf. The
// new version of a kind with a status subresource (strategy.sameStatus:
// a pod, a ReplicaSet, a node …) shares everything but its status with
// old, so comparing the statuses tells whether it changes anything,
// without walking the spec, and its watch event says only the status
// changed.
func (s *Store) replaceStatus(obj, old api.Object) api.Object {
	same := strategyOf(obj).sameStatus
	if same == nil {
		return s.replace(obj, old)
	}
	if same(obj, old) {
		return old
	}
	return s.modifyAs(obj, old, true)
}

// withStatusOf returns a copy of old carrying src's status.
func withStatusOf(old, src api.Object) api.Object {
	if with := strategyOf(old).withStatusOf; with != nil {
		return with(old, src)
	}
	return src
}

// Bind sets spec.nodeName through the binding subresource, which also sets
// the PodScheduled=True condition (pkg/registry/core/pod/storage assignPod).
func (s *Store) Bind(k api.Key, uid, node string) (api.Object, error) {
	o, ok := s.Get(k)
	if !ok || (uid != "" && o.Meta().UID != uid) {
		return nil, NotFound(api.KindPod, k.Name)
	}
	old := o.(*api.Pod)
	if old.DeletionTimestamp != nil {
		return nil, &StatusError{Reason: ReasonConflict, Message: fmt.Sprintf("Operation cannot be fulfilled on pods/binding %q: pod %s is being deleted, cannot be assigned to a host", k.Name, k.Name)}
	}
	if old.Spec.NodeName != "" {
		return nil, &StatusError{Reason: ReasonConflict, Message: fmt.Sprintf("Operation cannot be fulfilled on pods/binding %q: pod %s is already assigned to node %q", k.Name, k.Name, old.Spec.NodeName)}
	}
	// Stored objects are immutable: the new version shares all but the
	// fields it changes with the old one.
	p := *old
	p.Spec = s.specs.boundTo(old.Spec, node)
	p.Status.Conditions = slices.Clone(old.Status.Conditions)
	SetPodCondition(&p.Status, api.PodCondition{Type: api.PodScheduled, Status: api.ConditionTrue}, s.now)
	if node != "" {
		return s.modify(&p, old), nil // the node name changed: not a no-op (replace would compare the whole pod)
	}
	return s.replace(&p, old), nil
}

// SetPodCondition sets a pod condition, keeping lastTransitionTime when
// the status did not change. It reports whether anything changed.
func SetPodCondition(st *api.PodStatus, c api.PodCondition, now int64) bool {
	if cur := st.Condition(c.Type); cur != nil {
		if cur.Status == c.Status && cur.Reason == c.Reason && cur.Message == c.Message {
			return false
		}
		if cur.Status == c.Status {
			c.LastTransitionTime = cur.LastTransitionTime
		} else {
			c.LastTransitionTime = api.At(now)
		}
		*cur = c
		return true
	}
	c.LastTransitionTime = api.At(now)
	st.Conditions = append(st.Conditions, c)
	return true
}

// DeleteOptions are the options of a delete call.
type DeleteOptions struct {
	// GracePeriodSeconds overrides the pod's terminationGracePeriodSeconds.
	GracePeriodSeconds *int64
	// UID, when set, must match the stored object's uid.
	UID string
	// Propagation is the cascade: "background" (the default), "foreground"
	// or "orphan" (metav1.DeletionPropagation).
	Propagation string
}

// Delete deletes an object. A pod bound to a node is deleted gracefully:
// it gets a deletionTimestamp and stays until its kubelet confirms with a
// zero grace period. It returns the object as it was last stored, and
// whether it is now gone.
func (s *Store) Delete(k api.Key, opts DeleteOptions) (api.Object, bool, error) {
	old, ok := s.Get(k)
	if !ok || (opts.UID != "" && opts.UID != old.Meta().UID) {
		return nil, false, NotFound(k.Kind, k.Name)
	}
	if pod, ok := old.(*api.Pod); ok && len(pod.Finalizers) > 0 {
		return s.deletePodWithFinalizers(pod, opts), false, nil
	}
	if old.Meta().DeletionTimestamp != nil && len(old.Meta().Finalizers) > 0 {
		return old, false, nil // already being deleted; the finalizers decide
	}
	if f := propagationFinalizer(opts.Propagation); (f != "" || len(old.Meta().Finalizers) > 0) && old.GetKind() != api.KindPod {
		return s.markFinalizing(old, f), false, nil // a claim's pvc-protection, say
	}
	if pod, ok := old.(*api.Pod); ok {
		if grace := podGracePeriod(pod, opts); grace > 0 {
			return s.markDeleting(pod, grace), false, nil
		}
	}
	s.rv++
	s.remove(old)
	s.emit(Deleted, old, old)
	return old, true, nil
}

// Finalizers the garbage collector honours (metav1.FinalizerOrphanDependents,
// metav1.FinalizerDeleteDependents).
const (
	FinalizerOrphan     = "orphan"
	FinalizerForeground = "foregroundDeletion"
)

func propagationFinalizer(p string) string {
	switch p {
	case "orphan":
		return FinalizerOrphan
	case "foreground":
		return FinalizerForeground
	}
	return ""
}

// markFinalizing starts a deletion that waits for finalizers (the one
// given, added, and those the object has): the object gets a
// deletionTimestamp and stays until they are removed.
func (s *Store) markFinalizing(old api.Object, finalizer string) api.Object {
	c := old.DeepCopyObject()
	t := api.At(s.now)
	c.Meta().DeletionTimestamp = &t
	c.Meta().DeletionGracePeriodSeconds = api.Int64(0)
	if finalizer != "" {
		c.Meta().Finalizers = append(c.Meta().Finalizers, finalizer)
	}
	if c.Meta().Generation > 0 {
		c.Meta().Generation++ // BeforeDelete bumps the generation
	}
	return s.replace(c, old)
}

// finishDeletion removes an object whose deletion was waiting for
// finalizers once the last one is gone.
func (s *Store) finishDeletion(obj, old api.Object) api.Object {
	s.rv++
	s.remove(old)
	s.emit(Deleted, old, old)
	return old
}

// podGracePeriod is the grace period a pod's deletion gives it
// (pkg/registry/core/pod's CheckGracefulDelete): the delete's, else the
// pod's terminationGracePeriodSeconds; none for a pod that no kubelet
// runs, or has finished.
func podGracePeriod(pod *api.Pod, opts DeleteOptions) int64 {
	grace := *pod.Spec.TerminationGracePeriodSeconds
	if opts.GracePeriodSeconds != nil {
		grace = *opts.GracePeriodSeconds
	}
	if pod.Spec.NodeName == "" || pod.Status.Phase == api.PodSucceeded || pod.Status.Phase == api.PodFailed {
		return 0
	}
	return grace
}

// deletePodWithFinalizers is a pod's deletion while finalizers hold it
// (a Job's pods carry batch.kubernetes.io/job-tracking): a graceful
// deletion as usual, but a deletion with no grace left
// (updateForGracefulDeletionAndFinalizers) keeps the pod, with a zero
// grace period, until its last finalizer is removed.
func (s *Store) deletePodWithFinalizers(old *api.Pod, opts DeleteOptions) api.Object {
	if grace := podGracePeriod(old, opts); grace > 0 {
		return s.markDeleting(old, grace)
	}
	p := *old
	switch {
	case old.DeletionTimestamp == nil:
		t := api.At(s.now)
		p.DeletionTimestamp = &t
	case old.DeletionGracePeriodSeconds != nil && *old.DeletionGracePeriodSeconds > 0:
		// Only a shorter grace period: the deletion is due at once
		// (BeforeDelete).
		t := api.At(old.DeletionTimestamp.MS - *old.DeletionGracePeriodSeconds*1000)
		p.DeletionTimestamp = &t
	default:
		return old
	}
	p.DeletionGracePeriodSeconds = api.Int64(0)
	return s.replace(&p, old)
}

// markDeleting sets the deletionTimestamp (shortening an existing grace
// period, never lengthening it).
func (s *Store) markDeleting(old *api.Pod, grace int64) api.Object {
	deadline := s.now + grace*1000
	if old.DeletionTimestamp != nil && old.DeletionTimestamp.MS <= deadline {
		return old
	}
	p := *old // shares all but the two fields it sets with old
	t := api.At(deadline)
	p.DeletionTimestamp = &t
	p.DeletionGracePeriodSeconds = api.Int64(grace)
	return s.replace(&p, old)
}

// DryRun applies defaults and validation to a copy of obj, as a create
// with dryRun=All would, without storing anything. zones loads the zones
// a CronJob names (nil: timezone.Default).
func DryRun(obj api.Object, zones timezone.Loader) error {
	c := obj.DeepCopyObject()
	if api.Namespaced(c.GetKind()) && c.Meta().Namespace == "" {
		c.Meta().Namespace = "default"
	}
	prepareForCreate(c, newAdmitted(), nil)
	return validate(c, zones)
}

// admitQuota is the ResourceQuota admission check for pods.
func (s *Store) admitQuota(obj api.Object) error {
	if s.podQuota <= 0 || obj.GetKind() != api.KindPod {
		return nil
	}
	used := 0
	s.cur.Ascend(api.KindPod, obj.Meta().Namespace, func(o api.Object) bool {
		if api.IsPodActive(o.(*api.Pod)) {
			used++
		}
		return true
	})
	if used < s.podQuota {
		return nil
	}
	return &StatusError{Reason: ReasonForbidden, Message: fmt.Sprintf("pods %q is forbidden: exceeded quota: pod-quota, requested: pods=1, used: pods=%d, limited: pods=%d", obj.Meta().Name, used, s.podQuota)}
}

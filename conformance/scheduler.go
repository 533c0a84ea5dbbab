package conformance

import (
	"context"
	"fmt"
	"sort"
	"strings"

	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
	storage "k8s.io/api/storage/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	configv1 "k8s.io/kube-scheduler/config/v1"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/scheme"
	schedcache "k8s.io/kubernetes/pkg/scheduler/backend/cache"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"
	"k8s.io/kubernetes/pkg/scheduler/metrics"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/scheduler"
)

// defaultProfile is kube-scheduler's default profile (its plugins and
// score weights), as the v1 defaulting fills it in.
func defaultProfile() (*config.KubeSchedulerProfile, error) {
	var v1cfg configv1.KubeSchedulerConfiguration
	scheme.Scheme.Default(&v1cfg)
	var cfg config.KubeSchedulerConfiguration
	if err := scheme.Scheme.Convert(&v1cfg, &cfg, nil); err != nil {
		return nil, err
	}
	return &cfg.Profiles[0], nil
}

// replayScheduler runs upstream's default profile (PreFilter, Filter on
// every node, PreScore, Score with normalisation and weights) for the pod
// the tick scheduled, on the nodes and pods the engine's scheduler
// accounted before the tick, and compares each node's verdict: feasible
// or not (with the filter's reasons), and the total score.
func replayScheduler(ctx context.Context, in *tickInput) (outcome, error) {
	before, ok := in.before.(*scheduler.Scheduler)
	if !ok {
		return outcome{}, fmt.Errorf("no copy of the scheduler from before the tick")
	}
	o, ok := before.Cache().Get(in.tick.Object)
	if !ok {
		return outcome{skip: true}, nil
	}
	pod := o.(*api.Pod)
	if pod.Spec.NodeName != "" || pod.DeletionTimestamp != nil {
		return outcome{skip: true}, nil
	}
	for _, list := range before.PodsByNode() {
		for _, q := range list {
			if q.Name == pod.Name && q.Namespace == pod.Namespace {
				return outcome{skip: true}, nil // assumed: already bound by an earlier cycle
			}
		}
	}
	verdicts, err := upstreamVerdicts(ctx, in, before, pod)
	if err != nil {
		return outcome{}, err
	}
	return outcome{verdicts: verdicts, engineVerdicts: engineVerdicts(before, pod)}, nil
}

func upstreamVerdicts(ctx context.Context, in *tickInput, s *scheduler.Scheduler, p *api.Pod) ([]string, error) {
	metrics.Register()
	var nodes []*core.Node
	for _, o := range s.Cache().List(api.KindNode, "") {
		n, err := in.clock.toK8s(o)
		if err != nil {
			return nil, err
		}
		nodes = append(nodes, n.(*core.Node))
	}
	known := map[string]bool{}
	for _, n := range nodes {
		known[n.Name] = true
	}
	var pods []*core.Pod
	for node, list := range s.PodsByNode() {
		if !known[node] {
			// Pods still bound to a deleted node: upstream's cache keeps
			// their NodeInfo, without a node, out of every snapshot.
			continue
		}
		for _, o := range list {
			k, err := in.clock.toK8s(o)
			if err != nil {
				return nil, err
			}
			pods = append(pods, k.(*core.Pod))
		}
	}
	kpod, err := in.clock.toK8s(p)
	if err != nil {
		return nil, err
	}
	pod := kpod.(*core.Pod)
	started := mountsClaims(p)
	f, err := schedulerInformers(in, started)
	if err != nil {
		return nil, err
	}
	profile, err := defaultProfile()
	if err != nil {
		return nil, err
	}
	snapshot := schedcache.NewSnapshot(pods, nodes)
	fw, err := frameworkruntime.NewFramework(ctx, plugins.NewInTreeRegistry(), profile,
		frameworkruntime.WithSnapshotSharedLister(snapshot),
		frameworkruntime.WithInformerFactory(f),
		frameworkruntime.WithClientSet(fake.NewSimpleClientset()))
	if err != nil {
		return nil, fmt.Errorf("upstream framework: %w", err)
	}
	if started {
		stop := make(chan struct{})
		defer f.Shutdown()
		defer close(stop)
		f.Start(stop)
		f.WaitForCacheSync(stop)
	}
	state := framework.NewCycleState()
	infos, err := snapshot.NodeInfos().List()
	if err != nil {
		return nil, err
	}
	sort.Slice(infos, func(i, j int) bool { return infos[i].Node().Name < infos[j].Node().Name })
	verdict := map[string]string{}
	_, st, _ := fw.RunPreFilterPlugins(ctx, state, pod)
	var feasible []fwk.NodeInfo
	statuses := framework.NewDefaultNodeToStatus()
	for _, ni := range infos {
		if !st.IsSuccess() {
			verdict[ni.Node().Name] = "filtered: " + strings.Join(st.Reasons(), "; ")
			statuses.Set(ni.Node().Name, st)
			continue
		}
		if fst := fw.RunFilterPlugins(ctx, state, pod, ni); !fst.IsSuccess() {
			verdict[ni.Node().Name] = "filtered: " + strings.Join(fst.Reasons(), "; ")
			statuses.Set(ni.Node().Name, fst)
			continue
		}
		feasible = append(feasible, ni)
	}
	if len(feasible) == 0 && len(infos) > 0 {
		// schedule_one.go: a FitError, with the PostFilter plugins'
		// (preemption's, dynamic resources') message.
		fit := &framework.FitError{Pod: pod, NumAllNodes: len(infos), Diagnosis: framework.Diagnosis{NodeToStatus: statuses}}
		if !st.IsSuccess() {
			fit.Diagnosis.PreFilterMsg = st.Message()
		}
		_, pst := fw.RunPostFilterPlugins(ctx, state, pod, statuses)
		fit.Diagnosis.PostFilterMsg = pst.Message()
		return append(verdictLines(verdict), "FailedScheduling: "+fit.Error()), nil
	}
	if len(feasible) > 0 {
		if st := fw.RunPreScorePlugins(ctx, state, pod, feasible); !st.IsSuccess() && !st.IsSkip() {
			return nil, fmt.Errorf("upstream PreScore: %v", st.AsError())
		}
		scores, st := fw.RunScorePlugins(ctx, state, pod, feasible)
		if !st.IsSuccess() {
			return nil, fmt.Errorf("upstream Score: %v", st.AsError())
		}
		for _, ns := range scores {
			verdict[ns.Name] = fmt.Sprintf("score %d", ns.TotalScore)
		}
	}
	return verdictLines(verdict), nil
}

// schedulerInformers gives the plugins that read listers (the default
// spreading's owner selectors, volume binding) the objects of the
// scheduler's own cache: pods, ReplicaSets, StatefulSets, Services and
// the volumes. They are served by a fake API server, so that the
// informers, once started, fill the caches the plugins keep from their
// events (VolumeBinding's assume caches).
func schedulerInformers(in *tickInput, started bool) (informers.SharedInformerFactory, error) {
	var objs []runtime.Object
	for _, kind := range []string{api.KindPod, api.KindReplicaSet, api.KindStatefulSet, api.KindService, api.KindPersistentVolumeClaim} {
		for _, o := range in.view.List(kind, "") {
			k, err := in.clock.toK8s(o)
			if err != nil {
				return nil, err
			}
			objs = append(objs, k)
		}
	}
	objs = append(objs, volumes(objs)...)
	if started {
		f := informers.NewSharedInformerFactory(fake.NewSimpleClientset(objs...), 0)
		f.Core().V1().Pods().Informer()
		f.Apps().V1().ReplicaSets().Informer()
		f.Apps().V1().StatefulSets().Informer()
		f.Core().V1().Services().Informer()
		return f, nil
	}
	// Without claims, the listers are all the plugins read: filling the
	// informers' stores directly spares starting them (a started factory
	// costs a cache sync of about 100 ms per replayed cycle).
	f := informers.NewSharedInformerFactory(fake.NewSimpleClientset(), 0)
	for _, o := range objs {
		var err error
		switch o.(type) {
		case *core.Pod:
			err = f.Core().V1().Pods().Informer().GetIndexer().Add(o)
		case *apps.ReplicaSet:
			err = f.Apps().V1().ReplicaSets().Informer().GetIndexer().Add(o)
		case *apps.StatefulSet:
			err = f.Apps().V1().StatefulSets().Informer().GetIndexer().Add(o)
		case *core.Service:
			err = f.Core().V1().Services().Informer().GetIndexer().Add(o)
		}
		if err != nil {
			return nil, err
		}
	}
	return f, nil
}

// mountsClaims reports whether the pod mounts a PersistentVolumeClaim:
// only then does VolumeBinding need its assume caches, which only a
// started factory fills.
func mountsClaims(p *api.Pod) bool {
	for _, v := range p.Spec.Volumes {
		if v.PersistentVolumeClaim != nil {
			return true
		}
	}
	return false
}

// volumes is what the engine's minimal binder stands for: the default
// StorageClass, which binds at once, and a PersistentVolume (no node
// affinity, bound to its claim) for each bound claim.
func volumes(objs []runtime.Object) []runtime.Object {
	immediate := storage.VolumeBindingImmediate
	out := []runtime.Object{&storage.StorageClass{ObjectMeta: metav1.ObjectMeta{Name: apiserver.DefaultStorageClass,
		Annotations: map[string]string{"storageclass.kubernetes.io/is-default-class": "true"}},
		Provisioner: "rancher.io/local-path", VolumeBindingMode: &immediate}}
	for _, o := range objs {
		c, ok := o.(*core.PersistentVolumeClaim)
		if !ok || c.Spec.VolumeName == "" {
			continue
		}
		out = append(out, &core.PersistentVolume{ObjectMeta: metav1.ObjectMeta{Name: c.Spec.VolumeName},
			Spec: core.PersistentVolumeSpec{Capacity: c.Status.Capacity, AccessModes: c.Spec.AccessModes, StorageClassName: apiserver.DefaultStorageClass,
				ClaimRef:               &core.ObjectReference{Kind: "PersistentVolumeClaim", Namespace: c.Namespace, Name: c.Name, UID: c.UID},
				PersistentVolumeSource: core.PersistentVolumeSource{HostPath: &core.HostPathVolumeSource{Path: "/var/local-path/" + c.Spec.VolumeName}}},
			Status: core.PersistentVolumeStatus{Phase: core.VolumeBound}})
	}
	return out
}

func verdictLines(v map[string]string) []string {
	out := make([]string, 0, len(v))
	for node, s := range v {
		out = append(out, "node "+node+": "+s)
	}
	sort.Strings(out)
	return out
}

// engineVerdicts is the engine scheduler's view of the same cycle.
func engineVerdicts(s *scheduler.Scheduler, p *api.Pod) []string {
	v := map[string]string{}
	for _, nv := range s.Evaluate(p) {
		if nv.Reasons != nil {
			v[nv.Node] = "filtered: " + strings.Join(nv.Reasons, "; ")
		} else {
			v[nv.Node] = fmt.Sprintf("score %d", nv.Score)
		}
	}
	return verdictLines(v)
}

// compareVerdicts compares the nodes' verdicts, and checks that the node
// the engine bound the pod to is one upstream scores highest.
func compareVerdicts(ours, theirs outcome) []string {
	engine := theirs.engineVerdicts
	for _, e := range ours.events {
		if i := strings.Index(e, ": Warning FailedScheduling "); i >= 0 {
			engine = append(engine, "FailedScheduling: "+e[i+len(": Warning FailedScheduling "):])
		}
	}
	lines := diffLists(engine, theirs.verdicts)
	bound := ""
	for _, c := range ours.changes {
		if v, ok := c.fields["spec.nodeName"]; ok && c.kind == "Pod" {
			bound = strings.Trim(v, `"`)
		}
	}
	feasible := false
	for _, l := range theirs.verdicts {
		feasible = feasible || strings.Contains(l, ": score ")
	}
	switch {
	case feasible && bound == "":
		lines = append(lines, "- engine bound the pod nowhere, though upstream finds feasible nodes")
	case !feasible && bound != "":
		lines = append(lines, "- engine bound the pod to "+bound+", though upstream finds no feasible node")
	}
	if bound == "" || len(lines) > 0 {
		return lines
	}
	best, top := int64(-1), map[string]bool{}
	for _, l := range theirs.verdicts {
		var node string
		var score int64
		if _, err := fmt.Sscanf(l, "node %s score %d", &node, &score); err != nil {
			continue
		}
		node = strings.TrimSuffix(node, ":")
		switch {
		case score > best:
			best, top = score, map[string]bool{node: true}
		case score == best:
			top[node] = true
		}
	}
	if !top[bound] {
		lines = append(lines, fmt.Sprintf("- engine bound the pod to %s, which upstream does not score highest (%d)", bound, best))
	}
	return lines
}

// Package conformance is Stateflow's differential harness: it replays the
// decisions of the engine's deployment controller, ReplicaSet controller,
// DaemonSet controller, StatefulSet controller, Job controller, CronJob
// controller, TTL-after-finished controller, HorizontalPodAutoscaler
// controller, disruption controller, scheduler, EndpointSlice controller,
// Endpoints controller and each node's kube-proxy through the
// upstream Kubernetes code (k8s.io/kubernetes v1.34, k8s.io/endpointslice)
// and reports every difference.
//
// For each tick of those components in a run, the harness rebuilds exactly
// what the component had — its informer cache at the moment of the tick
// (after engine.Drain), the live objects in the API server, the ReplicaSet
// and DaemonSet controllers' expectations, the pods the scheduler
// accounted on each node — and runs upstream's sync for the same key
// (syncDaemonSet; the StatefulSet controller's sync, through
// defaultStatefulSetControl.UpdateStatefulSet) against a client-go
// fake clientset whose reactors behave like the engine's API server (names
// from generateName, uids, generations, resourceVersions,
// optimistic-concurrency conflicts, the status subresource, no-op
// updates, pod admission defaults), or kube-scheduler's default profile
// for the same pod. It then compares what both sides wrote (objects and
// changed fields), the Events after client-go's correlator, the error and
// the expectations left behind; for the scheduler, every node's verdict,
// the FailedScheduling message and the chosen node. The endpoint
// controllers' syncService runs with the engine controller's record of
// its own writes (the EndpointSlice generations it expects, the Endpoints
// resourceVersions it knows stale) and upstream's trigger-time tracker,
// which the harness keeps across the run's syncs; created EndpointSlices
// are paired with the engine's by content. The DaemonSet controller keeps
// its failed-pod backoff across the run the same way. A DaemonSet's pods,
// named from generateName, are paired by the node they are pinned to; a
// StatefulSet's are named by the controller. ControllerRevisions are
// given to upstream encoded as its controllers encode them, so that it
// finds the engine's revision of a template by content, as it would its
// own. A kube-proxy sync writes nothing: the Services and EndpointSlices
// in its cache go through upstream's pkg/proxy change trackers and
// CategorizeEndpoints for its node, and the endpoints each Service port's
// rules hold after the sync are compared as sets (kubeproxy.go).
//
// The Job controller's syncJob runs with the state the engine's held
// before the tick — its pod expectations, the pods whose tracking
// finalizer it waits to see removed, the pod failure backoff record and
// the Jobs it marked finished — and what it keeps after the sync is
// compared too; a tick on a Pod key is its syncOrphanPod, replayed through
// upstream's (job.go). The CronJob controller's ControllerV2.sync and the
// TTL-after-finished controller's processJob run on a clock reading the
// tick's virtual time as the wall clock, so that cron schedules fall
// where the engine's do (cronjob.go). The fake API server keeps a pod its
// finalizers hold, as the engine's does, and completes its deletion when
// the last one goes. For these three controllers the harness also
// compares when each would look at the key again (the backoff, the active
// deadline, the next schedule time, the time to live): upstream's delay
// is what its sync left in its work queue or returned, the engine's the
// Result of its Reconcile, found by running the tick again on a copy of
// the component with the tick's recorded writes as the API server's
// answers (requeue.go).
//
// The HorizontalPodAutoscaler controller's reconcileKey runs on a
// controller assembled field by field (NewHorizontalController starts an
// Event broadcaster nothing can stop): a scale client over the fake API
// server (k8s.io/client-go/scale/fake, answering as the registries' scale
// subresources do, an update of spec.replicas under the scale's
// resourceVersion), a discovery RESTMapper over what the engine's API
// server serves, upstream's own REST metrics client over a fake
// metrics.k8s.io clientset serving the PodMetrics the engine's
// metrics-server wrote (in the API server before the tick), the pod
// lister of the controller's cache, and the recommendations, scale events
// and per-HPA selectors (hpaSelectors) the engine's controller held
// before the tick. The recommendations and scale events it keeps after
// the sync are compared, and so is its requeue. Upstream has no clock:
// it reads time.Now() to stamp recommendations and scale events, cut off
// its windows and periods, and tell a pod in its CPU initialization
// period, and its own unit tests build their timestamps relative to
// time.Now(). So the harness anchors the tick's virtual time a little
// ahead of the wall clock, moves every timestamp it gives upstream onto
// that anchor, waits for the wall clock to reach it and calls
// reconcileKey; a replay whose sync ran past the first millisecond after
// the anchor is done again, so that upstream reads the tick's time to the
// millisecond, as the engine does (hpa.go).
//
// The disruption controller's sync (a PodDisruptionBudget key) and its
// syncStalePodDisruption (a Pod key) run on a controller built with
// NewDisruptionControllerInternal over informers holding the component's
// cache, a fake clock reading the tick's time, the HPA's scale client and
// RESTMapper over the fake API server and a discovery client listing what
// the engine's API server serves, so that getScaleController reads a
// controller's scale, or fails for a kind without one (a Job's pods under
// a percentage: SyncFailed), as upstream's does. The budgets'
// status.disruptedPods, the one map of times in the API types, moves
// between virtual and wall-clock time with the rest. Its requeue is
// compared too: the recheck of a disruptedPods entry when it expires
// (recheckQueue.AddAfter, then queue.AddRateLimited's first 5 ms step),
// and the cleanup of a stale DisruptionTarget condition (disruption.go).
//
// Differences that are deliberate are listed, with their reasons, in
// allowances.go; nothing else may differ. The module is separate from the
// playground's so app.wasm never links k8s.io/kubernetes.
package conformance

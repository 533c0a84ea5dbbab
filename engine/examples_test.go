package engine_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/trace"
	"github.com/stateflow/stateflow/examples"
	"github.com/stateflow/stateflow/internal/testkit"
	"github.com/stateflow/stateflow/kubectl"
)

// story runs an example and checks the facts its header promises.
type story struct {
	until int64 // virtual ms to run to; 0 = until settled
	check func(t *testing.T, e *engine.Engine, k *kubectl.Session)
}

func jp(t *testing.T, k *kubectl.Session, args string) string {
	t.Helper()
	res := k.Run("get " + args)
	if res.Code != 0 {
		t.Fatalf("kubectl get %s: %s", args, res.Stderr)
	}
	return res.Stdout
}

func countEvents(e *engine.Engine, reason, prefix string) int {
	n := 0
	for _, ev := range eventsWith(e, reason) {
		if strings.HasPrefix(ev.Message, prefix) {
			n += int(ev.Count)
		}
	}
	return n
}

var stories = map[string]story{
	"service-endpoints":     {check: checkServiceEndpoints},
	"rollout-traffic":       {check: checkRolloutTraffic},
	"daemonset":             {check: checkDaemonSet},
	"statefulset":           {until: 150_000, check: checkStatefulSet},
	"statefulset-partition": {check: checkStatefulSetPartition},
	"job-backoff":           {check: checkJobBackoff},
	"job-indexed":           {check: checkJobIndexed},
	"cronjob-concurrency":   {check: checkCronJobConcurrency},
	"hpa-load-spike":        {until: 14 * 60_000, check: checkHPALoadSpike},
	"hpa-not-ready":         {until: 5 * 60_000, check: checkHPANotReady},
	"pdb-drain":             {check: checkPDBDrain},
	"pdb-blocks-forever":    {check: checkPDBBlocksForever},
	"config-and-secrets":    {check: checkConfigAndSecrets},
	"missing-configmap":     {check: checkMissingConfigMap},
	"codartium-api": {check: func(t *testing.T, e *engine.Engine, k *kubectl.Session) {
		if got := jp(t, k, "deploy codartium-api -o jsonpath={.status.availableReplicas}"); got != "3" {
			t.Errorf("available %s", got)
		}
	}},
	"rolling-update": {check: func(t *testing.T, e *engine.Engine, k *kubectl.Session) {
		if got := jp(t, k, `rs -o jsonpath='{range .items[*]}{.spec.replicas}/{.metadata.annotations.deployment\.kubernetes\.io/revision} {end}'`); !strings.Contains(got, "0/1") || !strings.Contains(got, "4/2") {
			t.Errorf("ReplicaSets (replicas/revision): %s", got)
		}
	}},
	"max-surge-zero": {check: func(t *testing.T, e *engine.Engine, k *kubectl.Session) {
		if n := countEvents(e, "ScalingReplicaSet", "Scaled"); n != 9 {
			t.Errorf("%d ScalingReplicaSet events, want 1 + 8 (the scale-up to 4, then a scale-down and a scale-up for each replica)", n)
		}
	}},
	"recreate": {check: func(t *testing.T, e *engine.Engine, k *kubectl.Session) {
		if got := jp(t, k, "pods -o jsonpath={.items[*].spec.containers[0].image}"); strings.Count(got, "example/web:v2") != 3 {
			t.Errorf("pods: %s", got)
		}
	}},
	"scale-up-down": {check: func(t *testing.T, e *engine.Engine, k *kubectl.Session) {
		if got := jp(t, k, "rs -o jsonpath={.items[*].spec.replicas}"); got != "2" {
			t.Errorf("one ReplicaSet of 2 replicas, got %q", got)
		}
		if n := countEvents(e, "SuccessfulDelete", "Deleted pod"); n != 4 {
			t.Errorf("%d pods deleted, want 4", n)
		}
	}},
	"crash-loop": {until: 15 * 60_000, check: func(t *testing.T, e *engine.Engine, k *kubectl.Session) {
		out := jp(t, k, "pods")
		if !strings.Contains(out, "0/1") || !(strings.Contains(out, "CrashLoopBackOff") || strings.Contains(out, "Running") || strings.Contains(out, "Error")) {
			t.Errorf("pods:\n%s", out)
		}
		if n := countEvents(e, "BackOff", "Back-off restarting failed container api in pod api-"); n < 3 {
			t.Errorf("%d BackOff events", n)
		}
		if got := jp(t, k, "pods -o jsonpath={.items[0].status.phase}"); got != "Running" {
			t.Errorf("a crash-looping pod stays Running, got %s", got)
		}
	}},
	"image-pull-failure": {until: 5 * 60_000, check: func(t *testing.T, e *engine.Engine, k *kubectl.Session) {
		out := jp(t, k, "pods")
		if !strings.Contains(out, "ImagePullBackOff") && !strings.Contains(out, "ErrImagePull") {
			t.Errorf("pods:\n%s", out)
		}
		if strings.Count(out, "1/1     Running") != 3 {
			t.Errorf("the 3 old pods keep serving:\n%s", out)
		}
		if n := countEvents(e, "Failed", "Failed to pull image \"example/web:v2\": rpc error"); n < 2 {
			t.Errorf("%d pull failures", n)
		}
	}},
	"insufficient-cpu": {check: func(t *testing.T, e *engine.Engine, k *kubectl.Session) {
		msgs := eventsWith(e, "FailedScheduling")
		want := "0/4 nodes are available: 1 node(s) were unschedulable, 3 Insufficient cpu. no new claims to deallocate, preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling."
		if len(msgs) == 0 || msgs[0].Message != want {
			t.Fatalf("FailedScheduling %+v\nwant %q", msgs, want)
		}
		if got := jp(t, k, "pods -o jsonpath={.items[*].spec.nodeName}"); got != "node-4 node-4" {
			t.Errorf("pods on %q, want node-4 after it was uncordoned", got)
		}
	}},
	"extended-resources": {check: func(t *testing.T, e *engine.Engine, k *kubectl.Session) {
		// Settled: four pods, each holding one of node-4's four dongles;
		// the fifth, which waited Pending, was deleted by the scale down.
		if got := jp(t, k, "pods -o jsonpath={.items[*].spec.nodeName}"); got != "node-4 node-4 node-4 node-4" {
			t.Errorf("pods on %q, want all four on node-4, the only node with dongles", got)
		}
		msgs := eventsWith(e, "FailedScheduling")
		if len(msgs) != 1 || !strings.HasPrefix(msgs[0].Message, "0/4 nodes are available: 4 Insufficient example.com/dongle.") {
			t.Errorf("FailedScheduling %+v, want one, for the fifth pod", msgs)
		}
		out := k.Run("describe node node-4").Stdout
		_, allocated, _ := strings.Cut(out, "Allocated resources:")
		if !slices.ContainsFunc(strings.Split(allocated, "\n"), func(l string) bool {
			return strings.Join(strings.Fields(l), " ") == "example.com/dongle 4 4"
		}) {
			t.Errorf("describe node-4 counts its four dongles as requested and limited:\n%s", out)
		}
	}},
	"topology-spread": {check: func(t *testing.T, e *engine.Engine, k *kubectl.Session) {
		// Settled: six pods, two per zone once node-3 came back.
		perZone := map[string]int{}
		for _, n := range strings.Fields(jp(t, k, "pods -o jsonpath={.items[*].spec.nodeName}")) {
			perZone[jp(t, k, "node "+n+" -o jsonpath='{.metadata.labels.topology\\.kubernetes\\.io/zone}'")]++
		}
		if want := map[string]int{"zone-a": 2, "zone-b": 2, "zone-c": 2}; !maps.Equal(perZone, want) {
			t.Errorf("pods per zone %v, want %v", perZone, want)
		}
		msgs := eventsWith(e, "FailedScheduling")
		if len(msgs) != 1 || !strings.Contains(msgs[0].Message, "4 node(s) didn't match pod topology spread constraints") {
			t.Errorf("FailedScheduling %+v, want one, for the sixth pod", msgs)
		}
		if out := k.Run("describe deploy web").Stdout; !strings.Contains(out, "  Topology Spread Constraints:  kubernetes.io/hostname:ScheduleAnyway when max skew 1 is exceeded for selector app=web\n"+
			"                                topology.kubernetes.io/zone:DoNotSchedule when max skew 1 is exceeded for selector app=web\n") {
			t.Errorf("describe deploy web:\n%s", out)
		}
	}},
	"pod-affinity": {check: func(t *testing.T, e *engine.Engine, k *kubectl.Session) {
		// Settled: on each node one cache and one web server.
		perNode := map[string]string{}
		for _, app := range []string{"store", "web-store"} {
			for _, n := range strings.Fields(jp(t, k, "pods -l app="+app+" -o jsonpath={.items[*].spec.nodeName}")) {
				perNode[n] += app + " "
			}
		}
		if want := map[string]string{"node-1": "store web-store ", "node-2": "store web-store ", "node-3": "store web-store "}; !maps.Equal(perNode, want) {
			t.Errorf("pods per node %v, want %v", perNode, want)
		}
		if msgs := eventsWith(e, "FailedScheduling"); len(msgs) == 0 || !strings.HasPrefix(msgs[0].Message, "0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules.") {
			t.Errorf("FailedScheduling %+v, want the fourth web server's", msgs)
		}
	}},
	"node-failure": {check: func(t *testing.T, e *engine.Engine, k *kubectl.Session) {
		if len(eventsWith(e, "TaintManagerEviction")) != 1 {
			t.Errorf("one eviction expected")
		}
		if out := jp(t, k, "pods"); !strings.Contains(out, "Terminating") || strings.Count(out, "Running") != 3 {
			t.Errorf("pods:\n%s", out)
		}
	}},
	"min-ready-seconds": {check: func(t *testing.T, e *engine.Engine, k *kubectl.Session) {
		sawLag := false
		for _, tk := range e.Trace() {
			if tk.Component == "replicaset-controller" && strings.Contains(tk.Explanation(), "(1 ready, 0 available)") {
				sawLag = true
			}
		}
		if !sawLag {
			t.Error("a ready pod must stay unavailable for minReadySeconds")
		}
	}},
	"rollback": {check: func(t *testing.T, e *engine.Engine, k *kubectl.Session) {
		if got := jp(t, k, `deploy web -o jsonpath='{.spec.template.spec.containers[0].image} {.metadata.annotations.deployment\.kubernetes\.io/revision}'`); got != "example/web:v2 4" {
			t.Errorf("after undo: %q, want v2 at revision 4", got)
		}
		if len(eventsWith(e, "DeploymentRollback")) != 0 {
			t.Error("kubectl rollout undo emits no DeploymentRollback event")
		}
	}},
	"pause-resume": {check: func(t *testing.T, e *engine.Engine, k *kubectl.Session) {
		if got := jp(t, k, `rs -o jsonpath='{range .items[*]}{.metadata.annotations.deployment\.kubernetes\.io/revision}:{.spec.replicas} {end}'`); got != "1:0 2:5 " && got != "2:5 1:0 " {
			t.Errorf("ReplicaSets revision:replicas %q, want one rollout to revision 2 at 5 replicas", got)
		}
		reasons := ""
		for _, tk := range e.Trace() {
			for _, eff := range tk.Effects {
				if strings.Contains(eff.Text(), "DeploymentPaused") || strings.Contains(eff.Text(), "DeploymentResumed") {
					reasons += eff.Text() + "\n"
				}
			}
		}
		if !strings.Contains(reasons, "DeploymentPaused") || !strings.Contains(reasons, "DeploymentResumed") {
			t.Errorf("Progressing=Unknown paused/resumed conditions: %q", reasons)
		}
	}},
	"proportional-scaling": {until: 100_000, check: func(t *testing.T, e *engine.Engine, k *kubectl.Session) {
		got := jp(t, k, `rs -o jsonpath='{range .items[*]}{.metadata.annotations.deployment\.kubernetes\.io/revision}:{.spec.replicas} {end}'`)
		if got != "2:7 1:11 " && got != "1:11 2:7 " {
			t.Errorf("revision:replicas %q, want old 11 and new 7 (S5)", got)
		}
	}},
	"progress-deadline": {until: 200_000, check: func(t *testing.T, e *engine.Engine, k *kubectl.Session) {
		got := jp(t, k, `deploy web -o jsonpath='{.status.conditions[?(@.type=="Progressing")].reason}/{.status.conditions[?(@.type=="Available")].status}'`)
		if got != "ProgressDeadlineExceeded/True" {
			t.Errorf("conditions %q", got)
		}
		if res := k.Run("rollout status deployment/web"); res.Code != 1 || res.Stderr != "error: deployment \"web\" exceeded its progress deadline\n" {
			t.Errorf("rollout status: %+v", res)
		}
	}},
	"slow-watches": {check: func(t *testing.T, e *engine.Engine, k *kubectl.Session) {
		ready := testkit.FirstTime(e.Trace(), api.IsPodReady)
		rsReady := testkit.FirstTime(e.Trace(), func(rs *api.ReplicaSet) bool { return rs.Status.ReadyReplicas > 0 })
		dReady := testkit.FirstTime(e.Trace(), func(d *api.Deployment) bool { return d.Status.ReadyReplicas > 0 })
		if !(ready >= 0 && rsReady-ready >= 1500 && dReady-rsReady >= 2000) {
			t.Errorf("each layer should lag the one below by its watch latency: pod %d, rs %d, deployment %d", ready, rsReady, dReady)
		}
	}},
	"replication-controller": {until: 45_000, check: func(t *testing.T, e *engine.Engine, k *kubectl.Session) {
		// The ReplicaSet controller, run over the ReplicationController:
		// it adopted the bare pod (two created at first, not three),
		// scaled to 5, and its Events carry its own source.
		created := 0
		for _, ev := range testkit.Events(e, "default") {
			if ev.Reason == "SuccessfulCreate" && ev.Source.Component == "replication-controller" && ev.InvolvedObject.Kind == api.KindReplicationController {
				created += int(ev.Count)
			}
		}
		if created != 4 {
			t.Errorf("SuccessfulCreate Events of rc/nginx: %d pods, want 2 + 2 (the third adopted)", created)
		}
		if res := k.Run("get rc,pods"); res.Stdout != "" || !strings.Contains(res.Stderr, "No resources found") {
			t.Errorf("deleting the ReplicationController deletes its pods:\n%s%s", res.Stdout, res.Stderr)
		}
	}},
	"cascade-deletion": {check: func(t *testing.T, e *engine.Engine, k *kubectl.Session) {
		if res := k.Run("get all"); res.Stdout != "" {
			t.Errorf("everything is deleted:\n%s", res.Stdout)
		}
		order := ""
		for _, tk := range e.Trace() {
			for _, eff := range tk.Effects {
				if eff.Op == trace.Delete && eff.After == nil {
					order += eff.Object.Kind + " "
				}
			}
		}
		if !strings.HasPrefix(order, "Pod Pod Pod ReplicaSet Deployment") {
			t.Errorf("removal order %q, want pods, then the ReplicaSet, then the Deployment", order)
		}
	}},
}

// Every example has a story test, and every story holds.
func TestExamples(t *testing.T) {
	all := examples.All()
	if len(all) < 14 {
		t.Fatalf("%d examples, want at least 14", len(all))
	}
	for _, ex := range all {
		t.Run(ex.Name, func(t *testing.T) {
			st, ok := stories[ex.Name]
			if !ok {
				t.Fatalf("example %s has no story test", ex.Name)
			}
			e, sc := testkit.Load(t, []byte(ex.Source))
			if len(sc.Warnings) > 0 || sc.Description == "" || !strings.HasPrefix(ex.Source, "# "+ex.Name+":") {
				t.Fatalf("examples need a header comment, a description and no warnings: %v", sc.Warnings)
			}
			if st.until > 0 {
				e.RunUntil(st.until)
			} else if err := e.RunUntilSettled(engine.SettleLimits{}); err != nil {
				t.Fatal(err)
			}
			st.check(t, e, &kubectl.Session{Cluster: e, Namespace: sc.Namespace})
		})
	}
}

// checkConfigAndSecrets: the Secret's stringData is stored in data,
// base64-encoded, and not returned; describe prints the ConfigMap's
// values and only the Secret's sizes; the pods keep their references.
func checkConfigAndSecrets(t *testing.T, e *engine.Engine, k *kubectl.Session) {
	if got := jp(t, k, "secret db-credentials -o jsonpath={.data.password}/{.data.username}/{.stringData}/{.type}"); got != "czNjcjN0/YWRtaW4=//Opaque" {
		t.Errorf("the Secret reads %q, want its stringData merged into data", got)
	}
	if got := k.Run("describe cm game-demo").Stdout; !strings.Contains(got, "player_initial_lives:\n----\n3\n") {
		t.Errorf("describe cm game-demo:\n%s", got)
	}
	if got := k.Run("describe secret db-credentials").Stdout; !strings.Contains(got, "password:  6 bytes\n") || strings.Contains(got, "s3cr3t") || strings.Contains(got, "Events:") {
		t.Errorf("describe secret db-credentials:\n%s", got)
	}
	if got := jp(t, k, "pods -l app=game -o jsonpath={.items[0].spec.containers[0].env[*].valueFrom.*.name}"); got != "game-demo db-credentials" {
		t.Errorf("a pod's env references: %q", got)
	}
}

// checkMissingConfigMap: no container is created while the ConfigMap is
// missing; the kubelet says why in a Failed Event at each retry, 10 to
// 15 s apart; once kubectl creates it, both pods run.
func checkMissingConfigMap(t *testing.T, e *engine.Engine, k *kubectl.Session) {
	if n := countEvents(e, "Failed", `Error: configmap "game-demo" not found`); n < 2*3 {
		t.Errorf("%d Failed Events for the missing ConfigMap, want at least 3 per pod before it is created at 40s", n)
	}
	if n := countEvents(e, "Started", ""); n != 2 {
		t.Errorf("%d containers started, want 2", n)
	}
	for _, tk := range e.Trace() {
		for _, eff := range tk.Effects {
			if ev, ok := api.EventOf(eff.After); ok && eff.After != nil && ev.Reason == "Started" && tk.Time < 40_000 {
				t.Errorf("tick %d (%d ms): a container started before the ConfigMap existed", tk.Seq, tk.Time)
			}
		}
	}
	if got := jp(t, k, "pods -l app=game -o jsonpath={.items[*].status.phase}"); got != "Running Running" {
		t.Errorf("phases at the end: %q", got)
	}
}

// checkServiceEndpoints: the Service's slice lists every pod, ready once
// the pod is; no endpoint turns ready before its pod did; an old pod is
// terminating (serving, not ready) in the slice during the rollout; the
// Service with a typo in its selector has an empty placeholder slice
// until the patch at 60s, and then the same three pods as web, in its
// slice and its Endpoints.
func checkServiceEndpoints(t *testing.T, e *engine.Engine, k *kubectl.Session) {
	slices := testkit.List[*api.EndpointSlice](e, api.KindEndpointSlice, "default")
	bySvc := map[string][]*api.EndpointSlice{}
	for _, s := range slices {
		bySvc[s.Labels[api.LabelServiceName]] = append(bySvc[s.Labels[api.LabelServiceName]], s)
	}
	for _, name := range []string{"web", "web-typo"} {
		if ss := bySvc[name]; len(ss) != 1 || len(ss[0].Endpoints) != 3 || ss[0].ReadyCount() != 3 || *ss[0].Ports[0].Port != 8080 {
			t.Errorf("svc/%s at the end: want one slice of 3 ready endpoints on port 8080, got %+v", name, ss)
		}
	}
	eps := testkit.List[*api.Endpoints](e, api.KindEndpoints, "default")
	if len(eps) != 2 || len(eps[0].Subsets) != 1 || len(eps[0].Subsets[0].Addresses) != 3 || len(eps[1].Subsets) != 1 || len(eps[1].Subsets[0].Addresses) != 3 {
		t.Errorf("Endpoints at the end: want web and web-typo with 3 addresses each, got %+v", eps)
	}
	typoFilled := false
	for _, tk := range e.Trace() {
		for _, eff := range tk.Effects {
			if s, ok := eff.After.(*api.EndpointSlice); ok && s.Labels[api.LabelServiceName] == "web-typo" {
				if tk.Time < 60_000 && len(s.Endpoints) > 0 {
					t.Errorf("tick %d: web-typo's slice lists %d endpoints before its selector is fixed", tk.Seq, len(s.Endpoints))
				}
				typoFilled = typoFilled || len(s.Endpoints) == 3
			}
		}
	}
	if !typoFilled {
		t.Error("web-typo's slice never listed the three pods after the patch")
	}
	ready := map[string]bool{} // pods the API server holds as Ready so far
	terminating := false
	for _, tk := range e.Trace() {
		for _, eff := range tk.Effects {
			if p, ok := eff.After.(*api.Pod); ok && api.IsPodReady(p) {
				ready[p.Name] = true
			}
			s, ok := eff.After.(*api.EndpointSlice)
			if !ok {
				continue
			}
			for _, ep := range s.Endpoints {
				if *ep.Conditions.Ready && !ready[ep.TargetRef.Name] {
					t.Errorf("tick %d: endpoint %s ready before its pod was", tk.Seq, ep.TargetRef.Name)
				}
				terminating = terminating || *ep.Conditions.Terminating && *ep.Conditions.Serving && !*ep.Conditions.Ready
			}
		}
	}
	if !terminating {
		t.Error("no old pod was ever terminating (serving, not ready) in the slice during the rollout")
	}
}

// checkDaemonSet: the control plane never gets a pod; during the rolling
// update at least two of the three workers always run an available pod
// (maxUnavailable 1), counted from the pods' own versions in the trace;
// the rollout ends on the newest revision; the NoExecute taint leaves
// two pods; the toleration patched in at 80s brings cp-1 in and rolls
// the others to a third revision; node-4, joining at 120s, gets a pod then
// and not before.
func checkDaemonSet(t *testing.T, e *engine.Engine, k *kubectl.Session) {
	type podState struct {
		node            string
		ready, deleting bool
		image           string
	}
	pods := map[string]podState{}
	rolled := false
	for _, tk := range e.Trace() {
		for _, eff := range tk.Effects {
			p, ok := eff.After.(*api.Pod)
			if !ok {
				if eff.Op == trace.Delete && eff.Object.Kind == api.KindPod {
					delete(pods, eff.Object.Name)
				}
				continue
			}
			if onCP := p.Spec.NodeName == "cp-1" || strings.Contains(fmt.Sprint(p.Spec.Affinity), "cp-1"); onCP && tk.Time < 80_000 {
				t.Errorf("tick %d: pod %s is placed on the tainted control plane before the toleration", tk.Seq, p.Name)
			}
			pods[p.Name] = podState{node: p.Spec.NodeName, ready: api.IsPodReady(p), deleting: p.DeletionTimestamp != nil, image: p.Spec.Containers[0].Image}
		}
		if tk.Time < 20_000 || tk.Time >= 60_000 {
			continue
		}
		up := map[string]bool{}
		v2 := 0
		for _, s := range pods {
			if s.ready && !s.deleting {
				up[s.node] = true
			}
			if s.image == "example/fluentd:v2" && s.ready {
				v2++
			}
		}
		rolled = rolled || v2 == 3
		if len(up) < 2 {
			t.Errorf("tick %d (%s): only %d nodes run an available pod; maxUnavailable 1 allows one node down", tk.Seq, trace.FormatTime(tk.Time), len(up))
		}
	}
	if !rolled {
		t.Error("the new image never ran ready on all three workers before the taint")
	}
	ds := testkit.List[*api.DaemonSet](e, api.KindDaemonSet, "default")[0]
	revs := testkit.List[*api.ControllerRevision](e, api.KindControllerRevision, "default")
	if len(revs) != 3 {
		t.Fatalf("%d ControllerRevisions, want 3 (v1, v2, and v2 with the toleration)", len(revs))
	}
	newest := revs[0]
	for _, r := range revs {
		if r.Revision > newest.Revision {
			newest = r
		}
	}
	var live []string
	for _, p := range testkit.Pods(e, "default") {
		live = append(live, p.Spec.NodeName)
		if p.Labels[api.LabelControllerRevisionHash] != newest.Labels[api.LabelControllerRevisionHash] || p.Spec.Containers[0].Image != "example/fluentd:v2" {
			t.Errorf("pod %s: hash %s image %s, want revision %d's", p.Name, p.Labels[api.LabelControllerRevisionHash], p.Spec.Containers[0].Image, newest.Revision)
		}
	}
	slices.Sort(live)
	if fmt.Sprint(live) != "[cp-1 node-1 node-2 node-4]" || ds.Status.DesiredNumberScheduled != 4 || ds.Status.NumberAvailable != 4 {
		t.Errorf("at the end: pods on %v, status %+v; want one on cp-1, node-1, node-2 and node-4, which joined at 120s (node-3 stays tainted NoExecute)", live, ds.Status)
	}
	for _, tk := range e.Trace() {
		for _, eff := range tk.Effects {
			if p, ok := eff.After.(*api.Pod); ok && eff.Op == trace.Create && strings.Contains(fmt.Sprint(p.Spec.Affinity), "node-4") && tk.Time < 120_000 {
				t.Errorf("tick %d: a pod for node-4 before it joined", tk.Seq)
			}
		}
	}
	if got := fmt.Sprint(newest.Data.Spec.Template); !strings.Contains(got, "node-role.kubernetes.io/control-plane") {
		t.Errorf("the newest revision does not carry the toleration: %s", got)
	}
}

// checkStatefulSet: web-1 is created only after web-0 is Ready, web-2
// after web-1, each pod after its claim; the unpullable image replaces
// web-2 only, and nothing else while web-2 is not Ready, even after the
// undo; deleting web-2 at 100s brings it back on the old image.
func checkStatefulSet(t *testing.T, e *engine.Engine, k *kubectl.Session) {
	ready, created, claimed := map[string]int64{}, map[string]int64{}, map[string]int64{}
	replaced := []string{}
	for _, tk := range e.Trace() {
		for _, eff := range tk.Effects {
			switch {
			case eff.Op == trace.Create && eff.Object.Kind == api.KindPod:
				if _, ok := created[eff.Object.Name]; !ok {
					created[eff.Object.Name] = tk.Time
				}
			case eff.Op == trace.Create && eff.Object.Kind == api.KindPersistentVolumeClaim:
				claimed[strings.TrimPrefix(eff.Object.Name, "www-")] = tk.Time
			case eff.Op == trace.Delete && eff.Object.Kind == api.KindPod && tk.Component == engine.StatefulSetController:
				replaced = append(replaced, eff.Object.Name)
			}
			if p, ok := eff.After.(*api.Pod); ok && api.IsPodReady(p) {
				if _, seen := ready[p.Name]; !seen {
					ready[p.Name] = tk.Time
				}
			}
		}
	}
	for i, name := range []string{"web-0", "web-1", "web-2"} {
		if c, ok := claimed[name]; !ok || c > created[name] {
			t.Errorf("%s created at %d ms, its claim at %d ms (want the claim first)", name, created[name], c)
		}
		if i > 0 {
			prev := fmt.Sprintf("web-%d", i-1)
			if created[name] < ready[prev] {
				t.Errorf("%s created at %d ms, before %s was Ready at %d ms", name, created[name], prev, ready[prev])
			}
		}
	}
	if fmt.Sprint(replaced) != "[web-2]" {
		t.Errorf("the controller deleted %v; the rollout must stop at web-2", replaced)
	}
	for _, p := range testkit.Pods(e, "default") {
		if p.Spec.Containers[0].Image != "example/web:v1" || !api.IsPodReady(p) {
			t.Errorf("%s: %s, ready %v; after the deletion at 100s all run v1", p.Name, p.Spec.Containers[0].Image, api.IsPodReady(p))
		}
	}
}

// checkRolloutTraffic: once both Services have endpoints, "web" loses
// requests only during its rollout, to pods that got SIGTERM or were
// gone while some node's rules still listed them; "web-prestop", whose
// pods sleep 5s before SIGTERM, loses none.
func checkRolloutTraffic(t *testing.T, e *engine.Engine, k *kubectl.Session) {
	failed := map[string]map[string]int{"web": {}, "web-prestop": {}}
	served := map[string]int{}
	for _, tk := range e.Trace() {
		tr := tk.Traffic()
		if tr == nil {
			continue
		}
		served[tr.Service.Name] += tr.Served
		for o, n := range tr.FailedBy() {
			if tr.From < 20_000 {
				t.Errorf("tick %d: %d requests to %s failed (%s) before the rollout", tk.Seq, n, tr.Service.Name, o)
			}
			failed[tr.Service.Name][o] += n
		}
	}
	if len(failed["web-prestop"]) != 0 {
		t.Errorf("web-prestop lost requests: %v", failed["web-prestop"])
	}
	web := failed["web"]
	if web[trace.Terminating] == 0 {
		t.Errorf("web lost no request to a pod that had got SIGTERM: %v", web)
	}
	for o := range web {
		if o != trace.Terminating && o != trace.PodGone {
			t.Errorf("web lost requests for a reason the rollout does not explain: %s", o)
		}
	}
	if served["web"] < 1000 || served["web-prestop"] != 40*45 {
		t.Errorf("served %v: want web-prestop to serve all 1800 requests of 15s–60s", served)
	}
	if got := jp(t, k, "pods -o jsonpath={.items[*].spec.containers[0].image}"); strings.Count(got, "example/web:v2") != 6 {
		t.Errorf("pods: %s", got)
	}
}

// checkStatefulSetPartition: pods are created in ordinal order, each only
// after the one before was Running and Ready (counted from the pods'
// versions in the trace); between the two patches exactly db-3 and db-4
// run the new image and the status says so; the rolling update replaces
// db-4, db-3, then db-2, db-1, db-0; at the end every pod is on the
// update revision, which is now the current one.
func checkStatefulSetPartition(t *testing.T, e *engine.Engine, k *kubectl.Session) {
	ready := map[string]bool{}
	image := map[string]string{}
	var created, replaced []string
	var split *api.StatefulSetStatus // the last status written before the second patch
	for _, tk := range e.Trace() {
		for _, eff := range tk.Effects {
			switch o := eff.After.(type) {
			case *api.Pod:
				if eff.Op == trace.Create {
					if n := len(created) % 5; tk.Time < 60_000 && n > 0 && !ready[fmt.Sprintf("db-%d", n-1)] {
						t.Errorf("tick %d: %s created before db-%d was Running and Ready", tk.Seq, o.Name, n-1)
					}
					created = append(created, o.Name)
				}
				ready[o.Name] = api.IsPodReady(o) && o.DeletionTimestamp == nil
				image[o.Name] = o.Spec.Containers[0].Image
				if o.DeletionTimestamp != nil && (eff.Before == nil || eff.Before.Meta().DeletionTimestamp == nil) {
					replaced = append(replaced, o.Name)
				}
			case *api.StatefulSet:
				if tk.Time < 100_000 {
					split = &o.Status
				}
			}
		}
		if tk.Time >= 95_000 && tk.Time < 100_000 {
			for i := 0; i < 5; i++ {
				name, want := fmt.Sprintf("db-%d", i), "example/db:v1"
				if i >= 3 {
					want = "example/db:v2"
				}
				if image[name] != want {
					t.Errorf("tick %d: %s runs %s under partition 3, want %s", tk.Seq, name, image[name], want)
				}
			}
		}
	}
	if got := strings.Join(created[:5], " "); got != "db-0 db-1 db-2 db-3 db-4" {
		t.Errorf("creation order %s", got)
	}
	if got := strings.Join(replaced, " "); got != "db-4 db-3 db-2 db-1 db-0" {
		t.Errorf("rolling update order %q, want db-4 db-3 db-2 db-1 db-0", got)
	}
	sts := testkit.List[*api.StatefulSet](e, api.KindStatefulSet, "default")[0]
	if st := sts.Status; st.UpdatedReplicas != 5 || st.CurrentRevision != st.UpdateRevision || st.ReadyReplicas != 5 {
		t.Errorf("status at the end %+v", st)
	}
	if split == nil {
		t.Fatal("no status written between the patches")
	}
	if split.UpdatedReplicas != 2 || split.CurrentRevision == split.UpdateRevision || split.CurrentReplicas != 3 {
		t.Errorf("status under partition 3: %+v; want updatedReplicas 2, currentReplicas 3, two revisions", *split)
	}
}

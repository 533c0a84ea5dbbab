package kubectl_test

import (
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/internal/testkit"
	"github.com/stateflow/stateflow/kubectl"
	"github.com/stateflow/stateflow/scenario"
)

// seedSession is the seed scenario, settled, with its kubeconfig namespace.
func seedSession(t testing.TB, settle bool) *kubectl.Session {
	t.Helper()
	e, sc := testkit.LoadFile(t, "../examples/codartium-api.yaml")
	if settle {
		if err := e.RunUntilSettled(engine.SettleLimits{}); err != nil {
			t.Fatal(err)
		}
	}
	return &kubectl.Session{Cluster: e, Namespace: sc.Namespace, Decode: scenario.DecodeObjects}
}

func run(t testing.TB, s *kubectl.Session, line string) kubectl.Result {
	t.Helper()
	return s.Run(line)
}

// The seed document's commands run verbatim, quotes included.
func TestSeedCommandsVerbatim(t *testing.T) {
	s := seedSession(t, true)
	for _, tc := range []struct {
		line string
		want []string
	}{
		{`kubectl get deployment codartium-api -o jsonpath='{.spec.template}'`,
			[]string{`{"metadata":{"creationTimestamp":null,"labels":{"app":"codartium-api"}},"spec":{"containers":[{"image":"codartium/api:1.4.2"`, `"terminationGracePeriodSeconds":30}}`}},
		{`kubectl get replicaset -l app=codartium-api -o jsonpath='{.items[0].spec.template}'`,
			[]string{`"labels":{"app":"codartium-api","pod-template-hash":"`}},
		{`kubectl get deployment codartium-api -o jsonpath='{.status}'`,
			[]string{`"availableReplicas":3`, `"reason":"MinimumReplicasAvailable"`, `"reason":"NewReplicaSetAvailable"`, `"observedGeneration":1,"readyReplicas":3,"replicas":3,"updatedReplicas":3}`}},
		{`kubectl get replicaset -l app=codartium-api -o jsonpath='{.items[0].status}'`,
			[]string{`{"availableReplicas":3,"fullyLabeledReplicas":3,"observedGeneration":1,"readyReplicas":3,"replicas":3}`}},
		{`kubectl rollout status deployment/codartium-api --timeout=90s`,
			[]string{"deployment \"codartium-api\" successfully rolled out\n"}},
		{`kubectl get events --field-selector involvedObject.kind=Pod -n codartium-team`,
			[]string{"LAST SEEN   TYPE     REASON      OBJECT", "Normal   Scheduled   pod/codartium-api-", "Started container api"}},
	} {
		res := run(t, s, tc.line)
		if res.Code != 0 || res.Stderr != "" {
			t.Errorf("%s: exit %d, stderr %q", tc.line, res.Code, res.Stderr)
		}
		for _, w := range tc.want {
			if !strings.Contains(res.Stdout, w) {
				t.Errorf("%s\ngot:  %s\nwant it to contain %q", tc.line, res.Stdout, w)
			}
		}
	}
	if out := run(t, s, `kubectl get events --field-selector involvedObject.kind=Pod -n codartium-team`).Stdout; strings.Contains(out, "ScalingReplicaSet") {
		t.Error("the field selector must keep only events about Pods")
	}
}

var spaces = regexp.MustCompile(` {3,}`)

// cells normalises a table's column padding.
func cells(out string) string { return spaces.ReplaceAllString(out, " | ") }

func TestGetTables(t *testing.T) {
	s := seedSession(t, true)
	for _, tc := range []struct {
		line string
		want []string
	}{
		{"get deploy", []string{"NAME | READY | UP-TO-DATE | AVAILABLE | AGE", "codartium-api | 3/3 | 3 | 3 | 10m"}},
		{"get deploy -o wide", []string{"CONTAINERS | IMAGES | SELECTOR", "api | codartium/api:1.4.2 | app=codartium-api"}},
		{"get rs", []string{"NAME | DESIRED | CURRENT | READY | AGE", " | 3 | 3 | 3 | 10m"}},
		{"get pods", []string{"NAME | READY | STATUS | RESTARTS | AGE", " | 1/1 | Running | 0 | 10m"}},
		{"get pods -o wide", []string{"IP | NODE | NOMINATED NODE | READINESS GATES", "10.244."}},
		{"get nodes", []string{"NAME | STATUS | ROLES | AGE | VERSION", "node-1 | Ready | <none> | 10m | v1.34.4"}},
		{"get all", []string{"pod/codartium-api-", "deployment.apps/codartium-api | 3/3", "replicaset.apps/codartium-api-"}},
		{"get pods -o name", []string{"pod/codartium-api-"}},
		{"get deploy --show-labels", []string{"LABELS", "app=codartium-api"}},
		{"get deploy -A", []string{"NAMESPACE | NAME", "codartium-team | codartium-api"}},
		{"get pods -o custom-columns=NAME:.metadata.name,NODE:.spec.nodeName,PHASE:status.phase", []string{"NAME | NODE | PHASE", "node-", "Running"}},
		{"get pods --sort-by=.spec.nodeName -o jsonpath={.items[*].spec.nodeName}", []string{"node-1 node-2 node-3"}},
		{"get pods --field-selector spec.nodeName=node-2 -o name", []string{"pod/codartium-api-"}},
		{"get pods -l 'app in (codartium-api),tier notin (db)' -o name", []string{"pod/codartium-api-"}},
		{`get deploy -o jsonpath='{range .items[*]}{.metadata.name}{"\t"}{.status.readyReplicas}{"\n"}{end}'`, []string{"codartium-api\t3\n"}},
		{`get deploy codartium-api -o jsonpath='{.status.conditions[?(@.type=="Available")].status}'`, []string{"True"}},
		{`get deploy -o jsonpath='{.items[?(@.spec.replicas==3)].metadata.name}'`, []string{"codartium-api"}},
	} {
		res := run(t, s, tc.line)
		if res.Code != 0 {
			t.Errorf("%s: exit %d: %s", tc.line, res.Code, res.Stderr)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(cells(res.Stdout), w) {
				t.Errorf("%s\ngot:\n%s\nwant it to contain %q", tc.line, cells(res.Stdout), w)
			}
		}
	}
}

func TestGetYAMLAndJSON(t *testing.T) {
	s := seedSession(t, true)
	y := run(t, s, "get deploy codartium-api -o yaml").Stdout
	for _, w := range []string{"apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  annotations:\n    deployment.kubernetes.io/revision: \"1\"\n",
		"      containers:\n      - image: codartium/api:1.4.2\n", "  replicas: 3\n", "status:\n  availableReplicas: 3\n"} {
		if !strings.Contains(y, w) {
			t.Errorf("yaml:\n%s\nwant %q", y, w)
		}
	}
	j := run(t, s, "get pods -o json").Stdout
	if !strings.HasPrefix(j, "{\n    \"apiVersion\": \"v1\",\n    \"items\": [") || !strings.Contains(j, `"kind": "List"`) {
		t.Errorf("json list:\n%.300s", j)
	}
}

func TestErrors(t *testing.T) {
	s := seedSession(t, true)
	for _, tc := range []struct{ line, want string }{
		{"frobnicate", "error: unknown command \"frobnicate\" for \"kubectl\""},
		{"gett pods", "Did you mean this?\n\tget"},
		{"get pods --bogus", "error: unknown flag: --bogus\nSee 'kubectl get --help' for usage."},
		{"get widgets", `error: the server doesn't have a resource type "widgets"`},
		{"get ingresses", `the server doesn't have a resource type "ingresses" (Stateflow simulates deployments, replicasets, replicationcontrollers, daemonsets, statefulsets, controllerrevisions, jobs, cronjobs, horizontalpodautoscalers, poddisruptionbudgets, pods, persistentvolumeclaims, configmaps, secrets, priorityclasses, nodes, events, namespaces, services, endpoints, endpointslices, podmetrics and nodemetrics)`},
		{"get deploy nope", `Error from server (NotFound): deployments.apps "nope" not found`},
		{"get pods -o jsonpath={.items[0", "error parsing jsonpath {.items[0"},
		{"get pods -l 'app in (a'", "error: "},
		{"get pods --field-selector foo=bar", `field label not supported: foo`},
		{"get pods -o xml", `unable to match a printer suitable for the output format "xml"`},
		{"logs pod/x", `"logs" is not supported by Stateflow's simulated cluster`},
		{"scale deployment/codartium-api", `required flag(s) "replicas" not set`},
		{"scale deployment/nope --replicas=2", `Error from server (NotFound): deployments.apps "nope" not found`},
		{"set image deployment/codartium-api nope=x:1", `error: unable to find container named "nope"`},
		{"rollout resume deployment/codartium-api", `error: deployments.apps "codartium-api" is not paused`},
		{"get pods 'unterminated", "unterminated single quote"},
		{"", "a command is required"},
	} {
		res := run(t, s, tc.line)
		if res.Code == 0 || !strings.Contains(res.Stderr, tc.want) {
			t.Errorf("%q: exit %d, stderr %q, want %q", tc.line, res.Code, res.Stderr, tc.want)
		}
	}
	if res := run(t, s, "get pods -n empty"); res.Code != 0 || res.Stderr != "No resources found in empty namespace.\n" {
		t.Errorf("empty namespace: %+v", res)
	}
}

// A rolling update driven from kubectl: set image, then rollout status
// advances the simulation and prints the §9.1 lines as they change.
func TestRolloutFromKubectl(t *testing.T) {
	s := seedSession(t, true)
	before := s.Cluster.Tick()
	res := run(t, s, "kubectl set image deployment/codartium-api api=codartium/api:1.5.0")
	if res.Stdout != "deployment.apps/codartium-api image updated\n" || s.Cluster.Tick() != before+1 {
		t.Fatalf("set image: %+v (ticks %d → %d)", res, before, s.Cluster.Tick())
	}
	if tk := s.Cluster.Trace()[before]; tk.Component != "kubectl" || !strings.Contains(tk.Explanation(), "set image") {
		t.Errorf("the command is a tick of its own: %+v", tk)
	}
	res = run(t, s, "rollout status deployment/codartium-api")
	want := []string{
		"Waiting for deployment spec update to be observed...",
		`Waiting for deployment "codartium-api" rollout to finish: 1 out of 3 new replicas have been updated...`,
		`Waiting for deployment "codartium-api" rollout to finish: 2 out of 3 new replicas have been updated...`,
		`Waiting for deployment "codartium-api" rollout to finish: 1 old replicas are pending termination...`,
		`deployment "codartium-api" successfully rolled out`,
	}
	pos := 0
	for _, w := range want {
		i := strings.Index(res.Stdout[pos:], w)
		if i < 0 {
			t.Fatalf("rollout status output:\n%s\nmissing (in order) %q", res.Stdout, w)
		}
		pos += i + len(w)
	}
	if strings.Contains(res.Stdout, "updated replicas are available") {
		t.Error("with maxUnavailable 0 the 'updated replicas are available' line does not appear (S11a)")
	}
	hist := run(t, s, "rollout history deployment/codartium-api").Stdout
	// The history viewer's tabwriter pads with 2 spaces, not get's 3.
	if hist != "deployment.apps/codartium-api \nREVISION  CHANGE-CAUSE\n1         <none>\n2         <none>\n\n" {
		t.Errorf("history:\n%s", hist)
	}
	if res := run(t, s, "rollout undo deployment/codartium-api"); res.Stdout != "deployment.apps/codartium-api rolled back\n" {
		t.Fatalf("undo: %+v", res)
	}
	run(t, s, "rollout status deployment/codartium-api")
	hist = run(t, s, "rollout history deployment/codartium-api").Stdout
	if !strings.HasSuffix(hist, "\n2         <none>\n3         <none>\n\n") || strings.Contains(hist, "\n1 ") {
		t.Errorf("after undo revision 1 becomes 3 (S12):\n%s", hist)
	}
	if res := run(t, s, "rollout undo deployment/codartium-api --to-revision=3"); !strings.Contains(res.Stdout, "skipped rollback (current template already matches revision 3)") {
		t.Errorf("undo to the current revision: %+v", res)
	}
	if res := run(t, s, "rollout undo deployment/codartium-api --to-revision=1"); !strings.Contains(res.Stderr, "unable to find specified revision 1 in history") {
		t.Errorf("undo to a renumbered revision: %+v", res)
	}
	if res := run(t, s, "get events --field-selector reason=DeploymentRollback"); res.Stdout != "" {
		t.Errorf("client-side undo emits no DeploymentRollback event: %s", res.Stdout)
	}
}

func TestScalePauseResumeAndTimeout(t *testing.T) {
	s := seedSession(t, true)
	if res := run(t, s, "scale deploy codartium-api --replicas=5"); res.Stdout != "deployment.apps/codartium-api scaled\n" {
		t.Fatalf("%+v", res)
	}
	if res := run(t, s, "rollout status deploy/codartium-api --timeout=1s"); res.Code != 1 || !strings.Contains(res.Stderr, "error: timed out waiting for the condition") {
		t.Fatalf("a 1s timeout must expire: %+v", res)
	}
	run(t, s, "rollout status deploy/codartium-api")
	if out := run(t, s, "get deploy codartium-api -o jsonpath={.status.availableReplicas}").Stdout; out != "5" {
		t.Errorf("available after scale = %s", out)
	}
	if res := run(t, s, "rollout pause deployment/codartium-api"); res.Stdout != "deployment.apps/codartium-api paused\n" {
		t.Fatalf("%+v", res)
	}
	if res := run(t, s, "rollout pause deployment/codartium-api"); !strings.Contains(res.Stderr, "is already paused") {
		t.Fatalf("%+v", res)
	}
	if res := run(t, s, "rollout restart deployment/codartium-api"); !strings.Contains(res.Stderr, "can't restart paused deployment") {
		t.Fatalf("%+v", res)
	}
	if res := run(t, s, "rollout resume deployment/codartium-api"); res.Stdout != "deployment.apps/codartium-api resumed\n" {
		t.Fatalf("%+v", res)
	}
}

func TestNodeAndMetadataCommands(t *testing.T) {
	s := seedSession(t, true)
	for _, tc := range []struct{ line, want string }{
		{"cordon node-1", "node/node-1 cordoned\n"},
		{"cordon node-1", "node/node-1 already cordoned\n"},
		{"uncordon node/node-1", "node/node-1 uncordoned\n"},
		{"label deploy codartium-api tier=backend", "deployment.apps/codartium-api labeled\n"},
		{"annotate deploy codartium-api kubernetes.io/change-cause=demo", "deployment.apps/codartium-api annotated\n"},
		{"taint nodes node-3 dedicated=db:NoSchedule", "node/node-3 tainted\n"},
		{"taint nodes node-3 dedicated:NoSchedule-", "node/node-3 untainted\n"},
		{"config set-context --current --namespace=default", "Context \"stateflow\" modified.\n"},
	} {
		if res := run(t, s, tc.line); res.Stdout != tc.want {
			t.Errorf("%s: %+v, want %q", tc.line, res, tc.want)
		}
	}
	if res := run(t, s, "label deploy codartium-api tier=db -n codartium-team"); !strings.Contains(res.Stderr, "'tier' already has a value (backend), and --overwrite is false") {
		t.Errorf("%+v", res)
	}
	if res := run(t, s, "get pods"); res.Stderr != "No resources found in default namespace.\n" {
		t.Errorf("after set-context the namespace is default: %+v", res)
	}
	if out := run(t, s, "config view --minify").Stdout; !strings.Contains(out, "namespace: default") {
		t.Errorf("config view:\n%s", out)
	}
	if res := run(t, s, "get nodes node-1 -o jsonpath={.spec.unschedulable}"); res.Stdout != "" {
		t.Errorf("uncordoned node still unschedulable: %q", res.Stdout)
	}
}

func TestDescribe(t *testing.T) {
	s := seedSession(t, true)
	out := run(t, s, "describe deployment codartium-api").Stdout
	for _, w := range []string{"Name:", "codartium-api", "Replicas:               3 desired | 3 updated | 3 total | 3 available | 0 unavailable",
		"StrategyType:           RollingUpdate", "RollingUpdateStrategy:  25% max unavailable, 25% max surge",
		"Readiness:", "http-get http://:8080/healthz delay=2s timeout=1s period=5s #success=1 #failure=3",
		"Available      True    MinimumReplicasAvailable", "NewReplicaSet:", "(3/3 replicas created)",
		"Normal  ScalingReplicaSet", "deployment-controller  Scaled up replica set codartium-api-"} {
		if !strings.Contains(out, w) {
			t.Errorf("describe deployment:\n%s\nwant %q", out, w)
		}
	}
	pod := strings.TrimSpace(strings.TrimPrefix(run(t, s, "get pods -o name").Stdout[:len("pod/codartium-api-5fd6c9f75c-xxxxx")], "pod/"))
	out = run(t, s, "describe pod "+pod).Stdout
	for _, w := range []string{"Status:", "Running", "Controlled By:", "ReplicaSet/codartium-api-", "State:          Running", "Ready:          true",
		"Tolerations:", "node.kubernetes.io/not-ready:NoExecute op=Exists for 300s", "Normal  Scheduled", "default-scheduler", "Started container api"} {
		if !strings.Contains(out, w) {
			t.Errorf("describe pod:\n%s\nwant %q", out, w)
		}
	}
	if out := run(t, s, "describe node node-1").Stdout; !strings.Contains(out, "Non-terminated Pods:") || !strings.Contains(out, "Ready") {
		t.Errorf("describe node:\n%s", out)
	}
}

func TestApplyFromStdin(t *testing.T) {
	s := seedSession(t, true)
	src, _ := os.ReadFile("../examples/codartium-api.yaml")
	manifest := strings.Split(string(src), "---\napiVersion: stateflow/v1alpha1")[0]
	s.Stdin = manifest
	if res := run(t, s, "apply -f -"); !strings.Contains(res.Stdout, "deployment.apps/codartium-api unchanged") {
		t.Fatalf("re-applying the same manifest: %+v", res)
	}
	s.Stdin = strings.Replace(manifest, "replicas: 3", "replicas: 4", 1)
	if res := run(t, s, "apply -f -"); !strings.Contains(res.Stdout, "deployment.apps/codartium-api configured") {
		t.Fatalf("%+v", res)
	}
	s.Stdin = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: x}\nspec: {replicas: -1}\n"
	if res := run(t, s, "apply -f -"); res.Code == 0 || !strings.Contains(res.Stderr, "error parsing the manifest") {
		t.Fatalf("%+v", res)
	}
}

// Scenario actions are kubectl commands applied at their time as ticks.
func TestScenarioActions(t *testing.T) {
	src, _ := os.ReadFile("../examples/codartium-api.yaml")
	scen := strings.Replace(string(src), "  images:\n", "  actions:\n    - at: 30s\n      kubectl: scale deployment/codartium-api --replicas=5\n    - at: 60s\n      kubectl: set image deployment/codartium-api api=codartium/api:1.5.0\n  images:\n", 1)
	e, sc := testkit.Load(t, []byte(scen))
	if err := e.RunUntilSettled(engine.SettleLimits{}); err != nil {
		t.Fatal(err)
	}
	var at []int64
	for _, tk := range e.Trace() {
		if tk.Component == "kubectl" {
			at = append(at, tk.Time)
		}
	}
	if len(at) != 3 || at[1] != 30_000 || at[2] != 60_000 {
		t.Fatalf("kubectl ticks at %v", at)
	}
	s := &kubectl.Session{Cluster: e, Namespace: sc.Namespace}
	if out := s.Run("get deploy codartium-api -o jsonpath={.status.updatedReplicas}/{.spec.replicas}").Stdout; out != "5/5" {
		t.Errorf("after the actions: %s", out)
	}
	for _, bad := range []struct{ action, want string }{
		{"      kubectl: get pods\n", "does not change the cluster"},
		{"      kubectl: scale deployment/x\n", `required flag(s) "replicas" not set`},
		{"      node: node-2\n      condition: Sideways\n", `Unsupported value: "Sideways"`},
	} {
		scen := strings.Replace(string(src), "  images:\n", "  actions:\n    - at: 5s\n"+bad.action+"  images:\n", 1)
		if _, err := scenario.Parse([]byte(scen)); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%q: %v, want %q", bad.action, err, bad.want)
		}
	}
}

// get --watch prints the table, then a row per change as the simulation
// advances, until the cluster settles.
func TestGetWatch(t *testing.T) {
	s := seedSession(t, false)
	s.Cluster.Step() // the manifest is applied
	res := run(t, s, "get deploy codartium-api -w")
	lines := strings.Split(strings.TrimSpace(res.Stdout), "\n")
	if !strings.HasPrefix(lines[0], "NAME") || len(lines) < 4 {
		t.Fatalf("watch output:\n%s", res.Stdout)
	}
	if last := cells(lines[len(lines)-1]); !strings.HasPrefix(last, "codartium-api | 3/3 | 3 | 3") {
		t.Errorf("the last row shows the settled deployment: %q", last)
	}
	if !s.Cluster.Settled() {
		t.Error("--watch advances the simulation until it settles")
	}
}

// With WatchTicks set (the playground's console), a waiting command stops
// after that many ticks and says how to continue; run again, it goes on
// from there.
func TestWatchTicksBound(t *testing.T) {
	s := seedSession(t, false)
	s.Cluster.Step()
	s.WatchTicks = 10
	start := s.Cluster.Tick()
	res := run(t, s, "rollout status deployment/codartium-api")
	if res.Code != 1 || !strings.HasPrefix(res.Stderr, "(stopped after 10 ticks of the simulation, at ") ||
		!strings.HasSuffix(res.Stderr, ": run the command again to keep waiting)\n") || s.Cluster.Tick() != start+10 {
		t.Fatalf("stopped at tick %d (from %d): %+v", s.Cluster.Tick(), start, res)
	}
	if !strings.Contains(res.Stdout, "Waiting for deployment \"codartium-api\" rollout to finish") {
		t.Errorf("stdout %q", res.Stdout)
	}
	res = run(t, s, "get pods -w")
	if !strings.HasSuffix(res.Stdout, ": run the command again to keep waiting)\n") || s.Cluster.Tick() != start+20 {
		t.Fatalf("watch stopped at tick %d: %+v", s.Cluster.Tick(), res)
	}
	for range 20 {
		if res = run(t, s, "rollout status deployment/codartium-api"); res.Code == 0 {
			break
		}
	}
	if res.Code != 0 || !strings.HasSuffix(res.Stdout, "deployment \"codartium-api\" successfully rolled out\n") {
		t.Fatalf("run again until done: %+v", res)
	}
}

// drain cordons the node and evicts its pods; their replacements land elsewhere.
func TestDrain(t *testing.T) {
	s := seedSession(t, true)
	res := run(t, s, "drain node-2 --ignore-daemonsets")
	if !strings.HasPrefix(res.Stdout, "node/node-2 cordoned\nevicting pod codartium-team/codartium-api-") || !strings.HasSuffix(res.Stdout, "node/node-2 drained\n") {
		t.Fatalf("%+v", res)
	}
	if err := s.Cluster.RunUntilSettled(engine.SettleLimits{}); err != nil {
		t.Fatal(err)
	}
	nodes := run(t, s, "get pods -o jsonpath={.items[*].spec.nodeName}").Stdout
	if strings.Contains(nodes, "node-2") || len(strings.Fields(nodes)) != 3 {
		t.Fatalf("pods on %q after the drain", nodes)
	}
	if out := run(t, s, "get node node-2").Stdout; !strings.Contains(out, "Ready,SchedulingDisabled") {
		t.Errorf("node:\n%s", out)
	}
}

// The Events panel lists what kubectl get events -A lists while there are
// few events, and the most recent ones, oldest first, when there are more.
func TestRecentEvents(t *testing.T) {
	s := seedSession(t, true)
	all := s.RunArgs([]string{"get", "events", "-A"})
	if got := s.RecentEvents("", 10_000); got != all {
		t.Fatalf("with room for every event the panel differs from kubectl get events -A:\n%s", got.Stdout)
	}
	total := s.Cluster.Store().Count("Event")
	res := s.RecentEvents("", 5)
	lines := strings.Split(strings.TrimSuffix(res.Stdout, "\n"), "\n")
	if want := "The 5 most recent of " + strconv.Itoa(total) + " events, oldest first (by last timestamp, then by when they were written); a field selector narrows them."; lines[0] != want || lines[1] != "" || !strings.HasPrefix(lines[2], "NAMESPACE") || len(lines) != 8 {
		t.Fatalf("%d events, panel:\n%s", total, res.Stdout)
	}
	evs := s.Cluster.Store().List("Event", "")
	sort.SliceStable(evs, func(i, j int) bool {
		a, b := evs[i].(*api.Event), evs[j].(*api.Event)
		ra, _ := strconv.Atoi(a.ResourceVersion)
		rb, _ := strconv.Atoi(b.ResourceVersion)
		return a.LastTimestamp.MS < b.LastTimestamp.MS || a.LastTimestamp.MS == b.LastTimestamp.MS && ra < rb
	})
	for i, e := range evs[len(evs)-5:] {
		if msg := e.(*api.Event).Message; !strings.HasSuffix(lines[3+i], msg) {
			t.Errorf("row %d is %q, want the event %q", i, lines[3+i], msg)
		}
	}
	// Every cut keeps the latest events, oldest first: the first kept
	// replaced, ties broken, the heap kept in order.
	for _, n := range []int{1, 2, 3, 4, 6, 7, 9, total / 2, total - 1} {
		if n < 1 || n >= total {
			continue
		}
		lines := strings.Split(strings.TrimSuffix(s.RecentEvents("", n).Stdout, "\n"), "\n")
		if len(lines) != 3+n {
			t.Fatalf("cut %d: %d lines", n, len(lines))
		}
		for i, e := range evs[len(evs)-n:] {
			if ev := e.(*api.Event); !strings.Contains(lines[3+i], "/"+ev.InvolvedObject.Name+" ") || !strings.HasSuffix(lines[3+i], ev.Message) {
				t.Errorf("cut %d: row %d is %q, want the event %s", n, i, lines[3+i], ev.Name)
			}
		}
	}
	narrowed := s.RecentEvents("reason=Scheduled", 2)
	if !strings.HasPrefix(narrowed.Stdout, "The 2 most recent of 3 events") || strings.Count(narrowed.Stdout, "Scheduled") != 2 {
		t.Fatalf("a field selector narrows before the cut:\n%s", narrowed.Stdout)
	}
}

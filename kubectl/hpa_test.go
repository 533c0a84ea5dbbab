package kubectl_test

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/trace"
	"github.com/stateflow/stateflow/internal/testkit"
	"github.com/stateflow/stateflow/kubectl"
)

// hpaSession is testdata/hpa.yaml just after kubectl apply created its
// objects, before any controller has acted.
func hpaSession(t testing.TB) *kubectl.Session {
	t.Helper()
	return appliedSession(t, "testdata/hpa.yaml", api.Key{Kind: api.KindHorizontalPodAutoscaler, Namespace: "default", Name: "web"})
}

// hpaTranscript is testdata/hpa.golden's commands, from the moment the
// objects exist. Lines starting with "# at " advance the simulation to
// that time.
var hpaTranscript = []string{
	// Before the metrics-server's first scrape (15 s): no metrics API.
	"get hpa",
	"get horizontalpodautoscalers.autoscaling web -o wide",
	"describe hpa web",
	"top pods",
	"top nodes",
	"get podmetrics",
	"api-resources -o name",
	"# at 16s",
	// The first scrape saw no pod that had run for 15 s; the autoscaler's
	// first sync (15.1 s) found no metrics.
	"get hpa",
	"describe hpa web",
	"top pods",
	"top pod web-75bd4bb879-fdhjq",
	"top pods -n kube-system",
	"top nodes",
	"get podmetrics",
	"get nodemetrics",
	"api-resources",
	"# at 30200ms",
	// The second sync (30.1 s) saw 90 % and asked for 8 pods; REPLICAS
	// is the count before the rescale.
	"get hpa",
	"describe hpa web",
	"get deploy web",
	"get events --field-selector involvedObject.kind=HorizontalPodAutoscaler",
	"top pods",
	"top pods -l app=web --sort-by=cpu --sum",
	"top pods -A --containers --sort-by=memory",
	"top pod api-86c858b44d-8gknh --containers --no-headers",
	"top pod big-56fcbd6bfb-h2znd",
	"top pod nope",
	"top pods -l app=big",
	"top pods -l app=web --show-swap",
	"top nodes --sort-by=memory --show-capacity",
	"top node node-2 --show-swap",
	"top node node-9",
	"top pods --sort-by=name",
	"top pods web-75bd4bb879-fdhjq -l app=web",
	"top pods a b",
	"top",
	"top services",
	"get podmetrics -l app=api",
	"get pods.metrics.k8s.io api-86c858b44d-8gknh -o yaml",
	"get podmetrics big-56fcbd6bfb-h2znd",
	"describe podmetrics -l app=api",
	"describe nodemetrics node-1",
	"get nodes.metrics.k8s.io -o name",
	"get hpa web -o yaml",
	"autoscale deployment/api --min=1 --max=5 --cpu=200m --memory=100Mi --dry-run=client -o yaml",
	"autoscale deployment api --max=4 --cpu=60% --dry-run=server",
	"autoscale deployment/api --min=1 --max=5 --cpu=200m --memory=100Mi",
	"# at 50s",
	"get hpa",
	"describe hpa api",
	"autoscale deployment/web --min=1 --max=10 --cpu-percent=50",
	"autoscale deployment/api --max=5 --cpu=60%",
	"autoscale deployment/api --max=5 --cpu=500m",
	"autoscale deployment/web --max=10 --cpu=0% --name=web-default",
	"get hpa web-default",
	"delete hpa web-default",
	"autoscale deployment/web",
	"autoscale deployment/web --max=0",
	"autoscale deployment/web --min=5 --max=3",
	"autoscale deployment/web --max=3 --cpu=50% --cpu-percent=20",
	"autoscale deployment/web --max=3 --cpu=fast",
	"autoscale deployment/web --max=3 --memory=-1%",
	"autoscale deployment/web --max=three",
	"autoscale daemonset/web --max=3",
	"autoscale deployment/nope --max=3",
	"autoscale pod/big-56fcbd6bfb-h2znd --max=3",
	"autoscale --max=3",
	"autoscale deployment --max=3",
	"autoscale widgets/web --max=3",
	"autoscale rs/api-86c858b44d --max=3 --dry-run=client",
	"autoscale rs api-86c858b44d --max=3 --name=api-rs -o name --dry-run=server",
	"autoscale deployment/api --max=3 --name=api-wide -o wide",
	"delete hpa api-wide",
	"get all",
	"get hpa -o jsonpath='{range .items[*]}{.metadata.name}{\"\\t\"}{.status.currentReplicas}/{.status.desiredReplicas}{\"\\n\"}{end}'",
	"get hpa -o custom-columns=NAME:.metadata.name,TARGET:.spec.scaleTargetRef.name,METRIC:.spec.metrics[*].resource.name",
	"get hpa --show-labels",
	"get hpa -A -L app",
	"get hpa -o name",
	"get hpa api -o json",
	"patch hpa api --type=merge -p '{\"spec\":{\"behavior\":{\"scaleDown\":{\"stabilizationWindowSeconds\":60,\"policies\":[{\"type\":\"Pods\",\"value\":1,\"periodSeconds\":30}]}}}}'",
	"patch hpa web -p '{\"spec\":{\"maxReplicas\":12}}'",
	"patch hpa web -p '{\"spec\":{\"minReplicas\":0}}'",
	"describe hpa api",
	"label hpa api tier=backend",
	"annotate hpa web owner=ops",
	"get hpa -L tier",
	"delete podmetrics api-86c858b44d-8gknh",
	"label nodemetrics node-1 zone=a",
	"scale hpa web --replicas=3",
	"rollout status hpa/web",
	"describe hpa nope",
	"# at 3m20s",
	// The load dropped to 800m at 3m: 20 % over 8 pods asks for 4, but
	// the highest recommendation of the last 5 minutes is 8.
	"get hpa web",
	"describe hpa web",
	"top pods -l app=web",
	"# at 7m50s",
	// 300 s after the last recommendation of 8 (2m45s; the sync at 3m
	// sees the lower load), web scales to 4: a recommendation exactly 5
	// minutes old is out of the window, as upstream.
	"get hpa",
	"describe hpa web",
	"get deploy web",
	"top pods -l app=web --no-headers",
	"top pods -l app=big",
	"delete hpa api",
	"get hpa",
	"delete hpa api",
	"get hpa web -w",
}

func TestHPAGolden(t *testing.T) {
	s := hpaSession(t)
	var b strings.Builder
	for _, line := range hpaTranscript {
		if at, ok := strings.CutPrefix(line, "# at "); ok {
			d, err := time.ParseDuration(at)
			if err != nil {
				t.Fatal(err)
			}
			s.Cluster.RunUntil(d.Milliseconds())
			b.WriteString("# at " + trace.FormatTime(s.Cluster.Now()) + "\n\n")
			continue
		}
		res := run(t, s, line)
		b.WriteString("$ kubectl " + line + "\n" + res.Output())
		if res.Code != 0 {
			b.WriteString("[exit " + string(rune('0'+res.Code)) + "]\n")
		}
		b.WriteString("\n")
	}
	golden(t, "testdata/hpa.golden", b.String())
}

// apply creates a HorizontalPodAutoscaler with the API server's
// defaults (the behavior's missing rules) and changes its spec; TARGETS
// shows two of three metrics, the cpu one unknown as api's proxy
// container requests no cpu.
func TestHPAApply(t *testing.T) {
	s := hpaSession(t)
	s.Cluster.RunUntil(30_200)
	s.Stdin = `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: api
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: api}
  maxReplicas: 6
  metrics:
    - type: Resource
      resource: {name: cpu, target: {type: Utilization, averageUtilization: 60}}
    - type: Resource
      resource: {name: memory, target: {type: AverageValue, averageValue: 0.1Gi}}
    - type: Resource
      resource: {name: memory, target: {type: Utilization, averageUtilization: 90}}
  behavior:
    scaleUp: {selectPolicy: Disabled}
`
	if res := run(t, s, "apply -f -"); res.Output() != "horizontalpodautoscaler.autoscaling/api created\n" {
		t.Errorf("apply: %+v", res)
	}
	if res := run(t, s, "apply -f -"); res.Output() != "horizontalpodautoscaler.autoscaling/api unchanged\n" {
		t.Errorf("apply again: %+v", res)
	}
	out := run(t, s, "describe hpa api").Stdout
	for _, want := range []string{
		"\n  resource cpu on pods  (as a percentage of request):     <unknown> / 60%\n  resource memory on pods:                                <unknown> / 107374182400m\n  resource memory on pods  (as a percentage of request):  <unknown> / 90%\n",
		"\nBehavior:\n  Scale Up:\n    Stabilization Window: 0 seconds\n    Select Policy: Disabled\n    Policies:\n      - Type: Pods     Value: 4    Period: 15 seconds\n      - Type: Percent  Value: 100  Period: 15 seconds\n  Scale Down:\n    Select Policy: Max\n    Policies:\n      - Type: Percent  Value: 100  Period: 15 seconds\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("describe hpa api:\n%s\nwant\n%s", out, want)
		}
	}
	s.Cluster.RunUntil(50_000)
	if out := run(t, s, "get hpa api --no-headers").Stdout; out != "api   Deployment/api   cpu: <unknown>/60%, memory: 104Mi/107374182400m + 1 more...   1   6   2   20s\n" {
		t.Errorf("get hpa api: %q", out)
	}
	s.Stdin = strings.Replace(strings.Replace(s.Stdin, "maxReplicas: 6", "maxReplicas: 6\n  minReplicas: 2", 1), "name: api\n", "name: api\n  labels: {team: core}\n", 1)
	if res := run(t, s, "apply -f -"); res.Output() != "horizontalpodautoscaler.autoscaling/api configured\n" {
		t.Errorf("apply minReplicas 2: %+v", res)
	}
	if out := run(t, s, "get hpa api -L team -o custom-columns=MIN:.spec.minReplicas,TEAM:.metadata.labels.team").Stdout; out != "MIN   TEAM\n2     core\n" {
		t.Errorf("after apply: %q", out)
	}
}

// A scenario's actions may autoscale a Deployment and patch its
// autoscaler; a dry run has no place in one.
func TestHPAScenarioActions(t *testing.T) {
	src, err := os.ReadFile("testdata/hpa.yaml")
	if err != nil {
		t.Fatal(err)
	}
	actions := "  actions:\n" +
		"    - {at: 5s, kubectl: \"autoscale deployment/api --min=1 --max=4 --cpu-percent=50\"}\n" +
		"    - {at: 40s, kubectl: \"patch hpa api -p '{\\\"spec\\\":{\\\"maxReplicas\\\":3}}'\"}\n"
	e, sc := testkit.Load(t, []byte(strings.Replace(string(src), "  load:\n", actions+"  load:\n", 1)))
	s := &kubectl.Session{Cluster: e, Namespace: sc.Namespace}
	e.RunUntil(60_000)
	if out := run(t, s, "get hpa api --no-headers").Stdout; out != "api   Deployment/api   cpu: <unknown>/50%   1   3   2   55s\n" {
		t.Errorf("get hpa api: %q", out)
	}
	if _, err := kubectl.ParseMutation("autoscale deployment/api --max=3 --dry-run=client", "default"); err == nil ||
		err.Error() != "error: a scenario action changes the cluster: --dry-run has no place in one" {
		t.Errorf("a dry run as an action: %v", err)
	}
	if _, err := kubectl.ParseMutation("autoscale deployment/api", "default"); err == nil || err.Error() != `error: required flag(s) "max" not set` {
		t.Errorf("no --max: %v", err)
	}
}

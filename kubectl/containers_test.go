package kubectl_test

import (
	"os"
	"strings"
	"testing"

	"github.com/stateflow/stateflow/internal/testkit"
	"github.com/stateflow/stateflow/kubectl"
)

// Containers without a spec.images entry do what their command says
// (kubelet.Infer): the Kubernetes documentation's examples, pasted as
// they are, end where a real cluster would take them.
func TestDocumentationContainersEndAsTheirCommandsSay(t *testing.T) {
	for _, tc := range []struct {
		file string
		at   int64
		cmd  string
		want []string // lines the output holds
	}{
		// The pi Job (concepts/workloads/controllers/job): perl is a
		// program Stateflow does not know; its pod does not restart, so it
		// is taken to exit 0 after 5s, and the Job completes.
		{"job.yaml", 20_000, "get jobs", []string{"NAME   STATUS     COMPLETIONS   DURATION   AGE", "pi     Complete   1/1           7s         20s"}},
		// The hello CronJob: date; echo … finishes at once, each minute.
		{"cronjob.yaml", 200_000, "get cronjobs", []string{"hello   * * * * *   <none>     False     0        20s             3m20s"}},
		{"cronjob.yaml", 200_000, "get jobs", []string{"hello-28928161   Complete   1/1           2s         2m20s", "hello-28928163   Complete   1/1           1s         20s"}},
		// liveness-exec: the script removes /tmp/healthy after 30s; cat
		// fails from then, and the third failure restarts the container.
		{"exec-liveness.yaml", 60_000, "get pods", []string{"liveness-exec   1/1     Running   1 (19s ago)   60s"}},
		{"exec-liveness.yaml", 60_000, "describe pod liveness-exec", []string{
			"  Warning  Unhealthy  19s                kubelet            Liveness probe failed: cat: can't open '/tmp/healthy': No such file or directory",
			"  Normal   Killing    19s                kubelet            Container liveness failed liveness probe, will be restarted",
			"    Liveness:       exec [cat /tmp/healthy] delay=5s timeout=1s period=5s #success=1 #failure=3"}},
		// liveness-http: agnhost's liveness server fails /healthz after 10s.
		{"http-liveness.yaml", 30_000, "get pods", []string{"liveness-http   1/1     Running   1 (11s ago)   30s"}},
		{"http-liveness.yaml", 30_000, "get pod liveness-http -o jsonpath={.spec.containers[0].livenessProbe.httpGet.httpHeaders}", []string{`[{"name":"Custom-Header","value":"Awesome"}]`}},
		// etcd with a gRPC liveness probe: etcd serves; the probe is stored
		// with its service defaulted to "", and described as kubectl does.
		{"grpc.yaml", 30_000, "describe pod etcd-with-grpc", []string{"    Liveness:       grpc <pod>:2379  delay=10s timeout=1s period=10s #success=1 #failure=3", "    Restart Count:  0"}},
		{"grpc.yaml", 30_000, "get pod etcd-with-grpc -o jsonpath={.spec.containers[0].livenessProbe.grpc}", []string{`{"port":2379,"service":""}`}},
		// One-shot pods and a Deployment whose script ends.
		{"oneshot.yaml", 60_000, "get pods", []string{
			"fails                     0/1     Error              0            60s",
			"oneshot-76f8887cc-9r2jd   0/1     CrashLoopBackOff   3 (7s ago)   60s",
			"print-env                 0/1     Completed          0            60s"}},
	} {
		t.Run(tc.file+"/"+tc.cmd, func(t *testing.T) {
			src, err := os.ReadFile("testdata/docs/" + tc.file)
			if err != nil {
				t.Fatal(err)
			}
			e, sc := testkit.Load(t, src)
			e.RunUntil(tc.at)
			s := &kubectl.Session{Cluster: e, Namespace: sc.Namespace}
			got := run(t, s, tc.cmd)
			for _, want := range tc.want {
				if !strings.Contains(got.Stdout, want+"\n") && got.Stdout != want {
					t.Errorf("%s lacks\n%s\ngot:\n%s%s", tc.cmd, want, got.Stdout, got.Stderr)
				}
			}
		})
	}
}

// Where a container's ending is an assumption, the scenario says so once
// per image, at the image, and a file that describes the image does not
// warn.
func TestAssumedEndingsWarnOncePerImage(t *testing.T) {
	src, err := os.ReadFile("testdata/docs/job.yaml")
	if err != nil {
		t.Fatal(err)
	}
	_, sc := testkit.Load(t, append(src, []byte("---\napiVersion: batch/v1\nkind: Job\nmetadata: {name: pi2}\nspec:\n  template:\n    spec:\n      containers:\n      - {name: pi, image: \"perl:5.34.0\", command: [perl, x.pl]}\n      restartPolicy: Never\n")...))
	if len(sc.Warnings) != 1 {
		t.Fatalf("%d warnings, want 1: %v", len(sc.Warnings), sc.Warnings)
	}
	want := "line 10:16: spec.template.spec.containers[0].image: image perl:5.34.0: no behaviour given in the Scenario's spec.images; `perl -Mbignum=bpi -wle print bpi(2000)` is assumed to exit 0 after 5s, because job/pi's pods do not restart (restartPolicy Never). Describe the image (exitAfter, exitCode) to decide otherwise"
	if got := sc.Warnings[0].String(); got != want {
		t.Errorf("warning\n%s\nwant\n%s", got, want)
	}
	described := append(src, []byte("---\napiVersion: stateflow/v1alpha1\nkind: Scenario\nspec:\n  images:\n    perl:5.34.0: {exitAfter: 12s}\n")...)
	if _, sc := testkit.Load(t, described); len(sc.Warnings) != 0 {
		t.Errorf("a described image warns: %v", sc.Warnings)
	}
}

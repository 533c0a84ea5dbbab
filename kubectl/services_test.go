package kubectl_test

import (
	"flag"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/internal/testkit"
	"github.com/stateflow/stateflow/kubectl"
	"github.com/stateflow/stateflow/scenario"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// servicesSession is testdata/services.yaml at 40s: Services of every
// type; two web pods Ready, web-slow's pod running but not Ready.
func servicesSession(t testing.TB) *kubectl.Session {
	t.Helper()
	e, sc := testkit.LoadFile(t, "testdata/services.yaml")
	e.RunUntil(40_000)
	return &kubectl.Session{Cluster: e, Namespace: sc.Namespace, Decode: scenario.DecodeObjects}
}

// podIPs are the IPs of the pods labelled app=web, ready and not.
func podIPs(t *testing.T, s *kubectl.Session) (ready, notReady []string) {
	t.Helper()
	for _, o := range s.Cluster.Store().List(api.KindPod, "default") {
		p := o.(*api.Pod)
		if p.Labels["app"] != "web" || p.Status.PodIP == "" {
			continue
		}
		if api.IsPodReady(p) {
			ready = append(ready, p.Status.PodIP)
		} else {
			notReady = append(notReady, p.Status.PodIP)
		}
	}
	if len(ready) != 2 || len(notReady) != 1 {
		t.Fatalf("the scenario has 2 ready pods and 1 not ready at 40s, got %v and %v", ready, notReady)
	}
	return ready, notReady
}

// tableRows splits a table's lines into cells (three or more spaces
// apart), keyed by the first cell.
func tableRows(out string) map[string][]string {
	rows := map[string][]string{}
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		c := regexp.MustCompile(` {3,}`).Split(l, -1)
		rows[c[0]] = c
	}
	return rows
}

func sorted(s []string) []string { s = slices.Clone(s); slices.Sort(s); return s }

func withPort(ips []string, port string) []string {
	out := make([]string, len(ips))
	for i, ip := range ips {
		out[i] = ip + ":" + port
	}
	return out
}

// The worked example: Service web selects three pods, one not Ready. Its
// EndpointSlice lists all three addresses; its Endpoints and describe's
// Endpoints line only the two ready ones, as ip:targetPort.
func TestServiceEndpointsReadiness(t *testing.T) {
	s := servicesSession(t)
	ready, notReady := podIPs(t, s)
	all := append(slices.Clone(ready), notReady...)

	res := run(t, s, "get endpointslices -l kubernetes.io/service-name=web")
	rows := tableRows(res.Stdout)
	if h := rows["NAME"]; !slices.Equal(h, []string{"NAME", "ADDRESSTYPE", "PORTS", "ENDPOINTS", "AGE"}) || len(rows) != 2 || res.Stderr != "" {
		t.Fatalf("get endpointslices:\n%s%s", res.Stdout, res.Stderr)
	}
	for name, r := range rows {
		if name == "NAME" {
			continue
		}
		if !strings.HasPrefix(name, "web-") || r[1] != "IPv4" || r[2] != "8080" || r[4] != "40s" ||
			!slices.Equal(sorted(strings.Split(r[3], ",")), sorted(all)) {
			t.Errorf("the slice lists every address, ready or not (%v), on port 8080: %q", all, r)
		}
	}

	res = run(t, s, "get endpoints web")
	r := tableRows(res.Stdout)["web"]
	if len(r) != 3 || !slices.Equal(sorted(strings.Split(r[1], ",")), sorted(withPort(ready, "8080"))) || r[2] != "40s" {
		t.Errorf("Endpoints list only the ready pods (%v) as ip:8080:\n%s", ready, res.Stdout)
	}
	if strings.Contains(res.Stdout, notReady[0]) {
		t.Errorf("the not-ready pod %s is not an endpoint:\n%s", notReady[0], res.Stdout)
	}

	out := run(t, s, "describe svc web").Stdout
	m := regexp.MustCompile(`\nPort:                     http  80/TCP\nTargetPort:               8080/TCP\nEndpoints:                (\S+)\nSession Affinity:         None\n`).FindStringSubmatch(out)
	if m == nil || !slices.Equal(sorted(strings.Split(m[1], ",")), sorted(withPort(ready, "8080"))) {
		t.Errorf("describe svc web: the Endpoints line lists the ready pods %v:\n%s", ready, out)
	}

	// Service slow selects only the pod that is not Ready: its Endpoints
	// have a subset of not-ready addresses, an empty ENDPOINTS cell.
	if res := run(t, s, "get ep slow"); res.Stdout != "NAME   ENDPOINTS   AGE\nslow               40s\n" {
		t.Errorf("get ep slow: %q", res.Stdout)
	}
	if out := run(t, s, "describe svc slow").Stdout; !strings.Contains(out, "\nEndpoints:                \nSession Affinity:         None\n") {
		t.Errorf("describe svc slow: an empty Endpoints value:\n%s", out)
	}
	if r := tableRows(run(t, s, "get endpointslices -l kubernetes.io/service-name=slow").Stdout); len(r) != 2 {
		t.Errorf("slow has one slice: %v", r)
	} else {
		for name, c := range r {
			if name != "NAME" && c[3] != notReady[0] {
				t.Errorf("slow's slice lists the not-ready pod %s: %q", notReady[0], c)
			}
		}
	}
}

// The example the brief is written around: a Service whose selector
// matches nothing has Endpoints with no subsets and an empty slice (until
// the example's patch fixes the selector at 60s).
func TestServiceWithoutEndpoints(t *testing.T) {
	e, sc := testkit.LoadFile(t, "../examples/service-endpoints.yaml")
	e.RunUntil(55_000)
	s := &kubectl.Session{Cluster: e, Namespace: sc.Namespace}
	if r := tableRows(run(t, s, "get ep web-typo").Stdout)["web-typo"]; len(r) != 3 || r[1] != "<none>" {
		t.Errorf("get ep web-typo: %q", r)
	}
	for name, r := range tableRows(run(t, s, "get endpointslices").Stdout) {
		if strings.HasPrefix(name, "web-typo-") && (r[2] != "<unset>" || r[3] != "<unset>") {
			t.Errorf("web-typo's slice: %q", r)
		}
	}
	if out := run(t, s, "describe svc web-typo").Stdout; !strings.Contains(out, "\nPort:                     <unset>  80/TCP\nTargetPort:               8080/TCP\nEndpoints:                \n") {
		t.Errorf("describe svc web-typo:\n%s", out)
	}
}

// kubectl 1.33+ prints the API server's deprecation warning for v1
// Endpoints on stderr, once per command, before its output.
func TestEndpointsDeprecationWarning(t *testing.T) {
	s := servicesSession(t)
	const warning = "Warning: v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice\n"
	for _, tc := range []struct {
		line   string
		warned bool
	}{
		{"get endpoints", true}, {"get ep web -o yaml", true}, {"get svc,ep,endpoints", true}, {"describe ep web", true},
		{"get ep nope", true}, {"get svc", false}, {"get endpointslices", false}, {"describe svc web", false}, {"get all", false},
	} {
		res := run(t, s, tc.line)
		if got := strings.Count(res.Stderr, warning); got != map[bool]int{true: 1, false: 0}[tc.warned] || (tc.warned && !strings.HasPrefix(res.Stderr, warning)) {
			t.Errorf("%s: stderr %q", tc.line, res.Stderr)
		}
		if strings.Contains(res.Stdout, "Warning") {
			t.Errorf("%s: the warning goes to stderr, not stdout", tc.line)
		}
		if tc.warned && !strings.HasPrefix(res.Output(), warning+res.Stdout) {
			t.Errorf("%s: a terminal shows the warning first:\n%s", tc.line, res.Output())
		}
	}
	res := run(t, s, "get ep nope")
	if res.Code != 1 || res.Stderr != warning+"Error from server (NotFound): endpoints \"nope\" not found\n" || res.Output() != res.Stderr {
		t.Errorf("get ep nope: %+v", res)
	}
}

// delete svc goes through kubectl delete; the garbage collector removes
// the Service's EndpointSlices and the endpoints controller its Endpoints.
func TestDeleteService(t *testing.T) {
	s := servicesSession(t)
	if res := run(t, s, "delete svc web"); res.Stdout != "service \"web\" deleted from default namespace\n" || res.Code != 0 || res.Stderr != "" {
		t.Fatalf("%+v", res)
	}
	if res := run(t, s, "get svc web"); res.Stderr != "Error from server (NotFound): services \"web\" not found\n" {
		t.Fatalf("%+v", res)
	}
	s.Cluster.RunUntil(s.Cluster.Now() + 10_000)
	if res := run(t, s, "get endpointslices -l kubernetes.io/service-name=web"); res.Stdout != "" || res.Stderr != "No resources found in default namespace.\n" {
		t.Errorf("the Service's slices are garbage collected: %+v", res)
	}
	if res := run(t, s, "get ep web"); !strings.HasSuffix(res.Stderr, "Error from server (NotFound): endpoints \"web\" not found\n") {
		t.Errorf("the Service's Endpoints are removed: %+v", res)
	}
	if res := run(t, s, "delete service/web-lb"); res.Stdout != "service \"web-lb\" deleted from default namespace\n" {
		t.Errorf("%+v", res)
	}
}

// apply creates a Service, leaves it unchanged when the manifest is the
// same (the cluster IP and node ports the API server allocated are kept),
// and configures it when the spec changes.
func TestApplyService(t *testing.T) {
	s := servicesSession(t)
	np := "apiVersion: v1\nkind: Service\nmetadata: {name: np}\nspec:\n  type: NodePort\n  selector: {app: web}\n  ports: [{port: 80, targetPort: 8080}]\n"
	for _, tc := range []struct{ manifest, want string }{
		{np, "service/np created\n"}, {np, "service/np unchanged\n"}, {np + "  sessionAffinity: ClientIP\n", "service/np configured\n"},
	} {
		s.Stdin = tc.manifest
		if res := run(t, s, "apply -f -"); res.Stdout != tc.want {
			t.Errorf("apply: %+v, want %q", res, tc.want)
		}
	}
	r := tableRows(run(t, s, "get svc np").Stdout)["np"]
	if len(r) != 6 || r[1] != "NodePort" || !regexp.MustCompile(`^80:3\d{4}/TCP$`).MatchString(r[4]) {
		t.Errorf("get svc np: %q", r)
	}
	if out := run(t, s, "get svc np -o jsonpath={.spec.sessionAffinity}").Stdout; out != "ClientIP" {
		t.Errorf("sessionAffinity %q", out)
	}
}

func TestResourceNames(t *testing.T) {
	s := servicesSession(t)
	for _, tc := range []struct{ line, want string }{
		{"get svc web -o name", "service/web\n"},
		{"get service web -o name", "service/web\n"},
		{"get services/web -o name", "service/web\n"},
		{"get Service web -o name", "service/web\n"},
		{"get ep web -o name", "endpoints/web\n"},
		{"get endpoints/web -o name", "endpoints/web\n"},
		{"get svc.apps web -o name", ""},
	} {
		res := run(t, s, tc.line)
		if res.Stdout != tc.want || (tc.want == "") != (res.Code != 0) {
			t.Errorf("%s: %+v, want %q", tc.line, res, tc.want)
		}
	}
	for _, name := range []string{"endpointslices", "endpointslice", "EndpointSlice", "endpointslices.discovery.k8s.io", "endpointslice.discovery.k8s.io", "endpointslices.v1.discovery.k8s.io"} {
		res := run(t, s, "get "+name+" -l kubernetes.io/service-name=web -o name")
		if !regexp.MustCompile(`^endpointslice\.discovery\.k8s\.io/web-[a-z0-9]{5}\n$`).MatchString(res.Stdout) {
			t.Errorf("get %s: %+v", name, res)
		}
	}
	if res := run(t, s, "get svc --field-selector spec.type=NodePort -o name"); res.Stdout != "service/web-nodeport\n" {
		t.Errorf("field selector spec.type: %+v", res)
	}
	if res := run(t, s, "get svc --field-selector spec.clusterIP=None -o name"); res.Stdout != "service/web-headless\n" {
		t.Errorf("field selector spec.clusterIP: %+v", res)
	}
	if res := run(t, s, "get svc --field-selector spec.selector=x"); !strings.Contains(res.Stderr, `Unable to find "/v1, Resource=services" that match label selector "", field selector "spec.selector=x": field label not supported: spec.selector`) {
		t.Errorf("%+v", res)
	}
	if res := run(t, s, "get endpointslices --field-selector addressType=IPv4"); !strings.Contains(res.Stderr, `Unable to find "discovery.k8s.io/v1, Resource=endpointslices"`) {
		t.Errorf("%+v", res)
	}
}

func TestAPIResources(t *testing.T) {
	s := servicesSession(t)
	want := `NAME                       SHORTNAMES   APIVERSION             NAMESPACED   KIND
configmaps                 cm           v1                     true         ConfigMap
endpoints                  ep           v1                     true         Endpoints
events                     ev           v1                     true         Event
namespaces                 ns           v1                     false        Namespace
nodes                      no           v1                     false        Node
persistentvolumeclaims     pvc          v1                     true         PersistentVolumeClaim
pods                       po           v1                     true         Pod
replicationcontrollers     rc           v1                     true         ReplicationController
secrets                                 v1                     true         Secret
services                   svc          v1                     true         Service
controllerrevisions                     apps/v1                true         ControllerRevision
daemonsets                 ds           apps/v1                true         DaemonSet
deployments                deploy       apps/v1                true         Deployment
replicasets                rs           apps/v1                true         ReplicaSet
statefulsets               sts          apps/v1                true         StatefulSet
horizontalpodautoscalers   hpa          autoscaling/v2         true         HorizontalPodAutoscaler
cronjobs                   cj           batch/v1               true         CronJob
jobs                                    batch/v1               true         Job
endpointslices                          discovery.k8s.io/v1    true         EndpointSlice
poddisruptionbudgets       pdb          policy/v1              true         PodDisruptionBudget
priorityclasses            pc           scheduling.k8s.io/v1   false        PriorityClass
`
	if res := run(t, s, "api-resources"); res.Stdout != want {
		t.Errorf("api-resources:\n%s\nwant:\n%s", res.Stdout, want)
	}
	if res := run(t, s, "api-resources -o name"); res.Stdout != "configmaps\nendpoints\nevents\nnamespaces\nnodes\npersistentvolumeclaims\npods\nreplicationcontrollers\nsecrets\nservices\ncontrollerrevisions.apps\ndaemonsets.apps\ndeployments.apps\nreplicasets.apps\nstatefulsets.apps\nhorizontalpodautoscalers.autoscaling\ncronjobs.batch\njobs.batch\nendpointslices.discovery.k8s.io\npoddisruptionbudgets.policy\npriorityclasses.scheduling.k8s.io\n" {
		t.Errorf("api-resources -o name:\n%s", res.Stdout)
	}
	if res := run(t, s, "api-resources --namespaced=false"); res.Stdout != "NAME              SHORTNAMES   APIVERSION             NAMESPACED   KIND\nnamespaces        ns           v1                     false        Namespace\nnodes             no           v1                     false        Node\npriorityclasses   pc           scheduling.k8s.io/v1   false        PriorityClass\n" {
		t.Errorf("api-resources --namespaced=false:\n%s", res.Stdout)
	}
}

// servicesTranscript is what each command prints on the services
// scenario at 40s, kept as testdata/services.golden.
var servicesTranscript = []string{
	"get svc",
	"get svc -o wide",
	"get svc -A --show-labels",
	"get svc -o custom-columns=NAME:.metadata.name,CLUSTER-IP:.spec.clusterIP,PORTS:.spec.ports[*].port",
	"get svc web -o yaml",
	"get svc web-nodeport -o jsonpath={.spec.ports[0].nodePort}",
	"get endpoints",
	"get ep web -o yaml",
	"get endpointslices",
	"get endpointslices -l kubernetes.io/service-name=web -o yaml",
	"get svc,ep,endpointslices -o wide",
	"get all",
	"describe svc",
	"describe endpoints web slow",
	"describe endpointslices -l kubernetes.io/service-name=web",
	"describe endpointslices -l kubernetes.io/service-name=slow",
	"get svc nope",
	"get endpointslice nope",
}

func TestServicesGolden(t *testing.T) {
	s := servicesSession(t)
	var b strings.Builder
	for _, line := range servicesTranscript {
		res := run(t, s, line)
		b.WriteString("$ kubectl " + line + "\n" + res.Output())
		if res.Code != 0 {
			b.WriteString("[exit " + string(rune('0'+res.Code)) + "]\n")
		}
		b.WriteString("\n")
	}
	const path = "testdata/services.golden"
	if *update {
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./kubectl -run TestServicesGolden -update to create it)", err)
	}
	if got := b.String(); got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Fatalf("%s differs at line %d (if the change is intended, run go test ./kubectl -run TestServicesGolden -update):\n got %q\nwant %q", path, i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("%s differs in length: %d lines, want %d", path, len(gl), len(wl))
	}
}

// describe svc says, on stderr, that no network is simulated; its
// description on stdout stays kubectl's.
func TestDescribeServiceSaysNoNetwork(t *testing.T) {
	s := servicesSession(t)
	res := s.Run("describe svc web")
	if !strings.Contains(res.Stderr, kubectl.NoNetworkNote) || strings.Contains(res.Stdout, "Stateflow") || !strings.HasPrefix(res.Stdout, "Name:") {
		t.Errorf("stdout:\n%s\nstderr:\n%s", res.Stdout, res.Stderr)
	}
}

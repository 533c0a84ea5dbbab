package kubectl_test

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/internal/testkit"
	"github.com/stateflow/stateflow/kubectl"
	"github.com/stateflow/stateflow/scenario"
)

// patchSession is testdata/patch.yaml, settled: Deployment web (containers
// web and sidecar), Services web and web-typo, DaemonSet fluentd,
// StatefulSet db.
func patchSession(t testing.TB) *kubectl.Session {
	t.Helper()
	e, sc := testkit.LoadFile(t, "testdata/patch.yaml")
	if err := e.RunUntilSettled(engine.SettleLimits{}); err != nil {
		t.Fatal(err)
	}
	return &kubectl.Session{Cluster: e, Namespace: sc.Namespace, Decode: scenario.DecodeObjects}
}

// jp reads a JSONPath of an object.
func jp(t *testing.T, s *kubectl.Session, object, path string) string {
	t.Helper()
	res := s.RunArgs([]string{"get", object, "-o", "jsonpath=" + path})
	if res.Code != 0 {
		t.Fatalf("get %s: %s", object, res.Stderr)
	}
	return res.Stdout
}

const (
	containers = "{.spec.template.spec.containers[*].name}/{.spec.template.spec.containers[*].image}"
	webEnv     = "{.spec.template.spec.containers[0].env}"
)

// Each patch runs against a fresh cluster; read is what the object looks
// like afterwards.
func TestPatch(t *testing.T) {
	type read struct{ object, path, want string }
	for _, tc := range []struct {
		name, line, out string
		reads           []read
	}{
		{"strategic: a container's image by name, the other container kept",
			`patch deploy web -p '{"spec":{"template":{"spec":{"containers":[{"name":"web","image":"example/web:v2"}]}}}}'`,
			"deployment.apps/web patched\n",
			[]read{{"deploy/web", containers, "web sidecar/example/web:v2 example/proxy:v1"},
				{"deploy/web", "{.spec.template.spec.containers[0].args}", `["--port=8080","--verbose"]`}}},
		{"strategic: env merged by name (a YAML patch)",
			`patch deployment/web -p 'spec: {template: {spec: {containers: [{name: web, env: [{name: LEVEL, value: debug}, {name: NEW, value: x}]}]}}}'`,
			"deployment.apps/web patched\n",
			[]read{{"deploy/web", webEnv, `[{"name":"MODE","value":"prod"},{"name":"LEVEL","value":"debug"},{"name":"NEW","value":"x"}]`}}},
		{"strategic: an env var deleted with $patch: delete",
			`patch deploy web -p '{"spec":{"template":{"spec":{"containers":[{"name":"web","env":[{"name":"MODE","$patch":"delete"}]}]}}}}'`,
			"deployment.apps/web patched\n",
			[]read{{"deploy/web", webEnv, `[{"name":"LEVEL","value":"info"}]`}}},
		{"strategic: a container deleted with $patch: delete",
			`patch deploy web -p '{"spec":{"template":{"spec":{"containers":[{"name":"sidecar","$patch":"delete"}]}}}}'`,
			"deployment.apps/web patched\n",
			[]read{{"deploy/web", containers, "web/example/web:v1"}}},
		{"strategic: $patch: replace replaces a merge list",
			`patch deploy web -p '{"spec":{"template":{"spec":{"containers":[{"$patch":"replace"},{"name":"only","image":"example/web:v2"}]}}}}'`,
			"deployment.apps/web patched\n",
			[]read{{"deploy/web", containers, "only/example/web:v2"}}},
		{"strategic: container ports merged by containerPort",
			`patch deploy web -p '{"spec":{"template":{"spec":{"containers":[{"name":"web","ports":[{"containerPort":9090,"name":"prom"},{"containerPort":7070}]}]}}}}'`,
			"deployment.apps/web patched\n",
			[]read{{"deploy/web", "{.spec.template.spec.containers[0].ports[*].containerPort}/{.spec.template.spec.containers[0].ports[*].name}", "8080 9090 7070/http prom"}}},
		{"strategic: a new container is added, first (as in the Kubernetes documentation's example)",
			`patch deploy web -p '{"spec":{"template":{"spec":{"containers":[{"name":"debug","image":"example/debug:v1"}]}}}}'`,
			"deployment.apps/web patched\n",
			[]read{{"deploy/web", containers, "debug web sidecar/example/debug:v1 example/web:v1 example/proxy:v1"}}},
		{"strategic: tolerations (no merge strategy) are replaced",
			`patch deploy web -p '{"spec":{"template":{"spec":{"tolerations":[{"key":"x","operator":"Exists"}]}}}}'`,
			"deployment.apps/web patched\n",
			[]read{{"deploy/web", "{.spec.template.spec.tolerations}", `[{"key":"x","operator":"Exists"}]`}}},
		{"strategic: args (a list of strings) are replaced",
			`patch deploy web -p '{"spec":{"template":{"spec":{"containers":[{"name":"web","args":["--debug"]}]}}}}'`,
			"deployment.apps/web patched\n",
			[]read{{"deploy/web", "{.spec.template.spec.containers[0].args}", `["--debug"]`}}},
		{"strategic: null deletes a map key, the others stay",
			`patch deploy web -p '{"metadata":{"labels":{"tier":null,"team":"a"}},"spec":{"template":{"spec":{"nodeSelector":{"zone":null}}}}}'`,
			"deployment.apps/web patched\n",
			[]read{{"deploy/web", "{.spec.template.spec.nodeSelector}", `{"disk":"ssd"}`},
				{"deploy/web", "{.metadata.labels}", `{"app":"web","team":"a"}`}}},
		{"strategic: $setElementOrder orders a merge list",
			`patch deploy web -p '{"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"sidecar"},{"name":"web"}]}}}}'`,
			"deployment.apps/web patched\n",
			[]read{{"deploy/web", containers, "sidecar web/example/proxy:v1 example/web:v1"}}},
		{"strategic: a merge list of strings (finalizers) is merged",
			`patch deploy web -p '{"metadata":{"finalizers":["example.com/c","example.com/a"]}}'`,
			"deployment.apps/web patched\n",
			[]read{{"deploy/web", "{.metadata.finalizers}", `["example.com/c","example.com/a","example.com/b"]`}}},
		{"strategic: $deleteFromPrimitiveList",
			`patch deploy web -p '{"metadata":{"$deleteFromPrimitiveList/finalizers":["example.com/a"]}}'`,
			"deployment.apps/web patched\n",
			[]read{{"deploy/web", "{.metadata.finalizers}", `["example.com/b"]`}}},
		{"strategic: $retainKeys drops the fields it does not list",
			`patch deploy web -p '{"spec":{"strategy":{"$retainKeys":["type"],"type":"Recreate"}}}'`,
			"deployment.apps/web patched\n",
			[]read{{"deploy/web", "{.spec.strategy}", `{"type":"Recreate"}`}}},
		{"merge: a list is replaced whole, even a merge list",
			`patch deploy web --type merge -p '{"spec":{"template":{"spec":{"containers":[{"name":"web","image":"example/web:v2"}]}}}}'`,
			"deployment.apps/web patched\n",
			[]read{{"deploy/web", containers, "web/example/web:v2"},
				{"deploy/web", webEnv, ""}}},
		{"merge: maps merge and null deletes",
			`patch deploy web --type=merge -p '{"spec":{"replicas":3,"template":{"spec":{"nodeSelector":{"disk":null}}}}}'`,
			"deployment.apps/web patched\n",
			[]read{{"deploy/web", "{.spec.replicas} {.spec.template.spec.nodeSelector}", `3 {"zone":"a"}`}}},
		{"json: add with ~1 and -, replace, remove",
			`patch deploy web --type json -p '[{"op":"add","path":"/metadata/labels/example.com~1owner","value":"me"},{"op":"add","path":"/spec/template/spec/containers/0/args/-","value":"--x"},{"op":"replace","path":"/spec/replicas","value":3},{"op":"remove","path":"/metadata/labels/tier"},{"op":"remove","path":"/spec/template/spec/tolerations/0"}]'`,
			"deployment.apps/web patched\n",
			[]read{{"deploy/web", "{.metadata.labels}", `{"app":"web","example.com/owner":"me"}`},
				{"deploy/web", "{.spec.replicas} {.spec.template.spec.containers[0].args}", `3 ["--port=8080","--verbose","--x"]`},
				{"deploy/web", "{.spec.template.spec.tolerations[*].key}", "spot"}}},
		{"json: add at an index, test, copy and move",
			`patch deploy web --type=json -p '[{"op":"test","path":"/spec/replicas","value":2},{"op":"add","path":"/spec/template/spec/containers/0/args/0","value":"--first"},{"op":"copy","from":"/metadata/labels/app","path":"/metadata/labels/copied"},{"op":"move","from":"/metadata/labels/tier","path":"/metadata/labels/moved"}]'`,
			"deployment.apps/web patched\n",
			[]read{{"deploy/web", "{.spec.template.spec.containers[0].args}", `["--first","--port=8080","--verbose"]`},
				{"deploy/web", "{.metadata.labels}", `{"app":"web","copied":"web","moved":"frontend"}`}}},
		{"no change: the image it already has",
			`patch deploy web -p '{"spec":{"template":{"spec":{"containers":[{"name":"web","image":"example/web:v1"}]}}}}'`,
			"deployment.apps/web patched (no change)\n",
			[]read{{"deploy/web", "{.metadata.generation}", "1"}}},
		{"no change: the status is not patched without --subresource",
			`patch deploy web -p '{"status":{"replicas":42,"readyReplicas":0}}'`,
			"deployment.apps/web patched (no change)\n",
			[]read{{"deploy/web", "{.status.replicas} {.status.readyReplicas}", "2 2"}}},
		{"no change: a value the API server defaults back",
			`patch deploy web --type json -p '[{"op":"remove","path":"/spec/revisionHistoryLimit"}]'`,
			"deployment.apps/web patched (no change)\n",
			[]read{{"deploy/web", "{.spec.revisionHistoryLimit}", "10"}}},
		{"no change: a Namespace's status is not patched either",
			`patch namespace default --type merge -p '{"status":{"phase":"Terminating"}}'`,
			"namespace/default patched (no change)\n",
			[]read{{"ns/default", "{.status.phase}", "Active"}}},
		{"a Service's selector",
			`patch svc web-typo -p '{"spec":{"selector":{"app":"web"}}}'`,
			"service/web-typo patched\n",
			[]read{{"svc/web-typo", "{.spec.selector}", `{"app":"web"}`}}},
		{"a DaemonSet", `patch ds fluentd -p '{"spec":{"template":{"spec":{"containers":[{"name":"fluentd","image":"example/fluentd:v2"}]}}}}'`,
			"daemonset.apps/fluentd patched\n",
			[]read{{"ds/fluentd", containers, "fluentd/example/fluentd:v2"}}},
		{"a StatefulSet", `patch statefulset/db -p '{"spec":{"replicas":2}}'`, "statefulset.apps/db patched\n",
			[]read{{"sts/db", "{.spec.replicas}", "2"}}},
		{"a Node", `patch node node-1 -p '{"spec":{"unschedulable":true}}'`, "node/node-1 patched\n",
			[]read{{"node/node-1", "{.spec.unschedulable}", "true"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := patchSession(t)
			res := run(t, s, tc.line)
			if res.Stdout != tc.out || res.Stderr != "" || res.Code != 0 {
				t.Fatalf("%s\ngot  %q %q (exit %d)\nwant %q", tc.line, res.Stdout, res.Stderr, res.Code, tc.out)
			}
			for _, r := range tc.reads {
				if got := jp(t, s, r.object, r.path); got != r.want {
					t.Errorf("%s %s\ngot  %s\nwant %s", r.object, r.path, got, r.want)
				}
			}
		})
	}
}

// A patch is a write of its own (a tick) that bumps the generation and
// starts a rollout; a patch that changes nothing writes nothing.
func TestPatchWrites(t *testing.T) {
	s := patchSession(t)
	rv := jp(t, s, "deploy/web", "{.metadata.resourceVersion}")
	before := s.Cluster.Tick()
	run(t, s, `patch deploy web -p '{"spec":{"template":{"spec":{"containers":[{"name":"web","image":"example/web:v1"}]}}}}'`)
	if got := jp(t, s, "deploy/web", "{.metadata.resourceVersion}"); got != rv {
		t.Errorf("a patch that changes nothing is not written: resourceVersion %s → %s", rv, got)
	}
	run(t, s, `patch deploy web -p '{"spec":{"template":{"spec":{"containers":[{"name":"web","image":"example/web:v2"}]}}}}'`)
	if s.Cluster.Tick() != before+2 {
		t.Errorf("each patch is a tick: %d → %d", before, s.Cluster.Tick())
	}
	if tk := s.Cluster.Trace()[before+1]; tk.Component != "kubectl" || !strings.Contains(tk.Explanation(), "deployment.apps/web patched") {
		t.Errorf("the patch's tick: %s %q", tk.Component, tk.Explanation())
	}
	if g := jp(t, s, "deploy/web", "{.metadata.generation}"); g != "2" {
		t.Errorf("generation %s, want 2", g)
	}
	if res := run(t, s, "rollout status deploy/web"); !strings.HasSuffix(res.Stdout, "deployment \"web\" successfully rolled out\n") {
		t.Errorf("the patched template rolls out: %s", res.Stdout)
	}
	if err := s.Cluster.RunUntilSettled(engine.SettleLimits{}); err != nil {
		t.Fatal(err)
	}
	if imgs := jp(t, s, "pods", `{.items[?(@.metadata.labels.app=="web")].spec.containers[0].image}`); strings.Count(imgs, "example/web:v2") != 2 || strings.Contains(imgs, "example/web:v1") {
		t.Errorf("web's pods after the rollout: %s", imgs)
	}
}

// Patching a Service's selector puts the pods it now selects behind it.
func TestPatchServiceSelector(t *testing.T) {
	s := patchSession(t)
	if r := tableRows(run(t, s, "get ep web-typo").Stdout)["web-typo"]; len(r) != 3 || r[1] != "<none>" {
		t.Fatalf("web-typo selects nothing at first: %q", r)
	}
	var want []string
	for _, o := range s.Cluster.Store().List(api.KindPod, "default") {
		if p := o.(*api.Pod); p.Labels["app"] == "web" {
			want = append(want, p.Status.PodIP+":8080")
		}
	}
	if res := run(t, s, `patch svc web-typo --type merge -p '{"spec":{"selector":{"app":"web"}}}'`); res.Stdout != "service/web-typo patched\n" {
		t.Fatalf("%+v", res)
	}
	if err := s.Cluster.RunUntilSettled(engine.SettleLimits{}); err != nil {
		t.Fatal(err)
	}
	r := tableRows(run(t, s, "get ep web-typo").Stdout)["web-typo"]
	if len(r) != 3 || len(want) != 2 || !slices.Equal(sorted(strings.Split(r[1], ",")), sorted(want)) {
		t.Errorf("web-typo's endpoints after the patch: %q, want %v", r, want)
	}
}

func TestSetSelector(t *testing.T) {
	s := patchSession(t)
	res := run(t, s, "set selector svc web-typo app=web,tier!=db")
	if res.Code != 1 || res.Stderr != "error: \"!=\" is not a valid label selector operator\n" {
		t.Errorf("!=: %+v", res)
	}
	res = run(t, s, "set selector svc web-typo 'app=web'")
	if res.Stdout != "service/web-typo selector updated\n" || res.Stderr != "" {
		t.Fatalf("%+v", res)
	}
	if got := jp(t, s, "svc/web-typo", "{.spec.selector}"); got != `{"app":"web"}` {
		t.Errorf("selector %s", got)
	}
	// The whole selector is replaced, not merged.
	if res := run(t, s, "set selector service/web tier=frontend"); res.Stdout != "service/web selector updated\n" {
		t.Fatalf("%+v", res)
	}
	if got := jp(t, s, "svc/web", "{.spec.selector}"); got != `{"tier":"frontend"}` {
		t.Errorf("selector %s", got)
	}
	run(t, s, "set selector svc web app=web,tier=frontend")
	// kubectl prints "selector updated" even when nothing changes.
	rv := jp(t, s, "svc/web", "{.metadata.resourceVersion}")
	if res := run(t, s, "set selector svc web app=web,tier=frontend"); res.Stdout != "service/web selector updated\n" {
		t.Errorf("%+v", res)
	}
	if got := jp(t, s, "svc/web", "{.metadata.resourceVersion}"); got != rv {
		t.Errorf("an unchanged selector is not written: %s → %s", rv, got)
	}
	for _, tc := range []struct{ line, stderr string }{
		{"set selector svc web", "error: resource(s) were provided, but no name was specified\nSee 'kubectl set selector --help' for usage.\n"},
		{"set selector", "error: one selector is required\n"},
		{"set selector svc nope app=web", "Error from server (NotFound): services \"nope\" not found\n"},
		{"set selector deploy web app=web", "error: setting a selector is only supported for Services\n"},
		{"set selector svc web 'app in (a,b)'", "error: match expression [{app In [a b]}] not supported on this object\n"},
		{"set selector svc web app=web --resource-version=1", "Error from server (Conflict): Operation cannot be fulfilled on services \"web\": the object has been modified; please apply your changes to the latest version and try again\n"},
	} {
		if res := run(t, s, tc.line); res.Code != 1 || res.Stderr != tc.stderr || res.Stdout != "" {
			t.Errorf("%s\ngot  %q (exit %d)\nwant %q", tc.line, res.Stderr, res.Code, tc.stderr)
		}
	}
}

// The errors are kubectl's and the API server's, byte for byte.
func TestPatchErrors(t *testing.T) {
	s := patchSession(t)
	rv := jp(t, s, "deploy/web", "{.metadata.resourceVersion}")
	for _, tc := range []struct{ line, stderr string }{
		{"patch deploy web", "error: must specify --patch or --patch-file containing the contents of the patch\n"},
		{"patch deploy web -p ''", "error: must specify --patch or --patch-file containing the contents of the patch\n"},
		{"patch deploy web --type foo -p '{}'", "error: --type must be one of [json merge strategic], not \"foo\"\n"},
		{"patch deploy x -p '{}'", "Error from server (NotFound): deployments.apps \"x\" not found\n"},
		{"patch deploy x -p '{bad'", "Error from server (NotFound): deployments.apps \"x\" not found\n"},
		{"patch svc x --type json -p '[]'", "Error from server (NotFound): services \"x\" not found\n"},
		{"patch deploy web -p '{bad'", "Error from server (BadRequest): invalid character 'b' looking for beginning of object key string\n"},
		{`patch deploy web -p '{"spec":'`, "Error from server (BadRequest): unexpected end of JSON input\n"},
		{"patch deploy web --type merge -p '{bad'", "Error from server (BadRequest): error decoding patch: invalid character 'b' looking for beginning of object key string\n"},
		{"patch deploy web --type merge -p '[1]'", "Error from server (BadRequest): error decoding patch: json: cannot unmarshal array into Go value of type map[string]interface {}\n"},
		{"patch deploy web -p '[1]'", "Error from server (BadRequest): json: cannot unmarshal array into Go value of type map[string]interface {}\n"},
		{`patch deploy web --type json -p '{"op":"add","path":"/x","value":1}'`, "Error from server (BadRequest): error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp\n"},
		{`patch deploy web --type json -p '[{"op":1}]'`, "Error from server (BadRequest): error decoding patch: json: cannot unmarshal number into Go struct field jsonPatchOp.op of type string\n"},
		{`patch deploy web --type json -p '[{"op":"remove","path":"/spec/nope"}]'`, "The request is invalid\n"},
		{`patch deploy web --type json -p '[{"op":"test","path":"/spec/replicas","value":3}]'`, "The request is invalid\n"},
		{`patch deploy web --type json -p '[{"op":"replace","path":"/spec/template/spec/containers/5/image","value":"x"}]'`, "The request is invalid\n"},
		{"patch deploy web -p 'a: [1'", "error: unable to parse \"a: [1\": yaml: line 1: did not find expected ',' or ']'\n"},
		{`patch deploy web -p '{"spec":{"template":{"spec":{"containers":[{"image":"x"}]}}}}'`, "Error from server: map: map[image:x] does not contain declared merge key: name\n"},
		{`patch deploy web -p '{"spec":{"template":{"spec":{"containers":[{"name":"web","$patch":"frob"}]}}}}'`, "Error from server: unknown patch type: frob in map: map[$patch:frob name:web]\n"},
		{`patch deploy web -p '{"spec":{"replicas":"abc"}}'`, "The request is invalid: patch: Invalid value: \"map[spec:map[replicas:abc]]\": unrecognized type: int32\n"},
		{`patch deploy web -p '{"metadata":{"name":"other"}}'`, "Error from server (BadRequest): the name of the object (other) does not match the name on the URL (web)\n"},
		{`patch deploy web -p '{"metadata":{"namespace":"other"}}'`, "Error from server (BadRequest): the namespace of the provided object does not match the namespace sent on the request\n"},
		{`patch deploy web -p '{"metadata":{"resourceVersion":"1"}}'`, "Error from server (Conflict): Operation cannot be fulfilled on deployments.apps \"web\": the object has been modified; please apply your changes to the latest version and try again\n"},
		{`patch deploy web -p '{"spec":{"selector":{"matchLabels":{"app":"x"}}}}'`, "The Deployment \"web\" is invalid: spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{\"app\":\"x\"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable\n"},
		{"patch deploy -p '{}'", "error: resource(s) were provided, but no name was specified\nSee 'kubectl patch --help' for usage.\n"},
		{"patch frobs x -p '{}'", "error: the server doesn't have a resource type \"frobs\"\n"},
	} {
		if res := run(t, s, tc.line); res.Code != 1 || res.Stderr != tc.stderr || res.Stdout != "" {
			t.Errorf("%s\ngot  %q %q (exit %d)\nwant %q", tc.line, res.Stdout, res.Stderr, res.Code, tc.stderr)
		}
	}
	// After a JSON or merge patch the API server decodes the whole patched
	// object as JSON, and shows it.
	res := run(t, s, `patch deploy web --type merge -p '{"spec":{"replicas":"abc"}}'`)
	if !strings.HasPrefix(res.Stderr, `The request is invalid: patch: Invalid value: "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{`) ||
		!strings.HasSuffix(res.Stderr, `": json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32`+"\n") || res.Code != 1 {
		t.Errorf("merge patch of the wrong type: %q", res.Stderr)
	}
	if got := jp(t, s, "deploy/web", "{.metadata.resourceVersion}"); got != rv {
		t.Errorf("a failed patch writes nothing: resourceVersion %s → %s", rv, got)
	}
}

// Fields the API types (here, the simulated ones) do not have are dropped
// with the API server's warning, before the output.
func TestPatchUnknownFieldWarnings(t *testing.T) {
	s := patchSession(t)
	res := run(t, s, `patch deploy web -p '{"spec":{"frob":1,"template":{"spec":{"containers":[{"name":"web","colour":"red"}]}}}}'`)
	want := "Warning: unknown field \"spec.frob\"\nWarning: unknown field \"spec.template.spec.containers[0].colour\"\ndeployment.apps/web patched (no change)\n"
	if res.Output() != want || res.Code != 0 {
		t.Errorf("got  %q\nwant %q", res.Output(), want)
	}
}

// patch and set selector are scenario actions; a patch the API server
// cannot decode fails the scenario when it loads.
func TestPatchScenarioActions(t *testing.T) {
	src, err := os.ReadFile("testdata/patch.yaml")
	if err != nil {
		t.Fatal(err)
	}
	actions := "  actions:\n" +
		"    - at: 10s\n      kubectl: \"patch deployment web -p '{\\\"spec\\\":{\\\"replicas\\\":3}}'\"\n" +
		"    - at: 12s\n      kubectl: 'patch svc web --type json -p ''[{op: add, path: /metadata/labels, value: {patched: \"yes\"}}]'''\n" +
		"    - at: 14s\n      kubectl: set selector svc web-typo app=web\n" +
		"  images:\n"
	e, sc := testkit.Load(t, []byte(strings.Replace(string(src), "  images:\n", actions, 1)))
	if err := e.RunUntilSettled(engine.SettleLimits{}); err != nil {
		t.Fatal(err)
	}
	s := &kubectl.Session{Cluster: e, Namespace: sc.Namespace}
	if got := jp(t, s, "deploy/web", "{.spec.replicas}/{.status.readyReplicas}"); got != "3/3" {
		t.Errorf("after the patch action: %s", got)
	}
	if got := jp(t, s, "svc/web", "{.metadata.labels}"); got != `{"patched":"yes"}` {
		t.Errorf("after the JSON patch action: %s", got)
	}
	if got := jp(t, s, "svc/web-typo", "{.spec.selector}"); got != `{"app":"web"}` {
		t.Errorf("after the set selector action: %s", got)
	}
	if r := tableRows(run(t, s, "get ep web-typo").Stdout)["web-typo"]; len(r) != 3 || strings.Count(r[1], ":8080") != 3 {
		t.Errorf("web-typo's endpoints: %q", r)
	}
	var explained []string
	for _, tk := range e.Trace() {
		if tk.Component == "kubectl" && !strings.HasPrefix(tk.Explanation(), "kubectl apply") {
			explained = append(explained, tk.Explanation())
		}
	}
	if len(explained) != 3 || !strings.HasSuffix(explained[0], ": deployment.apps/web patched;") ||
		!strings.HasSuffix(explained[1], ": service/web patched;") || !strings.HasSuffix(explained[2], ": service/web-typo selector updated;") {
		t.Errorf("the actions' ticks: %q", explained)
	}

	for _, tc := range []struct{ line, want string }{
		{"patch deploy web -p '{bad'", "Error from server (BadRequest): invalid character 'b' looking for beginning of object key string"},
		{"patch deploy web", "must specify --patch or --patch-file"},
		{"patch deploy web --type json -p '{}'", "cannot unmarshal object into Go value of type []handlers.jsonPatchOp"},
		{"set selector svc web", "resource(s) were provided, but no name was specified"},
		{"selector svc web app=web", "does not change the cluster; a scenario action needs one of: create, scale, autoscale, set image|selector, patch, rollout"},
	} {
		m, err := kubectl.ParseMutation(tc.line, "default")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseMutation(%q) = %v, %v; want an error with %q", tc.line, m, err, tc.want)
		}
	}
	for _, line := range []string{"patch deploy web -p '{\"spec\":{\"replicas\":1}}'", "kubectl patch svc/web --type=merge -p 'spec: {selector: {app: web}}'", "set selector svc web app=web"} {
		if m, err := kubectl.ParseMutation(line, "default"); err != nil || m.Object.Kind == "" {
			t.Errorf("ParseMutation(%q): %v", line, err)
		}
	}
}

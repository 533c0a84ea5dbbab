package scenario

import (
	"errors"
	"os"
	"strings"
	"testing"
)

const base = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
        - name: web
          image: nginx:1.25
`

func TestParseSeed(t *testing.T) {
	src, err := os.ReadFile("../examples/codartium-api.yaml")
	if err != nil {
		t.Fatal(err)
	}
	sc, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	if sc.Name != "codartium-api" || sc.Namespace != "codartium-team" || sc.Config.Seed != 42 || len(sc.Config.Nodes) != 3 ||
		len(sc.Objects) != 1 || len(sc.Config.Actions) != 1 || len(sc.Warnings) != 0 {
		t.Fatalf("%+v (warnings %v)", sc, sc.Warnings)
	}
	if sc.Config.Nodes[0].Name != "node-1" || sc.Config.Nodes[0].Status.Allocatable["cpu"].String() != "4" {
		t.Fatalf("node %+v", sc.Config.Nodes[0])
	}
	if b := sc.Config.Images["codartium/api:1.4.2"]; b.PullMS != 2000 || b.StartMS != 1000 || b.ReadyMS != 3000 {
		t.Fatalf("image behaviour %+v", b)
	}
}

// Each bad input is refused with a message that names its place.
func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		src  string
		want string
	}{
		{"syntax", "apiVersion: v1\nkind: [", "line 2: YAML syntax error"},
		{"wrong type", strings.Replace(base, "replicas: 2", "replicas: two", 1), `line 6:13: spec.replicas: expected an integer, got the string "two"`},
		{"bad quantity", strings.Replace(base, "image: nginx:1.25", "image: nginx:1.25\n          resources: {requests: {cpu: 5 cores}}", 1), `"5 cores" is not a quantity`},
		{"invalid field", strings.Replace(base, "replicas: 2", "replicas: -2", 1), "line 6:13: spec.replicas: Invalid value: -2: must be greater than or equal to 0"},
		{"selector mismatch", strings.Replace(base, "labels: {app: web}", "labels: {app: api}", 1), "line 11:15: spec.template.metadata.labels: Invalid value"},
		{"missing image", strings.Replace(base, "          image: nginx:1.25\n", "", 1), "line 14:11: spec.template.spec.containers[0].image: Required value"},
		{"duplicate", base + "---\n" + base, `line 20:9: metadata.name: deployments.apps "web" already exists (defined at line 4)`},
		{"wrong apiVersion", strings.Replace(base, "apps/v1", "extensions/v1beta1", 1), `line 1:13: apiVersion: no matches for kind "Deployment" in version "extensions/v1beta1"`},
		{"negative duration", base + "---\napiVersion: stateflow/v1alpha1\nkind: Scenario\nspec:\n  latency: {kubelet: -5s}\n", `line 20:22: spec.latency.kubelet: "-5s" is negative`},
		{"bad duration", base + "---\napiVersion: stateflow/v1alpha1\nkind: Scenario\nspec:\n  images: {\"nginx:1.25\": {pull: soon}}\n", `"soon" is not a duration`},
		{"too many nodes", base + "---\napiVersion: stateflow/v1alpha1\nkind: Scenario\nspec:\n  nodes: {count: 5001}\n", "spec.nodes.count: Invalid value: 5001: must be between 0 and 5000"},
		{"too many pods", strings.Replace(base, "replicas: 2", "replicas: 150001", 1), "the workloads ask for 150001 pods; the simulated cluster holds at most 150000"},
		{"two scenarios", "apiVersion: stateflow/v1alpha1\nkind: Scenario\n---\napiVersion: stateflow/v1alpha1\nkind: Scenario\n", "only one Scenario document"},
		{"no kind", "apiVersion: v1\nmetadata: {name: x}\n", "Object 'Kind' is missing"},
		{"service without ports", base + "---\napiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec: {selector: {app: web}}\n", "line 20:7: spec.ports: Required value"},
		{"service port out of range", base + "---\napiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec:\n  ports: [{port: 70000}]\n", "spec.ports[0].port: Invalid value: 70000: must be between 1 and 65535, inclusive"},
		{"service bad type", base + "---\napiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec:\n  type: Internal\n  ports: [{port: 80}]\n", `spec.type: Unsupported value: "Internal": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"`},
		{"service node port on ClusterIP", base + "---\napiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec:\n  ports: [{port: 80, nodePort: 30080}]\n", "spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'"},
		// Init containers and sidecars are validated as validateInitContainers does.
		{"init container probe", strings.Replace(base, "      containers:\n", "      initContainers:\n        - name: setup\n          image: busybox:1.36\n          readinessProbe: {exec: {command: [true]}}\n      containers:\n", 1),
			"spec.template.spec.initContainers[0].readinessProbe: Forbidden: may not be set for init containers without restartPolicy=Always"},
		{"init container restart policy", strings.Replace(base, "      containers:\n", "      initContainers:\n        - name: setup\n          image: busybox:1.36\n          restartPolicy: OnFailure\n      containers:\n", 1),
			`spec.template.spec.initContainers[0].restartPolicy: Unsupported value: "OnFailure": supported values: "Always"`},
		{"init container name taken", strings.Replace(base, "      containers:\n", "      initContainers:\n        - name: web\n          image: busybox:1.36\n      containers:\n", 1),
			`spec.template.spec.initContainers[0].name: Duplicate value: "web"`},
		{"container restart policy", strings.Replace(base, "image: nginx:1.25", "image: nginx:1.25\n          restartPolicy: Always", 1),
			"spec.template.spec.containers[0].restartPolicy: Forbidden: may not be set for non-init containers"},
		// A field Kubernetes does not have is refused, as kubectl's strict field validation.
		{"unknown field", strings.Replace(base, "  replicas: 2", "  replicas: 2\n  replica: 3", 1), `line 7:3: spec.replica: strict decoding error: unknown field "spec.replica"`},
		{"unknown container field", strings.Replace(base, "image: nginx:1.25", "image: nginx:1.25\n          imagePolicy: Always", 1), `spec.template.spec.containers[0].imagePolicy: strict decoding error: unknown field "spec.template.spec.containers[0].imagePolicy"`},
		// FailIndex needs backoffLimitPerIndex, which is not simulated: refused, saying so.
		{"FailIndex", "apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec:\n  backoffLimitPerIndex: 1\n  completionMode: Indexed\n  completions: 2\n  podFailurePolicy:\n    rules: [{action: FailIndex, onExitCodes: {operator: In, values: [1]}}]\n  template:\n    spec:\n      restartPolicy: Never\n      containers: [{name: c, image: busybox}]\n",
			`spec.podFailurePolicy.rules[0].action: Unsupported value: "FailIndex": FailIndex needs backoffLimitPerIndex, which Stateflow does not simulate; supported values: "Count", "FailJob", "Ignore"`},
		{"not a mapping", "- a\n- b\n", "document 1 is not a mapping"},
		{"invalid utf-8", "kind: Pod\nname: \xff\n", "line 2: the scenario is not valid UTF-8 text"},
		{"too large", strings.Repeat("#", MaxInputBytes+1), "the limit is 1048576 bytes (1 MiB)"},
		{"alias bomb", "apiVersion: v1\nkind: Pod\nx:\n  a: &a [x, x, x, x, x, x, x, x, x]\n  b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n  c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n  d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n  e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\n  f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]\nmetadata: {name: p}\nspec:\n  containers: [{name: c, image: x:1, args: *f}]\n", "line 8: cannot unmarshal !!seq into string"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.src))
			var errs Errors
			if !errors.As(err, &errs) {
				t.Fatalf("err = %v, want Errors", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %q\nwant it to contain %q", err, tc.want)
			}
		})
	}
}

func TestParseWarnings(t *testing.T) {
	src := strings.Replace(base, "          image: nginx:1.25", "          image: nginx:1.25\n          securityContext: {runAsUser: 1000}\n          workingDir: /srv", 1) +
		"---\napiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: web}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: other}\nspec: {containers: [{name: c, image: x:1, securityContext: {}}], hostNetwork: true}\n"
	sc, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range sc.Warnings {
		got = append(got, w.String())
	}
	all := strings.Join(got, "\n")
	if n := strings.Count(all, "not simulated, so ignored"); n != 1 {
		t.Errorf("%d notes of unsimulated fields, want one for the file:\n%s", n, all)
	}
	for _, want := range []string{
		"line 16:11: not simulated, so ignored: securityContext, workingDir, hostNetwork",
		"line 19:1: document 2: kind Ingress (networking.k8s.io/v1) is not simulated; it is ignored",
		`metadata.namespace: namespace "other" is not declared in the scenario; it is created for you`,
	} {
		if !strings.Contains(all, want) {
			t.Errorf("warnings:\n%s\nwant %q", all, want)
		}
	}
}

// What kubectl get deploy -o yaml prints loads: status, managedFields, uid
// and resourceVersion are accepted.
func TestParseServerOutput(t *testing.T) {
	src := strings.Replace(base, "metadata:\n  name: web\n", "metadata:\n  name: web\n  uid: 1b2c\n  resourceVersion: \"123\"\n  generation: 4\n  creationTimestamp: \"2024-05-01T10:00:00Z\"\n  managedFields:\n    - manager: kubectl\n", 1) +
		"status:\n  replicas: 2\n  availableReplicas: 2\n  conditions:\n    - type: Available\n      status: \"True\"\n      lastUpdateTime: \"2024-05-01T10:00:05Z\"\n      lastTransitionTime: \"2024-05-01T10:00:05Z\"\n"
	sc, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(sc.Warnings) != 0 {
		t.Fatalf("warnings %v", sc.Warnings)
	}
}

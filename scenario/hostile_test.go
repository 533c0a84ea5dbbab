package scenario

import (
	"flag"
	"fmt"
	"strings"
	"testing"
)

// printHostile prints what each hostile input produces instead of
// checking it, to review messages when they change on purpose.
var printHostile = flag.Bool("print-hostile", false, "print what each hostile input produces")

// sub replaces the first old in the base Deployment with new.
func sub(old, new string) string { return strings.Replace(base, old, new, 1) }

// withScenario appends a Scenario document with this spec to the base.
func withScenario(spec string) string {
	return base + "---\napiVersion: stateflow/v1alpha1\nkind: Scenario\nspec:\n" + spec
}

func nested(depth int) string {
	return "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nx: " + strings.Repeat("[", depth) + strings.Repeat("]", depth) + "\n"
}

// hostile are pastes a playground meets, each with the exact text the user
// sees in the problems panel and the CLI: errors name the line, column and
// field path in the API server's words where it has them; warnings are
// prefixed "warning: ". Two are valid Kubernetes and accepted in silence
// (a javascript: URL in an annotation, markup in an image name); the
// browser tests check that such text is shown, never run.
var hostile = []struct {
	name, src, want string
}{
	{"tab indentation", "apiVersion: v1\nkind: Pod\nmetadata:\n\tname: p\n", "line 4: YAML syntax error: found character that cannot start any token"},
	{"unclosed quote", "apiVersion: v1\nkind: Pod\nmetadata: {name: \"p}\n", "line 3: YAML syntax error: found unexpected end of stream"},
	{"duplicate key", "apiVersion: v1\nkind: Pod\nkind: Pod\nmetadata: {name: p}\n", "line 3: mapping key \"kind\" already defined at line 2"},
	{"replicas is text", sub("replicas: 2", "replicas: two"), "line 6:13: spec.replicas: expected an integer, got the string \"two\""},
	{"replicas 1e12", sub("replicas: 2", "replicas: 1e12"), "line 6:13: spec.replicas: expected an integer, got the number 1e12"},
	{"replicas 10000 digits", sub("replicas: 2", "replicas: "+strings.Repeat("9", 10000)), "line 6:13: spec.replicas: expected an integer, got the string \"9999999...\""},
	{"replicas too large", sub("replicas: 2", "replicas: 4294967296"), "line 6:13: spec.replicas: Invalid value: 4294967296: out of range for int32"},
	{"containers is a mapping", sub("      containers:\n        - name: web\n          image: nginx:1.25\n", "      containers: {name: web}\n"), "line 13:19: spec.template.spec.containers: expected a list, got a mapping"},
	{"labels is a list", sub("labels: {app: web}", "labels: [app, web]"), "line 11:15: spec.template.metadata.labels: expected a mapping, got a list"},
	{"no metadata.name", sub("metadata:\n  name: web\n", "metadata: {}\n"), "line 3:11: metadata.name: Required value: name or generateName is required"},
	{"no selector", sub("  selector:\n    matchLabels: {app: web}\n", ""), "line 6:3: spec.selector: Required value"},
	{"no containers", sub("      containers:\n        - name: web\n          image: nginx:1.25\n", "      containers: []\n"), "line 13:19: spec.template.spec.containers: Required value"},
	{"unknown kind", "apiVersion: v1\nkind: Potato\nmetadata: {name: p}\n", "warning: line 1:1: document 1: kind Potato (v1) is not simulated; it is ignored\nwarning: the scenario declares no objects: add a Deployment, ReplicaSet or Pod, or pick an example"},
	{"negative replicas", sub("replicas: 2", "replicas: -1"), "line 6:13: spec.replicas: Invalid value: -1: must be greater than or equal to 0"},
	{"name with capitals", sub("name: web\n", "name: Web\n"), "line 4:9: metadata.name: Invalid value: \"Web\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"},
	{"name with underscore", sub("name: web\n", "name: my_web\n"), "line 4:9: metadata.name: Invalid value: \"my_web\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"},
	{"name too long", sub("name: web\n", "name: "+strings.Repeat("a", 254)+"\n"), "line 4:9: metadata.name: Invalid value: \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"},
	{"namespace invalid", sub("name: web\n", "name: web\n  namespace: Prod!\n"), "line 5:14: metadata.namespace: Invalid value: \"Prod!\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"},
	{"label value too long", sub("labels: {app: web}", "labels: {app: web, x: "+strings.Repeat("v", 64)+"}"), "line 11:15: spec.template.metadata.labels: Invalid value: \"vvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvv\": must be no more than 63 bytes"},
	{"label key invalid", sub("labels: {app: web}", "labels: {app: web, \"-bad\": x}"), "line 11:15: spec.template.metadata.labels: Invalid value: \"-bad\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"},
	{"selector operator", sub("matchLabels: {app: web}", "matchExpressions: [{key: app, operator: Like, values: [web]}]"), "line 8:45: spec.selector.matchExpressions[0].operator: Invalid value: \"Like\": not a valid selector operator"},
	{"selector In without values", sub("matchLabels: {app: web}", "matchExpressions: [{key: app, operator: In}]"), "line 8:24: spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'"},
	{"selector empty", sub("matchLabels: {app: web}", "matchLabels: {}"), "line 8:5: spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for deployment"},
	{"cpu not a quantity", sub("image: nginx:1.25", "image: nginx:1.25\n          resources: {requests: {cpu: fast}}"), "line 16:39: spec.template.spec.containers[0].resources.requests.cpu: \"fast\" is not a quantity: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"},
	{"memory unknown suffix", sub("image: nginx:1.25", "image: nginx:1.25\n          resources: {requests: {memory: 12XB}}"), "line 16:42: spec.template.spec.containers[0].resources.requests.memory: \"12XB\" is not a quantity: unable to parse quantity's suffix"},
	{"negative cpu", sub("image: nginx:1.25", "image: nginx:1.25\n          resources: {requests: {cpu: -1}}"), "line 16:39: spec.template.spec.containers[0].resources.requests[cpu]: Invalid value: \"-1\": must be greater than or equal to 0"},
	{"request above limit", sub("image: nginx:1.25", "image: nginx:1.25\n          resources: {requests: {cpu: \"2\"}, limits: {cpu: \"1\"}}"), "line 16:33: spec.template.spec.containers[0].resources.requests: Invalid value: \"2\": must be less than or equal to cpu limit of 1"},
	{"surge and unavailable zero", sub("replicas: 2", "replicas: 2\n  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 0, maxUnavailable: 0}}"), "line 7:80: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0"},
	{"unavailable above 100%", sub("replicas: 2", "replicas: 2\n  strategy: {type: RollingUpdate, rollingUpdate: {maxUnavailable: 150%}}"), "line 7:67: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: \"150%\": must not be greater than 100%"},
	{"surge as a quoted number", sub("replicas: 2", "replicas: 2\n  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: \"1\"}}"), "line 7:61: spec.strategy.rollingUpdate.maxSurge: Invalid value: \"1\": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"},
	{"recreate with rollingUpdate", sub("replicas: 2", "replicas: 2\n  strategy: {type: Recreate, rollingUpdate: {maxSurge: 1}}"), "line 7:45: spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'"},
	{"unknown strategy", sub("replicas: 2", "replicas: 2\n  strategy: {type: BlueGreen}"), "line 7:20: spec.strategy.type: Unsupported value: \"BlueGreen\": supported values: \"Recreate\", \"RollingUpdate\""},
	{"deadline not above minReady", sub("replicas: 2", "replicas: 2\n  minReadySeconds: 30\n  progressDeadlineSeconds: 30"), "line 8:28: spec.progressDeadlineSeconds: Invalid value: 30: must be greater than minReadySeconds"},
	{"negative history limit", sub("replicas: 2", "replicas: 2\n  revisionHistoryLimit: -1"), "line 7:25: spec.revisionHistoryLimit: Invalid value: -1: must be greater than or equal to 0"},
	{"restartPolicy Never", sub("      containers:", "      restartPolicy: Never\n      containers:"), "line 13:22: spec.template.spec.restartPolicy: Unsupported value: \"Never\": supported values: \"Always\""},
	{"duplicate container names", sub("          image: nginx:1.25\n", "          image: nginx:1.25\n        - name: web\n          image: nginx:1.26\n"), "line 16:17: spec.template.spec.containers[1].name: Duplicate value: \"web\""},
	{"port out of range", sub("image: nginx:1.25", "image: nginx:1.25\n          ports: [{containerPort: 70000}]"), "line 16:35: spec.template.spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive"},
	{"probe without handler", sub("image: nginx:1.25", "image: nginx:1.25\n          readinessProbe: {periodSeconds: 5}"), "line 16:27: spec.template.spec.containers[0].readinessProbe: Required value: must specify a handler type"},
	{"image with spaces", sub("image: nginx:1.25", "image: \" nginx:1.25\""), "line 15:18: spec.template.spec.containers[0].image: Invalid value: \" nginx:1.25\": must not have leading or trailing whitespace"},
	{"control character", sub("name: web\n", "name: \"w\\x01eb\"\n"), "line 4:9: metadata.name: Invalid value: \"w\\x01eb\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"},
	{"NUL byte", "apiVersion: v1\nkind: Pod\nmetadata: {name: p\x00}\n", "line 3:19: the scenario contains the control character U+0000, which YAML does not allow; delete it"},
	{"deep nesting", nested(10000), "line 4:1: x: strict decoding error: unknown field \"x\"\nline 1:1: spec.containers: Required value"},
	{"10 MB paste", base + "# " + strings.Repeat("x", 10<<20) + "\n", "the scenario is 10486009 bytes; the limit is 1048576 bytes (1 MiB)"},
	{"scenario seed is text", withScenario("  seed: lucky\n"), "line 20:9: spec.seed: expected an integer, got the string \"lucky\""},
	{"scenario negative node count", withScenario("  nodes: {count: -3}\n"), "line 20:18: spec.nodes.count: Invalid value: -3: must be between 0 and 5000"},
	{"scenario node capacity", withScenario("  nodes: {count: 2, capacity: {cpu: lots}}\n"), "line 20:37: spec.nodes.capacity.cpu: \"lots\" is not a quantity: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"},
	{"scenario action time", withScenario("  actions: [{at: yesterday, kubectl: get pods}]\n"), "line 20:18: spec.actions[0].at: \"yesterday\" is not a duration (write it like 200ms, 2s or 1m30s)"},
	{"scenario action unknown verb", withScenario("  actions: [{at: 5s, kubectl: explode deployment/web}]\n"), "line 20:31: spec.actions[0].kubectl: error: \"explode deployment/web\" does not change the cluster; a scenario action needs one of: create, scale, autoscale, set image|selector, patch, rollout pause|resume|restart|undo, delete, cordon, uncordon, drain, label, annotate, taint"},
	{"scenario action two things", withScenario("  actions: [{at: 5s, kubectl: get pods, kill-pod: web-1}]\n"), "line 20:13: spec.actions[0]: an action does one thing: kubectl, node, kill-pod, fail-image or add-node"},
	{"scenario action nothing", withScenario("  actions: [{at: 5s}]\n"), "line 20:13: spec.actions[0]: Required value: an action needs kubectl (a command), node (a fault), kill-pod, fail-image or add-node"},
	{"scenario unknown node condition", withScenario("  nodes: {count: 1}\n  actions: [{at: 5s, node: node-9, condition: Ready=False}]\n"), "line 21:47: spec.actions[0].condition: Unsupported value: \"Ready=False\": supported values: \"NotReady\", \"Unreachable\", \"Ready\""},
	{"scenario negative quota", withScenario("  quota: {pods: -1}\n"), "line 20:17: spec.quota.pods: Invalid value: -1: must be at least 1"},
	{"scenario exit code", withScenario("  images: {\"nginx:1.25\": {exitAfter: 5s, exitCode: 300}}\n"), "line 20:52: spec.images[\"nginx:1.25\"].exitCode: Invalid value: 300: must be between 0 and 255 (a process exit status)"},
	{"scenario unknown field", withScenario("  sede: 4\n"), "warning: line 20:3: spec.sede: unknown field \"sede\" is ignored"},
	{"scenario unknown latency", withScenario("  latency: {etcd: 5ms}\n"), "warning: line 20:19: spec.latency.etcd: unknown component \"etcd\" (known: deployment-controller, replicaset-controller, scheduler, kubelet, garbage-collector, node-lifecycle-controller, taint-eviction-controller, endpointslice-controller, endpoints-controller, daemonset-controller, statefulset-controller, persistentvolume-binder, pod-garbage-collector, job-controller, ttl-after-finished-controller, cronjob-controller, metrics-server, horizontal-pod-autoscaler, disruption-controller, kube-proxy, replication-controller, pvc-protection-controller)"},
	{"javascript url in an annotation", sub("name: web\n", "name: web\n  annotations: {docs: \"javascript:alert(1)\"}\n"), ""},
	{"javascript url in a label", "apiVersion: v1\nkind: Pod\nmetadata: {name: p, labels: {link: \"javascript:alert(1)\"}}\nspec: {containers: [{name: c, image: x:1}]}\n", "line 3:29: metadata.labels: Invalid value: \"javascript:alert(1)\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"},
	{"script tag in an image", sub("image: nginx:1.25", "image: \"<script>alert(1)</script>\""), ""},
	{"empty", "", "warning: the scenario declares no objects: add a Deployment, ReplicaSet or Pod, or pick an example"},
	{"only comments", "# nothing here\n", "warning: the scenario declares no objects: add a Deployment, ReplicaSet or Pod, or pick an example"},
}

// Every hostile input gets exactly its message, and nothing panics or hangs.
func TestHostileInputs(t *testing.T) {
	for _, tc := range hostile {
		t.Run(tc.name, func(t *testing.T) {
			sc, err := Parse([]byte(tc.src))
			got := ""
			if err != nil {
				got = err.Error()
			} else {
				var ws []string
				for _, w := range sc.Warnings {
					ws = append(ws, "warning: "+w.String())
				}
				got = strings.Join(ws, "\n")
			}
			if *printHostile {
				fmt.Printf("%s\t%q\n", tc.name, got)
				return
			}
			if got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}

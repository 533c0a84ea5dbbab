package scenario

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// deployment is a Deployment of n replicas whose one container requests
// the given resources (YAML flow map, "" for none).
func deployment(name, replicas, requests string) string {
	out := "---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: " + name + "\nspec:\n"
	if replicas != "" {
		out += "  replicas: " + replicas + "\n"
	}
	out += "  selector:\n    matchLabels: {app: " + name + "}\n  template:\n    metadata:\n      labels: {app: " + name + "}\n    spec:\n      containers:\n        - name: c\n          image: nginx:1.25\n"
	if requests != "" {
		out += "          resources:\n            requests: " + requests + "\n"
	}
	return out
}

// onlyDeclaredNodes, after Node documents, keeps only the declared nodes.
const onlyDeclaredNodes = "---\napiVersion: stateflow/v1alpha1\nkind: Scenario\nspec: {seed: 1}\n"

const threeNodes = "---\napiVersion: stateflow/v1alpha1\nkind: Scenario\nspec:\n  nodes: {count: 3, capacity: {cpu: \"4\", memory: 8Gi, pods: 110}}\n"

// A manifest whose pods cannot all fit on the nodes warns at Apply, at
// the line and column of what asks too much; one that fits does not.
func TestCapacityWarnings(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string // "line:column: path: message", in order
	}{
		{"too many pods", deployment("web", "5000", "") + threeNodes,
			[]string{"7:13: spec.replicas: 5000 replicas need 5000 pods but the 3 nodes hold at most 330 (110 each): at least 4670 will stay Pending with FailedScheduling (Too many pods)"}},
		{"too much cpu", deployment("web", "50", "{cpu: 250m}") + threeNodes,
			[]string{"7:13: spec.replicas: 50 replicas of 250m cpu request 12.5 cpu in all; the 3 nodes have 12 cpu allocatable: at least 2 pods will stay Pending with FailedScheduling (Insufficient cpu)"}},
		{"too much memory", deployment("web", "25", "{memory: 1Gi}") + threeNodes,
			[]string{"7:13: spec.replicas: 25 replicas of 1Gi memory request 25Gi memory in all; the 3 nodes have 24Gi memory allocatable: at least 1 pod will stay Pending with FailedScheduling (Insufficient memory)"}},
		{"exactly full", deployment("web", "48", "{cpu: 250m, memory: 512Mi}") + threeNodes, nil},
		{"a pod larger than any node", deployment("big", "2", "{cpu: \"6\"}") + threeNodes,
			[]string{"18:29: spec.template.spec.containers[0].resources.requests.cpu: each pod of deploy/big requests 6 cpu but no node has more than 4 cpu allocatable: none of its 2 pods can ever be scheduled (FailedScheduling: Insufficient cpu)"}},
		{"an extended resource no node advertises", strings.Replace(deployment("dongle", "", "{cpu: 100m, example.com/dongle: \"3\"}"), "requests:", "limits:", 1) + threeNodes,
			[]string{"17:53: spec.template.spec.containers[0].resources.limits[\"example.com/dongle\"]: each pod of deploy/dongle requests 3 example.com/dongle but no node advertises example.com/dongle (a device plugin would; here give the nodes capacity: Scenario spec.nodes.capacity, example.com/dongle: 3): its pod can never be scheduled (FailedScheduling: Insufficient example.com/dongle)"}},
		{"more dongles than a node has", strings.Replace(deployment("dongle", "", "{example.com/dongle: \"5\"}"), "requests:", "limits:", 1) + strings.Replace(threeNodes, "pods: 110", "pods: 110, example.com/dongle: 4", 1),
			[]string{"17:42: spec.template.spec.containers[0].resources.limits[\"example.com/dongle\"]: each pod of deploy/dongle requests 5 example.com/dongle but no node has more than 4 example.com/dongle allocatable: its pod can never be scheduled (FailedScheduling: Insufficient example.com/dongle)"}},
		{"dongles enough", strings.Replace(deployment("dongle", "", "{example.com/dongle: \"4\"}"), "requests:", "limits:", 1) + strings.Replace(threeNodes, "pods: 110", "pods: 110, example.com/dongle: 4", 1), nil},
		{"two workloads", deployment("web", "400", "") + deployment("api", "", "") + threeNodes + "---\napiVersion: v1\nkind: Pod\nmetadata: {name: one}\nspec: {containers: [{name: c, image: nginx:1.25}]}\n",
			[]string{"7:13: spec.replicas: the workloads need 402 pods in all (400 pods for deploy/web) but the 3 nodes hold at most 330 (110 each): at least 72 will stay Pending with FailedScheduling (Too many pods)"}},
		{"declared nodes", deployment("web", "", "{cpu: \"3\"}") + "---\napiVersion: v1\nkind: Node\nmetadata: {name: small}\nstatus: {capacity: {cpu: \"2\", memory: 4Gi, pods: \"10\"}}\n" + onlyDeclaredNodes,
			[]string{"17:29: spec.template.spec.containers[0].resources.requests.cpu: each pod of deploy/web requests 3 cpu but no node has more than 2 cpu allocatable: its pod can never be scheduled (FailedScheduling: Insufficient cpu)"}},
		{"default replicas, declared nodes", deployment("web", "", "") + "---\napiVersion: v1\nkind: Node\nmetadata: {name: tiny}\nstatus: {capacity: {cpu: \"2\", memory: 4Gi, pods: \"0\"}}\n" + onlyDeclaredNodes,
			[]string{"2:1: 1 replica needs 1 pod but the only node holds at most 0: at least 1 will stay Pending with FailedScheduling (Too many pods)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc, err := Parse([]byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, d := range sc.Warnings {
				got = append(got, strings.TrimPrefix(d.String(), "line "))
			}
			if len(got) != len(tc.want) {
				t.Fatalf("warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			for i := range got {
				if w, _, cut := strings.Cut(tc.want[i], "…"); got[i] != tc.want[i] && !(cut && strings.HasPrefix(got[i], w)) {
					t.Errorf("warning %d:\n%s\nwant\n%s", i, got[i], tc.want[i])
				}
			}
		})
	}
}

// No example warns about capacity: they all fit (insufficient-cpu's pods
// fit on node-4 once it is uncordoned).
func TestExamplesFit(t *testing.T) {
	files, _ := filepath.Glob("../examples/*.yaml")
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sc, err := Parse(src)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, d := range sc.Warnings {
			if strings.Contains(d.Message, "Pending") || strings.Contains(d.Message, "scheduled") {
				t.Errorf("%s: %s", f, d)
			}
		}
	}
}

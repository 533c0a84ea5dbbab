package scenario

import (
	"errors"
	"os"
	"strings"
	"testing"
)

// FuzzParse: any input either parses or yields positioned Errors; never a
// panic, and every diagnostic has a message.
func FuzzParse(f *testing.F) {
	seed, _ := os.ReadFile("../examples/codartium-api.yaml")
	f.Add(string(seed))
	for _, name := range []string{"rollout-traffic", "job-backoff", "job-indexed", "cronjob-concurrency", "hpa-load-spike", "hpa-not-ready", "pdb-drain", "pdb-blocks-forever"} {
		src, _ := os.ReadFile("../examples/" + name + ".yaml")
		f.Add(string(src))
	}
	for _, name := range []string{"first-rollout", "eventual-consistency", "rolling-update-arithmetic"} {
		src, _ := os.ReadFile("../examples/lessons/" + name + ".yaml")
		f.Add(string(src))
	}
	f.Add(lessonBase + "    - text: x\n      goto: {next: {component: kubelet, object: \"pod/*\", class: realize}}\n      question: {ask: field-after, object: \"rs/web-*\", field: \"status.conditions[Ready].status\"}\n")
	f.Add("apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: c}\nspec:\n  schedule: \"0 0 30 2 *\"\n  timeZone: Mars/Olympus\n  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: x:1}]}}}}\n")
	f.Add("apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec:\n  completionMode: Indexed\n  podFailurePolicy: {rules: [{action: FailJob, onExitCodes: {operator: In, values: [42]}}]}\n  template: {spec: {restartPolicy: Never, containers: [{name: c, image: x:1}]}}\n")
	f.Add("apiVersion: stateflow/v1alpha1\nkind: Scenario\nspec:\n  traffic:\n  - {service: web, rps: 5, port: http, from: 2s, until: 1m, interval: 500ms, nodes: [node-1]}\n")
	f.Add(base)
	f.Add("apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata: {name: p}\n  spec: {containers: [{name: c, image: x:1}]}\n")
	f.Add("apiVersion: stateflow/v1alpha1\nkind: Scenario\nspec:\n  nodes: {count: 2}\n  actions:\n  - at: 1s\n    kubectl: scale deploy/x --replicas=2\n")
	f.Add("apiVersion: stateflow/v1alpha1\nkind: Scenario\nspec:\n  load:\n  - workload: sts/db\n    cpu: [{at: 1m, total: 2}, {at: 30s, perPod: -1}, {at: x}]\n    memory: [{at: 0s, perPod: 1Gi, total: 1}]\n")
	f.Add("a: &a [x]\nb: [*a, *a]\n")
	f.Add("\xff\xfe")
	f.Fuzz(func(t *testing.T, src string) {
		sc, err := Parse([]byte(src))
		if err != nil {
			var errs Errors
			if !errors.As(err, &errs) || len(errs) == 0 {
				t.Fatalf("error %v is not a non-empty Errors", err)
			}
			for _, d := range errs {
				if strings.TrimSpace(d.Message) == "" {
					t.Fatalf("empty diagnostic %+v", d)
				}
			}
			return
		}
		if sc == nil {
			t.Fatal("nil scenario without an error")
		}
	})
}

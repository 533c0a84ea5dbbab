package kubectl_test

import (
	"strings"
	"testing"

	"github.com/stateflow/stateflow/kubectl"
)

// FuzzSplit: the tokenizer never panics and never returns empty words
// from unquoted input.
func FuzzSplit(f *testing.F) {
	for _, s := range []string{`get pods -o jsonpath='{.items[0].metadata.name}'`, `a "b c" 'd e' f\ g`, `'unterminated`, `"x\"y"`, ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		words, err := kubectl.Split(line)
		if err != nil {
			return
		}
		if !strings.ContainsAny(line, `'"\`) {
			for _, w := range words {
				if w == "" {
					t.Fatalf("empty word from %q", line)
				}
			}
		}
	})
}

// FuzzCommand: any command line against a live cluster returns a result
// with an exit code and never panics the caller.
func FuzzCommand(f *testing.F) {
	for _, s := range []string{
		`get deployment codartium-api -o jsonpath='{.spec.template}'`,
		`get events --field-selector involvedObject.kind=Pod -n codartium-team`,
		`get pods -l 'app in (a,b)' --sort-by=.metadata.name`, `describe deploy codartium-api`,
		`rollout history deployment/codartium-api`, `get pods -o custom-columns=N:.metadata.name`,
		`scale deploy codartium-api --replicas=2`, `label pod x a=b`, `get all -A -o wide`, `config view --minify`,
		`get deploy -o jsonpath={.items[?(@.spec.replicas>1)]}`, `taint nodes node-1 k=v:NoSchedule`,
		`patch deploy codartium-api -p '{"spec":{"template":{"spec":{"containers":[{"name":"api","image":"x"}]}}}}'`,
		`patch deploy codartium-api --type json -p '[{"op":"remove","path":"/spec/template/spec/containers/0"}]'`,
		`set selector svc x app=y`,
		`create cronjob c --image=x --schedule='*/1 * * * *' --restart=Never -- date`, `create job j --from=cronjob/c`,
		`create job k --image=busybox -o yaml -- date`, `get jobs,cj -o wide`, `describe cj c`, `describe job j`,
		`set image cj/c c=x:2`, `patch job j -p '{"spec":{"suspend":true}}'`, `delete job j --cascade=foreground`,
		`autoscale deploy codartium-api --min=1 --max=5 --cpu=50% --memory=200Mi`, `autoscale deployment/codartium-api --max=3 --cpu-percent=80`,
		`autoscale deploy/codartium-api --max=3 --cpu=500 --dry-run=client -o yaml`, `get hpa -o wide`, `describe hpa codartium-api`,
		`patch hpa codartium-api -p '{"spec":{"maxReplicas":2}}'`, `delete hpa codartium-api`, `top pods -A --containers --sort-by=cpu --sum`,
		`top nodes --sort-by=memory --show-swap`, `top pod x`, `get podmetrics,nodemetrics -A`, `describe nodemetrics node-1`, `api-resources -o name`,
		`create pdb p --selector='app in (codartium-api)' --min-available=50%`, `create poddisruptionbudget q --selector=a=b --max-unavailable=1 -o yaml`,
		`get pdb -o wide`, `describe pdb p`, `patch pdb p -p '{"spec":{"selector":{"matchLabels":{"a":"b"}}}}'`, `delete pdb p`,
	} {
		f.Add(s)
	}
	s := seedSession(f, true)
	f.Fuzz(func(t *testing.T, line string) {
		if strings.Contains(line, "rollout status") || strings.Contains(line, "-w") || strings.Contains(line, "watch") {
			return // these advance the simulation; covered by their own tests
		}
		res := s.Run(line)
		if res.Code != 0 && res.Stderr == "" {
			t.Fatalf("%q failed with no message", line)
		}
		if strings.Contains(res.Stderr, "internal error") {
			t.Fatalf("%q: %s", line, res.Stderr)
		}
		_ = kubectl.Result{}
	})
}

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

// pdbSession is testdata/pdb.yaml just after kubectl apply created its
// objects, before any controller has acted.
func pdbSession(t testing.TB) *kubectl.Session {
	t.Helper()
	return appliedSession(t, "testdata/pdb.yaml", api.Key{Kind: api.KindPodDisruptionBudget, Namespace: "default", Name: "batch-pdb"})
}

// pdbTranscript is testdata/pdb.golden's commands, from the moment the
// objects exist. Lines starting with "# at " advance the simulation to
// that time.
var pdbTranscript = []string{
	// Before the disruption controller's first sync: an empty status.
	"get pdb",
	"get poddisruptionbudgets.policy web-pdb -o wide",
	"describe pdb web-pdb",
	"api-resources",
	"api-resources --namespaced=true -o name",
	"# at 30s",
	// Every pod is healthy: web's 3 against a minAvailable of 2, api's 4
	// against a maxUnavailable of 25 % (desired 3); batch-pdb selects no
	// pod.
	"get pdb",
	"get pdb -o wide",
	"get pdb web-pdb -o yaml",
	"get pdb api-pdb -o json",
	"get pdb -o jsonpath='{range .items[*]}{.metadata.name}{\"\\t\"}{.status.currentHealthy}/{.status.expectedPods}{\"\\n\"}{end}'",
	"get pdb -o custom-columns=NAME:.metadata.name,HEALTHY:.status.currentHealthy,DESIRED:.status.desiredHealthy,POLICY:.spec.unhealthyPodEvictionPolicy",
	"get pdb --show-labels",
	"get pdb -A -L app",
	"get pdb -o name",
	"get pdb -l app=web",
	"get pdb --field-selector metadata.name=api-pdb",
	"get pdb --field-selector spec.minAvailable=2",
	"describe pdb web-pdb",
	"describe pdb",
	"get events --field-selector involvedObject.kind=PodDisruptionBudget",
	"get all",
	// (Not -o yaml: kubectl v1.34 omits a zero metadata.creationTimestamp,
	// which Stateflow still prints as null.)
	"create pdb db-pdb --selector=app=db --min-available=1 --dry-run=client -o jsonpath='{.apiVersion} {.kind} {.spec}{\"\\n\"}'",
	"create pdb db-pdb --selector='app=db,tier in (primary,replica)' --max-unavailable=0 --dry-run=client",
	"create pdb db-pdb --selector=tier=backend --max-unavailable=10% --dry-run=client -o jsonpath={.spec}",
	"create poddisruptionbudget half --selector=app=web --min-available=50%",
	"create pdb spare --selector='app in (api,web),!legacy' --max-unavailable=1 -o name",
	"create pdb x --selector=app=web",
	"create pdb x --min-available=1",
	"create pdb x --selector=app=web --min-available=1 --max-unavailable=1",
	"create pdb x --selector=app=web --min-available=1.5",
	"create pdb x --selector=app=web --min-available=-1",
	"create pdb x --selector=app=web --max-unavailable=10Gb",
	"create pdb --selector=app=web --min-available=1",
	"create pdb a b --selector=app=web --min-available=1",
	"create pdb '' --selector=app=web --min-available=1",
	"create pdb x -o wide",
	"create pdb x --selector=app=web --min-available=1 --dry-run=maybe",
	"create pdb x --selector=app!=web --min-available=1",
	"create pdb x --selector='app=(web' --min-available=1",
	"create pdb x --selector='count>2' --min-available=1",
	"create pdb x --selector=app=web -l app=web",
	"create pdb web-pdb --selector=app=web --min-available=1",
	"create pdb big --selector=app=web --min-available=150%",
	"create pdb big --selector=app=web --max-unavailable=99999999999",
	"get pdb",
	"# at 40s",
	// The controller has counted the new budgets' pods: spare selects
	// web's 3 and api's 4.
	"get pdb",
	"describe pdb half spare",
	"get pdb spare -o yaml",
	// spec.selector is patchStrategy=replace: a strategic merge patch
	// replaces the whole selector, a JSON merge patch merges into it.
	"patch pdb spare -p '{\"spec\":{\"selector\":{\"matchLabels\":{\"app\":\"web\"}}}}'",
	"get pdb spare -o jsonpath={.spec.selector}",
	"patch pdb half --type=merge -p '{\"spec\":{\"selector\":{\"matchExpressions\":[{\"key\":\"legacy\",\"operator\":\"DoesNotExist\"}]}}}'",
	"get pdb half -o jsonpath={.spec.selector}",
	"patch pdb web-pdb -p '{\"spec\":{\"minAvailable\":\"60%\"}}'",
	"patch pdb web-pdb -p '{\"spec\":{\"maxUnavailable\":1}}'",
	"patch pdb web-pdb --type=merge -p '{\"spec\":{\"minAvailable\":null,\"maxUnavailable\":1}}'",
	"patch pdb web-pdb --type=json -p '[{\"op\":\"replace\",\"path\":\"/spec/maxUnavailable\",\"value\":\"half\"}]'",
	"patch pdb web-pdb -p '{\"spec\":{\"unhealthyPodEvictionPolicy\":\"Never\"}}'",
	"patch pdb web-pdb -p '{\"status\":{\"disruptionsAllowed\":5}}'",
	"label pdb web-pdb team=web",
	"annotate pdb web-pdb owner=ops",
	"# at 50s",
	"get pdb -L team",
	"describe pdb web-pdb",
	"scale pdb web-pdb --replicas=2",
	"rollout status pdb/web-pdb",
	"describe pdb nope",
	"delete pdb spare",
	"delete pdb spare",
	"get pdb",
	"get pdb web-pdb -w",
}

func TestPDBGolden(t *testing.T) {
	s := pdbSession(t)
	var b strings.Builder
	for _, line := range pdbTranscript {
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
	golden(t, "testdata/pdb.golden", b.String())
}

// apply creates a PodDisruptionBudget and replaces its spec: a budget
// changed from minAvailable to maxUnavailable keeps only the new one, and
// a new selector replaces the old whole.
func TestPDBApply(t *testing.T) {
	s := pdbSession(t)
	s.Cluster.RunUntil(30_000)
	s.Stdin = `apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: db-pdb
spec:
  minAvailable: 1
  selector:
    matchLabels: {app: web}
    matchExpressions: [{key: legacy, operator: DoesNotExist}]
`
	if res := run(t, s, "apply -f -"); res.Output() != "poddisruptionbudget.policy/db-pdb created\n" {
		t.Errorf("apply: %+v", res)
	}
	if res := run(t, s, "apply -f -"); res.Output() != "poddisruptionbudget.policy/db-pdb unchanged\n" {
		t.Errorf("apply again: %+v", res)
	}
	s.Stdin = `apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: db-pdb
  labels: {team: db}
spec:
  maxUnavailable: 50%
  selector:
    matchLabels: {app: api}
`
	if res := run(t, s, "apply -f -"); res.Output() != "poddisruptionbudget.policy/db-pdb configured\n" {
		t.Errorf("apply maxUnavailable: %+v", res)
	}
	s.Cluster.RunUntil(40_000)
	// api's 4 pods: at most 2 (50 %, rounded up) unavailable.
	if out := run(t, s, "get pdb -l team=db --no-headers").Stdout; out != "db-pdb   N/A   50%   2   10s\n" {
		t.Errorf("get pdb: %q", out)
	}
	if out := run(t, s, "get pdb db-pdb -o jsonpath={.spec}").Stdout; out != `{"maxUnavailable":"50%","selector":{"matchLabels":{"app":"api"}}}` {
		t.Errorf("spec: %s", out)
	}
	s.Stdin = strings.Replace(s.Stdin, "maxUnavailable: 50%", "maxUnavailable: 50%\n  minAvailable: 1", 1)
	if res := run(t, s, "apply -f -"); res.Code == 0 || !strings.Contains(res.Stderr, "minAvailable and maxUnavailable cannot be both set") {
		t.Errorf("apply both: %+v", res)
	}
}

// A scenario's actions may patch and delete a budget; create pdb is a
// console command, as create job is.
func TestPDBScenarioActions(t *testing.T) {
	src, err := os.ReadFile("testdata/pdb.yaml")
	if err != nil {
		t.Fatal(err)
	}
	actions := "  actions:\n" +
		"    - {at: 20s, kubectl: \"patch pdb web-pdb -p '{\\\"spec\\\":{\\\"minAvailable\\\":\\\"100%\\\"}}'\"}\n" +
		"    - {at: 25s, kubectl: \"delete pdb batch-pdb\"}\n"
	e, sc := testkit.Load(t, []byte(strings.Replace(string(src), "  images:\n", actions+"  images:\n", 1)))
	s := &kubectl.Session{Cluster: e, Namespace: sc.Namespace}
	e.RunUntil(30_000)
	if out := run(t, s, "get pdb --no-headers").Stdout; out != "api-pdb   N/A    25%   1   30s\nweb-pdb   100%   N/A   0   30s\n" {
		t.Errorf("get pdb: %q", out)
	}
	if m, err := kubectl.ParseMutation("create pdb x --selector=app=web --min-available=1", "default"); err != nil || m.Object.String() != "PodDisruptionBudget/default/x" {
		t.Errorf("create pdb as an action: %v, %v", m, err)
	}
	if _, err := kubectl.ParseMutation("create job j --from=cronjob/c", "default"); err == nil || !strings.Contains(err.Error(), "create job --from cannot be a scenario action") {
		t.Errorf("create job --from as an action: %v", err)
	}
	if _, err := kubectl.ParseMutation("create cm x --from-literal=a=1 --dry-run=client", "default"); err == nil || !strings.Contains(err.Error(), "cannot be a dry run") {
		t.Errorf("a dry run as an action: %v", err)
	}
}

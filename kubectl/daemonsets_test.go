package kubectl_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/trace"
	"github.com/stateflow/stateflow/internal/testkit"
	"github.com/stateflow/stateflow/kubectl"
	"github.com/stateflow/stateflow/scenario"
)

// dsSession is testdata/daemonsets.yaml once it has settled: fluentd on
// the two workers n1 and n2, node-exporter on them and on cp1.
func dsSession(t testing.TB) *kubectl.Session {
	t.Helper()
	e, sc := testkit.LoadFile(t, "testdata/daemonsets.yaml")
	if err := e.RunUntilSettled(engine.SettleLimits{}); err != nil {
		t.Fatal(err)
	}
	return &kubectl.Session{Cluster: e, Namespace: sc.Namespace, Decode: scenario.DecodeObjects}
}

func fluentd(t testing.TB, s *kubectl.Session) *api.DaemonSet {
	t.Helper()
	o, ok := s.Cluster.Store().Get(api.Key{Kind: api.KindDaemonSet, Namespace: "default", Name: "fluentd"})
	if !ok {
		t.Fatal("daemonset fluentd is gone")
	}
	return o.(*api.DaemonSet)
}

// advanceUntil steps the simulation until cond holds of fluentd.
func advanceUntil(t testing.TB, s *kubectl.Session, what string, cond func(*api.DaemonSet) bool) {
	t.Helper()
	for range 1000 {
		if cond(fluentd(t, s)) {
			return
		}
		if s.Cluster.Step() == nil {
			break
		}
	}
	t.Fatalf("the simulation never reached: %s", what)
}

// The rollout's stages, from the DaemonSet's status (§2.10).
var (
	firstPodDeleted = func(d *api.DaemonSet) bool {
		return d.Status.ObservedGeneration == d.Generation && d.Status.UpdatedNumberScheduled == 0 && d.Generation > 1
	}
	replacementPending = func(d *api.DaemonSet) bool {
		st := d.Status
		return st.ObservedGeneration == d.Generation && st.UpdatedNumberScheduled == 1 && st.NumberAvailable == 1
	}
	allUpdatedOneAvailable = func(d *api.DaemonSet) bool {
		st := d.Status
		return st.UpdatedNumberScheduled == 2 && st.NumberAvailable == 1
	}
)

func TestDaemonSetGet(t *testing.T) {
	s := dsSession(t)
	for _, tc := range []struct{ line, want string }{
		{"get ds", `NAME            DESIRED   CURRENT   READY   UP-TO-DATE   AVAILABLE   NODE SELECTOR                                     AGE
fluentd         2         2         2       2            2           <none>                                            13s
node-exporter   3         3         3       3            3           kubernetes.io/arch=amd64,kubernetes.io/os=linux   13s
`},
		{"get ds fluentd -o wide", `NAME      DESIRED   CURRENT   READY   UP-TO-DATE   AVAILABLE   NODE SELECTOR   AGE   CONTAINERS   IMAGES               SELECTOR
fluentd   2         2         2       2            2           <none>          13s   fluentd      example/fluentd:v1   app=fluentd
`},
		{"get daemonset node-exporter -o wide --no-headers", "node-exporter   3   3   3   3   3   kubernetes.io/arch=amd64,kubernetes.io/os=linux   13s   node-exporter,kube-rbac-proxy   example/node-exporter:v1,example/kube-rbac-proxy:v1   app=node-exporter\n"},
		{"get controllerrevisions", `NAME                     CONTROLLER                     REVISION   AGE
fluentd-556bc49cd        daemonset.apps/fluentd         1          13s
node-exporter-dc8dd6b9   daemonset.apps/node-exporter   1          13s
`},
		{"get ds -l app=fluentd -o name", "daemonset.apps/fluentd\n"},
		{"get controllerrevision -l app=fluentd -o name", "controllerrevision.apps/fluentd-556bc49cd\n"},
		{"get ds --field-selector metadata.name=node-exporter -o custom-columns=NAME:.metadata.name,STRATEGY:.spec.updateStrategy.type,MAXUNAVAILABLE:.spec.updateStrategy.rollingUpdate.maxUnavailable",
			"NAME            STRATEGY   MAXUNAVAILABLE\nnode-exporter   OnDelete   <none>\n"},
		{"get ds fluentd -o jsonpath={.status}", `{"currentNumberScheduled":2,"desiredNumberScheduled":2,"numberAvailable":2,"numberMisscheduled":0,"numberReady":2,"observedGeneration":1,"updatedNumberScheduled":2}`},
		{"get controllerrevisions -o jsonpath={.items[*].revision}", "1 1"},
	} {
		res := run(t, s, tc.line)
		if res.Stdout != tc.want || res.Stderr != "" {
			t.Errorf("%s:\n%s%s\nwant:\n%s", tc.line, res.Stdout, res.Stderr, tc.want)
		}
	}
	// get all lists the DaemonSets between Services and Deployments; the
	// ControllerRevisions are not in the "all" category.
	out := run(t, s, "get all").Stdout
	if !strings.Contains(out, "\nNAME                           DESIRED   CURRENT   READY   UP-TO-DATE   AVAILABLE   NODE SELECTOR                                     AGE\ndaemonset.apps/fluentd         2  ") ||
		strings.Contains(out, "controllerrevision") || !strings.HasPrefix(out, "NAME                      READY   STATUS") {
		t.Errorf("get all:\n%s", out)
	}
}

func TestDaemonSetNames(t *testing.T) {
	s := dsSession(t)
	for _, name := range []string{"ds", "daemonset", "daemonsets", "DaemonSet", "daemonsets.apps", "daemonset.apps", "daemonsets.v1.apps", "ds.apps"} {
		if res := run(t, s, "get "+name+" fluentd -o name"); res.Stdout != "daemonset.apps/fluentd\n" {
			t.Errorf("get %s fluentd: %+v", name, res)
		}
	}
	for _, name := range []string{"controllerrevisions", "controllerrevision", "ControllerRevision", "controllerrevisions.apps"} {
		if res := run(t, s, "get "+name+" fluentd-556bc49cd -o name"); res.Stdout != "controllerrevision.apps/fluentd-556bc49cd\n" {
			t.Errorf("get %s: %+v", name, res)
		}
	}
	for _, tc := range []struct{ line, want string }{
		{"get cr", `error: the server doesn't have a resource type "cr"`},
		{"get ds.extensions", `error: the server doesn't have a resource type "ds.extensions"`},
		{"get ds nope", `Error from server (NotFound): daemonsets.apps "nope" not found`},
		{"get ds --field-selector spec.updateStrategy.type=OnDelete", `Error from server (BadRequest): Unable to find "apps/v1, Resource=daemonsets" that match label selector "", field selector "spec.updateStrategy.type=OnDelete": field label not supported: spec.updateStrategy.type`},
	} {
		if res := run(t, s, tc.line); res.Code != 1 || res.Stderr != tc.want+"\n" {
			t.Errorf("%s: %+v, want %q", tc.line, res, tc.want)
		}
	}
}

// describe ds is DaemonSetDescriber: the node counts are written without
// a tab, so they break the alignment of the fields around them.
func TestDaemonSetDescribe(t *testing.T) {
	s := dsSession(t)
	out := run(t, s, "describe ds node-exporter").Stdout
	want := `Name:           node-exporter
Namespace:      default
Selector:       app=node-exporter
Node-Selector:  kubernetes.io/arch=amd64,kubernetes.io/os=linux
Labels:         <none>
Annotations:    deprecated.daemonset.template.generation: 1
Desired Number of Nodes Scheduled: 3
Current Number of Nodes Scheduled: 3
Number of Nodes Scheduled with Up-to-date Pods: 3
Number of Nodes Scheduled with Available Pods: 3
Number of Nodes Misscheduled: 0
Pods Status:  3 Running / 0 Waiting / 0 Succeeded / 0 Failed
Pod Template:
  Labels:       app=node-exporter
  Annotations:  prometheus.io/scrape: true
  Containers:
   node-exporter:
    Image:        example/node-exporter:v1
    Port:         9100/TCP
    Host Port:    9100/TCP
    Environment:  <none>
    Mounts:       <none>
   kube-rbac-proxy:
    Image:         example/kube-rbac-proxy:v1
    Port:          <none>
    Host Port:     <none>
    Environment:   <none>
    Mounts:        <none>
  Volumes:         <none>
  Node-Selectors:  kubernetes.io/arch=amd64
                   kubernetes.io/os=linux
  Tolerations:     node-role.kubernetes.io/control-plane:NoSchedule op=Exists
Events:
  Type    Reason            Age   From                  Message
  ----    ------            ----  ----                  -------
`
	if !strings.HasPrefix(out, want) {
		t.Errorf("describe ds node-exporter:\n%s\nwant it to start with:\n%s", out, want)
	}
	if n := len(regexp.MustCompile(`(?m)^  Normal  SuccessfulCreate  13s   daemonset-controller  Created pod: node-exporter-[a-z0-9]{5}$`).FindAllString(out, -1)); n != 3 {
		t.Errorf("describe ds node-exporter: %d SuccessfulCreate events, want 3:\n%s", n, out)
	}
	// A daemon pod's describe lists the controller's tolerations one a
	// line, sorted by key, in the column of the first.
	pod := strings.TrimPrefix(strings.Fields(run(t, s, "get pods -l app=fluentd -o name").Stdout)[0], "pod/")
	out = run(t, s, "describe pod "+pod).Stdout
	if !strings.Contains(out, `
Controlled By:  DaemonSet/fluentd
`) || !strings.HasSuffix(strings.SplitN(out, "\nEvents:", 2)[0], `
Node-Selectors:               <none>
Tolerations:                  node.kubernetes.io/disk-pressure:NoSchedule op=Exists
                              node.kubernetes.io/memory-pressure:NoSchedule op=Exists
                              node.kubernetes.io/not-ready:NoExecute op=Exists
                              node.kubernetes.io/pid-pressure:NoSchedule op=Exists
                              node.kubernetes.io/unreachable:NoExecute op=Exists
                              node.kubernetes.io/unschedulable:NoSchedule op=Exists`) {
		t.Errorf("describe pod %s:\n%s", pod, out)
	}
}

// rollout status follows a set image rollout through §2.10's lines: one
// old pod goes, its replacement comes and becomes available, then the
// other.
func TestDaemonSetRolloutStatus(t *testing.T) {
	s := dsSession(t)
	if res := run(t, s, "set image ds/fluentd fluentd=example/fluentd:v2"); res.Stdout != "daemonset.apps/fluentd image updated\n" {
		t.Fatalf("set image: %+v", res)
	}
	if res := run(t, s, "rollout status ds/fluentd --watch=false"); res.Stdout != "Waiting for daemon set spec update to be observed...\n" || res.Code != 0 {
		t.Errorf("before the controller has seen the change: %+v", res)
	}
	res := run(t, s, "rollout status daemonset/fluentd")
	want := `Waiting for daemon set spec update to be observed...
Waiting for daemon set "fluentd" rollout to finish: 0 out of 2 new pods have been updated...
Waiting for daemon set "fluentd" rollout to finish: 1 out of 2 new pods have been updated...
Waiting for daemon set "fluentd" rollout to finish: 1 of 2 updated pods are available...
daemon set "fluentd" successfully rolled out
`
	if res.Stdout != want || res.Code != 0 {
		t.Errorf("rollout status:\n%s%s\nwant:\n%s", res.Stdout, res.Stderr, want)
	}
	if res := run(t, s, "rollout status ds fluentd"); res.Stdout != "daemon set \"fluentd\" successfully rolled out\n" {
		t.Errorf("once done: %+v", res)
	}
	if res := run(t, s, "rollout status ds/node-exporter"); res.Stdout != "" || res.Stderr != "error: rollout status is only available for RollingUpdate strategy type\n" || res.Code != 1 {
		t.Errorf("OnDelete: %+v", res)
	}
	if res := run(t, s, "rollout status ds/nope"); res.Stderr != "Error from server (NotFound): daemonsets.apps \"nope\" not found\n" {
		t.Errorf("%+v", res)
	}
}

// A --timeout shorter than the rollout stops it with kubectl's error;
// the lines printed so far stay.
func TestDaemonSetRolloutStatusTimeout(t *testing.T) {
	s := dsSession(t)
	run(t, s, "set image ds/fluentd fluentd=example/fluentd:v2")
	start := s.Cluster.Now()
	res := run(t, s, "rollout status ds/fluentd --timeout=5s")
	want := `Waiting for daemon set spec update to be observed...
Waiting for daemon set "fluentd" rollout to finish: 0 out of 2 new pods have been updated...
Waiting for daemon set "fluentd" rollout to finish: 1 out of 2 new pods have been updated...
`
	if res.Stdout != want || res.Stderr != "error: timed out waiting for the condition\n" || res.Code != 1 {
		t.Errorf("rollout status --timeout=5s:\n%s%s", res.Stdout, res.Stderr)
	}
	// The command waits 5s of virtual time and takes no tick after them.
	tr := s.Cluster.Trace()
	if last := tr[len(tr)-1].Time; last > start+5000 || s.Cluster.Now() < start+5000 || s.Cluster.Now() >= start+6000 {
		t.Errorf("rollout status --timeout=5s from %d: last tick at %d, clock at %d", start, last, s.Cluster.Now())
	}
}

// Mid-rollout, get and describe show the counts the controller wrote.
func TestDaemonSetDuringRollout(t *testing.T) {
	s := dsSession(t)
	run(t, s, "set image ds/fluentd fluentd=example/fluentd:v2")
	advanceUntil(t, s, "the first old pod deleted", firstPodDeleted)
	if out := run(t, s, "get ds fluentd --no-headers").Stdout; out != "fluentd   2   2   2   0   2   <none>   13s\n" {
		t.Errorf("first old pod deleted: %q", out)
	}
	advanceUntil(t, s, "its replacement created", replacementPending)
	if out := run(t, s, "get ds fluentd --no-headers").Stdout; out != "fluentd   2   2   1   1   1   <none>   14s\n" {
		t.Errorf("replacement pending: %q", out)
	}
	out := run(t, s, "describe ds fluentd").Stdout
	for _, w := range []string{"\nAnnotations:    deprecated.daemonset.template.generation: 2\n                team: logging\n",
		"\nDesired Number of Nodes Scheduled: 2\nCurrent Number of Nodes Scheduled: 2\nNumber of Nodes Scheduled with Up-to-date Pods: 1\nNumber of Nodes Scheduled with Available Pods: 1\nNumber of Nodes Misscheduled: 0\nPods Status:  1 Running / 1 Waiting / 0 Succeeded / 0 Failed\n",
		"    Image:      example/fluentd:v2\n", "  Normal  SuccessfulDelete  1s    daemonset-controller  Deleted pod: fluentd-"} {
		if !strings.Contains(out, w) {
			t.Errorf("describe ds fluentd mid-rollout:\n%s\nwant %q", out, w)
		}
	}
	if res := run(t, s, "rollout status ds/fluentd --watch=false"); res.Stdout != "Waiting for daemon set \"fluentd\" rollout to finish: 1 out of 2 new pods have been updated...\n" {
		t.Errorf("%+v", res)
	}
	advanceUntil(t, s, "both pods updated, one available", allUpdatedOneAvailable)
	if res := run(t, s, "rollout status ds/fluentd -w=false"); res.Stdout != "Waiting for daemon set \"fluentd\" rollout to finish: 1 of 2 updated pods are available...\n" {
		t.Errorf("%+v", res)
	}
}

// History is the ControllerRevisions; undo patches a revision's template
// back in (DaemonSetRollbacker), and the controller renumbers it.
func TestDaemonSetHistoryAndUndo(t *testing.T) {
	s := dsSession(t)
	if res := run(t, s, "rollout undo ds/fluentd"); res.Stderr != "error: no last revision to roll back to\n" || res.Code != 1 {
		t.Errorf("undo without history: %+v", res)
	}
	run(t, s, "set image ds/fluentd fluentd=example/fluentd:v2")
	run(t, s, "rollout status ds/fluentd")
	hist := "daemonset.apps/fluentd \nREVISION  CHANGE-CAUSE\n1         <none>\n2         <none>\n\n"
	if res := run(t, s, "rollout history ds/fluentd"); res.Stdout != hist {
		t.Errorf("history:\n%q\nwant\n%q", res.Stdout, hist)
	}
	rev1 := `daemonset.apps/fluentd with revision #1
Pod Template:
  Labels:  app=fluentd
  Containers:
   fluentd:
    Image:      example/fluentd:v1
    Port:       <none>
    Host Port:  <none>
    Requests:
      cpu:         100m
      memory:      200Mi
    Readiness:     http-get http://:24231/healthz delay=0s timeout=1s period=10s #success=1 #failure=3
    Environment:   <none>
    Mounts:        <none>
  Volumes:         <none>
  Node-Selectors:  <none>
  Tolerations:     <none>

`
	if res := run(t, s, "rollout history daemonset/fluentd --revision=1"); res.Stdout != rev1 {
		t.Errorf("history --revision=1:\n%s\nwant:\n%s", res.Stdout, rev1)
	}
	if res := run(t, s, "rollout history ds/fluentd --revision=7"); res.Stderr != "error: unable to find the specified revision\n" {
		t.Errorf("%+v", res)
	}
	for _, tc := range []struct{ line, want string }{
		{"rollout undo ds/fluentd --to-revision=2", "daemonset.apps/fluentd skipped rollback (current template already matches revision 2)\n"},
		{"rollout undo ds/fluentd", "daemonset.apps/fluentd rolled back\n"},
	} {
		if res := run(t, s, tc.line); res.Stdout != tc.want || res.Code != 0 {
			t.Errorf("%s: %+v, want %q", tc.line, res, tc.want)
		}
	}
	if d := fluentd(t, s); d.Spec.Template.Spec.Containers[0].Image != "example/fluentd:v1" || d.Annotations[api.AnnotationTemplateGeneration] != "3" {
		t.Errorf("after undo: image %s, template generation %s", d.Spec.Template.Spec.Containers[0].Image, d.Annotations[api.AnnotationTemplateGeneration])
	}
	run(t, s, "rollout status ds/fluentd")
	// Revision 1's template is current again: the controller renumbers it 3.
	rows := tableRows(run(t, s, "get controllerrevisions -l app=fluentd").Stdout)
	if r := rows["fluentd-556bc49cd"]; len(r) != 4 || r[1] != "daemonset.apps/fluentd" || r[2] != "3" {
		t.Errorf("revision 1 renumbered: %q", rows)
	}
	if res := run(t, s, "rollout history ds/fluentd"); res.Stdout != "daemonset.apps/fluentd \nREVISION  CHANGE-CAUSE\n2         <none>\n3         <none>\n\n" {
		t.Errorf("history after undo: %q", res.Stdout)
	}
	for _, tc := range []struct{ line, out, err string }{
		{"rollout undo ds/fluentd --to-revision=1", "", "error: unable to find specified revision 1 in history\n"},
		{"rollout undo ds/fluentd --to-revision=-1", "", "error: unable to find specified revision -1 in history\n"},
		{"rollout undo ds/fluentd --to-revision=3", "daemonset.apps/fluentd skipped rollback (current template already matches revision 3)\n", ""},
		{"rollout undo ds/fluentd --to-revision=x", "", "error: invalid argument \"x\" for \"--to-revision\" flag\n"},
	} {
		if res := run(t, s, tc.line); res.Stdout != tc.out || res.Stderr != tc.err {
			t.Errorf("%s: %+v", tc.line, res)
		}
	}
	if out := run(t, s, "get pods -l app=fluentd -o jsonpath={.items[*].metadata.labels}").Stdout; strings.Count(out, `"controller-revision-hash":"556bc49cd","pod-template-generation":"3"`) != 2 {
		t.Errorf("pods after the rollback: %s", out)
	}
}

// rollout restart stamps the template; pause and resume do not apply to
// DaemonSets, and they have no scale subresource.
func TestDaemonSetOtherRolloutCommands(t *testing.T) {
	s := dsSession(t)
	for _, tc := range []struct{ line, out, err string }{
		{"rollout pause ds/fluentd", "", "error: daemonsets.apps \"fluentd\" pausing is not supported\n"},
		{"rollout resume daemonset fluentd", "", "error: daemonsets.apps \"fluentd\" resuming is not supported\n"},
		{"scale ds fluentd --replicas=3", "", "Error from server (NotFound): the server could not find the requested resource\n"},
		{"scale ds nope --replicas=3", "", "Error from server (NotFound): daemonsets.apps \"nope\" not found\n"},
		{"rollout restart ds/fluentd", "daemonset.apps/fluentd restarted\n", ""},
		{"rollout restart ds/fluentd", "", "error: failed to create patch for fluentd: if restart has already been triggered within the past second, please wait before attempting to trigger another\n"},
		{"rollout restart rs/nope", "", "Error from server (NotFound): replicasets.apps \"nope\" not found\n"},
		{"label ds fluentd tier=logging", "daemonset.apps/fluentd labeled\n", ""},
		{"annotate daemonset/fluentd owner=sre", "daemonset.apps/fluentd annotated\n", ""},
	} {
		if res := run(t, s, tc.line); res.Stdout != tc.out || res.Stderr != tc.err {
			t.Errorf("%s: %+v, want %q %q", tc.line, res, tc.out, tc.err)
		}
	}
	d := fluentd(t, s)
	if got := d.Spec.Template.Annotations["kubectl.kubernetes.io/restartedAt"]; got != api.At(s.Cluster.Now()).String() || d.Labels["tier"] != "logging" || d.Annotations["owner"] != "sre" {
		t.Errorf("restartedAt %q, labels %v, annotations %v", got, d.Labels, d.Annotations)
	}
	if res := run(t, s, "rollout status ds/fluentd"); !strings.HasSuffix(res.Stdout, "daemon set \"fluentd\" successfully rolled out\n") || !strings.Contains(res.Stdout, "0 out of 2 new pods have been updated") {
		t.Errorf("the restart rolls the pods: %+v", res)
	}
}

// delete ds removes the DaemonSet; the garbage collector its pods and
// ControllerRevisions.
func TestDeleteDaemonSet(t *testing.T) {
	s := dsSession(t)
	if res := run(t, s, "delete ds fluentd"); res.Stdout != "daemonset.apps \"fluentd\" deleted from default namespace\n" || res.Code != 0 {
		t.Fatalf("%+v", res)
	}
	if res := run(t, s, "get ds"); res.Stdout != "NAME            DESIRED   CURRENT   READY   UP-TO-DATE   AVAILABLE   NODE SELECTOR                                     AGE\nnode-exporter   3         3         3       3            3           kubernetes.io/arch=amd64,kubernetes.io/os=linux   13s\n" {
		t.Errorf("%+v", res)
	}
	s.Cluster.RunUntil(s.Cluster.Now() + 60_000)
	for _, line := range []string{"get pods -l app=fluentd", "get controllerrevisions -l app=fluentd"} {
		if res := run(t, s, line); res.Stdout != "" || res.Stderr != "No resources found in default namespace.\n" {
			t.Errorf("%s after the delete: %+v", line, res)
		}
	}
	if res := run(t, s, "delete controllerrevision node-exporter-dc8dd6b9"); res.Stdout != "controllerrevision.apps \"node-exporter-dc8dd6b9\" deleted from default namespace\n" {
		t.Errorf("%+v", res)
	}
}

// daemonsetsTranscript is testdata/daemonsets.golden's commands: the
// settled scenario, a set image rollout stopped at its stages (lines
// starting with "#" advance the simulation), history, undo and delete.
var daemonsetsTranscript = []string{
	"get ds",
	"get ds -o wide",
	"get daemonsets.apps -A --show-labels",
	"get ds fluentd -o yaml",
	"get ds node-exporter -o json",
	"get controllerrevisions -o wide",
	"get controllerrevision -l app=fluentd -o yaml",
	"get all",
	"get ds,controllerrevisions",
	"describe ds",
	"describe controllerrevisions -l app=fluentd",
	"rollout status ds/fluentd",
	"rollout history ds/fluentd",
	"rollout history ds/fluentd --revision=1",
	"rollout undo ds/fluentd",
	"rollout status ds/node-exporter",
	"rollout pause ds/fluentd",
	"scale ds/fluentd --replicas=1",
	"set image ds/fluentd fluentd=example/fluentd:v2",
	"rollout status ds/fluentd --watch=false",
	"# the first old pod is deleted",
	"get ds fluentd",
	"get pods -l app=fluentd -o wide",
	"rollout status ds/fluentd --watch=false",
	"# its replacement is created, not yet available",
	"get ds fluentd -o wide",
	"get pods -l app=fluentd --show-labels",
	"describe ds fluentd",
	"get controllerrevisions",
	"rollout status ds/fluentd",
	"get ds fluentd",
	"rollout history ds/fluentd",
	"rollout history ds/fluentd --revision=2",
	"rollout undo ds/fluentd --to-revision=2",
	"rollout undo ds/fluentd",
	"rollout status ds/fluentd",
	"get controllerrevisions -l app=fluentd",
	"rollout history ds/fluentd",
	"rollout undo ds/fluentd --to-revision=1",
	"get pods -l app=fluentd --show-labels",
	"delete ds fluentd",
	"# a minute later",
	"get pods,controllerrevisions -l app=fluentd",
}

func TestDaemonSetsGolden(t *testing.T) {
	s := dsSession(t)
	stages := map[string]func(*api.DaemonSet) bool{
		"# the first old pod is deleted":                  firstPodDeleted,
		"# its replacement is created, not yet available": replacementPending,
	}
	var b strings.Builder
	for _, line := range daemonsetsTranscript {
		if note, ok := strings.CutPrefix(line, "# "); ok {
			if cond := stages[line]; cond != nil {
				advanceUntil(t, s, note, cond)
			} else {
				s.Cluster.RunUntil(s.Cluster.Now() + 60_000)
			}
			b.WriteString("# " + note + ": now " + trace.FormatTime(s.Cluster.Now()) + "\n\n")
			continue
		}
		res := run(t, s, line)
		b.WriteString("$ kubectl " + line + "\n" + res.Output())
		if res.Code != 0 {
			b.WriteString("[exit " + string(rune('0'+res.Code)) + "]\n")
		}
		b.WriteString("\n")
	}
	golden(t, "testdata/daemonsets.golden", b.String())
}

// golden compares got with the file at path, or rewrites the file with
// -update.
func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./kubectl -run %s -update to create it)", err, t.Name())
	}
	if got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Fatalf("%s differs at line %d (if the change is intended, run go test ./kubectl -run %s -update):\n got %q\nwant %q", path, i+1, t.Name(), gl[i], wl[i])
			}
		}
		t.Fatalf("%s differs in length: %d lines, want %d", path, len(gl), len(wl))
	}
}

// A DaemonSet for control-plane nodes, selected as many add-ons' manifests
// do (a label whose value is empty), runs on no worker: a missing label
// is not the value "" (labels.SelectorFromSet). A pod with the same
// selector is unschedulable, as kube-scheduler says it. Before, both
// matched every node.
func TestEmptyValuedNodeSelectorMatchesOnlyLabelledNodes(t *testing.T) {
	src := `apiVersion: apps/v1
kind: DaemonSet
metadata: {name: cp-agent, namespace: default}
spec:
  selector: {matchLabels: {app: cp-agent}}
  template:
    metadata: {labels: {app: cp-agent}}
    spec:
      nodeSelector: {node-role.kubernetes.io/master: ""}
      containers: [{name: agent, image: agent:v1}]
---
apiVersion: v1
kind: Pod
metadata: {name: cp-only, namespace: default}
spec:
  nodeSelector: {node-role.kubernetes.io/master: ""}
  containers: [{name: app, image: app:v1}]
---
apiVersion: stateflow/v1alpha1
kind: Scenario
metadata: {name: empty-valued-selector}
spec:
  nodes: {count: 3}
`
	e, sc := testkit.Load(t, []byte(src))
	e.RunUntil(60_000) // the pod never settles: the scheduler retries it
	s := &kubectl.Session{Cluster: e, Namespace: sc.Namespace}
	if got := run(t, s, "get ds cp-agent"); !strings.Contains(got.Stdout, "cp-agent   0         0         0       0            0           node-role.kubernetes.io/master=") {
		t.Errorf("get ds:\n%s%s", got.Stdout, got.Stderr)
	}
	got := run(t, s, "describe pod cp-only")
	if !strings.Contains(got.Stdout, "0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector.") {
		t.Errorf("describe pod:\n%s", got.Stdout)
	}
}

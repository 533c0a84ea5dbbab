package claim

import (
	"strings"
	"testing"
)

// Each form of the vocabulary reads, and prints back as it reads (in one
// spelling: a comma after the time, quotes only where a value needs
// them).
func TestParse(t *testing.T) {
	for _, c := range []struct {
		text   string
		atStep bool
		want   string
		timing Timing
	}{
		{"at 60s, deploy/web {.status.updatedReplicas} = 4", false, "at 1m, deploy/web {.status.updatedReplicas} = 4", AtTime},
		{"at 90s deploy/web {.spec.replicas} >= 3", false, "at 1m30s, deploy/web {.spec.replicas} >= 3", AtTime},
		{"at 1h1m1.5s, count pods = 0", false, "", AtTime},
		{"at 2.5s, count pods = 2", false, "", AtTime},
		{"at 250ms, count pods = 0", false, "", AtTime},
		{"at tick 43, rs/web-1 {.spec.replicas} = 3", false, "", AtTick},
		{"at the end, count rs -l app=web = 2", false, "", AtEnd},
		{"always, count non-terminating pods -l app=web <= 5", false, "", Always},
		{"always from 20s, deploy/web {.status.availableReplicas} >= 3", false, "", Always},
		{"always from 20s to 1m, deploy/web {.status.availableReplicas} >= 3", false, "", Always},
		{"never to 6m30s, cj/r {.status.lastSuccessfulTime} != \"\"", false, "", Never},
		{"never, deploy/api condition Available = True", false, "", Never},
		{"at some tick, kubectl prints \"node/node-1 drained\"", false, "", Sometime},
		{"at some tick from 1m, horizontal-pod-autoscaler writes deploy/web", false, "", Sometime},
		{"at some tick, deployment-controller fails \"the object has been modified\"", false, "", Sometime},
		{"never, failed requests to svc/web-prestop > 0", false, "", Never},
		{"in the same tick, count rs -l app=web = 2 and rs/web-1 {.spec.replicas} = 3", false, "", SameTick},
		{"in the same write, job/pi condition FailureTarget = True and job/pi condition Failed = True", false, "", SameWrite},
		{"count pods -l app=web,tier!=db --field-selector status.phase=Running -n demo = 3", true, "", AtStep},
		{"pods -A {.items[*].metadata.name} contains web", true, "", AtStep},
		{`pods -l app=web {.items[?(@.metadata.name=="a b")].status.phase} = Running`, true, "", AtStep},
		{"deploy/web {range .items[*]}{.x}{end} = ''", true, `deploy/web {range .items[*]}{.x}{end} = ""`, AtStep},
		{"deploy/web {.status.replicas} = 'and'", true, `deploy/web {.status.replicas} = "and"`, AtStep},
		{"pods -l app=web {.items[*].spec.nodeName} !contains node-1", true, "", AtStep},
		{"pods -l \"app in (web, api)\" {.items[*].spec.nodeName} = x", true, `pods -l "app in (web, api)" {.items[*].spec.nodeName} = x`, AtStep},
		{"rs/web-* {.status.readyReplicas} = 0,2", true, "", AtStep},
		{`hpa/web {.status.currentMetrics[0].resource.current.averageUtilization} = 40 and deploy/web {.spec.replicas} = 2`, true, "", AtStep},
	} {
		cl, err := Parse(c.text, c.atStep)
		if err != nil {
			t.Errorf("%q: %v", c.text, err)
			continue
		}
		want := c.want
		if want == "" {
			want = c.text
		}
		if got := cl.String(); got != want {
			t.Errorf("%q prints as\n %q, want\n %q", c.text, got, want)
		}
		if cl.When.Timing != c.timing {
			t.Errorf("%q: timing %v, want %v", c.text, cl.When.Timing, c.timing)
		}
		again, err := Parse(cl.String(), c.atStep)
		if err != nil || again.String() != cl.String() {
			t.Errorf("%q does not read back: %v %v", cl.String(), again, err)
		}
	}
}

// A claim that does not read says where and why, in the author's words.
func TestParseErrors(t *testing.T) {
	for _, c := range []struct {
		text   string
		atStep bool
		want   string
	}{
		{"deploy/web {.spec.replicas} = 3", false, "column 1: begin with when it holds"},
		{"sometimes, deploy/web {.spec.replicas} = 3", false, "column 1: begin with when it holds"},
		{"at soon, count pods = 1", false, `column 4: at needs a time: "soon" is not a duration`},
		{"at tick x, count pods = 1", false, "column 9: at tick needs a tick number"},
		{"at 10s from 5s, count pods = 1", false, "column 8: only always, never, at some tick and in the same tick or write take from and to"},
		{"always from 20s to 10s, count pods = 1", false, "column 17: the window ends (to 10s) before it begins (from 20s)"},
		{"always, deploy/web {.spec.replicas} 3", false, "column 37: expected an operator"},
		{"always, deploy/web {.spec.replicas}=3", false, "column 38: expected an operator (=, !=, <, <=, >, >=, contains or !contains, with spaces around it) after deploy/web {.spec.replicas}=3"},
		{"always, deploy/web {.spec.replicas} =", false, "column 38: a value is missing"},
		{"always, deploy/web {.spec.replicas} = and", false, `column 39: "and" is a word of the claim language`},
		{"always, deploy/web = 3", false, "column 20: say what to read of deploy/web"},
		{"always, count deploy/web {.spec} = 3", false, "column 26: count reads how many objects there are"},
		{"always, pods -l app=web condition Ready = True", false, "column 25: condition reads one object's"},
		{"always, deploy/ {.spec} = 3", false, `column 9: "deploy/" names no object`},
		{"always, 3pods = 1", false, `column 9: "3pods" is not a resource type`},
		{"always, pods -o wide {.x} = 1", false, "column 14: -o is not a selection flag"},
		{"always, deploy/web -l app=web {.x} = 1", false, "column 20: deploy/web names its object; -l selects a list"},
		{"always, pods -l {.x} = 1", false, "column 17: -l needs a value"},
		{"always, deploy/web {.spec.replicas = 3", false, "column 20: the JSONPath template that starts here has no closing }"},
		{"always, deploy/web .spec} = 3", false, "column 20: say what to read of deploy/web"},
		{"always, deploy/web {.spec}} = 3", false, "column 27: this } closes no {"},
		{"always, deploy/web {.spec[} = 3", false, "column 20: the JSONPath {.spec[} does not read"},
		{`always, deploy/web {.x} = "open`, false, "column 27: the value quoted here has no closing \""},
		{`always, deploy/web {.x} = "a"b`, false, `column 30: put a space after the quoted value "a"`},
		{"always, deploy/web {.x} = 1 or count pods = 2", false, "column 29: expected and (another fact) or the end of the claim"},
		{"always,", false, "column 8: a fact is missing"},
		{"never, kubectl writes web", false, "column 23: writes needs an object: TYPE/NAME"},
		{"never, kubectl writes widget/x", false, `column 23: unknown resource type "widget"`},
		{"never, kubectl prints \"\"", false, "column 8: prints needs the text"},
		{"never, failed requests to deploy/web > 0", false, "column 27: requests to needs a Service: svc/NAME"},
		{"never, failed requests to svc/web > many", false, "column 37: failed requests to svc/web counts requests: compare it with a number"},
		{"in the same tick, count pods = 1", false, "column 19: in the same tick needs two facts or more"},
		{"in the same write, job/a condition X = True and job/b condition X = True", false, "column 49: in the same write reads one object: job/b is not job/a"},
		{"in the same write, count pods = 1 and count rs = 1", false, "column 20: in the same write reads one object's fields"},
		{strings.Repeat("x", MaxLen+1), true, "column 2000: a claim is at most 2000 characters"},
	} {
		_, err := Parse(c.text, c.atStep)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q:\n got %v\nwant %s…", c.text, err, c.want)
		}
	}
}

// Package claim checks what Stateflow's examples and lessons say against
// their simulation. A claim is one sentence in a small vocabulary that
// reads the cluster through kubectl get (JSONPath, counts, conditions)
// and the trace (which component wrote what), at a time or over a
// window of ticks:
//
//	at 60s, deploy/web {.status.updatedReplicas} = 4
//	always from 20s, count non-terminating pods -l app=web <= 5
//	never, deploy/api condition Available = True
//	at some tick, kubectl prints "node/node-1 drained"
//	in the same write, job/pi condition FailureTarget = True and job/pi condition Failed = True
//
// The grammar (docs/scenarios.md, "Claims", says it for authors, with
// every form):
//
//	claim   = [when [","]] fact {"and" fact}
//	when    = "at" TIME | "at tick" N | "at the end"
//	        | ("always" | "never" | "at some tick" | "in the same tick" | "in the same write") ["from" TIME] ["to" TIME]
//	fact    = subject OP value | COMPONENT "writes" TYPE/NAME | COMPONENT ("prints" | "fails") value
//	        | ("sent" | "served" | "failed") "requests to" svc/NAME OP NUMBER
//	subject = "count" ["non-terminating"] objects | objects JSONPATH | TYPE/NAME "condition" TYPE
//	objects = TYPE/NAME | TYPE {-l SEL | --field-selector SEL | -n NS | -A}
//	OP      = "=" | "!=" | "<" | "<=" | ">" | ">=" | "contains" | "!contains"
//	value   = WORD | "quoted" | 'quoted'
//
// A claim is read at the world after a tick: "at 30s" is the last tick at
// or before 30 s; a window reads every tick whose time lies within it and
// the world as it opens (after the last tick before its start); a claim
// with no time (only a lesson step's may omit it) is read at the step's
// tick. A file states claims in the "# expect:" lines of its opening
// (or closing) comment and in its Lesson document (spec.claims, and each
// step's claims). Read finds and parses them with
// errors naming file:line:column; File.Check runs the scenario (until it
// settles, at most MaxTicks ticks and an hour of virtual time, or as far
// as the claims name) and returns the claims it contradicts, each with
// its place and what the simulation read instead.
//
// Subjects are read by the kubectl package against a second run of the
// engine stepped to each tick the claims read; the first run gives the
// ticks' times and effects. Trace facts read the first run's ticks.
package claim

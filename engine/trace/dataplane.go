package trace

// This file is the data plane's part of a tick: the rules a kube-proxy
// programs on its node, and the synthetic traffic a scenario sends to a
// Service. Neither is a write to the API server, so neither is an
// Effect: they are node-local state, one hop past the EndpointSlices.

import "github.com/stateflow/stateflow/engine/api"

// RuleChange is a Service port whose rules a kube-proxy reprogrammed on
// its node in one sync: the endpoints ("ip:port") added and removed,
// sorted, and how many the rules hold now. A node's rules at any tick are
// its changes so far applied in order.
type RuleChange struct {
	Service api.Key // the Service
	Port    string  // the Service port's name ("" for an unnamed port)
	// Address is the virtual IP and port the rules now catch
	// ("10.96.1.2:80"), "" when Gone.
	Address string
	Added   []string
	Removed []string
	// Endpoints is how many endpoints the port's rules hold after it.
	Endpoints int
	// Pods names the pod behind each added or removed endpoint ("ip:port"
	// → "namespace/name"), so a learner reads names, not addresses.
	Pods map[string]string
	// Gone says the Service port left the node's rules altogether (the
	// Service was deleted, or lost the port), not merely its endpoints.
	Gone bool
}

// The outcomes of a request.
const (
	Served        = "served"
	NoRules       = "no-rules"        // the sending node's kube-proxy has no rules for the Service (yet)
	NoEndpoints   = "no-endpoints"    // its rules list no endpoint: the request is rejected
	PodGone       = "pod-gone"        // the endpoint's pod no longer runs there
	NotRunning    = "not-running"     // the pod's container is not running (starting, crashed)
	Terminating   = "terminating"     // the app got SIGTERM and no longer accepts connections
	HeadlessNoVIP = "headless"        // a headless Service has no virtual IP to send to
	NoSuchService = "no-such-service" // not a Service port the rules could match
	NoService     = "no-service"      // no Service of that name exists
	OtherProxy    = "other-proxy"     // the Service is handed to another proxy (service-proxy-name)
)

// Traffic is one interval of the synthetic requests a scenario sends to
// a Service: how many went out in [From, To) and what became of them.
type Traffic struct {
	Service api.Key
	Port    string
	From    int64 // virtual milliseconds, inclusive
	To      int64 // exclusive
	Sent    int
	Served  int
	Failed  int
	// Routes groups the requests by sending node, endpoint, the version
	// of the node's rules that routed them and their outcome, in the
	// order first seen.
	Routes []Route
}

// Route is a group of requests of one interval that a node sent to one
// endpoint with one version of its rules, all with one outcome.
type Route struct {
	Node     string // the sending node
	Endpoint string // "ip:port", "" when the rules gave none
	Pod      string // "namespace/name" of the endpoint's pod, when known
	// RulesTick is the tick at which the node's kube-proxy last changed
	// its rules before these requests (0: never).
	RulesTick int
	Outcome   string
	Count     int
	First     int64 // time of the first and last request of the group
	Last      int64
}

// FailedBy counts the failed requests of the interval by outcome.
func (t *Traffic) FailedBy() map[string]int {
	out := map[string]int{}
	for _, r := range t.Routes {
		if r.Outcome != Served {
			out[r.Outcome] += r.Count
		}
	}
	return out
}

package reconcile

import "github.com/stateflow/stateflow/engine/api"

// Gone ends a sync whose object has left the component's cache (deleted,
// or never seen): there is nothing to do but say so, as upstream's syncs
// return early on a NotFound from their lister. then, if not empty, says
// what the component therefore skips.
func Gone(tick Tick, key api.Key, then string) (Result, error) {
	if then == "" {
		tick.Explain("%s is gone", key.Short())
	} else {
		tick.Explain("%s is gone; %s", key.Short(), then)
	}
	return Result{}, nil
}

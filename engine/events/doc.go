// Package events records Events, the flat side channel of the control
// plane, with the correlation client-go's EventRecorder applies
// (tools/record/events_cache.go): repeats of the same event bump count and
// lastTimestamp, the 10th distinct message with one reason on one object
// within 10 minutes folds into a "(combined from similar events)" event,
// and a token bucket per source and object drops floods. It writes
// records (api.EventRecord) that share the involved object's reference
// and the source between an object's Events.
package events

package job

import (
	"fmt"

	"github.com/stateflow/stateflow/engine/reconcile"
)

// explain says what the sync found and did, for learners.
func (c *Controller) explain(tick reconcile.Tick, ctx *syncJobCtx) {
	job := ctx.job
	want := "until one succeeds"
	if job.Spec.Completions != nil {
		want = fmt.Sprintf("of %d", *job.Spec.Completions)
	}
	subject := fmt.Sprintf("job/%s: %d active, %d succeeded %s, %d failed (backoffLimit %d)", job.Name, job.Status.Active, ctx.succeeded, want, ctx.failed, *job.Spec.BackoffLimit)
	if fc := ctx.finishedCondition; fc != nil && job.Finished() {
		ctx.notes.Note("%s: %s", fc.Type, fc.Reason)
	}
	otherwise := "waits for its pods to finish"
	if job.Status.Active == 0 {
		otherwise = "nothing to do"
	}
	ctx.notes.Explain(tick, subject, otherwise)
}

// Package job is the simulated Job controller (kubernetes/pkg/controller/job,
// Kubernetes 1.34): pods for a Job's completions, at most parallelism at
// a time, each carrying the batch.kubernetes.io/job-tracking finalizer
// until the controller has counted it; a failed pod's replacement waits
// 10 s × 2^(n−1) (capped at 10 minutes) after the n-th failure since the
// last success; Indexed Jobs give each pod a completion index (its
// annotation, label, hostname and JOB_COMPLETION_INDEX). The status
// counts active, ready, terminating, succeeded and failed pods through
// uncountedTerminatedPods, and a finished Job gets its interim condition
// (SuccessCriteriaMet, FailureTarget) first and its terminal one
// (Complete, Failed) once no pod is left to count or to terminate, with
// the same reason and message. backoffLimit, activeDeadlineSeconds,
// podFailurePolicy (FailJob, Ignore, Count) and suspend end or pause a
// Job as upstream's do.
//
// Not simulated: successPolicy, backoffLimitPerIndex and
// maxFailedIndexes (fields the API does not accept here), managedBy other
// than this controller.
//
// Files follow upstream's: controller.go (the event handlers),
// sync.go (syncJob, manageJob), tracking.go
// (trackJobStatusAndRemoveFinalizers, enactJobFinished),
// backoff_utils.go, indexed_job_utils.go, pod_failure_policy.go,
// expectations.go (the creation/deletion and finalizer expectations)
// and orphan.go (syncOrphanPod).
package job

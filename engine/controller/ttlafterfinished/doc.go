// Package ttlafterfinished is the simulated TTL-after-finished controller
// (kubernetes/pkg/controller/ttlafterfinished): a Job that has finished
// and sets ttlSecondsAfterFinished is deleted, with foreground
// propagation, that many seconds after its Complete or Failed condition.
// Before deleting, it reads the Job from the API server again, as
// upstream does, so a TTL changed in the meantime is honoured. It records
// no Event.
package ttlafterfinished

// Package deployment is the simulated deployment controller
// (kubernetes/pkg/controller/deployment). It translates a Deployment into
// ReplicaSets (never Pods) and aggregates its ReplicaSets' status into the
// Deployment's status and conditions. Files and function names follow
// upstream (sync.go, rolling.go, recreate.go, progress.go, util.go) so a
// reader can compare them side by side.
package deployment

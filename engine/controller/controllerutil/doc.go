// Package controllerutil is what several controllers share, as upstream's
// pkg/controller/controller_utils.go holds it: the pod-template hash the
// Deployment, DaemonSet and StatefulSet controllers name their
// ReplicaSets and ControllerRevisions by (ComputeHash).
package controllerutil

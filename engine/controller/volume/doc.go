// Package volume is a minimal persistent-volume binder, standing in for
// kube-controller-manager's persistentvolume-binder-controller and a
// dynamic provisioner of the default StorageClass: a Pending claim is
// bound, after the binder's watch latency, to a volume provisioned for
// it (spec.volumeName pvc-<claim uid>), with the capacity it asked for.
// PersistentVolume objects, storage classes, binding modes, access-mode
// matching and the provisioner's Events are not simulated: a pod only
// waits for its claims to be Bound, which is what a StatefulSet's
// ordered start shows.
package volume

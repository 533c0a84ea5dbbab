// Package pvcprotection is kube-controller-manager's
// pvc-protection-controller (pkg/controller/volume/pvcprotection): the
// API server gives every new PersistentVolumeClaim the
// kubernetes.io/pvc-protection finalizer (the StorageObjectInUseProtection
// admission plugin), so deleting a claim only marks it; this controller
// removes the finalizer, and with it the claim, once no scheduled pod
// mounts it.
package pvcprotection

// Package expectations is UIDTrackingControllerExpectations
// (pkg/controller/controller_utils.go): what a controller's last sync of
// an owner created and deleted and has not yet seen in its cache. A sync
// on a cache that has not caught up would create or delete twice, so
// controllers skip managing pods until their expectations are met or
// expire. The ReplicaSet and DaemonSet controllers share it.
package expectations

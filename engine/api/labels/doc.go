// Package labels is k8s.io/apimachinery/pkg/labels at v0.37.2 (labels.go
// and selector.go), copied so that the playground's WebAssembly does not
// link klog: upstream's selector logs three failed integer comparisons at
// klog V(10), and klog brings log/slog, flag, os/user and, through
// apimachinery's validation package, net. The copy drops those three log
// calls and validates keys and values with validate.go, a copy of
// apimachinery's content.IsLabelKey and IsLabelValue (the differential
// harness builds against apimachinery v0.34, which has no content
// package); nothing else differs.
//
// labels_test.go parses and matches random selectors with both this copy
// and apimachinery's package and requires the same selectors, strings,
// errors and matches, so an upgrade of apimachinery that changes the
// parser shows up there.
package labels

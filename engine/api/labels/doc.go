// Package labels is k8s.io/apimachinery/pkg/labels at v0.37.2 (labels.go
// and selector.go), copied so that the playground's WebAssembly does not
// link klog: upstream's selector logs three failed integer comparisons at
// klog V(10), and klog brings log/slog, flag, os/user and, through
// apimachinery's validation package, net. The copy drops those three log
// calls and validates keys and values with IsLabelKey and IsLabelValue
// (validate.go: apimachinery's content package, which v0.34, the
// differential harness's, does not have); nothing else differs. The API
// server validates objects' labels with the same two functions.
//
// labels_test.go parses and matches random selectors with both this copy
// and apimachinery's package and requires the same selectors, strings,
// errors and matches, so an upgrade of apimachinery that changes the
// parser shows up there.
package labels

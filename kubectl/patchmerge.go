package kubectl

// This file is the API server's strategic merge patch
// (k8s.io/apimachinery/pkg/util/strategicpatch, applied by
// pkg/endpoints/handlers/patch.go) and its JSON merge patch (RFC 7386, as
// gopkg.in/evanphx/json-patch.v4 MergePatch does it), on the generic form.

import (
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
)

// smp is what the patchStrategy and patchMergeKey struct tags of the
// Kubernetes API types say about one field: lists with merge are merged
// item by item (by key, for lists of objects), others are replaced; an
// object with replace is replaced whole (mergeMapHandler) where others
// are merged field by field; fields describes an object's fields, or a
// list's items. The schemas below are static data: literals only, so
// app.wasm builds no map of them at start.
type smp struct {
	merge   bool
	replace bool
	key     string
	fields  []smpField
}

// smpField is one field of an object's schema.
type smpField struct {
	name   string
	schema *smp
}

// child is the schema of field name; nil (no strategy) if none is known.
func (s *smp) child(name string) *smp {
	if s == nil {
		return nil
	}
	for _, f := range s.fields {
		if f.name == name {
			return f.schema
		}
	}
	return nil
}

// The merge lists of the API types the simulated cluster serves
// (k8s.io/api core/v1, apps/v1, batch/v1, autoscaling/v2, policy/v1 and
// metav1.ObjectMeta at v0.34). A list of conditions is merged by type.
var (
	smpConditions = &smp{merge: true, key: "type"}
	smpByName     = &smp{merge: true, key: "name"}
	smpMeta       = &smp{fields: []smpField{
		{"finalizers", &smp{merge: true}},
		{"ownerReferences", &smp{merge: true, key: "uid"}},
	}}
	smpContainerFields = []smpField{
		{"ports", &smp{merge: true, key: "containerPort"}},
		{"env", smpByName},
		{"volumeMounts", &smp{merge: true, key: "mountPath"}},
		{"volumeDevices", &smp{merge: true, key: "devicePath"}},
	}
	smpContainers = &smp{merge: true, key: "name", fields: smpContainerFields}
	smpPodSpec    = &smp{fields: []smpField{
		{"volumes", smpByName},
		{"initContainers", smpContainers},
		{"containers", smpContainers},
		{"ephemeralContainers", smpContainers},
		{"imagePullSecrets", smpByName},
		{"hostAliases", &smp{merge: true, key: "ip"}},
		{"topologySpreadConstraints", &smp{merge: true, key: "topologyKey"}},
		{"schedulingGates", smpByName},
		{"resourceClaims", smpByName},
	}}
	smpTemplate = &smp{fields: []smpField{{"metadata", smpMeta}, {"spec", smpPodSpec}}}
	// smpJobSpec is batch/v1 JobSpec: only its pod template has merge
	// lists.
	smpJobSpec     = &smp{fields: []smpField{{"template", smpTemplate}}}
	smpStatus      = &smp{fields: []smpField{{"conditions", smpConditions}}}
	smpMetaOnly    = &smp{fields: []smpField{{"metadata", smpMeta}}}
	smpMetaStatus  = &smp{fields: []smpField{{"metadata", smpMeta}, {"status", smpStatus}}}
	smpWorkload    = &smp{fields: []smpField{{"metadata", smpMeta}, {"spec", &smp{fields: []smpField{{"template", smpTemplate}}}}, {"status", smpStatus}}}
	smpKindSchemas = []smpField{
		{api.KindPod, &smp{fields: []smpField{{"metadata", smpMeta}, {"spec", smpPodSpec}, {"status", &smp{fields: []smpField{
			{"conditions", smpConditions}, {"hostIPs", &smp{merge: true, key: "ip"}}, {"podIPs", &smp{merge: true, key: "ip"}},
			{"resourceClaimStatuses", smpByName},
		}}}}}},
		{api.KindDeployment, smpWorkload},
		{api.KindReplicaSet, smpWorkload},
		{api.KindReplicationController, smpWorkload},
		{api.KindDaemonSet, smpWorkload},
		{api.KindStatefulSet, smpWorkload},
		{api.KindService, &smp{fields: []smpField{{"metadata", smpMeta}, {"spec", &smp{fields: []smpField{{"ports", &smp{merge: true, key: "port"}}}}},
			{"status", smpStatus}}}},
		{api.KindNode, &smp{fields: []smpField{{"metadata", smpMeta}, {"spec", &smp{fields: []smpField{{"podCIDRs", &smp{merge: true}}}}},
			{"status", &smp{fields: []smpField{{"conditions", smpConditions}, {"addresses", &smp{merge: true, key: "type"}}}}}}}},
		{api.KindNamespace, smpMetaStatus},
		{api.KindPersistentVolumeClaim, smpMetaStatus},
		{api.KindControllerRevision, smpMetaOnly},
		{api.KindJob, &smp{fields: []smpField{{"metadata", smpMeta}, {"spec", smpJobSpec}, {"status", smpStatus}}}},
		{api.KindCronJob, &smp{fields: []smpField{{"metadata", smpMeta}, {"spec", &smp{fields: []smpField{
			{"jobTemplate", &smp{fields: []smpField{{"metadata", smpMeta}, {"spec", smpJobSpec}}}},
		}}}}}},
		// autoscaling/v2: spec.metrics and the behavior's policies are
		// atomic lists, replaced whole.
		{api.KindHorizontalPodAutoscaler, smpMetaStatus},
		// policy/v1: spec.selector is patchStrategy=replace, a new
		// selector replacing the old one whole; status.conditions are
		// metav1.Conditions merged by type (listType=map, listMapKey=type).
		{api.KindPodDisruptionBudget, &smp{fields: []smpField{{"metadata", smpMeta}, {"spec", &smp{fields: []smpField{{"selector", &smp{replace: true}}}}},
			{"status", smpStatus}}}},
	}
)

// schemaFor is the strategic merge schema of kind; every kind has
// metadata.
func schemaFor(kind string) *smp {
	for _, k := range smpKindSchemas {
		if k.name == kind {
			return k.schema
		}
	}
	return smpMetaOnly
}

// The directives of a strategic merge patch.
const (
	directiveMarker       = "$patch"
	retainKeysDirective   = "$retainKeys"
	deleteFromPrimitive   = "$deleteFromPrimitiveList"
	setElementOrderPrefix = "$setElementOrder"
)

// How the API server answers a patch it cannot apply.
func badRequest(msg string) error { return serverErr("BadRequest", msg) }

// unprocessable is a 422 without details, which kubectl prints so.
func unprocessable() error { return &cmdError{msg: "The request is invalid", code: 1} }

// internalError is an error the handler does not classify: a 500 with no
// reason.
func internalError(format string, args ...any) error {
	return &cmdError{msg: "Error from server: " + fmt.Sprintf(format, args...), code: 1}
}

var (
	errPrimitiveListFormat = func() error { return badRequest("invalid patch format of primitive list") }
	errRetainKeysFormat    = func() error { return badRequest("invalid patch format of retainKeys") }
	errSetOrderFormat      = func() error { return badRequest("invalid patch format of setElementOrder list") }
)

func errNoMergeKey(m map[string]any, key string) error {
	return internalError("map: %v does not contain declared merge key: %s", m, key)
}

func errBadArgType(expected string, actual any) error {
	return internalError("expected a %s, but received a %s", expected, reflect.TypeOf(actual))
}

// eq compares two generic scalars as Go's == does on interfaces, without
// panicking on maps and lists (never equal).
func eq(a, b any) bool {
	switch a.(type) {
	case map[string]any, []any:
		return false
	}
	switch b.(type) {
	case map[string]any, []any:
		return false
	}
	return a == b
}

// strategicMerge applies a strategic merge patch to the original object.
func strategicMerge(original, patch map[string]any, s *smp) (map[string]any, error) {
	return smpMergeMap(original, patch, s)
}

func smpMergeMap(original, patch map[string]any, s *smp) (map[string]any, error) {
	if d, ok := patch[directiveMarker]; ok {
		switch d {
		case "replace":
			delete(patch, directiveMarker)
			return patch, nil
		case "delete":
			return map[string]any{}, nil
		}
		return nil, internalError("unknown patch type: %s in map: %v", d, patch)
	}
	if original == nil {
		original = map[string]any{}
	}
	if err := applyRetainKeys(original, patch); err != nil {
		return nil, err
	}
	if err := applySetElementOrder(original, patch, s); err != nil {
		return nil, err
	}
	for _, k := range sortedKeys(patch) {
		pv := patch[k]
		deleteList := false
		if strings.HasPrefix(k, deleteFromPrimitive) {
			key, err := directiveKey(k, deleteFromPrimitive)
			if err != nil {
				return nil, err
			}
			k, deleteList = key, true
		}
		if pv == nil {
			delete(original, k)
			continue
		}
		ov, ok := original[k]
		if !ok || reflect.TypeOf(ov) != reflect.TypeOf(pv) {
			if !deleteList {
				discardNulls(pv)
				if v, keep := removeDirectives(pv); keep {
					original[k] = v
				} else {
					delete(original, k)
				}
			}
			continue
		}
		var err error
		switch o := ov.(type) {
		case map[string]any:
			if c := s.child(k); c != nil && c.replace {
				// mergeMapHandler takes the patch's object as it is, its
				// nulls and directives included.
				original[k] = pv
				continue
			}
			original[k], err = smpMergeMap(o, pv.(map[string]any), s.child(k))
		case []any:
			original[k], err = smpMergeSliceHandler(o, pv.([]any), s.child(k), deleteList)
		default:
			if v, keep := removeDirectives(pv); keep {
				original[k] = v
			} else {
				delete(original, k)
			}
		}
		if err != nil {
			return nil, err
		}
	}
	return original, nil
}

// directiveKey is the field a "$directive/field" key names.
func directiveKey(k, prefix string) (string, error) {
	parts := strings.SplitN(k, "/", 2)
	if len(parts) <= 1 || parts[0] != prefix {
		if prefix == deleteFromPrimitive {
			return "", errPrimitiveListFormat()
		}
		return "", errSetOrderFormat()
	}
	return parts[1], nil
}

// discardNulls drops the null fields of objects (not the null items of
// lists) in a patch value that is added whole, as both strategic merge
// and json-patch's merge do.
func discardNulls(v any) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if e == nil {
				delete(x, k)
			} else {
				discardNulls(e)
			}
		}
	case []any:
		for _, e := range x {
			discardNulls(e)
		}
	}
}

// removeDirectives drops the objects holding a $patch directive from a
// value added whole, and reports whether the value itself stays.
func removeDirectives(v any) (any, bool) {
	switch x := v.(type) {
	case map[string]any:
		if _, ok := x[directiveMarker]; ok {
			return nil, false
		}
		for k, e := range x {
			if ne, keep := removeDirectives(e); keep {
				x[k] = ne
			} else {
				delete(x, k)
			}
		}
		return x, true
	case []any:
		if x == nil {
			return x, true
		}
		out := []any{}
		for _, e := range x {
			if ne, keep := removeDirectives(e); keep {
				out = append(out, ne)
			}
		}
		return out, true
	}
	return v, true
}

// applyRetainKeys is the $retainKeys directive: the original keeps only
// the listed fields.
func applyRetainKeys(original, patch map[string]any) error {
	rk, ok := patch[retainKeysDirective]
	if !ok {
		return nil
	}
	delete(patch, retainKeysDirective)
	list, ok := rk.([]any)
	if !ok {
		return errRetainKeysFormat()
	}
	keep := map[string]bool{}
	for _, v := range list {
		if s, ok := v.(string); ok {
			keep[s] = true
		}
	}
	for k, v := range patch {
		if v == nil || strings.HasPrefix(k, deleteFromPrimitive) || strings.HasPrefix(k, setElementOrderPrefix) {
			continue
		}
		if !keep[k] {
			return errRetainKeysFormat()
		}
	}
	for k := range original {
		if !keep[k] {
			delete(original, k)
		}
	}
	return nil
}

// applySetElementOrder is the $setElementOrder/field directive: the list
// is merged and then ordered as the directive lists its items.
func applySetElementOrder(original, patch map[string]any, s *smp) error {
	for _, key := range sortedKeys(patch) {
		if !strings.HasPrefix(key, setElementOrderPrefix) {
			continue
		}
		orderV := patch[key]
		delete(patch, key)
		order, ok := orderV.([]any)
		if !ok {
			return errBadArgType("[]interface {}", orderV)
		}
		field, err := directiveKey(key, setElementOrderPrefix)
		if err != nil {
			return err
		}
		origV, foundOrig := original[field]
		patchV, foundPatch := patch[field]
		var origList, patchList []any
		if foundOrig {
			if origList, ok = origV.([]any); !ok {
				return errBadArgType("[]interface {}", origV)
			}
		}
		if foundPatch {
			if patchList, ok = patchV.([]any); !ok {
				return errBadArgType("[]interface {}", patchV)
			}
		}
		sub := s.child(field)
		mergeKey := ""
		if sub != nil {
			mergeKey = sub.key
		}
		if err := validateSetOrder(patchList, order, mergeKey); err != nil {
			return err
		}
		var merged []any
		switch {
		case foundOrig && !foundPatch:
			merged = origList
		case !foundOrig && foundPatch:
			v, _ := removeDirectives(patchList)
			merged = v.([]any)
		case foundOrig && foundPatch:
			if merged, err = smpMergeSliceHandler(origList, patchList, sub, false); err != nil {
				return err
			}
		default:
			continue
		}
		var inPatch, serverOnly []any
		if mergeKey == "" {
			inPatch, serverOnly = partitionPrimitives(merged, order)
		} else if inPatch, serverOnly, err = partitionMaps(merged, order, mergeKey); err != nil {
			return err
		}
		kind, err := elementKind(origList, patchList)
		if err != nil {
			return err
		}
		both, err := normalizeElementOrder(inPatch, serverOnly, order, origList, mergeKey, kind)
		if err != nil {
			return err
		}
		original[field] = both
		delete(patch, field)
	}
	return nil
}

// validateSetOrder checks that the patch list's items come in the
// directive's order.
func validateSetOrder(patchList, order []any, mergeKey string) error {
	if len(order) == 0 || len(patchList) == 0 {
		return nil
	}
	items := patchList
	if mergeKey != "" {
		var err error
		if items, _, err = splitDeleted(patchList); err != nil {
			return err
		}
	}
	pi, oi := 0, 0
	for pi < len(items) && oi < len(order) {
		if m, ok := items[pi].(map[string]any); ok {
			if _, ok := m[directiveMarker]; ok {
				pi++
				continue
			}
		}
		same, err := mergeKeyValueEqual(items[pi], order[oi], mergeKey)
		if err != nil {
			return err
		}
		if same {
			pi++
		}
		oi++
	}
	if pi < len(items) && oi >= len(order) {
		return internalError("The order in patch list:\n%v\n doesn't match %s list:\n%v\n", patchList, setElementOrderPrefix, order)
	}
	return nil
}

func mergeKeyValueEqual(a, b any, mergeKey string) (bool, error) {
	if mergeKey == "" {
		return eq(a, b), nil
	}
	am, ok := a.(map[string]any)
	if !ok {
		return false, errBadArgType("map[string]interface {}", a)
	}
	bm, ok := b.(map[string]any)
	if !ok {
		return false, errBadArgType("map[string]interface {}", b)
	}
	av, ok := am[mergeKey]
	if !ok {
		return false, errNoMergeKey(am, mergeKey)
	}
	bv, ok := bm[mergeKey]
	if !ok {
		return false, errNoMergeKey(bm, mergeKey)
	}
	return eq(av, bv), nil
}

func smpMergeSliceHandler(original, patch []any, s *smp, deleteList bool) ([]any, error) {
	if (s != nil && s.merge) || deleteList {
		key := ""
		if s != nil {
			key = s.key
		}
		return smpMergeSlice(original, patch, s, key, deleteList)
	}
	return patch, nil
}

// elementKind is the kind of the lists' items, which must all have one
// type that is not a list.
func elementKind(lists ...[]any) (reflect.Kind, error) {
	var prev reflect.Type
	seen := false
	for _, l := range lists {
		for _, v := range l {
			t := reflect.TypeOf(v)
			if !seen {
				seen, prev = true, t
				if t != nil && t.Kind() == reflect.Slice {
					return 0, unprocessable() // lists of lists are not supported
				}
				if t != nil {
					continue
				}
			}
			if t == nil || prev != t {
				return 0, internalError("list element types are not identical: %v", fmt.Sprint(lists))
			}
		}
	}
	if !seen {
		return 0, internalError("no elements in any of the given slices")
	}
	return prev.Kind(), nil
}

func smpMergeSlice(original, patch []any, s *smp, mergeKey string, deleteList bool) ([]any, error) {
	if len(original) == 0 && len(patch) == 0 {
		return original, nil
	}
	kind, err := elementKind(original, patch)
	if err != nil {
		return nil, err
	}
	var merged []any
	if kind != reflect.Map {
		if deleteList {
			return deleteFromSlice(original, patch), nil
		}
		merged = dedupScalars(append(append([]any{}, original...), patch...))
	} else {
		if mergeKey == "" {
			return nil, internalError("cannot merge lists without merge key for %s", "")
		}
		if original, patch, err = mergeSpecialElements(original, patch, mergeKey); err != nil {
			return nil, err
		}
		if merged, err = mergeByKey(original, patch, mergeKey, s); err != nil {
			return nil, err
		}
	}
	var inPatch, serverOnly []any
	if mergeKey == "" {
		inPatch, serverOnly = partitionPrimitives(merged, patch)
	} else if inPatch, serverOnly, err = partitionMaps(merged, patch, mergeKey); err != nil {
		return nil, err
	}
	return normalizeElementOrder(inPatch, serverOnly, patch, original, mergeKey, kind)
}

// mergeSpecialElements applies the $patch: delete and $patch: replace
// items of a list patch.
func mergeSpecialElements(original, patch []any, mergeKey string) ([]any, []any, error) {
	plain := []any{}
	replace := false
	for _, v := range patch {
		m := v.(map[string]any)
		d, ok := m[directiveMarker]
		if !ok {
			plain = append(plain, v)
			continue
		}
		switch d {
		case "delete":
			mv, ok := m[mergeKey]
			if !ok {
				return nil, nil, errNoMergeKey(m, mergeKey)
			}
			var err error
			if original, err = deleteMatching(original, mergeKey, mv); err != nil {
				return nil, nil, err
			}
		case "replace":
			replace = true
		case "merge":
			return nil, nil, internalError("merging lists cannot yet be specified in the patch")
		default:
			return nil, nil, internalError("unknown patch type: %s in map: %v", d, m)
		}
	}
	if replace {
		return plain, nil, nil
	}
	return original, plain, nil
}

func deleteMatching(original []any, mergeKey string, value any) ([]any, error) {
	for {
		_, i, found, err := findByKey(original, mergeKey, value)
		if err != nil {
			return nil, err
		}
		if !found {
			return original, nil
		}
		original = append(original[:i], original[i+1:]...)
	}
}

func findByKey(list []any, mergeKey string, value any) (map[string]any, int, bool, error) {
	for i, v := range list {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, 0, false, internalError("value for key %v is not a map", i)
		}
		if mv, ok := m[mergeKey]; ok && eq(mv, value) {
			return m, i, true, nil
		}
	}
	return nil, 0, false, nil
}

// mergeByKey merges each patch item into the original item with the same
// merge key, or appends it.
func mergeByKey(original, patch []any, mergeKey string, s *smp) ([]any, error) {
	for _, v := range patch {
		m := v.(map[string]any)
		mv, ok := m[mergeKey]
		if !ok {
			return nil, errNoMergeKey(m, mergeKey)
		}
		om, i, found, err := findByKey(original, mergeKey, mv)
		if err != nil {
			return nil, err
		}
		if !found {
			original = append(original, v)
			continue
		}
		if original[i], err = smpMergeMap(om, m, s); err != nil {
			return nil, err
		}
	}
	return original, nil
}

func deleteFromSlice(current, toDelete []any) []any {
	out := make([]any, 0, len(current))
	for _, v := range current {
		found := false
		for _, d := range toDelete {
			if eq(v, d) {
				found = true
				break
			}
		}
		if !found {
			out = append(out, v)
		}
	}
	return out
}

// dedupScalars removes repeated scalars as strategicpatch does (moving
// the last item into each duplicate's place; the order is normalized
// afterwards).
func dedupScalars(s []any) []any {
	n := len(s) - 1
	for i := 0; i < n; i++ {
		for j := i + 1; j <= n; j++ {
			if eq(s[i], s[j]) {
				s[j] = s[n]
				s = s[:n]
				n--
				j--
			}
		}
	}
	return s
}

func partitionPrimitives(list, by []any) (in, out []any) {
	in, out = make([]any, 0, len(list)), make([]any, 0, len(list))
	for _, v := range list {
		found := false
		for _, b := range by {
			if eq(v, b) {
				found = true
				break
			}
		}
		if found {
			in = append(in, v)
		} else {
			out = append(out, v)
		}
	}
	return in, out
}

func partitionMaps(list, by []any, mergeKey string) (in, out []any, err error) {
	in, out = make([]any, 0, len(list)), make([]any, 0, len(list))
	for _, v := range list {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, nil, errBadArgType("map[string]interface {}", v)
		}
		mv, ok := m[mergeKey]
		if !ok {
			return nil, nil, errNoMergeKey(m, mergeKey)
		}
		_, _, found, err := findByKey(by, mergeKey, mv)
		if err != nil {
			return nil, nil, err
		}
		if found {
			in = append(in, v)
		} else {
			out = append(out, v)
		}
	}
	return in, out, nil
}

// normalizeElementOrder orders the patch's items as the patch lists them
// and the server-only items as the original does, then interleaves them,
// keeping both relative orders.
func normalizeElementOrder(inPatch, serverOnly, patchOrder, serverOrder []any, mergeKey string, kind reflect.Kind) ([]any, error) {
	inPatch, err := normalizeSliceOrder(inPatch, patchOrder, mergeKey, kind)
	if err != nil {
		return nil, err
	}
	serverOnly, err = normalizeSliceOrder(serverOnly, serverOrder, mergeKey, kind)
	if err != nil {
		return nil, err
	}
	return mergeSorted(serverOnly, inPatch, serverOrder, mergeKey, kind), nil
}

func mergeSorted(left, right, serverOrder []any, mergeKey string, kind reflect.Kind) []any {
	pos := positionsOf(serverOrder, mergeKey, kind)
	less := func(l, r any) (bool, bool) {
		li, ri := pos.of(l), pos.of(r)
		if li >= 0 && ri >= 0 {
			return li < ri, true
		}
		return false, false
	}
	out := make([]any, len(left)+len(right))
	i, j := 0, 0
	for k := range out {
		switch {
		case i >= len(left) && j < len(right):
			out[k] = right[j]
			j++
		case j >= len(right) && i < len(left):
			out[k] = left[i]
			i++
		default:
			if l, both := less(left[i], right[j]); both && l {
				out[k] = left[i]
				i++
			} else {
				out[k] = right[j]
				j++
			}
		}
	}
	return out
}

// positions finds where an item (by its merge key, for objects) first
// appears in a list, as strategicpatch's index does by scanning it.
type positions struct {
	first    map[any]int
	mergeKey string
	kind     reflect.Kind
}

func positionsOf(list []any, mergeKey string, kind reflect.Kind) positions {
	p := positions{first: make(map[any]int, len(list)), mergeKey: mergeKey, kind: kind}
	for i := len(list) - 1; i >= 0; i-- {
		if v, ok := p.value(list[i]); ok {
			p.first[v] = i
		}
	}
	return p
}

// value is what an item is compared by, and whether it can be equal to
// anything (objects and lists never are).
func (p positions) value(x any) (any, bool) {
	if p.kind == reflect.Map {
		m, ok := x.(map[string]any)
		if !ok {
			return nil, true
		}
		x = m[p.mergeKey]
	}
	switch x.(type) {
	case map[string]any, []any:
		return nil, false
	}
	return x, true
}

func (p positions) of(x any) int {
	v, ok := p.value(x)
	if !ok {
		return -1
	}
	if i, ok := p.first[v]; ok {
		return i
	}
	return -1
}

// splitDeleted separates the $patch: delete items of a list.
func splitDeleted(list []any) (keep, deleted []any, err error) {
	for _, v := range list {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, nil, errBadArgType("map[string]interface {}", v)
		}
		if d, ok := m[directiveMarker]; ok && d == "delete" {
			deleted = append(deleted, v)
		} else {
			keep = append(keep, v)
		}
	}
	return keep, deleted, nil
}

func normalizeSliceOrder(toSort, order []any, mergeKey string, kind reflect.Kind) ([]any, error) {
	var deleted []any
	if kind == reflect.Map {
		for _, l := range [][]any{toSort, order} {
			for _, v := range l {
				m, ok := v.(map[string]any)
				if !ok {
					return nil, errBadArgType("map[string]interface {}", v)
				}
				if _, ok := m[mergeKey]; !ok {
					return nil, errNoMergeKey(m, mergeKey)
				}
			}
		}
		var err error
		if toSort, deleted, err = splitDeleted(toSort); err != nil {
			return nil, err
		}
	}
	pos := positionsOf(order, mergeKey, kind)
	sort.SliceStable(toSort, func(i, j int) bool {
		if ii := pos.of(toSort[i]); ii >= 0 {
			if ij := pos.of(toSort[j]); ij >= 0 {
				return ii < ij
			}
		}
		return true
	})
	return append(toSort, deleted...), nil
}

// jsonMergePatch applies an RFC 7386 merge patch to doc.
func jsonMergePatch(doc, patch map[string]any) map[string]any {
	for _, k := range sortedKeys(patch) {
		v := patch[k]
		if v == nil {
			delete(doc, k)
			continue
		}
		cur, ok := doc[k]
		if !ok || cur == nil {
			discardNulls(v)
			doc[k] = v
			continue
		}
		cm, ok := cur.(map[string]any)
		if !ok {
			discardNulls(v)
			doc[k] = v
			continue
		}
		pm, ok := v.(map[string]any)
		if !ok {
			doc[k] = v
			continue
		}
		doc[k] = jsonMergePatch(cm, pm)
	}
	return doc
}

package kubectl

// This file is kubectl patch (pkg/cmd/patch) and what the API server does
// with the patch (pkg/endpoints/handlers/patch.go): kubectl turns a YAML
// patch into JSON and sends it; the server applies it to the object's JSON
// (a strategic merge patch by default, or a JSON merge patch, or a JSON
// patch), decodes the result into a new object and updates the object with
// it, which keeps the status (patch without --subresource does not reach
// it) and validates the rest.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
	"gopkg.in/yaml.v3"
)

// patchTypes are the values of --type, as kubectl lists them.
var patchTypes = []string{"json", "merge", "strategic"}

func buildPatch(s *Session, args []string) (*Mutation, error) {
	p, err := parseFlags("patch", args, []flagSpec{{"patch", "p", true}, {"patch-file", "", true}, {"type", "", true}})
	if err != nil {
		return nil, err
	}
	text := p.str("patch")
	switch {
	case text != "" && p.str("patch-file") != "":
		return nil, errorf("cannot specify --patch and --patch-file together")
	case p.str("patch-file") != "":
		return nil, errorf("the simulated cluster has no files to read: pass the patch itself with -p")
	case text == "":
		return nil, errorf("must specify --patch or --patch-file containing the contents of the patch")
	}
	typ := strings.ToLower(p.str("type"))
	if typ == "" {
		typ = "strategic"
	}
	if !contains(patchTypes, typ) {
		return nil, errorf("--type must be one of [%s], not %q", strings.Join(patchTypes, " "), p.str("type"))
	}
	body, err := clientPatch(text)
	if err != nil {
		return nil, err
	}
	k, r, rest, err := target("patch", p.args, s.namespace(p))
	if err != nil {
		return nil, err
	}
	if len(rest) > 0 {
		return nil, usageErr("patch", "the simulated kubectl patches one object at a time, got the extra arguments %q", strings.Join(rest, " "))
	}
	req, check := patchRequest(typ, body)
	return &Mutation{Object: k, check: check, run: func(tick reconcile.Tick) (string, error) {
		o, err := live(tick, k)
		if err != nil {
			return "", err
		}
		if check != nil {
			return "", check
		}
		next, warnings, err := patchObject(o, typ, req.copy())
		for _, w := range warnings {
			s.warn(w)
		}
		if err != nil {
			return "", err
		}
		name := r.qualified() + "/" + k.Name
		if next == nil {
			return name + " patched (no change)\n", nil
		}
		out, err := tick.Update(trace.Translate, next, fmt.Sprintf("kubectl patch: %s (%s)", k.Short(), patchTypeName[typ]))
		if err != nil {
			return "", apiErr(err)
		}
		if out.Meta().ResourceVersion == o.Meta().ResourceVersion {
			return name + " patched (no change)\n", nil
		}
		return name + " patched\n", nil
	}}, nil
}

var patchTypeName = map[string]string{"json": "JSON patch", "merge": "JSON merge patch", "strategic": "strategic merge patch"}

// hasJSONPrefix is yaml.ToJSON's test: JSON is what starts with "{".
func hasJSONPrefix(s string) bool {
	return strings.HasPrefix(strings.TrimLeftFunc(s, unicode.IsSpace), "{")
}

// clientPatch is the patch kubectl sends for -p text, as the API server
// reads it: kubectl sends text that starts with "{" as it is (which the
// server may fail to parse: a syntaxError) and converts anything else from
// YAML (yaml.ToJSON), failing itself if it cannot.
func clientPatch(text string) (any, error) {
	if hasJSONPrefix(text) {
		v, err := decodeJSON([]byte(text))
		if err != nil {
			return syntaxError{err}, nil
		}
		return v, nil
	}
	v, err := yamlToGeneric(text)
	if err != nil {
		return nil, errorf("unable to parse %q: %v", text, err)
	}
	return v, nil
}

// syntaxError is a patch the API server cannot parse as JSON.
type syntaxError struct{ err error }

// request is a patch as the API server decodes it: an object for the
// merge patches, operations for a JSON patch.
type request struct {
	object map[string]any
	ops    []map[string]any
}

func (r request) copy() request {
	c := request{}
	if r.object != nil {
		c.object = deepCopyGeneric(r.object).(map[string]any)
	}
	for _, op := range r.ops {
		if op == nil {
			c.ops = append(c.ops, nil)
			continue
		}
		c.ops = append(c.ops, deepCopyGeneric(op).(map[string]any))
	}
	return c
}

// patchRequest decodes the patch as the API server does before it reads
// the object, with the errors it answers whatever the object is.
func patchRequest(typ string, body any) (request, error) {
	se, bad := body.(syntaxError)
	switch typ {
	case "strategic":
		if bad {
			return request{}, badRequest(se.err.Error())
		}
		if body == nil {
			return request{object: map[string]any{}}, nil
		}
		m, ok := body.(map[string]any)
		if !ok {
			return request{}, badRequest(fmt.Sprintf("json: cannot unmarshal %s into Go value of type map[string]interface {}", jsonKind(body)))
		}
		return request{object: m}, nil
	case "merge":
		if bad {
			return request{}, badRequest("error decoding patch: " + se.err.Error())
		}
		if body == nil {
			return request{}, badRequest("Invalid JSON Patch")
		}
		m, ok := body.(map[string]any)
		if !ok {
			return request{}, badRequest(fmt.Sprintf("error decoding patch: json: cannot unmarshal %s into Go value of type map[string]interface {}", jsonKind(body)))
		}
		return request{object: m}, nil
	}
	if bad {
		return request{}, badRequest("error decoding patch: " + se.err.Error())
	}
	ops, err := jsonPatchOps(body)
	return request{ops: ops}, err
}

// patchObject applies a patch to a copy of live and returns the object to
// update it with, or nil if the patch changes nothing, and the API
// server's warnings about unknown fields.
func patchObject(live api.Object, typ string, req request) (api.Object, []string, error) {
	orig, err := toGeneric(live)
	if err != nil {
		return nil, nil, err
	}
	base := reflect.New(reflect.TypeOf(live).Elem())
	if err := (&decoder{}).decode(deepCopyGeneric(orig), base.Elem()); err != nil {
		return nil, nil, err
	}
	var patched any
	switch typ {
	case "strategic":
		if patched, err = strategicMerge(orig, req.object, schemaFor(live.GetKind())); err != nil {
			return nil, nil, err
		}
	case "merge":
		patched = jsonMergePatch(orig, req.object)
	default:
		if patched, err = applyJSONPatch(orig, req.ops); err != nil {
			return nil, nil, unprocessable()
		}
	}
	next := reflect.New(reflect.TypeOf(live).Elem())
	d := &decoder{jsonErrors: typ != "strategic"}
	if err := decodeRoot(d, patched, next.Elem()); err != nil {
		shown := fmt.Sprintf("%+v", req.object)
		if typ != "strategic" {
			b, _ := json.Marshal(patched)
			shown = string(b)
		}
		return nil, nil, &cmdError{msg: fmt.Sprintf("The request is invalid: patch: Invalid value: %q: %v", shown, err), code: 1}
	}
	warnings := dedup(d.unknown)
	obj, was := next.Interface().(api.Object), base.Interface().(api.Object)
	if err := checkPatchedMeta(obj.Meta(), live); err != nil {
		return nil, warnings, err
	}
	for _, o := range []api.Object{obj, was} {
		keepServerFields(o, live)
	}
	if reflect.DeepEqual(obj, was) {
		return nil, warnings, nil
	}
	return obj, warnings, nil
}

// decodeRoot decodes the patched object; a JSON or merge patch that did not
// leave an object fails as the API server's codec does.
func decodeRoot(d *decoder, v any, dv reflect.Value) error {
	if _, ok := v.(map[string]any); !ok && d.jsonErrors {
		return fmt.Errorf("couldn't get version/kind; json parse error: json: cannot unmarshal %s into Go value of type struct { APIVersion string \"json:\\\"apiVersion,omitempty\\\"\"; Kind string \"json:\\\"kind,omitempty\\\"\" }", jsonKind(v))
	}
	return d.decode(v, dv)
}

func dedup(s []string) []string {
	sort.Strings(s)
	var out []string
	for i, w := range s {
		if i == 0 || w != s[i-1] {
			out = append(out, w)
		}
	}
	return out
}

// checkPatchedMeta is what the API server checks of the patched object's
// identity: the namespace and name of the request, and an unchanged uid.
func checkPatchedMeta(m *api.ObjectMeta, live api.Object) error {
	lm := live.Meta()
	switch {
	case !api.Namespaced(live.GetKind()):
		m.Namespace = ""
	case m.Namespace == "":
		m.Namespace = lm.Namespace
	case m.Namespace != lm.Namespace:
		return badRequest("the namespace of the provided object does not match the namespace sent on the request")
	}
	if m.Name != lm.Name {
		return badRequest(fmt.Sprintf("the name of the object (%s) does not match the name on the URL (%s)", m.Name, lm.Name))
	}
	if m.UID != "" && m.UID != lm.UID {
		return apiErr(&apiserver.InvalidError{Kind: live.GetKind(), Name: lm.Name, Fields: []apiserver.FieldError{{
			Path: "metadata.uid", Detail: fmt.Sprintf("Invalid value: %q: field is immutable", m.UID)}}})
	}
	if m.UID == "" {
		m.UID = lm.UID
	}
	if m.ResourceVersion == "" {
		m.ResourceVersion = lm.ResourceVersion // no precondition
	}
	return nil
}

// keepServerFields puts back what a patch of the main resource cannot
// change: the type and the status.
func keepServerFields(o, live api.Object) {
	dst, src := reflect.ValueOf(o).Elem(), reflect.ValueOf(live).Elem()
	for _, f := range []string{"TypeMeta", "Status"} {
		if d := dst.FieldByName(f); d.IsValid() {
			d.Set(src.FieldByName(f))
		}
	}
}

// yamlToGeneric is kubectl's yaml.ToJSON (sigs.k8s.io/yaml, YAML 1.1 as
// go-yaml v2 reads it) into the generic form.
func yamlToGeneric(text string) (any, error) {
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(text), &n); err != nil {
		return nil, err
	}
	budget := 100_000
	return yamlValue(&n, &budget)
}

func yamlValue(n *yaml.Node, budget *int) (any, error) {
	if *budget--; *budget < 0 {
		return nil, fmt.Errorf("yaml: document contains excessive aliasing")
	}
	switch n.Kind {
	case 0:
		return nil, nil
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return yamlValue(n.Content[0], budget)
	case yaml.AliasNode:
		return yamlValue(n.Alias, budget)
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := yamlValue(c, budget)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case yaml.MappingNode:
		out := map[string]any{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			kn, vn := n.Content[i], n.Content[i+1]
			v, err := yamlValue(vn, budget)
			if err != nil {
				return nil, err
			}
			if kn.Kind == yaml.ScalarNode && kn.ShortTag() == "!!merge" {
				mergeYAMLKeys(out, v)
				continue
			}
			key, err := yamlKey(kn)
			if err != nil {
				return nil, err
			}
			out[key] = v
		}
		return out, nil
	}
	return yamlScalar(n)
}

// mergeYAMLKeys is the "<<" merge key: the merged mappings' keys the
// mapping does not have.
func mergeYAMLKeys(out map[string]any, v any) {
	list, ok := v.([]any)
	if !ok {
		list = []any{v}
	}
	for _, e := range list {
		if m, ok := e.(map[string]any); ok {
			for k, x := range m {
				if _, has := out[k]; !has {
					out[k] = deepCopyGeneric(x)
				}
			}
		}
	}
}

func yamlKey(n *yaml.Node) (string, error) {
	if n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	if n.Kind != yaml.ScalarNode {
		return "", fmt.Errorf("yaml: invalid map key: a %s", map[yaml.Kind]string{yaml.MappingNode: "mapping", yaml.SequenceNode: "sequence"}[n.Kind])
	}
	v, err := yamlScalar(n)
	if err != nil {
		return "", err
	}
	switch x := v.(type) {
	case string:
		return x, nil
	case bool:
		return strconv.FormatBool(x), nil
	case int64:
		return strconv.FormatInt(x, 10), nil
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 32), nil
	}
	return "", fmt.Errorf("unsupported map key of type: %T, key: %+#v", v, v)
}

// yaml11Bools are the plain scalars go-yaml v2 reads as booleans.
var yaml11Bools = map[string]bool{"y": true, "Y": true, "yes": true, "Yes": true, "YES": true, "on": true, "On": true, "ON": true,
	"n": false, "N": false, "no": false, "No": false, "NO": false, "off": false, "Off": false, "OFF": false}

func yamlScalar(n *yaml.Node) (any, error) {
	switch n.ShortTag() {
	case "!!null":
		return nil, nil
	case "!!bool":
		var b bool
		if err := n.Decode(&b); err != nil {
			return nil, err
		}
		return b, nil
	case "!!int":
		var i int64
		if err := n.Decode(&i); err == nil {
			return i, nil
		}
		var f float64
		if err := n.Decode(&f); err != nil {
			return n.Value, nil
		}
		return jsonFloat(f)
	case "!!float":
		var f float64
		if err := n.Decode(&f); err != nil {
			return nil, err
		}
		return jsonFloat(f)
	case "!!str":
		if b, ok := yaml11Bools[n.Value]; ok && n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) == 0 {
			return b, nil
		}
	}
	return n.Value, nil
}

// jsonFloat is a YAML float as its JSON text reads back: integral values
// are integers.
func jsonFloat(f float64) (any, error) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return nil, fmt.Errorf("json: unsupported value: %s", strconv.FormatFloat(f, 'g', -1, 64))
	}
	if f == math.Trunc(f) && math.Abs(f) < 1e21 {
		b, _ := json.Marshal(f)
		if i, err := strconv.ParseInt(string(bytes.TrimSpace(b)), 10, 64); err == nil {
			return i, nil
		}
	}
	return f, nil
}

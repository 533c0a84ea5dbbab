package kubectl

// This file is the API server's JSON patch (RFC 6902, as
// gopkg.in/evanphx/json-patch.v4 applies it), on the generic form. When an
// operation does not apply the API server answers 422 without saying why,
// so the errors here only need to exist.

import (
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

var errOp = errors.New("the operation does not apply")

// jsonPatchOps checks the operations as the API server decodes them
// (into []handlers.jsonPatchOp), with its message.
func jsonPatchOps(p any) ([]map[string]any, error) {
	if p == nil {
		return nil, nil
	}
	list, ok := p.([]any)
	if !ok {
		return nil, badRequest(fmt.Sprintf("error decoding patch: json: cannot unmarshal %s into Go value of type []handlers.jsonPatchOp", jsonKind(p)))
	}
	ops := make([]map[string]any, len(list))
	for i, e := range list {
		if e == nil {
			continue
		}
		m, ok := e.(map[string]any)
		if !ok {
			return nil, badRequest(fmt.Sprintf("error decoding patch: json: cannot unmarshal %s into Go value of type handlers.jsonPatchOp", jsonKind(e)))
		}
		for _, f := range []string{"op", "path", "from"} {
			if v, ok := m[f]; ok && v != nil {
				if _, ok := v.(string); !ok {
					return nil, badRequest(fmt.Sprintf("error decoding patch: json: cannot unmarshal %s into Go struct field jsonPatchOp.%s of type string", jsonKind(v), f))
				}
			}
		}
		ops[i] = m
	}
	return ops, nil
}

// applyJSONPatch applies the operations to doc in order.
func applyJSONPatch(doc any, ops []map[string]any) (any, error) {
	var err error
	for _, op := range ops {
		kind, _ := op["op"].(string)
		switch kind {
		case "add":
			doc, err = opAdd(doc, op)
		case "remove":
			doc, err = opRemove(doc, op)
		case "replace":
			doc, err = opReplace(doc, op)
		case "move":
			doc, err = opMove(doc, op)
		case "copy":
			doc, err = opCopy(doc, op)
		case "test":
			err = opTest(doc, op)
		default:
			err = fmt.Errorf("Unexpected kind: %s", kind)
		}
		if err != nil {
			return nil, err
		}
	}
	return doc, nil
}

func opPath(op map[string]any, name string) (string, error) {
	s, ok := op[name].(string)
	if !ok {
		return "", errOp
	}
	return s, nil
}

// value is the operation's value: null when it has none.
func jpValue(op map[string]any) any { return deepCopyGeneric(op["value"]) }

// decodeKey unescapes a JSON pointer segment.
func decodeKey(k string) string {
	return strings.ReplaceAll(strings.ReplaceAll(k, "~1", "/"), "~0", "~")
}

// at applies f to the container that holds the last segment of path, and
// returns doc with the container's new value in place. As json-patch
// does, it ignores what precedes the first "/".
func jpAt(doc any, path string, f func(c any, key string) (any, error)) (any, error) {
	parts := strings.Split(path, "/")
	if len(parts) < 2 {
		return nil, errOp
	}
	return jpWalk(doc, parts[1:], f)
}

func jpWalk(c any, parts []string, f func(c any, key string) (any, error)) (any, error) {
	key := decodeKey(parts[0])
	if len(parts) == 1 {
		return f(c, key)
	}
	var next any
	switch x := c.(type) {
	case map[string]any:
		next = x[key]
	case []any:
		i, err := arrayIndex(key, len(x))
		if err != nil {
			return nil, err
		}
		next = x[i]
	default:
		return nil, errOp
	}
	switch next.(type) {
	case map[string]any, []any:
	default:
		return nil, errOp
	}
	nv, err := jpWalk(next, parts[1:], f)
	if err != nil {
		return nil, err
	}
	switch x := c.(type) {
	case map[string]any:
		x[key] = nv
	case []any:
		i, _ := arrayIndex(key, len(x))
		x[i] = nv
	}
	return c, nil
}

// arrayIndex is an existing index; negative indexes count from the end.
func arrayIndex(key string, n int) (int, error) {
	i, err := strconv.Atoi(key)
	if err != nil {
		return 0, err
	}
	if i < 0 {
		if i < -n {
			return 0, errOp
		}
		i += n
	}
	if i >= n {
		return 0, errOp
	}
	return i, nil
}

func jpAdd(c any, key string, v any) (any, error) {
	switch x := c.(type) {
	case map[string]any:
		x[key] = v
		return x, nil
	case []any:
		if key == "-" {
			return append(x, v), nil
		}
		i, err := strconv.Atoi(key)
		if err != nil {
			return nil, err
		}
		n := len(x) + 1
		if i >= n {
			return nil, errOp
		}
		if i < 0 {
			if i < -n {
				return nil, errOp
			}
			i += n
		}
		out := make([]any, 0, n)
		out = append(out, x[:i]...)
		out = append(out, v)
		return append(out, x[i:]...), nil
	}
	return nil, errOp
}

func jpGet(c any, key string) (any, error) {
	switch x := c.(type) {
	case map[string]any:
		return x[key], nil
	case []any:
		i, err := arrayIndex(key, len(x))
		if err != nil {
			return nil, err
		}
		return x[i], nil
	}
	return nil, errOp
}

func jpRemove(c any, key string) (any, error) {
	switch x := c.(type) {
	case map[string]any:
		if _, ok := x[key]; !ok {
			return nil, errOp
		}
		delete(x, key)
		return x, nil
	case []any:
		i, err := arrayIndex(key, len(x))
		if err != nil {
			return nil, err
		}
		out := make([]any, 0, len(x)-1)
		out = append(out, x[:i]...)
		return append(out, x[i+1:]...), nil
	}
	return nil, errOp
}

func opAdd(doc any, op map[string]any) (any, error) {
	path, err := opPath(op, "path")
	if err != nil {
		return nil, err
	}
	v := jpValue(op)
	return jpAt(doc, path, func(c any, key string) (any, error) { return jpAdd(c, key, v) })
}

func opRemove(doc any, op map[string]any) (any, error) {
	path, err := opPath(op, "path")
	if err != nil {
		return nil, err
	}
	return jpAt(doc, path, jpRemove)
}

func opReplace(doc any, op map[string]any) (any, error) {
	path, err := opPath(op, "path")
	if err != nil {
		return nil, err
	}
	v := jpValue(op)
	if path == "" {
		switch v.(type) {
		case map[string]any, []any:
			return v, nil
		}
		return nil, errOp
	}
	return jpAt(doc, path, func(c any, key string) (any, error) {
		// json-patch v4 replaces a missing field of an object (its get
		// does not fail), and only an existing index of a list.
		if _, err := jpGet(c, key); err != nil {
			return nil, err
		}
		switch x := c.(type) {
		case map[string]any:
			x[key] = v
		case []any:
			i, _ := arrayIndex(key, len(x))
			x[i] = v
		}
		return c, nil
	})
}

func opMove(doc any, op map[string]any) (any, error) {
	from, err := opPath(op, "from")
	if err != nil {
		return nil, err
	}
	var v any
	doc, err = jpAt(doc, from, func(c any, key string) (any, error) {
		var err error
		if v, err = jpGet(c, key); err != nil {
			return nil, err
		}
		return jpRemove(c, key)
	})
	if err != nil {
		return nil, err
	}
	path, err := opPath(op, "path")
	if err != nil {
		return nil, err
	}
	return jpAt(doc, path, func(c any, key string) (any, error) { return jpAdd(c, key, v) })
}

func opCopy(doc any, op map[string]any) (any, error) {
	from, err := opPath(op, "from")
	if err != nil {
		return nil, err
	}
	var v any
	if _, err := jpAt(doc, from, func(c any, key string) (any, error) {
		var err error
		v, err = jpGet(c, key)
		return c, err
	}); err != nil {
		return nil, err
	}
	path, err := opPath(op, "path")
	if err != nil {
		return nil, err
	}
	v = deepCopyGeneric(v)
	return jpAt(doc, path, func(c any, key string) (any, error) { return jpAdd(c, key, v) })
}

func opTest(doc any, op map[string]any) error {
	path, err := opPath(op, "path")
	if err != nil {
		return err
	}
	want := op["value"]
	if path == "" {
		if !reflect.DeepEqual(doc, want) {
			return errOp
		}
		return nil
	}
	_, err = jpAt(doc, path, func(c any, key string) (any, error) {
		got, err := jpGet(c, key)
		if err != nil {
			return nil, err
		}
		if !reflect.DeepEqual(got, want) {
			return nil, errOp
		}
		return c, nil
	})
	return err
}

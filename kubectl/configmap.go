package kubectl

import (
	"encoding/base64"
	"reflect"
	"strconv"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
)

// configMapRow is printConfigMap: DATA counts data and binaryData.
func configMapRow(c *api.ConfigMap, name string, now int64) []string {
	return []string{name, strconv.Itoa(len(c.Data) + len(c.BinaryData)), age(c.CreationTimestamp, now)}
}

// secretRow is printSecret.
func secretRow(s *api.Secret, name string, now int64) []string {
	return []string{name, s.Type, strconv.Itoa(len(s.Data)), age(s.CreationTimestamp, now)}
}

// describeConfigMap is ConfigMapDescriber: each data value in full, each
// binary value by its size, keys sorted; the Events follow.
func describeConfigMap(w *prefixWriter, c *api.ConfigMap) {
	describeNamed(w, &c.ObjectMeta)
	var b strings.Builder
	b.WriteString("\nData\n====\n")
	for _, k := range api.SortedKeys(c.Data) {
		b.WriteString(k + ":\n----\n" + c.Data[k] + "\n\n")
	}
	b.WriteString("\nBinaryData\n====\n")
	for _, k := range api.SortedKeys(c.BinaryData) {
		b.WriteString(k + ": " + strconv.Itoa(decodedLen(c.BinaryData[k])) + " bytes\n")
	}
	w.line(0, "%s", b.String())
}

// describeSecret is describeSecret: the type, and each value by its size
// only, keys sorted. Upstream's Secret describer lists no Events.
func describeSecret(w *prefixWriter, s *api.Secret) {
	describeNamed(w, &s.ObjectMeta)
	w.line(0, "\nType:\t%s\n\nData\n====", s.Type)
	for _, k := range api.SortedKeys(s.Data) {
		w.line(0, "%s:\t%d bytes", k, decodedLen(s.Data[k]))
	}
}

// describeNamed is the lines a describer without a creation time starts
// with: the name, the namespace, the labels and annotations.
func describeNamed(w *prefixWriter, m *api.ObjectMeta) {
	w.line(0, "Name:\t%s", m.Name)
	w.line(0, "Namespace:\t%s", m.Namespace)
	mapLines(w, 0, "Labels", m.Labels, "=")
	annotationLines(w, m.Annotations)
}

// decodedLen is the size of the bytes a base64 value stands for (the API
// server stores them decoded).
func decodedLen(v string) int {
	b, err := base64.StdEncoding.DecodeString(v)
	if err != nil {
		return len(v)
	}
	return len(b)
}

// applyConfigMap is apply's merge of a ConfigMap's content.
func applyConfigMap(cur, applied api.Object) bool {
	c, a := cur.(*api.ConfigMap), applied.(*api.ConfigMap)
	changed := !reflect.DeepEqual(c.Data, a.Data) || !reflect.DeepEqual(c.BinaryData, a.BinaryData) || !reflect.DeepEqual(c.Immutable, a.Immutable)
	c.Data, c.BinaryData, c.Immutable = a.Data, a.BinaryData, a.Immutable
	return changed
}

// applySecret is apply's merge of a Secret's content: applied's
// stringData is already merged into its data (the API's defaults).
func applySecret(cur, applied api.Object) bool {
	c, a := cur.(*api.Secret), applied.(*api.Secret)
	changed := !reflect.DeepEqual(c.Data, a.Data) || c.Type != a.Type || !reflect.DeepEqual(c.Immutable, a.Immutable)
	c.Data, c.Type, c.Immutable = a.Data, a.Type, a.Immutable
	return changed
}

// createConfigMap is create configmap NAME --from-literal=KEY=VALUE…:
// the literals are its data (a browser has no files to read, so
// --from-file and --from-env-file are not offered).
func (s *Session) createConfigMap(args []string) (*createArgs, api.Object, error) {
	c, err := parseCreate("create configmap", args, []flagSpec{{"from-literal", "", true}, {"dry-run", "", true}, {"output", "o", true}})
	if err != nil {
		return nil, nil, err
	}
	data, err := literals(c.p, api.KindConfigMap, c.name)
	if err != nil {
		return nil, nil, err
	}
	cm := &api.ConfigMap{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: api.KindConfigMap},
		ObjectMeta: api.ObjectMeta{Name: c.name, Namespace: c.namespace()}, Data: data}
	return c, cm, nil
}

// createSecret is create secret generic NAME --from-literal=KEY=VALUE…
// [--type]: the literals base64-encoded are its data. The docker-registry
// and tls kinds need files, which a browser does not have.
func (s *Session) createSecret(args []string) (*createArgs, api.Object, error) {
	if len(args) == 0 || args[0] != "generic" {
		return nil, nil, errorf("%q is not supported by Stateflow's simulated cluster: use 'kubectl create secret generic NAME --from-literal=KEY=VALUE'", strings.TrimSpace("create secret "+strings.Join(args[:min(1, len(args))], "")))
	}
	c, err := parseCreate("create secret generic", args[1:], []flagSpec{{"from-literal", "", true}, {"type", "", true}, {"dry-run", "", true}, {"output", "o", true}})
	if err != nil {
		return nil, nil, err
	}
	data, err := literals(c.p, api.KindSecret, c.name)
	if err != nil {
		return nil, nil, err
	}
	for k, v := range data {
		data[k] = base64.StdEncoding.EncodeToString([]byte(v))
	}
	sec := &api.Secret{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: api.KindSecret},
		ObjectMeta: api.ObjectMeta{Name: c.name, Namespace: c.namespace()}, Data: data, Type: c.p.str("type")}
	return c, sec, nil
}

// literals are the --from-literal KEY=VALUE pairs (handleConfigMapFromLiteralSources,
// handleSecretFromLiteralSources), nil for none.
func literals(p *parsed, kind, name string) (map[string]string, error) {
	if !p.has("from-literal") {
		return nil, nil
	}
	data := map[string]string{}
	for _, lit := range strings.Split(p.str("from-literal"), arraySep) {
		k, v, ok := strings.Cut(lit, "=")
		if !ok {
			return nil, errorf("invalid literal source %s, expected key=value", lit)
		}
		if msgs := apiserver.ConfigKeyErrors(k); len(msgs) > 0 {
			if kind == api.KindSecret {
				return nil, errorf("%q is not valid key name for a Secret %s", k, strings.Join(msgs, ";"))
			}
			return nil, errorf("%q is not a valid key name for a ConfigMap: %s", k, strings.Join(msgs, ";"))
		}
		if _, dup := data[k]; dup && kind == api.KindSecret {
			return nil, errorf("cannot add key %s, another key by that name already exists", k)
		} else if dup {
			return nil, errorf("cannot add key %q, another key by that name already exists in Data for ConfigMap %q", k, name)
		}
		data[k] = v
	}
	return data, nil
}

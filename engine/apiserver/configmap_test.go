package apiserver

import (
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine/api"
)

// ConfigMaps and Secrets are stored, defaulted and validated as the API
// server does (ValidateConfigMap, ValidateSecret, SetDefaults_Secret and
// the v1 conversion's stringData merge).
func TestConfigMapsAndSecrets(t *testing.T) {
	s := newStore(t)
	meta := func(name string) api.ObjectMeta { return api.ObjectMeta{Name: name, Namespace: "default"} }

	stored, err := s.Create(&api.Secret{ObjectMeta: meta("db"), Data: map[string]string{"user": "YWRtaW4="}, StringData: map[string]string{"password": "s3cret"}})
	if err != nil {
		t.Fatal(err)
	}
	sec := stored.(*api.Secret)
	if sec.Type != api.SecretTypeOpaque || sec.StringData != nil || sec.Data["password"] != "czNjcmV0" || sec.Data["user"] != "YWRtaW4=" {
		t.Errorf("stored Secret: type %q, data %v, stringData %v; want Opaque, stringData merged into data as base64", sec.Type, sec.Data, sec.StringData)
	}

	for _, tc := range []struct {
		name string
		obj  api.Object
		want string
	}{
		{"bad key", &api.ConfigMap{ObjectMeta: meta("a"), Data: map[string]string{"bad key": "x"}},
			`ConfigMap "a" is invalid: data[bad key]: Invalid value: "bad key": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')`},
		{"dot-dot key", &api.ConfigMap{ObjectMeta: meta("b"), Data: map[string]string{"..x": "x"}},
			`data[..x]: Invalid value: "..x": must not start with '..'`},
		{"key in both maps", &api.ConfigMap{ObjectMeta: meta("c"), Data: map[string]string{"k": "x"}, BinaryData: map[string]string{"k": "eA=="}},
			`data[k]: Invalid value: "k": duplicate of key present in binaryData`},
		{"too large", &api.ConfigMap{ObjectMeta: meta("d"), Data: map[string]string{"k": strings.Repeat("x", 1<<20+1)}},
			`ConfigMap "d" is invalid: []: Too long: may not be more than 1048576 bytes`},
		{"stringData key", &api.Secret{ObjectMeta: meta("e"), StringData: map[string]string{"a/b": "x"}},
			`Secret "e" is invalid: data[a/b]: Invalid value: "a/b": a valid config key`},
		{"not base64", &api.Secret{ObjectMeta: meta("f"), Data: map[string]string{"k": "not base64!"}},
			`data[k]: Invalid value: "not base64!": illegal base64 data at input byte 3`},
	} {
		_, err := s.Create(tc.obj)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", tc.name, err, tc.want)
		}
	}

	immutable := true
	if _, err := s.Create(&api.ConfigMap{ObjectMeta: meta("frozen"), Immutable: &immutable, Data: map[string]string{"k": "v"}}); err != nil {
		t.Fatal(err)
	}
	cur, _ := s.Get(api.Key{Kind: api.KindConfigMap, Namespace: "default", Name: "frozen"})
	next := cur.DeepCopyObject().(*api.ConfigMap)
	next.Data["k"], next.Immutable = "w", nil
	_, err = s.Update(next)
	for _, want := range []string{"immutable: Forbidden: field is immutable when `immutable` is set", "data: Forbidden: field is immutable when `immutable` is set"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("update of an immutable ConfigMap: %v, want %q", err, want)
		}
	}
	cur, _ = s.Get(api.Key{Kind: api.KindSecret, Namespace: "default", Name: "db"})
	retyped := cur.DeepCopyObject().(*api.Secret)
	retyped.Type = "kubernetes.io/tls"
	if _, err := s.Update(retyped); err == nil || !strings.Contains(err.Error(), `type: Invalid value: "kubernetes.io/tls": field is immutable`) {
		t.Errorf("a Secret's new type: %v", err)
	}
}

// A pod's references to ConfigMaps and Secrets are checked as
// validateEnvVarValueFrom and validateEnvFrom check them.
func TestEnvSourcesValidation(t *testing.T) {
	s := newStore(t)
	for _, tc := range []struct {
		name string
		env  []api.EnvVar
		from []api.EnvFromSource
		want []string
	}{
		{"no name, bad key", []api.EnvVar{{Name: "A", ValueFrom: &api.EnvVarSource{ConfigMapKeyRef: &api.ConfigMapKeySelector{Key: "bad key"}}}}, nil,
			[]string{`spec.containers[0].env[0].valueFrom.configMapKeyRef.name: Invalid value: "": a lowercase RFC 1123 subdomain`,
				`spec.containers[0].env[0].valueFrom.configMapKeyRef.key: Invalid value: "bad key": a valid config key`}},
		{"two sources", []api.EnvVar{{Name: "A", ValueFrom: &api.EnvVarSource{FieldRef: &api.ObjectFieldSelector{FieldPath: "metadata.name"}, SecretKeyRef: &api.SecretKeySelector{Name: "s", Key: "k"}}}}, nil,
			[]string{`spec.containers[0].env[0].valueFrom: Invalid value: "": may not have more than one field specified at a time`}},
		{"value and source", []api.EnvVar{{Name: "A", Value: "x", ValueFrom: &api.EnvVarSource{SecretKeyRef: &api.SecretKeySelector{Name: "s", Key: "k"}}}}, nil,
			[]string{"valueFrom: Invalid value: \"\": may not be specified when `value` is not empty"}},
		{"envFrom without a name", nil, []api.EnvFromSource{{ConfigMapRef: &api.ConfigMapEnvSource{}}},
			[]string{"spec.containers[0].envFrom[0].configMapRef.name: Required value"}},
		{"envFrom with neither", nil, []api.EnvFromSource{{Prefix: "X_"}},
			[]string{"spec.containers[0].envFrom: Invalid value: \"\": must specify one of: `configMapRef` or `secretRef`"}},
		{"envFrom with both", nil, []api.EnvFromSource{{ConfigMapRef: &api.ConfigMapEnvSource{Name: "Bad"}, SecretRef: &api.SecretEnvSource{Name: "s"}}},
			[]string{`spec.containers[0].envFrom[0].configMapRef.name: Invalid value: "Bad": a lowercase RFC 1123 subdomain`,
				`spec.containers[0].envFrom: Invalid value: "": may not have more than one field specified at a time`}},
	} {
		pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default"},
			Spec: &api.PodSpec{Containers: []api.Container{{Name: "app", Image: "busybox", Env: tc.env, EnvFrom: tc.from}}}}
		_, err := s.Create(pod)
		for _, want := range tc.want {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s: %v, want %q", tc.name, err, want)
			}
		}
	}
}

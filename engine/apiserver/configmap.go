package apiserver

import (
	"encoding/base64"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/timezone"
)

// configMapStrategy is pkg/registry/core/configmap/strategy.go: no
// status, no generation; an immutable ConfigMap keeps its data.
var configMapStrategy = strategy{
	validate: func(e *errs, obj api.Object, _ timezone.Loader) { validateConfigMap(e, obj.(*api.ConfigMap)) },
	prepareForUpdate: func(_ *Store, obj, old api.Object) error {
		o, prev := obj.(*api.ConfigMap), old.(*api.ConfigMap)
		o.TypeMeta = prev.TypeMeta
		var e errs
		if isTrue(prev.Immutable) {
			immutableData(&e, o.Immutable, !maps.Equal(o.Data, prev.Data))
			if !maps.Equal(o.BinaryData, prev.BinaryData) {
				e.add("binaryData", immutableWhenSet)
			}
		}
		return e.asError(o)
	},
}

// secretStrategy is pkg/registry/core/secret/strategy.go: stringData is
// merged into data as the request is decoded (defaults), the type
// defaults to Opaque and never changes, and an immutable Secret keeps
// its data.
var secretStrategy = strategy{
	defaults: func(obj api.Object) { defaultSecret(obj.(*api.Secret)) },
	validate: func(e *errs, obj api.Object, _ timezone.Loader) { validateSecret(e, obj.(*api.Secret)) },
	prepareForCreate: func(obj api.Object, _ *admitted, _ *podSpecs) {
		o := obj.(*api.Secret)
		defaultSecret(o)
	},
	prepareForUpdate: func(_ *Store, obj, old api.Object) error {
		o, prev := obj.(*api.Secret), old.(*api.Secret)
		defaultSecret(o)
		o.TypeMeta = prev.TypeMeta
		var e errs
		if o.Type != prev.Type {
			e.invalid("type", o.Type, "field is immutable")
		}
		if isTrue(prev.Immutable) {
			immutableData(&e, o.Immutable, !maps.Equal(o.Data, prev.Data))
		}
		return e.asError(o)
	},
}

// immutableWhenSet is ValidateConfigMapUpdate's and ValidateSecretUpdate's
// detail for a change of an immutable object.
const immutableWhenSet = "Forbidden: field is immutable when `immutable` is set"

// immutableData adds the errors of an update of an object whose stored
// version is immutable: it cannot become mutable, nor its data change.
func immutableData(e *errs, cur *bool, dataChanged bool) {
	if !isTrue(cur) {
		e.add("immutable", immutableWhenSet)
	}
	if dataChanged {
		e.add("data", immutableWhenSet)
	}
}

func isTrue(b *bool) bool { return b != nil && *b }

// asError is the API server's 422 for obj, nil without errors.
func (e errs) asError(obj api.Object) error {
	if len(e) == 0 {
		return nil
	}
	return &InvalidError{Kind: obj.GetKind(), Name: obj.Meta().Name, Fields: e}
}

// defaultSecret is SetDefaults_Secret with the v1 conversion's merge:
// stringData's values overwrite data's, base64-encoded as the API serves
// them, and stringData is not kept.
func defaultSecret(s *api.Secret) {
	if s.Type == "" {
		s.Type = api.SecretTypeOpaque
	}
	if len(s.StringData) == 0 {
		s.StringData = nil
		return
	}
	if s.Data == nil {
		s.Data = map[string]string{}
	}
	for k, v := range s.StringData {
		s.Data[k] = base64.StdEncoding.EncodeToString([]byte(v))
	}
	s.StringData = nil
}

// maxSecretSize is core.MaxSecretSize, the bound on a ConfigMap's or a
// Secret's data.
const maxSecretSize = 1 << 20

// validateConfigMap is ValidateConfigMap: valid keys, none in both data
// and binaryData, at most 1 MiB in all.
func validateConfigMap(e *errs, c *api.ConfigMap) {
	size := 0
	for _, k := range slices.Sorted(maps.Keys(c.Data)) {
		validateConfigKey(e, "data", k)
		if _, dup := c.BinaryData[k]; dup {
			e.invalid("data["+k+"]", k, "duplicate of key present in binaryData")
		}
		size += len(c.Data[k])
	}
	for _, k := range slices.Sorted(maps.Keys(c.BinaryData)) {
		validateConfigKey(e, "binaryData", k)
		size += decodedSize(e, "binaryData", k, c.BinaryData[k])
	}
	if size > maxSecretSize {
		e.add("[]", "Too long: may not be more than %d bytes", maxSecretSize) // field.NewPath("")
	}
}

// validateSecret is ValidateSecret for the types a scenario writes: valid
// keys, at most 1 MiB of data.
func validateSecret(e *errs, s *api.Secret) {
	size := 0
	for _, k := range slices.Sorted(maps.Keys(s.Data)) {
		validateConfigKey(e, "data", k)
		size += decodedSize(e, "data", k, s.Data[k])
	}
	if size > maxSecretSize {
		e.add("data", "Too long: may not be more than %d bytes", maxSecretSize)
	}
}

// decodedSize is the size of a base64 value, which must decode (the API
// server's decoder refuses the request otherwise).
func decodedSize(e *errs, path, key, value string) int {
	b, err := base64.StdEncoding.DecodeString(value)
	if err != nil {
		e.invalid(fmt.Sprintf("%s[%s]", path, key), value, err.Error())
	}
	return len(b)
}

// configKey is apimachinery's configMapKeyFmt.
var configKey = regexp.MustCompile(`^[-._a-zA-Z0-9]+$`)

// configKeyMsg is IsConfigMapKey's RegexError, examples and all.
const configKeyMsg = "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')"

// validateConfigKey is IsConfigMapKey of a key of the map at path.
func validateConfigKey(e *errs, path, key string) {
	for _, msg := range ConfigKeyErrors(key) {
		e.invalid(path+"["+key+"]", key, msg)
	}
}

// envResources are the resources a resourceFieldRef may read
// (validContainerResourceFieldPathExpressions), sorted.
var envResources = [...]string{"limits.cpu", "limits.ephemeral-storage", "limits.memory", "requests.cpu", "requests.ephemeral-storage", "requests.memory"}

// validateResourceFieldRef is validateContainerResourceFieldSelector for
// an environment variable: a resource it knows (or a hugepages one).
func validateResourceFieldRef(e *errs, path string, r *api.ResourceFieldSelector) {
	switch {
	case r.Resource == "":
		e.required(path + ".resource")
	case slices.Contains(envResources[:], r.Resource),
		strings.HasPrefix(r.Resource, "requests.hugepages-"), strings.HasPrefix(r.Resource, "limits.hugepages-"):
	default:
		e.add(path+".resource", "Unsupported value: %q: supported values: \"%s\"", r.Resource, strings.Join(envResources[:], "\", \""))
		return
	}
	validateDivisor(e, path, r)
}

// byteDivisors are the divisors of a memory, ephemeral-storage or
// hugepages resource (validContainerResourceDivisorForMemory).
var byteDivisors = [...]string{"1", "1k", "1M", "1G", "1T", "1P", "1E", "1Ki", "1Mi", "1Gi", "1Ti", "1Pi", "1Ei"}

// validateDivisor is validateContainerResourceDivisor: 1m or 1 for cpu,
// a unit of bytes for the others.
func validateDivisor(e *errs, path string, r *api.ResourceFieldSelector) {
	if r.Divisor == nil || r.Divisor.MilliValue() == 0 {
		return
	}
	d, what := r.Divisor.String(), ""
	_, name, _ := strings.Cut(r.Resource, ".")
	switch {
	case name == "cpu":
		if d != "1m" && d != "1" {
			e.invalid(path+".divisor", r.Resource, "only divisor's values 1m and 1 are supported with the cpu resource")
		}
		return
	case name == "memory":
		what = "memory"
	case name == "ephemeral-storage":
		what = "local ephemeral storage"
	case strings.HasPrefix(name, "hugepages-"):
		what = "hugepages"
	}
	if what != "" && !slices.Contains(byteDivisors[:], d) {
		e.invalid(path+".divisor", r.Resource, "only divisor's values 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei are supported with the "+what+" resource")
	}
}

// validateEnvSources is validateEnvVarValueFrom's and validateEnvFrom's
// checks of where a variable's value comes from: exactly one source,
// with a name and a valid config key for a ConfigMap's or a Secret's.
func validateEnvSources(e *errs, p containerPath, c *api.Container) {
	for i, v := range c.Env {
		f := v.ValueFrom
		if f == nil {
			continue
		}
		at := ".env[" + strconv.Itoa(i) + "].valueFrom"
		sources := 0
		if f.FieldRef != nil {
			sources++
		}
		if r := f.ResourceFieldRef; r != nil {
			sources++
			validateResourceFieldRef(e, p.field(at+".resourceFieldRef"), r)
		}
		if r := f.ConfigMapKeyRef; r != nil {
			sources++
			validateKeyRef(e, p.field(at+".configMapKeyRef"), r.Name, r.Key)
		}
		if r := f.SecretKeyRef; r != nil {
			sources++
			validateKeyRef(e, p.field(at+".secretKeyRef"), r.Name, r.Key)
		}
		switch {
		case sources == 0:
			e.invalid(p.field(at), "", "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`")
		case v.Value != "":
			e.invalid(p.field(at), "", "may not be specified when `value` is not empty")
		case sources > 1:
			e.invalid(p.field(at), "", "may not have more than one field specified at a time")
		}
	}
	for i, src := range c.EnvFrom {
		at := p.field(".envFrom[" + strconv.Itoa(i) + "]")
		sources := 0
		if r := src.ConfigMapRef; r != nil {
			sources++
			validateEnvSourceName(e, at+".configMapRef.name", r.Name)
		}
		if r := src.SecretRef; r != nil {
			sources++
			validateEnvSourceName(e, at+".secretRef.name", r.Name)
		}
		// ValidateEnvFrom names the list, not the entry.
		switch {
		case sources == 0:
			e.invalid(p.field(".envFrom"), "", "must specify one of: `configMapRef` or `secretRef`")
		case sources > 1:
			e.invalid(p.field(".envFrom"), "", "may not have more than one field specified at a time")
		}
	}
}

// validateEnvSourceName is validateConfigMapEnvSource's and
// validateSecretEnvSource's check of the name: required, and a DNS
// subdomain.
func validateEnvSourceName(e *errs, path, name string) {
	switch {
	case name == "":
		e.required(path)
	case !isDNS1123Subdomain(name):
		e.invalid(path, name, dns1123SubdomainMsg)
	}
}

// validateKeyRef is validateConfigMapKeySelector and
// validateSecretKeySelector: a name that is a DNS subdomain (an empty
// one too: ValidateSecretName, not Required) and a valid key.
func validateKeyRef(e *errs, path, name, key string) {
	if !isDNS1123Subdomain(name) {
		e.invalid(path+".name", name, dns1123SubdomainMsg)
	}
	if key == "" {
		e.required(path + ".key")
		return
	}
	for _, msg := range ConfigKeyErrors(key) {
		e.invalid(path+".key", key, msg)
	}
}

// ConfigKeyErrors are IsConfigMapKey's messages for key, none when it is
// valid (kubectl checks the keys of create configmap and create secret
// with it before its request).
func ConfigKeyErrors(key string) []string {
	var out []string
	if len(key) > 253 {
		out = append(out, "must be no more than 253 characters")
	}
	if !configKey.MatchString(key) {
		out = append(out, configKeyMsg)
	}
	switch {
	case key == ".":
		out = append(out, "must not be '.'")
	case key == "..":
		out = append(out, "must not be '..'")
	case strings.HasPrefix(key, ".."):
		out = append(out, "must not start with '..'")
	}
	return out
}

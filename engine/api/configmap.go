package api

// ConfigMap is v1.ConfigMap: configuration a pod reads as environment
// variables or files. BinaryData's values are kept as the manifest
// writes them, base64 text.
type ConfigMap struct {
	TypeMeta   `json:",inline" yaml:",inline"`
	ObjectMeta `json:"metadata" yaml:"metadata"`
	Immutable  *bool             `json:"immutable,omitempty" yaml:"immutable,omitempty"`
	Data       map[string]string `json:"data,omitempty" yaml:"data,omitempty"`
	BinaryData map[string]string `json:"binaryData,omitempty" yaml:"binaryData,omitempty"`
}

// GetKind returns "ConfigMap".
func (c *ConfigMap) GetKind() string { return KindConfigMap }

// Meta returns the metadata.
func (c *ConfigMap) Meta() *ObjectMeta { return &c.ObjectMeta }

// DeepCopy returns an independent copy of the ConfigMap.
func (c *ConfigMap) DeepCopy() *ConfigMap {
	return &ConfigMap{TypeMeta: c.TypeMeta, ObjectMeta: c.ObjectMeta.DeepCopy(), Immutable: copyPtr(c.Immutable),
		Data: copyMap(c.Data), BinaryData: copyMap(c.BinaryData)}
}

// DeepCopyObject implements Object.
func (c *ConfigMap) DeepCopyObject() Object { return c.DeepCopy() }

// SecretTypeOpaque is the default type of a Secret: arbitrary user data.
const SecretTypeOpaque = "Opaque"

// Secret is v1.Secret. Data's values are base64 text, as the API serves
// them; StringData is written in clear and merged into Data when the
// Secret is stored (the API server never returns it).
type Secret struct {
	TypeMeta   `json:",inline" yaml:",inline"`
	ObjectMeta `json:"metadata" yaml:"metadata"`
	Immutable  *bool             `json:"immutable,omitempty" yaml:"immutable,omitempty"`
	Data       map[string]string `json:"data,omitempty" yaml:"data,omitempty"`
	StringData map[string]string `json:"stringData,omitempty" yaml:"stringData,omitempty"`
	Type       string            `json:"type,omitempty" yaml:"type,omitempty"`
}

// GetKind returns "Secret".
func (s *Secret) GetKind() string { return KindSecret }

// Meta returns the metadata.
func (s *Secret) Meta() *ObjectMeta { return &s.ObjectMeta }

// DeepCopy returns an independent copy of the Secret.
func (s *Secret) DeepCopy() *Secret {
	return &Secret{TypeMeta: s.TypeMeta, ObjectMeta: s.ObjectMeta.DeepCopy(), Immutable: copyPtr(s.Immutable),
		Data: copyMap(s.Data), StringData: copyMap(s.StringData), Type: s.Type}
}

// DeepCopyObject implements Object.
func (s *Secret) DeepCopyObject() Object { return s.DeepCopy() }

package api

// TypeMeta is apiVersion and kind.
type TypeMeta struct {
	APIVersion string `json:"apiVersion,omitempty" yaml:"apiVersion,omitempty"`
	Kind       string `json:"kind,omitempty" yaml:"kind,omitempty"`
}

// SetKind sets the kind and the apiVersion the registry serves it at, as
// the API server's codec writes them on every object it stores.
func (t *TypeMeta) SetKind(kind string) { *t = TypeMeta{APIVersion: APIVersionOf(kind), Kind: kind} }

// OwnerReference points from a dependent to its owner.
type OwnerReference struct {
	APIVersion         string `json:"apiVersion" yaml:"apiVersion"`
	Kind               string `json:"kind" yaml:"kind"`
	Name               string `json:"name" yaml:"name"`
	UID                string `json:"uid" yaml:"uid"`
	Controller         *bool  `json:"controller,omitempty" yaml:"controller,omitempty"`
	BlockOwnerDeletion *bool  `json:"blockOwnerDeletion,omitempty" yaml:"blockOwnerDeletion,omitempty"`
}

// ObjectMeta is the metadata every object carries.
type ObjectMeta struct {
	Name                       string            `json:"name,omitempty" yaml:"name,omitempty"`
	GenerateName               string            `json:"generateName,omitempty" yaml:"generateName,omitempty"`
	Namespace                  string            `json:"namespace,omitempty" yaml:"namespace,omitempty"`
	UID                        string            `json:"uid,omitempty" yaml:"uid,omitempty"`
	ResourceVersion            string            `json:"resourceVersion,omitempty" yaml:"resourceVersion,omitempty"`
	Generation                 int64             `json:"generation,omitempty" yaml:"generation,omitempty"`
	CreationTimestamp          Time              `json:"creationTimestamp" yaml:"creationTimestamp"`
	DeletionTimestamp          *Time             `json:"deletionTimestamp,omitempty" yaml:"deletionTimestamp,omitempty"`
	DeletionGracePeriodSeconds *int64            `json:"deletionGracePeriodSeconds,omitempty" yaml:"deletionGracePeriodSeconds,omitempty"`
	Labels                     map[string]string `json:"labels,omitempty" yaml:"labels,omitempty"`
	Annotations                map[string]string `json:"annotations,omitempty" yaml:"annotations,omitempty"`
	OwnerReferences            []OwnerReference  `json:"ownerReferences,omitempty" yaml:"ownerReferences,omitempty"`
	Finalizers                 []string          `json:"finalizers,omitempty" yaml:"finalizers,omitempty"`
}

// ControllerRef returns the owner reference with controller=true, or nil.
func (m *ObjectMeta) ControllerRef() *OwnerReference {
	for i := range m.OwnerReferences {
		if r := &m.OwnerReferences[i]; r.Controller != nil && *r.Controller {
			return r
		}
	}
	return nil
}

// Object is implemented by every stored kind.
type Object interface {
	// Meta returns the object's metadata. Callers must not modify the
	// metadata of an object they did not DeepCopy themselves.
	Meta() *ObjectMeta
	// GetKind returns the object's kind, such as "Pod".
	GetKind() string
	// DeepCopyObject returns an independent copy.
	DeepCopyObject() Object
}

// KeyOf returns the key of any object.
func KeyOf(o Object) Key {
	if r, ok := o.(*EventRecord); ok {
		return Key{Kind: KindEvent, Namespace: r.Namespace, Name: r.Name} // its Meta is built on each call
	}
	m := o.Meta()
	return Key{Kind: o.GetKind(), Namespace: m.Namespace, Name: m.Name}
}

// NewControllerRef returns the ownerReference a controller sets on the
// objects it creates (metav1.NewControllerRef).
func NewControllerRef(owner Object, apiVersion string) OwnerReference {
	t := true
	return OwnerReference{APIVersion: apiVersion, Kind: owner.GetKind(), Name: owner.Meta().Name,
		UID: owner.Meta().UID, Controller: &t, BlockOwnerDeletion: &t}
}

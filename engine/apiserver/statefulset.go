package apiserver

// This file is the StatefulSet and PersistentVolumeClaim REST strategies:
// defaults (SetDefaults_StatefulSet, SetDefaults_PersistentVolumeClaim),
// validation (ValidateStatefulSet, ValidatePersistentVolumeClaim) and
// the fields of a StatefulSet an update may change.

import (
	"fmt"
	"reflect"
	"slices"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/timezone"
)

// DefaultStorageClass is the simulated cluster's default StorageClass,
// which the DefaultStorageClass admission plugin writes into claims that
// name none (kind's and minikube's is called "standard").
const DefaultStorageClass = "standard"

// defaultStatefulSet is SetDefaults_StatefulSet (Kubernetes 1.34: no
// maxUnavailable default, the MaxUnavailableStatefulSet gate is off).
func defaultStatefulSet(s *api.StatefulSet) {
	sp := &s.Spec
	if sp.Replicas == nil {
		sp.Replicas = api.Int32(1)
	}
	if sp.PodManagementPolicy == "" {
		sp.PodManagementPolicy = api.OrderedReadyPodManagement
	}
	if sp.UpdateStrategy.Type == "" {
		sp.UpdateStrategy.Type = api.StatefulSetRollingUpdate
		if sp.UpdateStrategy.RollingUpdate == nil {
			sp.UpdateStrategy.RollingUpdate = &api.RollingUpdateStatefulSetStrategy{}
		}
	}
	if ru := sp.UpdateStrategy.RollingUpdate; sp.UpdateStrategy.Type == api.StatefulSetRollingUpdate && ru != nil && ru.Partition == nil {
		ru.Partition = api.Int32(0)
	}
	if sp.RevisionHistoryLimit == nil {
		sp.RevisionHistoryLimit = api.Int32(10)
	}
	if sp.PersistentVolumeClaimRetentionPolicy == nil {
		sp.PersistentVolumeClaimRetentionPolicy = &api.StatefulSetPersistentVolumeClaimRetentionPolicy{}
	}
	if p := sp.PersistentVolumeClaimRetentionPolicy; p.WhenDeleted == "" {
		p.WhenDeleted = "Retain"
	}
	if p := sp.PersistentVolumeClaimRetentionPolicy; p.WhenScaled == "" {
		p.WhenScaled = "Retain"
	}
	for i := range sp.VolumeClaimTemplates {
		c := &sp.VolumeClaimTemplates[i]
		c.SetKind(api.KindPersistentVolumeClaim)
		if c.Spec.VolumeMode == "" {
			c.Spec.VolumeMode = "Filesystem"
		}
		if c.Status.Phase == "" {
			c.Status.Phase = api.ClaimPending
		}
	}
	defaultPodSpec(&sp.Template.Spec)
}

// defaultClaim is SetDefaults_PersistentVolumeClaim with the default
// StorageClass admission.
func defaultClaim(c *api.PersistentVolumeClaim) {
	if c.Spec.VolumeMode == "" {
		c.Spec.VolumeMode = "Filesystem"
	}
	if c.Spec.StorageClassName == nil {
		class := DefaultStorageClass
		c.Spec.StorageClassName = &class
	}
}

// updateStatefulSet is ValidateStatefulSetUpdate's rule: only these
// fields of the spec may change.
func updateStatefulSet(o, old *api.StatefulSet) error {
	defaultStatefulSet(o)
	o.TypeMeta, o.Status = old.TypeMeta, old.Status
	a, b := o.Spec, old.Spec
	a.Replicas, a.Ordinals, a.Template, a.UpdateStrategy, a.PersistentVolumeClaimRetentionPolicy, a.MinReadySeconds, a.RevisionHistoryLimit = nil, nil, api.PodTemplateSpec{}, api.StatefulSetUpdateStrategy{}, nil, 0, nil
	b.Replicas, b.Ordinals, b.Template, b.UpdateStrategy, b.PersistentVolumeClaimRetentionPolicy, b.MinReadySeconds, b.RevisionHistoryLimit = nil, nil, api.PodTemplateSpec{}, api.StatefulSetUpdateStrategy{}, nil, 0, nil
	if !reflect.DeepEqual(a, b) {
		return &InvalidError{Kind: api.KindStatefulSet, Name: o.Name, Fields: []FieldError{{Path: "spec",
			Detail: "Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden"}}}
	}
	if !reflect.DeepEqual(&o.Spec, &old.Spec) {
		o.Generation++
	}
	return nil
}

func validateStatefulSet(e *errs, s *api.StatefulSet) {
	sp := &s.Spec
	validateReplicas(e, "spec.replicas", sp.Replicas)
	validateSelector(e, sp.Selector, &sp.Template, "statefulset")
	validateLabels(e, "spec.template.metadata.labels", sp.Template.Labels)
	// The claim templates' volumes, so that the mounts may name them
	// (ValidateStatefulSetSpec's volumesToAddForTemplates).
	spec := sp.Template.Spec
	spec.Volumes = slices.Clone(spec.Volumes)
	for _, t := range sp.VolumeClaimTemplates {
		spec.Volumes = append(spec.Volumes, api.Volume{Name: t.Name, PersistentVolumeClaim: &api.PersistentVolumeClaimVolumeSource{ClaimName: t.Name}})
	}
	validatePodSpec(e, "spec.template.spec", &spec, true)
	if rp := sp.Template.Spec.RestartPolicy; rp != "" && rp != "Always" {
		e.add("spec.template.spec.restartPolicy", "Unsupported value: %q: supported values: \"Always\"", rp)
	}
	switch sp.PodManagementPolicy {
	case api.OrderedReadyPodManagement, api.ParallelPodManagement:
	default:
		e.add("spec.podManagementPolicy", "Unsupported value: %q: supported values: \"OrderedReady\", \"Parallel\"", sp.PodManagementPolicy)
	}
	switch sp.UpdateStrategy.Type {
	case api.StatefulSetRollingUpdate:
		if ru := sp.UpdateStrategy.RollingUpdate; ru != nil && ru.Partition != nil && *ru.Partition < 0 {
			e.invalid("spec.updateStrategy.rollingUpdate.partition", int64(*ru.Partition), "must be greater than or equal to 0")
		}
	case api.StatefulSetOnDelete:
		if sp.UpdateStrategy.RollingUpdate != nil {
			e.add("spec.updateStrategy.rollingUpdate", "Invalid value: \"OnDelete\": only allowed for updateStrategy 'RollingUpdate'")
		}
	default:
		e.add("spec.updateStrategy.type", "Unsupported value: %q: supported values: \"OnDelete\", \"RollingUpdate\"", sp.UpdateStrategy.Type)
	}
	if sp.MinReadySeconds < 0 {
		e.invalid("spec.minReadySeconds", int64(sp.MinReadySeconds), "must be greater than or equal to 0")
	}
	if sp.Ordinals != nil && sp.Ordinals.Start < 0 {
		e.invalid("spec.ordinals.start", int64(sp.Ordinals.Start), "must be greater than or equal to 0")
	}
	for i := range sp.VolumeClaimTemplates {
		c := &sp.VolumeClaimTemplates[i]
		path := fmt.Sprintf("spec.volumeClaimTemplates[%d]", i)
		if !isDNS1123Subdomain(c.Name) {
			e.invalid(path+".metadata.name", c.Name, dns1123SubdomainMsg)
		}
		validateClaimSpec(e, path+".spec", &c.Spec)
	}
}

// validateClaimSpec is ValidatePersistentVolumeClaimSpec for the fields
// kept: at least one known access mode and a storage request.
func validateClaimSpec(e *errs, path string, s *api.PersistentVolumeClaimSpec) {
	if len(s.AccessModes) == 0 {
		e.add(path+".accessModes", "Required value: at least 1 access mode is required")
	}
	for _, m := range s.AccessModes {
		switch m {
		case "ReadWriteOnce", "ReadOnlyMany", "ReadWriteMany", "ReadWriteOncePod":
		default:
			e.add(path+".accessModes", "Unsupported value: %q: supported values: \"ReadOnlyMany\", \"ReadWriteMany\", \"ReadWriteOnce\", \"ReadWriteOncePod\"", m)
		}
	}
	if _, ok := s.Resources.Requests["storage"]; !ok {
		e.add(path+".resources[storage]", "Required value")
	}
}

// statefulSetStrategy is pkg/registry/apps/statefulset/strategy.go.
var statefulSetStrategy = statusField(strategy{
	hasSpec:  true,
	defaults: func(obj api.Object) { defaultStatefulSet(obj.(*api.StatefulSet)) },
	validate: func(e *errs, obj api.Object, _ timezone.Loader) { validateStatefulSet(e, obj.(*api.StatefulSet)) },
	prepareForCreate: func(obj api.Object, _ *admitted, _ *podSpecs) {
		o := obj.(*api.StatefulSet)
		defaultStatefulSet(o)
		o.Status = api.StatefulSetStatus{}
	},
	prepareForUpdate: func(_ *Store, obj, old api.Object) error {
		return updateStatefulSet(obj.(*api.StatefulSet), old.(*api.StatefulSet))
	},
}, &api.StatefulSet{})

// claimStrategy is pkg/registry/core/persistentvolumeclaim/strategy.go: a
// new claim is Pending.
var claimStrategy = statusField(strategy{
	defaults: func(obj api.Object) { defaultClaim(obj.(*api.PersistentVolumeClaim)) },
	validate: func(e *errs, obj api.Object, _ timezone.Loader) {
		validateClaimSpec(e, "spec", &obj.(*api.PersistentVolumeClaim).Spec)
	},
	prepareForCreate: func(obj api.Object, _ *admitted, _ *podSpecs) {
		o := obj.(*api.PersistentVolumeClaim)
		defaultClaim(o)
		o.Status = api.PersistentVolumeClaimStatus{Phase: api.ClaimPending}
		// The StorageObjectInUseProtection admission plugin.
		if !slices.Contains(o.Finalizers, api.FinalizerPVCProtection) {
			o.Finalizers = append(slices.Clip(o.Finalizers), api.FinalizerPVCProtection)
		}
	},
	prepareForUpdate: func(_ *Store, obj, old api.Object) error {
		o, prev := obj.(*api.PersistentVolumeClaim), old.(*api.PersistentVolumeClaim)
		defaultClaim(o)
		o.TypeMeta, o.Status = prev.TypeMeta, prev.Status
		return nil
	},
}, &api.PersistentVolumeClaim{})

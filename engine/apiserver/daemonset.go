package apiserver

// This file is the DaemonSet and ControllerRevision REST strategies:
// defaults (pkg/apis/apps/v1/defaults.go SetDefaults_DaemonSet),
// validation (pkg/apis/apps/validation ValidateDaemonSet) and the
// template generation the API server keeps in an annotation
// (pkg/registry/apps/daemonset/strategy.go).

import (
	"reflect"
	"strconv"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/timezone"
)

// defaultDaemonSet is SetDefaults_DaemonSet: RollingUpdate with
// maxUnavailable 1 and maxSurge 0, revisionHistoryLimit 10.
func defaultDaemonSet(d *api.DaemonSet) {
	st := &d.Spec.UpdateStrategy
	if st.Type == "" {
		st.Type = api.DaemonSetRollingUpdate
	}
	if st.Type == api.DaemonSetRollingUpdate {
		if st.RollingUpdate == nil {
			st.RollingUpdate = &api.RollingUpdateDaemonSet{}
		}
		if st.RollingUpdate.MaxUnavailable == nil {
			v := api.FromInt(1)
			st.RollingUpdate.MaxUnavailable = &v
		}
		if st.RollingUpdate.MaxSurge == nil {
			v := api.FromInt(0)
			st.RollingUpdate.MaxSurge = &v
		}
	}
	if d.Spec.RevisionHistoryLimit == nil {
		d.Spec.RevisionHistoryLimit = api.Int32(10)
	}
	defaultPodSpec(&d.Spec.Template.Spec)
}

// templateGeneration is the DaemonSet's template generation (the
// annotation apps/v1 shows it as), 0 when absent.
func templateGeneration(d *api.DaemonSet) int64 {
	g, _ := strconv.ParseInt(d.Annotations[api.AnnotationTemplateGeneration], 10, 64)
	return g
}

func setTemplateGeneration(d *api.DaemonSet, g int64) {
	a := make(map[string]string, len(d.Annotations)+1)
	for k, v := range d.Annotations {
		a[k] = v
	}
	a[api.AnnotationTemplateGeneration] = strconv.FormatInt(g, 10)
	d.Annotations = a
}

// updateDaemonSet is PrepareForUpdate: the generation moves with the
// spec, the template generation with the template.
func updateDaemonSet(o, old *api.DaemonSet) error {
	defaultDaemonSet(o)
	o.TypeMeta, o.Status = old.TypeMeta, old.Status
	if err := immutableSelector(o, old.Spec.Selector, o.Spec.Selector); err != nil {
		return err
	}
	g := templateGeneration(old)
	if !reflect.DeepEqual(&o.Spec.Template, &old.Spec.Template) {
		g++
	}
	setTemplateGeneration(o, g)
	if !reflect.DeepEqual(&o.Spec, &old.Spec) {
		o.Generation++
	}
	return nil
}

func validateDaemonSet(e *errs, d *api.DaemonSet) {
	s := &d.Spec
	validateSelector(e, s.Selector, &s.Template, "daemonset")
	validateLabels(e, "spec.template.metadata.labels", s.Template.Labels)
	validatePodSpec(e, "spec.template.spec", &s.Template.Spec, true)
	if rp := s.Template.Spec.RestartPolicy; rp != "" && rp != "Always" {
		e.add("spec.template.spec.restartPolicy", "Unsupported value: %q: supported values: \"Always\"", rp)
	}
	if s.MinReadySeconds < 0 {
		e.invalid("spec.minReadySeconds", int64(s.MinReadySeconds), "must be greater than or equal to 0")
	}
	if s.RevisionHistoryLimit != nil && *s.RevisionHistoryLimit < 0 {
		e.invalid("spec.revisionHistoryLimit", int64(*s.RevisionHistoryLimit), "must be greater than or equal to 0")
	}
	st := &s.UpdateStrategy
	switch st.Type {
	case api.DaemonSetOnDelete:
		return
	case api.DaemonSetRollingUpdate:
	default:
		e.add("spec.updateStrategy.type", "Unsupported value: %q: supported values: \"OnDelete\", \"RollingUpdate\"", st.Type)
		return
	}
	ru := st.RollingUpdate
	if ru == nil {
		e.required("spec.updateStrategy.rollingUpdate")
		return
	}
	unavail := validateIntOrPercent(e, "spec.updateStrategy.rollingUpdate.maxUnavailable", ru.MaxUnavailable)
	surge := validateIntOrPercent(e, "spec.updateStrategy.rollingUpdate.maxSurge", ru.MaxSurge)
	if unavail == 0 && surge == 0 && ru.MaxUnavailable != nil {
		e.add("spec.updateStrategy.rollingUpdate.maxUnavailable", "Invalid value: %s: cannot be 0 when maxSurge is 0", intstrValue(*ru.MaxUnavailable))
	}
	if ru.MaxUnavailable != nil && ru.MaxUnavailable.IsString && unavail > 100 {
		e.add("spec.updateStrategy.rollingUpdate.maxUnavailable", "Invalid value: %q: must not be greater than 100%%", ru.MaxUnavailable.StrVal)
	}
}

// daemonSetStrategy is pkg/registry/apps/daemonset/strategy.go.
var daemonSetStrategy = statusField(strategy{
	hasSpec:  true,
	defaults: func(obj api.Object) { defaultDaemonSet(obj.(*api.DaemonSet)) },
	validate: func(e *errs, obj api.Object, _ timezone.Loader) { validateDaemonSet(e, obj.(*api.DaemonSet)) },
	prepareForCreate: func(obj api.Object, _ *admitted, _ *podSpecs) {
		o := obj.(*api.DaemonSet)
		defaultDaemonSet(o)
		setTemplateGeneration(o, 1)
		o.Status = api.DaemonSetStatus{}
	},
	prepareForUpdate: func(_ *Store, obj, old api.Object) error {
		return updateDaemonSet(obj.(*api.DaemonSet), old.(*api.DaemonSet))
	},
}, &api.DaemonSet{})

package apiserver

import (
	"fmt"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/timezone"
)

// priorityClassStrategy is pkg/registry/scheduling/priorityclass/strategy.go:
// cluster-scoped, no status; generation 1 at creation, which no update
// changes; the preemption policy defaults to PreemptLowerPriority, and
// neither it nor the value changes.
var priorityClassStrategy = strategy{
	hasSpec:  true,
	admit:    admitPriorityClass,
	defaults: func(obj api.Object) { defaultPriorityClass(obj.(*api.PriorityClass)) },
	validate: func(e *errs, obj api.Object, _ timezone.Loader) { validatePriorityClass(e, obj.(*api.PriorityClass)) },
	prepareForCreate: func(obj api.Object, _ *admitted, _ *podSpecs) {
		defaultPriorityClass(obj.(*api.PriorityClass))
	},
	prepareForUpdate: func(_ *Store, obj, old api.Object) error {
		o, prev := obj.(*api.PriorityClass), old.(*api.PriorityClass)
		defaultPriorityClass(o)
		o.TypeMeta = prev.TypeMeta
		var e errs
		if o.Value != prev.Value {
			e.add("value", "Forbidden: may not be changed in an update.")
		}
		if *o.PreemptionPolicy != *prev.PreemptionPolicy {
			e.invalid("preemptionPolicy", *o.PreemptionPolicy, "field is immutable")
		}
		return e.asError(o)
	},
}

// defaultPriorityClass is SetDefaults_PriorityClass.
func defaultPriorityClass(c *api.PriorityClass) {
	if c.PreemptionPolicy == nil {
		c.PreemptionPolicy = api.String(api.PreemptLowerPriority)
	}
}

// validatePriorityClass is ValidatePriorityClass
// (pkg/apis/scheduling/validation): a name starting with "system-" must
// be one of the system classes, with its value; any other class's value
// is at most HighestUserDefinablePriority.
func validatePriorityClass(e *errs, c *api.PriorityClass) {
	if strings.HasPrefix(c.Name, api.SystemPriorityClassPrefix) {
		if msg := systemPriorityClassProblem(c); msg != "" {
			e.add("metadata.name", "Forbidden: priority class names with '%s' prefix are reserved for system use only. error: %s", api.SystemPriorityClassPrefix, msg)
		}
	} else if c.Value > api.HighestUserDefinablePriority {
		e.add("value", "Forbidden: maximum allowed value of a user defined priority is %d", api.HighestUserDefinablePriority)
	}
	if p := c.PreemptionPolicy; p != nil && *p != api.PreemptLowerPriority && *p != api.PreemptNever {
		e.add("preemptionPolicy", "Unsupported value: %q: supported values: %q, %q", *p, api.PreemptLowerPriority, api.PreemptNever)
	}
}

// systemPriorityClassProblem is IsKnownSystemPriorityClass's error, or "".
func systemPriorityClassProblem(c *api.PriorityClass) string {
	for _, sys := range api.SystemPriorityClasses() {
		switch {
		case sys.Name != c.Name:
		case sys.Value != c.Value:
			return fmt.Sprintf("value of %s PriorityClass must be %d", sys.Name, sys.Value)
		case sys.GlobalDefault != c.GlobalDefault:
			return fmt.Sprintf("globalDefault of %s PriorityClass must be %v", sys.Name, sys.GlobalDefault)
		default:
			return ""
		}
	}
	return c.Name + " is not a known system priority class"
}

// forbidden is admission.NewForbidden: the object is named by its name,
// or, before a generated name is given, by its generateName.
func forbidden(obj api.Object, why string) error {
	name := obj.Meta().Name
	if name == "" {
		name = obj.Meta().GenerateName
	}
	return &StatusError{Reason: ReasonForbidden, Message: fmt.Sprintf("%s %q is forbidden: %s", Resource(obj.GetKind()), name, why)}
}

// globalDefaultPriorityClass is getDefaultPriorityClass: the globalDefault
// class with the lowest value, nil if none.
func (s *Store) globalDefaultPriorityClass() *api.PriorityClass {
	var def *api.PriorityClass
	s.cur.Ascend(api.KindPriorityClass, "", func(o api.Object) bool {
		if c := o.(*api.PriorityClass); c.GlobalDefault && (def == nil || c.Value < def.Value) {
			def = c
		}
		return true
	})
	return def
}

// admitPriorityClass is the Priority admission plugin's check of a new
// PriorityClass: there is at most one global default.
func admitPriorityClass(s *Store, obj api.Object) error {
	if def := s.globalDefaultPriorityClass(); obj.(*api.PriorityClass).GlobalDefault && def != nil {
		return forbidden(obj, fmt.Sprintf("PriorityClass %s is already marked as default. Only one default can exist", def.Name))
	}
	return nil
}

// admitPodPriority is the Priority admission plugin
// (plugin/pkg/admission/priority) for a new pod: it takes the value and
// the preemption policy of the PriorityClass it names, or of the global
// default class (whose name it then takes), or 0 and PreemptLowerPriority
// (admitPod) without one. A pod naming a class that does not exist, or
// giving a priority of its own that differs, is forbidden.
func admitPodPriority(s *Store, obj api.Object) error {
	p := obj.(*api.Pod)
	if p.Spec == nil {
		return nil
	}
	var class *api.PriorityClass
	if name := p.Spec.PriorityClassName; name != "" {
		o, ok := s.Get(api.Key{Kind: api.KindPriorityClass, Name: name})
		if !ok {
			return forbidden(p, fmt.Sprintf("no PriorityClass with name %s was found", name))
		}
		class = o.(*api.PriorityClass)
	} else {
		class = s.globalDefaultPriorityClass()
	}
	value := int32(0)
	if class != nil {
		value = class.Value
	}
	if pr := p.Spec.Priority; pr != nil && *pr != value {
		return forbidden(p, fmt.Sprintf("the integer value of priority (%d) must not be provided in pod spec; priority admission controller computed %d from the given PriorityClass name", *pr, value))
	}
	if class == nil {
		return nil // admitPod gives it the shared 0 and PreemptLowerPriority
	}
	policy := s.admitted.preemptionPolicy(*class.PreemptionPolicy)
	if pp := p.Spec.PreemptionPolicy; pp != nil && *pp != *policy {
		return forbidden(p, fmt.Sprintf("the string value of PreemptionPolicy (%s) must not be provided in pod spec; priority admission controller computed %s from the given PriorityClass name", *pp, *policy))
	}
	ownSpec(p)
	p.Spec.PriorityClassName = class.Name
	p.Spec.Priority = s.admitted.priorityOf(value)
	p.Spec.PreemptionPolicy = policy
	return nil
}

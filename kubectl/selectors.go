package kubectl

import (
	"fmt"
	"strconv"

	"github.com/stateflow/stateflow/engine/api/labels"
	"k8s.io/apimachinery/pkg/fields"

	"github.com/stateflow/stateflow/engine/api"
)

// labelSelector parses -l with apimachinery's parser.
func labelSelector(expr string) (labels.Selector, error) {
	if expr == "" {
		return labels.Everything(), nil
	}
	sel, err := labels.Parse(expr)
	if err != nil {
		return nil, errorf("%v", err)
	}
	return sel, nil
}

// fieldSelector parses --field-selector and checks every field is one the
// API server supports for the kind.
func fieldSelector(expr string, r resource) (fields.Selector, error) {
	if expr == "" {
		return fields.Everything(), nil
	}
	sel, err := fields.ParseSelector(expr)
	if err != nil {
		return nil, errorf("%v", err)
	}
	if r.group == metricsGroup {
		// The metrics-server filters on the pods' and nodes' metadata and
		// refuses no field: an unknown one matches nothing.
		return sel, nil
	}
	for _, req := range sel.Requirements() {
		if _, ok := fieldValue(nil, r.kind, req.Field); !ok {
			return nil, serverErr("BadRequest", fmt.Sprintf("Unable to find \"%s/%s, Resource=%s\" that match label selector \"\", field selector %q: field label not supported: %s",
				r.group, r.ver(), r.plural, expr, req.Field))
		}
	}
	return sel, nil
}

// fieldValue returns the value of a selectable field of o (nil o only
// checks that the field is supported for kind): the field selectors the
// API server registers for each kind (GetAttrs / SelectableFields).
func fieldValue(o api.Object, kind, field string) (string, bool) {
	switch field {
	case "metadata.name":
		return read(o, func(o api.Object) string { return o.Meta().Name }), true
	case "metadata.namespace":
		return read(o, func(o api.Object) string { return o.Meta().Namespace }), true
	}
	var get func(api.Object) string
	if selectable := helperFor(kind).selectable; selectable != nil {
		get = selectable(field)
	}
	if get == nil {
		return "", false
	}
	return read(o, get), true
}

// nodeField, serviceField, claimField, replicaSetField and jobField read
// the selectable fields of their kinds beyond the metadata's
// (NodeToSelectableFields, the Service, PersistentVolumeClaim, ReplicaSet
// and Job strategies' SelectableFields); nil if field is not one.
func nodeField(field string) func(api.Object) string {
	if field == "spec.unschedulable" {
		return of(func(n *api.Node) string { return strconv.FormatBool(n.Spec.Unschedulable) })
	}
	return nil
}

func serviceField(field string) func(api.Object) string {
	switch field {
	case "spec.clusterIP":
		return of(func(s *api.Service) string { return s.Spec.ClusterIP })
	case "spec.type":
		return of(func(s *api.Service) string { return s.Spec.Type })
	}
	return nil
}

// claimField: PersistentVolumeClaimToSelectableFields keeps "name", "a
// bug … supported for backward compatibility".
func claimField(field string) func(api.Object) string {
	if field == "name" {
		return func(o api.Object) string { return o.Meta().Name }
	}
	return nil
}

func replicaSetField(field string) func(api.Object) string {
	if field == "status.replicas" {
		return of(func(rs *api.ReplicaSet) string { return strconv.Itoa(int(rs.Status.Replicas)) })
	}
	return nil
}

func jobField(field string) func(api.Object) string {
	if field == "status.successful" {
		return of(func(j *api.Job) string { return strconv.Itoa(int(j.Status.Succeeded)) })
	}
	return nil
}

// podField is the reader of one of a Pod's selectable fields
// (pkg/registry/core/pod/strategy.go PodToSelectableFields).
func podField(field string) func(api.Object) string {
	switch field {
	case "status.phase":
		return of(func(p *api.Pod) string { return p.Status.Phase })
	case "spec.nodeName":
		return of(func(p *api.Pod) string { return p.Spec.NodeName })
	case "spec.restartPolicy":
		return of(func(p *api.Pod) string { return p.Spec.RestartPolicy })
	case "spec.schedulerName":
		return of(func(p *api.Pod) string { return p.Spec.SchedulerName })
	case "spec.serviceAccountName":
		return of(func(p *api.Pod) string { return p.Spec.ServiceAccountName })
	case "status.podIP":
		return of(func(p *api.Pod) string { return p.Status.PodIP })
	case "status.nominatedNodeName":
		return of(func(p *api.Pod) string { return "" })
	}
	return nil
}

// eventField is the reader of one of an Event's selectable fields
// (pkg/registry/core/event/strategy.go ToSelectableFields).
func eventField(field string) func(api.Object) string {
	ref := func(f func(r *api.ObjectReference) string) func(api.Object) string {
		return func(o api.Object) string {
			switch e := o.(type) {
			case *api.Event:
				return f(&e.InvolvedObject)
			case *api.EventRecord:
				r := e.Ref()
				return f(&r)
			}
			return ""
		}
	}
	either := func(ev func(*api.Event) string, rec func(*api.EventRecord) string) func(api.Object) string {
		return func(o api.Object) string {
			switch e := o.(type) {
			case *api.Event:
				return ev(e)
			case *api.EventRecord:
				return rec(e)
			}
			return ""
		}
	}
	switch field {
	case "involvedObject.kind":
		return ref(func(r *api.ObjectReference) string { return r.Kind })
	case "involvedObject.name":
		return ref(func(r *api.ObjectReference) string { return r.Name })
	case "involvedObject.namespace":
		return ref(func(r *api.ObjectReference) string { return r.Namespace })
	case "involvedObject.uid":
		return ref(func(r *api.ObjectReference) string { return r.UID })
	case "involvedObject.apiVersion":
		return ref(func(r *api.ObjectReference) string { return r.APIVersion })
	case "involvedObject.resourceVersion":
		return ref(func(r *api.ObjectReference) string { return r.ResourceVersion })
	case "involvedObject.fieldPath":
		return ref(func(r *api.ObjectReference) string { return r.FieldPath })
	case "reason":
		return either(func(e *api.Event) string { return e.Reason }, func(r *api.EventRecord) string {
			if r.Full != nil {
				return r.Full.Reason
			}
			return r.Origin.Reason
		})
	case "type":
		return either(func(e *api.Event) string { return e.Type }, (*api.EventRecord).Type)
	case "source":
		return either(func(e *api.Event) string { return e.Source.Component }, (*api.EventRecord).Component)
	case "reportingComponent":
		return either(func(e *api.Event) string { return e.ReportingComponent }, (*api.EventRecord).ReportingComponent)
	}
	return nil
}

// of adapts a reader of one kind to any object (another kind reads "").
func of[T api.Object](f func(T) string) func(api.Object) string {
	return func(o api.Object) string {
		if t, ok := o.(T); ok {
			return f(t)
		}
		return ""
	}
}

// read applies get to o; a nil o reads "".
func read(o api.Object, get func(api.Object) string) string {
	if o == nil {
		return ""
	}
	return get(o)
}

// fieldSet adapts an object to fields.Fields for matching.
type fieldSet struct {
	o    api.Object
	kind string
}

func (f fieldSet) Has(field string) bool { _, ok := fieldValue(f.o, f.kind, field); return ok }
func (f fieldSet) Get(field string) string {
	v, _ := fieldValue(f.o, f.kind, field)
	return v
}

package kubectl

import (
	"fmt"
	"strconv"

	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"

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
	for _, req := range sel.Requirements() {
		if _, ok := fieldValue(nil, r.kind, req.Field); !ok {
			return nil, serverErr("BadRequest", fmt.Sprintf("Unable to find \"%s/v1, Resource=%s\" that match label selector \"\", field selector %q: field label not supported: %s",
				r.group, r.plural, expr, req.Field))
		}
	}
	return sel, nil
}

// fieldValue returns the value of a selectable field of o (nil o only
// checks that the field is supported for kind).
func fieldValue(o api.Object, kind, field string) (string, bool) {
	switch field {
	case "metadata.name":
		return meta(o, func(m *api.ObjectMeta) string { return m.Name }), true
	case "metadata.namespace":
		return meta(o, func(m *api.ObjectMeta) string { return m.Namespace }), true
	}
	switch kind {
	case api.KindPod:
		p, _ := o.(*api.Pod)
		get := func(f func(*api.Pod) string) string {
			if p == nil {
				return ""
			}
			return f(p)
		}
		switch field {
		case "status.phase":
			return get(func(p *api.Pod) string { return p.Status.Phase }), true
		case "spec.nodeName":
			return get(func(p *api.Pod) string { return p.Spec.NodeName }), true
		case "spec.restartPolicy":
			return get(func(p *api.Pod) string { return p.Spec.RestartPolicy }), true
		case "spec.schedulerName":
			return get(func(p *api.Pod) string { return p.Spec.SchedulerName }), true
		case "spec.serviceAccountName":
			return get(func(p *api.Pod) string { return p.Spec.ServiceAccountName }), true
		case "status.podIP":
			return get(func(p *api.Pod) string { return p.Status.PodIP }), true
		case "status.nominatedNodeName":
			return "", true
		}
	case api.KindEvent:
		e, _ := o.(*api.Event)
		get := func(f func(*api.Event) string) string {
			if e == nil {
				return ""
			}
			return f(e)
		}
		switch field {
		case "involvedObject.kind":
			return get(func(e *api.Event) string { return e.InvolvedObject.Kind }), true
		case "involvedObject.name":
			return get(func(e *api.Event) string { return e.InvolvedObject.Name }), true
		case "involvedObject.namespace":
			return get(func(e *api.Event) string { return e.InvolvedObject.Namespace }), true
		case "involvedObject.uid":
			return get(func(e *api.Event) string { return e.InvolvedObject.UID }), true
		case "involvedObject.apiVersion":
			return get(func(e *api.Event) string { return e.InvolvedObject.APIVersion }), true
		case "involvedObject.resourceVersion":
			return get(func(e *api.Event) string { return e.InvolvedObject.ResourceVersion }), true
		case "involvedObject.fieldPath":
			return get(func(e *api.Event) string { return e.InvolvedObject.FieldPath }), true
		case "reason":
			return get(func(e *api.Event) string { return e.Reason }), true
		case "type":
			return get(func(e *api.Event) string { return e.Type }), true
		case "source":
			return get(func(e *api.Event) string { return e.Source.Component }), true
		case "reportingComponent":
			return get(func(e *api.Event) string { return e.ReportingComponent }), true
		}
	case api.KindNode:
		if field == "spec.unschedulable" {
			n, _ := o.(*api.Node)
			if n == nil {
				return "", true
			}
			return strconv.FormatBool(n.Spec.Unschedulable), true
		}
	case api.KindReplicaSet:
		if field == "status.replicas" {
			rs, _ := o.(*api.ReplicaSet)
			if rs == nil {
				return "", true
			}
			return strconv.Itoa(int(rs.Status.Replicas)), true
		}
	}
	return "", false
}

func meta(o api.Object, f func(*api.ObjectMeta) string) string {
	if o == nil {
		return ""
	}
	return f(o.Meta())
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

package kubectl

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
)

// Decoder turns manifest text into objects; the scenario package provides
// it (it owns YAML parsing and its diagnostics).
type Decoder func(src []byte) ([]api.Object, error)

// apply is kubectl apply -f - with the manifest in Session.Stdin: each
// object is created, or its spec and metadata replaced, in one tick.
func (s *Session) apply(args []string) (string, error) {
	p, err := parseFlags("apply", args, []flagSpec{{"filename", "f", true}, {"server-side", "", false}, {"force", "", false}})
	if err != nil {
		return "", err
	}
	if p.str("filename") != "-" {
		return "", errorf("the simulated cluster reads manifests from standard input only: use 'kubectl apply -f -'")
	}
	if s.Decode == nil {
		return "", errorf("no manifest decoder is configured")
	}
	objs, err := s.Decode([]byte(s.Stdin))
	if err != nil {
		return "", errorf("error parsing the manifest: %v", err)
	}
	if len(objs) == 0 {
		return "", errorf("no objects passed to apply")
	}
	ns := s.namespace(p)
	var lines []string
	var firstErr error
	for _, o := range objs {
		o := o.DeepCopyObject()
		if api.Namespaced(o.GetKind()) && o.Meta().Namespace == "" {
			o.Meta().Namespace = ns
		}
		k := api.KeyOf(o)
		m := &Mutation{Object: k, run: func(tick reconcile.Tick) (string, error) { return applyOne(tick, o) }}
		out, err := s.do(m, "apply -f - ("+k.Short()+")")
		if out != "" {
			lines = append(lines, strings.TrimSuffix(out, "\n"))
		}
		if err != nil && firstErr == nil {
			firstErr = err
		}
	}
	out := strings.Join(lines, "\n")
	if out != "" {
		out += "\n"
	}
	return out, firstErr
}

func applyOne(tick reconcile.Tick, o api.Object) (string, error) {
	r := resourceFor(o.GetKind())
	name := r.qualified() + "/" + o.Meta().Name
	cur, exists := tick.LiveGet(api.KeyOf(o))
	if !exists {
		if _, err := tick.Create(trace.Translate, o, "kubectl apply: "+name+" created"); err != nil {
			return "", apiErr(addSourceToErr("creating", err))
		}
		return name + " created\n", nil
	}
	next := cur.DeepCopyObject()
	if !replaceSpec(next, o) {
		return name + " unchanged\n", nil
	}
	if _, err := tick.Update(trace.Translate, next, "kubectl apply: "+name+" configured"); err != nil {
		return "", apiErr(err)
	}
	return name + " configured\n", nil
}

// addSourceToErr is cmdutil.AddSourceToErr for a manifest read from
// standard input: a refusal the API server explains in its message
// (Forbidden, NotFound, AlreadyExists) names the source it came from.
func addSourceToErr(verb string, err error) error {
	se := (*apiserver.StatusError)(nil)
	if !errors.As(err, &se) {
		return err
	}
	c := *se
	c.Message = fmt.Sprintf("error when %s %q: %s", verb, "STDIN", se.Message)
	return &c
}

// replaceSpec copies the applied labels, annotations and spec (with the
// API defaults filled in) into cur, and reports whether anything differs.
func replaceSpec(cur, applied api.Object) bool {
	applied = applied.DeepCopyObject()
	apiserver.ApplyDefaults(applied)
	cm, am := cur.Meta(), applied.Meta()
	last := lastApplied(cm.Annotations[lastAppliedAnnotation])
	labels := merge3(cm.Labels, am.Labels, last.Metadata.Labels)
	annotations := merge3(cm.Annotations, am.Annotations, last.Metadata.Annotations)
	changed := !reflect.DeepEqual(cm.Labels, labels) || !reflect.DeepEqual(cm.Annotations, annotations)
	cm.Labels, cm.Annotations = labels, annotations
	if apply := helperFor(cur.GetKind()).applySpec; apply != nil {
		changed = apply(cur, applied) || changed
	}
	return changed
}

// keepAllocations gives an applied Service spec the cluster IP and node
// ports the API server allocated, where the manifest leaves them unset,
// as apply's merge keeps fields the manifest does not mention.
func keepAllocations(applied, cur *api.ServiceSpec) {
	if applied.ClusterIP == "" && len(applied.ClusterIPs) == 0 {
		applied.ClusterIP, applied.ClusterIPs = cur.ClusterIP, slices.Clone(cur.ClusterIPs)
	}
	for i := range applied.Ports {
		p := &applied.Ports[i]
		for _, q := range cur.Ports {
			if p.NodePort == 0 && q.Port == p.Port && q.Protocol == p.Protocol {
				p.NodePort = q.NodePort
			}
		}
	}
}

// keepGeneratedSelector gives an applied Job spec the selector and the
// template labels the API server generated (job-name, controller-uid and
// their batch.kubernetes.io forms), where the manifest does not set
// them, as apply's merge keeps fields the manifest does not mention.
func keepGeneratedSelector(applied, cur *api.JobSpec) {
	if applied.Selector == nil {
		applied.Selector = cur.Selector.DeepCopy()
	}
	generated := []string{api.LabelJobName, api.LabelLegacyJobName, api.LabelControllerUID, api.LabelLegacyControlerUID}
	labels := maps.Clone(applied.Template.Labels)
	for _, k := range generated {
		v, ok := cur.Template.Labels[k]
		if _, set := labels[k]; !ok || set {
			continue
		}
		if labels == nil {
			labels = map[string]string{}
		}
		labels[k] = v
	}
	applied.Template.Labels = labels
}

const lastAppliedAnnotation = "kubectl.kubernetes.io/last-applied-configuration"

type appliedMeta struct {
	Metadata struct {
		Labels      map[string]string `json:"labels"`
		Annotations map[string]string `json:"annotations"`
	} `json:"metadata"`
}

func lastApplied(s string) appliedMeta {
	var a appliedMeta
	_ = json.Unmarshal([]byte(s), &a)
	return a
}

// merge3 is apply's three-way merge of a string map: the applied keys win,
// keys that were applied last time and are gone now are removed, and keys
// someone else set are kept.
func merge3(current, applied, lastApplied map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range current {
		if _, wasApplied := lastApplied[k]; wasApplied {
			if _, still := applied[k]; !still {
				continue
			}
		}
		out[k] = v
	}
	for k, v := range applied {
		out[k] = v
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

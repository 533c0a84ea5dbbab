package kubectl

// This file is kubectl label and annotate (pkg/cmd/label, pkg/cmd/annotate).

import (
	"fmt"
	"sort"
	"strings"

	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
)

// buildMeta is kubectl label and kubectl annotate.
func buildMeta(verb string) builder {
	past := map[string]string{"label": "labeled", "annotate": "annotated"}[verb]
	return func(s *Session, args []string) (*Mutation, error) {
		p, err := parseFlags(verb, args, []flagSpec{{"overwrite", "", false}})
		if err != nil {
			return nil, err
		}
		k, r, rest, err := target(verb, p.args, s.namespace(p))
		if err != nil {
			return nil, err
		}
		set, remove := map[string]string{}, []string{}
		for _, a := range rest {
			if key, ok := strings.CutSuffix(a, "-"); ok && !strings.Contains(a, "=") {
				remove = append(remove, key)
				continue
			}
			key, val, ok := strings.Cut(a, "=")
			if !ok {
				return nil, errorf("at least one %s update is required", map[string]string{"label": "label", "annotate": "annotation"}[verb])
			}
			set[key] = val
		}
		if len(set)+len(remove) == 0 {
			return nil, errorf("at least one %s update is required", map[string]string{"label": "label", "annotate": "annotation"}[verb])
		}
		return &Mutation{Object: k, run: func(tick reconcile.Tick) (string, error) {
			o, err := live(tick, k)
			if err != nil {
				return "", err
			}
			m := o.Meta()
			target := &m.Labels
			if verb == "annotate" {
				target = &m.Annotations
			}
			if *target == nil {
				*target = map[string]string{}
			}
			keys := make([]string, 0, len(set))
			for key := range set {
				keys = append(keys, key)
			}
			sort.Strings(keys)
			for _, key := range keys {
				if cur, ok := (*target)[key]; ok && cur != set[key] && !p.bool("overwrite") {
					return "", errorf("'%s' already has a value (%s), and --overwrite is false", key, cur)
				}
				(*target)[key] = set[key]
			}
			for _, key := range remove {
				delete(*target, key)
			}
			if _, err := tick.Update(trace.Translate, o, fmt.Sprintf("kubectl %s %s %s", verb, k.Short(), strings.Join(rest, " "))); err != nil {
				return "", apiErr(err)
			}
			return r.qualified() + "/" + k.Name + " " + past + "\n", nil
		}}, nil
	}
}

package kubectl

import (
	"fmt"
	"sort"
	"strings"

	"github.com/stateflow/stateflow/engine/api/labels"

	"github.com/stateflow/stateflow/engine/api"
)

var getFlags = []flagSpec{{"output", "o", true}, {"selector", "l", true}, {"field-selector", "", true}, {"all-namespaces", "A", false},
	{"show-labels", "", false}, {"sort-by", "", true}, {"watch", "w", false}, {"no-headers", "", false}, {"ignore-not-found", "", false},
	{"chunk-size", "", true}, {"show-kind", "", false}, {"label-columns", "L", true}}

// query is one resource type with the names asked for.
type query struct {
	res   resource
	names []string
	typed string // the type as the command line names it
}

// parseQueries reads "TYPE [NAME…]", "TYPE/NAME …", "TYPE1,TYPE2" and "all".
func parseQueries(cmd string, args []string) ([]query, error) {
	if len(args) == 0 {
		return nil, &cmdError{msg: "You must specify the type of resource to get. Use \"kubectl api-resources\" for a complete list of supported resources.\n\nerror: Required resource not specified.\nUse \"kubectl explain <resource>\" for a detailed description of that resource (e.g. kubectl explain pods).\nSee 'kubectl " + cmd + " -h' for help and examples", code: 1}
	}
	if strings.Contains(args[0], "/") {
		var qs []query
		for _, a := range args {
			t, name, ok := strings.Cut(a, "/")
			if !ok {
				return nil, errorf("there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'kubectl %s resource/<resource_name>' instead of 'kubectl %s resource resource/<resource_name>'", cmd, cmd)
			}
			r, err := resolve(t)
			if err != nil {
				return nil, err
			}
			qs = append(qs, query{res: r, names: []string{name}, typed: t})
		}
		return qs, nil
	}
	var qs []query
	for _, t := range strings.Split(args[0], ",") {
		if t == "all" {
			// The "all" category, in the order kubectl prints it
			// (ControllerRevisions and PersistentVolumeClaims are not in
			// it).
			for _, k := range []string{api.KindPod, api.KindReplicationController, api.KindService, api.KindDaemonSet, api.KindDeployment, api.KindReplicaSet, api.KindStatefulSet,
				api.KindHorizontalPodAutoscaler, api.KindCronJob, api.KindJob} {
				qs = append(qs, query{res: resourceFor(k)})
			}
			continue
		}
		r, err := resolve(t)
		if err != nil {
			return nil, err
		}
		qs = append(qs, query{res: r, typed: t})
	}
	if len(args) > 1 {
		if len(qs) > 1 {
			return nil, errorf("arguments in resource/name form must have a single resource and name")
		}
		qs[0].names = args[1:]
	}
	return qs, nil
}

func resolve(t string) (resource, error) {
	if r, ok := lookupResource(t); ok {
		return r, nil
	}
	if notSimulated[strings.ToLower(t)] {
		return resource{}, errorf("the server doesn't have a resource type %q (Stateflow simulates "+simulatedList()+")", t)
	}
	return resource{}, errorf("the server doesn't have a resource type %q", t)
}

// found is the objects one query returned.
type found struct {
	q    query
	objs []api.Object
}

func (s *Session) get(args []string) (string, error) {
	p, qs, results, err := s.lookup("get", args, getFlags)
	if err != nil {
		return "", err
	}
	out, err := s.print(p, qs, results)
	if err != nil {
		return "", err
	}
	format, _, _ := strings.Cut(p.str("output"), "=")
	if out == "" && (format == "" || format == "wide" || format == "name") && !p.bool("watch") {
		return "", s.noResources(p, results)
	}
	if !p.bool("watch") {
		return out, nil
	}
	return out + s.watch(p, qs, results), nil
}

// lookup parses a reading verb's flags and queries (TYPE[.GROUP] NAME…,
// TYPE/NAME…), checks the types are served and finds their objects.
func (s *Session) lookup(verb string, args []string, specs []flagSpec) (*parsed, []query, []found, error) {
	p, err := parseFlags(verb, args, specs)
	if err != nil {
		return nil, nil, nil, err
	}
	qs, err := parseQueries(verb, p.args)
	if err != nil {
		return nil, nil, nil, err
	}
	if err := s.checkServed(qs); err != nil {
		return nil, nil, nil, err
	}
	results, err := s.find(p, qs)
	return p, qs, results, err
}

// find fetches, from the API server, the objects the queries select.
func (s *Session) find(p *parsed, qs []query) ([]found, error) {
	ls, err := labelSelector(p.str("selector"))
	if err != nil {
		return nil, err
	}
	ns := s.namespace(p)
	all := p.bool("all-namespaces")
	var out []found
	for _, q := range qs {
		s.warnFor(q.res.kind)
		fs, err := fieldSelector(p.str("field-selector"), q.res)
		if err != nil {
			return nil, err
		}
		f := found{q: q}
		if len(q.names) > 0 {
			for _, name := range q.names {
				key := api.Key{Kind: q.res.kind, Namespace: ns, Name: name}
				if q.res.cluster {
					key.Namespace = ""
				}
				o, ok := s.Cluster.Store().Get(key)
				if !ok {
					if p.bool("ignore-not-found") {
						continue
					}
					return nil, s.notFound(q.res, key)
				}
				f.objs = append(f.objs, o)
			}
		} else {
			listNS := ns
			if all || q.res.cluster {
				listNS = ""
			}
			for _, o := range s.Cluster.Store().List(q.res.kind, listNS) {
				if ls.Matches(labels.Set(o.Meta().Labels)) && fs.Matches(fieldSet{o, q.res.kind}) {
					f.objs = append(f.objs, o)
				}
			}
		}
		out = append(out, f)
	}
	return out, nil
}

// print renders the results in the requested output format.
func (s *Session) print(p *parsed, qs []query, results []found) (string, error) {
	format, arg, _ := strings.Cut(p.str("output"), "=")
	var objs []api.Object
	for _, r := range results {
		objs = append(objs, r.objs...)
	}
	if key := p.str("sort-by"); key != "" {
		if err := sortBy(objs, key); err != nil {
			return "", err
		}
		for i := range results {
			if err := sortBy(results[i].objs, key); err != nil {
				return "", err
			}
		}
	}
	single := len(qs) == 1 && len(qs[0].names) == 1 && len(objs) == 1
	data := func() any {
		if single {
			return toMap(objs[0])
		}
		return listMap(objs)
	}
	switch format {
	case "json":
		return toJSON(data()), nil
	case "yaml":
		return toYAML(data()), nil
	case "name":
		var b strings.Builder
		for _, o := range objs {
			b.WriteString(resourceFor(o.GetKind()).qualified() + "/" + o.Meta().Name + "\n")
		}
		return b.String(), nil
	case "jsonpath", "jsonpath-as-json":
		return jsonPath(arg, data(), format == "jsonpath-as-json")
	case "custom-columns":
		return customColumns(arg, objs, p.bool("no-headers"))
	case "", "wide":
		return s.tables(p, results, format == "wide"), nil
	}
	return "", errorf("unable to match a printer suitable for the output format %q, allowed formats are: custom-columns,custom-columns-file,go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,name,template,templatefile,wide,yaml", format)
}

// tables prints one table per resource type, as kubectl get all does.
func (s *Session) tables(p *parsed, results []found, wide bool) string {
	now := s.Cluster.Now()
	all := p.bool("all-namespaces")
	multi := len(results) > 1
	// -L key1,key2: a column of each label's value (labelValues).
	var labelColumns []string
	if l := p.str("label-columns"); l != "" {
		labelColumns = strings.Split(l, ",")
	}
	var b strings.Builder
	empty := true
	for _, r := range results {
		if len(r.objs) == 0 {
			continue
		}
		if !empty {
			b.WriteString("\n")
		}
		empty = false
		t := &table{header: columns(r.q.res.kind, wide)}
		if all && !r.q.res.cluster {
			t.header = append([]string{"NAMESPACE"}, t.header...)
		}
		for _, l := range labelColumns {
			// formatLabelHeaders: the key's last path segment, upper case.
			t.header = append(t.header, strings.ToUpper(l[strings.LastIndex(l, "/")+1:]))
		}
		if p.bool("show-labels") {
			t.header = append(t.header, "LABELS")
		}
		for _, o := range r.objs {
			name := o.Meta().Name
			if multi || p.bool("show-kind") {
				name = r.q.res.qualified() + "/" + name
			}
			cells := row(o, name, wide, now)
			if all && !r.q.res.cluster {
				cells = append([]string{o.Meta().Namespace}, cells...)
			}
			for _, l := range labelColumns {
				cells = append(cells, o.Meta().Labels[l])
			}
			if p.bool("show-labels") {
				cells = append(cells, api.FormatLabels(o.Meta().Labels))
			}
			t.rows = append(t.rows, cells)
		}
		b.WriteString(t.String(p.bool("no-headers")))
	}
	if empty {
		return ""
	}
	return b.String()
}

// noResources is kubectl's message for an empty list (on stderr).
func (s *Session) noResources(p *parsed, results []found) error {
	for _, r := range results {
		if len(r.objs) > 0 || len(r.q.names) > 0 {
			return nil
		}
	}
	if p.bool("all-namespaces") || (len(results) > 0 && results[0].q.res.cluster) {
		return &cmdError{msg: "No resources found", code: 0}
	}
	return &cmdError{msg: fmt.Sprintf("No resources found in %s namespace.", s.namespace(p)), code: 0}
}

func sortBy(objs []api.Object, expr string) error {
	if !strings.HasPrefix(expr, "{") {
		expr = "{" + expr + "}"
	}
	keys := make([]any, len(objs))
	for i, o := range objs {
		v, err := evalJSONPath(expr, toMap(o))
		if err != nil {
			return err
		}
		if len(v) > 0 {
			keys[i] = v[0]
		}
	}
	idx := make([]int, len(objs))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return less(keys[idx[a]], keys[idx[b]]) })
	sorted := make([]api.Object, len(objs))
	for i, j := range idx {
		sorted[i] = objs[j]
	}
	copy(objs, sorted)
	return nil
}

func less(a, b any) bool {
	switch x := a.(type) {
	case int:
		if y, ok := b.(int); ok {
			return x < y
		}
	case float64:
		if y, ok := b.(float64); ok {
			return x < y
		}
	}
	return toString(a) < toString(b)
}

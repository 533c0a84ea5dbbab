package claim

// This file reads a subject from the cluster at the current tick through
// kubectl get, as a learner would in the console: a JSONPath template
// with -o jsonpath, a count from the objects kubectl lists.

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/stateflow/stateflow/kubectl"
)

// listing is the JSONPath that lists each object's name and its
// deletionTimestamp, one object a line.
const listing = `{range .items[*]}{.metadata.name}{"\t"}{.metadata.deletionTimestamp}{"\n"}{end}`

// reader reads subjects through one kubectl session, remembering what
// it read at the current tick.
type reader struct {
	k    *kubectl.Session
	seen map[string]string
}

// forget drops what was read: the world has moved on.
func (r *reader) forget() { clear(r.seen) }

// read is what the subject reads now: a count, or what kubectl's
// JSONPath prints ("" for an object that does not exist, as for a field
// that does not).
func (r *reader) read(s *Subject) (string, error) {
	key := s.String()
	if v, ok := r.seen[key]; ok {
		return v, nil
	}
	v, err := r.readNow(s)
	if err != nil {
		return "", err
	}
	r.seen[key] = v
	return v, nil
}

func (r *reader) readNow(s *Subject) (string, error) {
	if s.Count {
		names, err := r.objects(s)
		return strconv.Itoa(len(names)), err
	}
	tmpl := s.JSONPath
	if s.Condition != "" {
		tmpl = fmt.Sprintf(`{.status.conditions[?(@.type==%q)].status}`, s.Condition)
	}
	if !s.single() {
		return r.get(append(append([]string{s.Resource}, s.Flags...), "-o", "jsonpath="+tmpl))
	}
	name := s.Name
	if glob(name) {
		names, err := r.objects(s)
		switch {
		case err != nil:
			return "", err
		case len(names) == 0:
			return "", nil
		case len(names) > 1:
			return "", fmt.Errorf("%s/%s matches %d objects (%s): a field is read from one; name it, or read a list (%s -l …) or a count", s.Resource, s.Name, len(names), strings.Join(names, ", "), s.Resource)
		}
		name = names[0]
	}
	return r.get(append(append([]string{s.Resource + "/" + name}, s.Flags...), "-o", "jsonpath="+tmpl))
}

// objects lists the names of the objects the subject names, leaving out
// the terminating ones for non-terminating.
func (r *reader) objects(s *Subject) ([]string, error) {
	args := append([]string{s.Resource}, s.Flags...)
	tmpl := listing
	if s.single() && !glob(s.Name) {
		args[0] = s.Resource + "/" + s.Name
		tmpl = `{.metadata.name}{"\t"}{.metadata.deletionTimestamp}{"\n"}`
	}
	out, err := r.get(append(args, "-o", "jsonpath="+tmpl))
	if err != nil {
		return nil, err
	}
	var names []string
	for _, line := range strings.Split(out, "\n") {
		name, deleting, _ := strings.Cut(line, "\t")
		if name == "" || s.NonTerminating && deleting != "" {
			continue
		}
		if s.single() {
			if ok, _ := path.Match(s.Name, name); !ok {
				continue
			}
		}
		names = append(names, name)
	}
	return names, nil
}

// get runs kubectl get with args: its output, "" when the object is not
// found, an error with kubectl's message otherwise.
func (r *reader) get(args []string) (string, error) {
	res := r.k.RunArgs(append([]string{"get"}, args...))
	if res.Code == 0 {
		return res.Stdout, nil
	}
	if strings.Contains(res.Stderr, "(NotFound)") {
		return "", nil
	}
	return "", fmt.Errorf("kubectl get %s: %s", strings.Join(args, " "), strings.TrimSpace(res.Stderr))
}

// glob reports whether a name is a pattern.
func glob(name string) bool { return strings.ContainsAny(name, "*?[") }

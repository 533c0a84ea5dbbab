package kubectl

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/controller/deployment"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
)

// rolloutStatus prints kubectl rollout status's lines (rollout_status.go)
// and, while the rollout is in flight, advances the simulation until it
// completes, fails or the --timeout (virtual time) passes.
func (s *Session) rolloutStatus(args []string) (string, error) {
	p, err := parseFlags("rollout status", args, []flagSpec{{"timeout", "", true}, {"watch", "w", false}, {"revision", "", true}})
	if err != nil {
		return "", err
	}
	k, _, _, err := target("rollout status", p.args, s.namespace(p))
	if err != nil {
		return "", err
	}
	timeout := int64(-1)
	if p.has("timeout") {
		d, err := time.ParseDuration(p.str("timeout"))
		if err != nil {
			return "", errorf("invalid argument %q for \"--timeout\" flag: %v", p.str("timeout"), err)
		}
		timeout = d.Milliseconds()
	}
	watch := !p.has("watch") || p.bool("watch")
	revision := int64(0)
	if p.has("revision") {
		revision, _ = strconv.ParseInt(p.str("revision"), 10, 64)
	}
	deadline := s.Cluster.Now() + timeout
	if timeout <= 0 {
		deadline = s.Cluster.Now() + maxWatchMS
	}
	var b strings.Builder
	last := ""
	for ticks := 0; ; ticks++ {
		o, ok := s.Cluster.Store().Get(k)
		if !ok {
			return b.String(), serverErr("NotFound", fmt.Sprintf("%s %q not found", resourceFor(k.Kind).pluralQualified(), k.Name))
		}
		msg, done, err := statusMessage(o, revision)
		if err != nil {
			return b.String(), err
		}
		if msg != last {
			b.WriteString(msg)
			last = msg
		}
		if done || !watch {
			return b.String(), nil
		}
		next, more := s.Cluster.NextTime()
		if !more || next > deadline {
			if timeout > 0 || !more {
				s.Cluster.RunUntil(deadline)
			}
			return b.String(), errorf("timed out waiting for the condition")
		}
		if !s.watchBudget(ticks) {
			return b.String(), &cmdError{msg: s.stoppedWatching(), code: 1}
		}
		// What is due next may be a delivery, after which Step goes on to
		// the next tick however late it is: one past the deadline is
		// taken back, and the clock runs to the deadline only.
		before := s.Cluster.Now()
		if t := s.Cluster.Step(); t != nil && t.Time > deadline {
			s.Cluster.StepBack()
			if timeout > 0 {
				s.Cluster.RunUntil(deadline)
			} else {
				s.Cluster.RunUntil(before)
			}
			return b.String(), errorf("timed out waiting for the condition")
		}
	}
}

// statusMessage is the status viewer of the object's kind.
func statusMessage(o api.Object, revision int64) (string, bool, error) {
	if viewer := helperFor(o.GetKind()).statusViewer; viewer != nil {
		return viewer(o, revision)
	}
	return "", false, errorf("no status viewer has been implemented for %s", resourceFor(o.GetKind()).groupKind())
}

// maxWatchMS bounds a watch without a timeout: one hour of virtual time.
const maxWatchMS = 3_600_000

// rolloutMessage is DeploymentStatusViewer.Status.
func rolloutMessage(d *api.Deployment, revision int64) (string, bool, error) {
	if revision > 0 {
		if cur := deployment.Revision(d); cur != revision {
			return "", false, errorf("desired revision (%d) is different from the running revision (%d)", revision, cur)
		}
	}
	if d.Generation > d.Status.ObservedGeneration {
		return "Waiting for deployment spec update to be observed...\n", false, nil
	}
	if c := d.Status.Condition(api.DeploymentProgressing); c != nil && c.Reason == deployment.TimedOutReason {
		return "", false, errorf("deployment %q exceeded its progress deadline", d.Name)
	}
	st := d.Status
	switch {
	case st.UpdatedReplicas < d.Replicas():
		return fmt.Sprintf("Waiting for deployment %q rollout to finish: %d out of %d new replicas have been updated...\n", d.Name, st.UpdatedReplicas, d.Replicas()), false, nil
	case st.Replicas > st.UpdatedReplicas:
		return fmt.Sprintf("Waiting for deployment %q rollout to finish: %d old replicas are pending termination...\n", d.Name, st.Replicas-st.UpdatedReplicas), false, nil
	case st.AvailableReplicas < st.UpdatedReplicas:
		return fmt.Sprintf("Waiting for deployment %q rollout to finish: %d of %d updated replicas are available...\n", d.Name, st.AvailableReplicas, st.UpdatedReplicas), false, nil
	}
	return fmt.Sprintf("deployment %q successfully rolled out\n", d.Name), true, nil
}

// ownedReplicaSets lists, from the API server, the ReplicaSets a
// deployment controls, by revision.
func ownedReplicaSets(list []api.Object, d *api.Deployment) []*api.ReplicaSet {
	var out []*api.ReplicaSet
	for _, o := range list {
		rs := o.(*api.ReplicaSet)
		if ref := rs.ControllerRef(); ref != nil && ref.UID == d.UID {
			out = append(out, rs)
		}
	}
	sort.Slice(out, func(i, j int) bool { return deployment.Revision(out[i]) < deployment.Revision(out[j]) })
	return out
}

func (s *Session) rolloutHistory(args []string) (string, error) {
	p, err := parseFlags("rollout history", args, []flagSpec{{"revision", "", true}, {"output", "o", true}})
	if err != nil {
		return "", err
	}
	k, _, _, err := target("rollout history", p.args, s.namespace(p))
	if err != nil {
		return "", err
	}
	o, ok := s.Cluster.Store().Get(k)
	if !ok {
		return "", serverErr("NotFound", fmt.Sprintf("%s %q not found", resourceFor(k.Kind).pluralQualified(), k.Name))
	}
	want := int64(0)
	if p.has("revision") {
		want, _ = strconv.ParseInt(p.str("revision"), 10, 64)
	}
	if _, _, ok := revisioned(o); ok {
		return s.revisionHistory(o, want)
	}
	d, ok := o.(*api.Deployment)
	if !ok {
		return "", errorf("no history viewer has been implemented for %q", resourceFor(k.Kind).groupKind())
	}
	rss := ownedReplicaSets(s.Cluster.Store().List(api.KindReplicaSet, k.Namespace), d)
	if len(rss) == 0 {
		return "", errorf("no rollout history found for deployment %q", k.Name)
	}
	if want > 0 {
		for _, rs := range rss {
			if deployment.Revision(rs) == want {
				tpl := rs.Spec.Template.DeepCopy()
				delete(tpl.Labels, deployment.DefaultHashLabel)
				return fmt.Sprintf("deployment.apps/%s with revision #%d\n%s\n", k.Name, want, describeTemplate(&tpl)), nil
			}
		}
		return "", errorf("unable to find the specified revision")
	}
	return "deployment.apps/" + k.Name + " \n" + historyTable(rss) + "\n", nil
}

// revisionOf is the revision a history entry stands for.
func revisionOf(o api.Object) int64 {
	if r, ok := o.(*api.ControllerRevision); ok {
		return r.Revision
	}
	return deployment.Revision(o)
}

// editObject is the shape of rollout pause, resume, restart and undo:
// resolve the object, then, in the command's tick, edit the API server's
// copy of it and write it back (edit returns the line kubectl prints, or
// an error that leaves the object as it was). kinds limits the types the
// command accepts (all of them if empty).
func editObject(s *Session, cmd string, p *parsed, kinds []string, edit func(tick reconcile.Tick, o api.Object, r resource) (string, error)) (*Mutation, error) {
	k, r, _, err := target(cmd, p.args, s.namespace(p), kinds...)
	if err != nil {
		return nil, err
	}
	return &Mutation{Object: k, run: func(tick reconcile.Tick) (string, error) {
		o, err := live(tick, k)
		if err != nil {
			return "", err
		}
		return edit(tick, o, r)
	}}, nil
}

// updated writes an object a rollout command edited.
func updated(tick reconcile.Tick, o api.Object, summary, done string) (string, error) {
	if _, err := tick.Update(trace.Translate, o, summary); err != nil {
		return "", apiErr(err)
	}
	return resourceFor(o.GetKind()).qualified() + "/" + o.Meta().Name + " " + done + "\n", nil
}

// buildPause is rollout pause and resume. Only Deployments pause; any
// other object gets the pauser's error (objectpauser.go, objectresumer.go).
func buildPause(pause bool) builder {
	verb, state := "resume", "not paused"
	if pause {
		verb, state = "pause", "already paused"
	}
	return func(s *Session, args []string) (*Mutation, error) {
		p, err := parseFlags("rollout "+verb, args, nil)
		if err != nil {
			return nil, err
		}
		return editObject(s, "rollout "+verb, p, nil, func(tick reconcile.Tick, o api.Object, r resource) (string, error) {
			d, ok := o.(*api.Deployment)
			if !ok {
				return "", errorf("%s %q %sing is not supported", r.pluralQualified(), o.Meta().Name, strings.TrimSuffix(verb, "e"))
			}
			if d.Spec.Paused == pause {
				return "", errorf("deployments.apps %q is %s", d.Name, state)
			}
			d.Spec.Paused = pause
			return updated(tick, d, fmt.Sprintf("kubectl rollout %s: deploy/%s spec.paused=%v", verb, d.Name, pause), verb+"d")
		})
	}
}

// restartedAt is the template annotation rollout restart sets.
const restartedAt = "kubectl.kubernetes.io/restartedAt"

// buildRestart is rollout restart (objectrestarter.go): the template gets
// a restartedAt annotation of the current second, which rolls the pods.
func buildRestart(s *Session, args []string) (*Mutation, error) {
	p, err := parseFlags("rollout restart", args, nil)
	if err != nil {
		return nil, err
	}
	return editObject(s, "rollout restart", p, nil, func(tick reconcile.Tick, o api.Object, r resource) (string, error) {
		restart := helperFor(o.GetKind()).restartTemplate
		if restart == nil {
			return "", errorf("%s %q restarting is not supported", r.pluralQualified(), o.Meta().Name)
		}
		t, err := restart(o)
		if err != nil {
			return "", err
		}
		now := api.At(tick.Now()).String()
		if t.Annotations[restartedAt] == now {
			// The patch would be empty.
			return "", errorf("failed to create patch for %s: if restart has already been triggered within the past second, please wait before attempting to trigger another", o.Meta().Name)
		}
		if t.Annotations == nil {
			t.Annotations = map[string]string{}
		}
		t.Annotations[restartedAt] = now
		return updated(tick, o, "kubectl rollout restart: new restartedAt annotation in "+api.KeyOf(o).Short()+"'s template", "restarted")
	})
}

// buildUndo is kubectl rollout undo on apps/v1. For a Deployment it works
// on the client side: it copies the chosen ReplicaSet's template (without
// pod-template-hash) and annotations into the deployment; no
// DeploymentRollback event is emitted. For a DaemonSet or a StatefulSet
// it patches the chosen ControllerRevision's template in.
func buildUndo(s *Session, args []string) (*Mutation, error) {
	p, err := parseFlags("rollout undo", args, []flagSpec{{"to-revision", "", true}})
	if err != nil {
		return nil, err
	}
	toRevision := int64(0)
	if p.has("to-revision") {
		if toRevision, err = strconv.ParseInt(p.str("to-revision"), 10, 64); err != nil {
			return nil, errorf("invalid argument %q for \"--to-revision\" flag", p.str("to-revision"))
		}
	}
	return editObject(s, "rollout undo", p, nil, func(tick reconcile.Tick, o api.Object, r resource) (string, error) {
		if _, _, ok := revisioned(o); ok {
			return undoRevision(tick, o, toRevision)
		}
		d, ok := o.(*api.Deployment)
		if !ok {
			return "", errorf("no rollbacker has been implemented for %q", r.groupKind())
		}
		if d.Spec.Paused {
			return "", errorf("you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume deployment/%s' and try again", d.Name)
		}
		rs, err := undoTarget(d, ownedReplicaSets(tick.LiveList(api.KindReplicaSet, d.Namespace), d), toRevision)
		if err != nil {
			return "", err
		}
		tpl := rs.Spec.Template.DeepCopy()
		delete(tpl.Labels, deployment.DefaultHashLabel)
		if deployment.EqualIgnoreHash(&tpl, &d.Spec.Template) {
			return fmt.Sprintf("deployment.apps/%s skipped rollback (current template already matches revision %d)\n", d.Name, deployment.Revision(rs)), nil
		}
		d.Spec.Template = tpl
		for key, v := range rs.Annotations {
			switch key {
			case deployment.RevisionAnnotation, deployment.RevisionHistoryAnnotation, deployment.DesiredReplicasAnnotation, deployment.MaxReplicasAnnotation:
				continue
			}
			if d.Annotations == nil {
				d.Annotations = map[string]string{}
			}
			d.Annotations[key] = v
		}
		return updated(tick, d, fmt.Sprintf("kubectl rollout undo: deploy/%s template set to revision %d's", d.Name, deployment.Revision(rs)), "rolled back")
	})
}

// undoTarget picks --to-revision, else the second-highest revision.
func undoTarget(d *api.Deployment, rss []*api.ReplicaSet, to int64) (*api.ReplicaSet, error) {
	if to > 0 {
		for _, rs := range rss {
			if deployment.Revision(rs) == to {
				return rs, nil
			}
		}
		return nil, errorf("unable to find specified revision %d in history", to)
	}
	if len(rss) < 2 {
		return nil, errorf("no rollout history found for deployment %q", d.Name)
	}
	return rss[len(rss)-2], nil
}

package deployment

import (
	"fmt"
	"github.com/stateflow/stateflow/engine/controller/controllerutil"
	"strconv"
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
)

// Rows from deployment_util_test.go TestResolveFenceposts and
// docs/fidelity.md S13.
func TestResolveFenceposts(t *testing.T) {
	for _, tc := range []struct {
		surge, unavailable string
		desired            int32
		wantSurge, wantU   int32
	}{
		{"0%", "0%", 0, 0, 1},
		{"39%", "39%", 10, 4, 3},
		{"", "39%", 10, 0, 3},
		{"39%", "", 10, 4, 0},
		{"", "", 10, 0, 1},
		{"0", "10%", 5, 0, 1}, // both-zero rule
	} {
		s, u, err := resolveFenceposts(intstr(tc.surge), intstr(tc.unavailable), tc.desired)
		if err != nil || s != tc.wantSurge || u != tc.wantU {
			t.Errorf("resolveFenceposts(%q, %q, %d) = %d, %d, %v; want %d, %d", tc.surge, tc.unavailable, tc.desired, s, u, err, tc.wantSurge, tc.wantU)
		}
	}
}

func TestFencepostTable25Percent(t *testing.T) {
	surge := []int32{1, 1, 1, 1, 2, 2, 2, 2, 3, 3}
	unavail := []int32{0, 0, 0, 1, 1, 1, 1, 2, 2, 2}
	minAvail := []int32{1, 2, 3, 3, 4, 5, 6, 6, 7, 8}
	for r := int32(1); r <= 10; r++ {
		d := newDeployment(r, "25%", "25%")
		if MaxSurge(d) != surge[r-1] || MaxUnavailable(d) != unavail[r-1] || MinAvailable(d) != minAvail[r-1] {
			t.Errorf("replicas %d: surge %d unavailable %d minAvailable %d; want %d %d %d", r, MaxSurge(d), MaxUnavailable(d), MinAvailable(d), surge[r-1], unavail[r-1], minAvail[r-1])
		}
	}
}

func TestMaxUnavailable(t *testing.T) {
	recreate := newDeployment(10, "", "")
	recreate.Spec.Strategy = api.DeploymentStrategy{Type: api.RecreateStrategy}
	for _, tc := range []struct {
		name string
		d    *api.Deployment
		want int32
	}{
		{"10 replicas, 5", newDeployment(10, "0", "5"), 5},
		{"10 replicas, 10", newDeployment(10, "0", "10"), 10},
		{"5 replicas, 10 clamps", newDeployment(5, "0", "10"), 5},
		{"0 replicas", newDeployment(0, "0", "10"), 0},
		{"recreate", recreate, 0},
		{"10 replicas, 50%", newDeployment(10, "0", "50%"), 5},
		{"5 replicas, 100%", newDeployment(5, "0", "100%"), 5},
	} {
		if got := MaxUnavailable(tc.d); got != tc.want {
			t.Errorf("%s: MaxUnavailable = %d, want %d", tc.name, got, tc.want)
		}
	}
	if got := MinAvailable(newDeployment(10, "0", "60%")); got != 4 {
		t.Errorf("MinAvailable(10, 60%%) = %d, want 4", got)
	}
	if got := MinAvailable(newDeployment(10, "0", "100%")); got != 0 {
		t.Errorf("MinAvailable(10, 100%%) = %d, want 0", got)
	}
}

// Rows from rolling_test.go TestDeploymentController_reconcileNewReplicaSet.
func TestReconcileNewReplicaSet(t *testing.T) {
	for _, tc := range []struct {
		replicas, surge, old, new int32
		want                      int32 // -1: no scale
	}{
		{10, 2, 10, 0, 2},
		{10, 2, 5, 0, 7},
		{10, 0, 10, 0, -1},
		{10, 2, 10, 2, -1},
		{10, 2, 2, 11, 10},
	} {
		f := newFake()
		d := newDeployment(tc.replicas, fmt.Sprint(tc.surge), "0")
		oldRS, newRS := newRS("old", 0, tc.old, tc.old), newRS("new", 1, tc.new, 0)
		scaled, err := newSyncer(f).reconcileNewReplicaSet([]*api.ReplicaSet{oldRS, newRS}, newRS, d)
		got, ok := f.replicas("new")
		if err != nil || scaled != (tc.want >= 0) || (tc.want >= 0 && (!ok || got != tc.want)) {
			t.Errorf("%+v: scaled %v to %d (written %v), want %d", tc, scaled, got, ok, tc.want)
		}
	}
}

// Rows from rolling_test.go TestDeploymentController_scaleDownOldReplicaSetsForRollingUpdate.
func TestScaleDownOldReplicaSetsForRollingUpdate(t *testing.T) {
	for _, tc := range []struct {
		replicas       int32
		maxUnavailable string
		ready, old     int32
		want           int32 // -1: no scale
	}{
		{10, "0", 10, 10, 9},
		{10, "2", 10, 10, 8},
		{10, "2", 8, 10, -1},
		{10, "2", 1, 10, -1},
	} {
		f := newFake()
		d := newDeployment(tc.replicas, "", tc.maxUnavailable)
		oldRS := newRS("old", 0, tc.old, tc.ready)
		n, err := newSyncer(f).scaleDownOldReplicaSetsForRollingUpdate([]*api.ReplicaSet{oldRS}, []*api.ReplicaSet{oldRS}, d)
		got, ok := f.replicas("old")
		if err != nil || (tc.want < 0 && (ok || n != 0)) || (tc.want >= 0 && got != tc.want) {
			t.Errorf("%+v: scaled by %d to %d (written %v), want %d", tc, n, got, ok, tc.want)
		}
	}
}

// Rows from rolling_test.go TestDeploymentController_cleanupUnhealthyReplicas.
func TestCleanupUnhealthyReplicas(t *testing.T) {
	for _, tc := range []struct {
		old, ready, maxCleanup, want int32
	}{
		{10, 8, 1, 1}, {10, 8, 3, 2}, {10, 8, 0, 0}, {10, 10, 3, 0},
	} {
		f := newFake()
		oldRS := newRS("old", 0, tc.old, tc.ready)
		_, n, err := newSyncer(f).cleanupUnhealthyReplicas([]*api.ReplicaSet{oldRS}, tc.maxCleanup, newDeployment(10, "2", "2"))
		if err != nil || n != tc.want {
			t.Errorf("%+v: cleaned %d, want %d", tc, n, tc.want)
		}
	}
}

// Unavailable new pods block the scale-down (rolling_test.go reconcileOldReplicaSets).
func TestReconcileOldReplicaSetsBlockedByUnavailableNewPods(t *testing.T) {
	f := newFake()
	d := newDeployment(10, "0", "2")
	oldRS, newRS := newRS("old", 0, 8, 8), newRS("new", 1, 2, 0)
	scaled, err := newSyncer(f).reconcileOldReplicaSets([]*api.ReplicaSet{oldRS, newRS}, []*api.ReplicaSet{oldRS}, newRS, d)
	if err != nil || scaled || len(f.updates) != 0 {
		t.Errorf("scaled %v %v: old ReplicaSets must wait for the new pods", scaled, f.updates)
	}
}

// An old ReplicaSet whose cached status shows more available pods than its
// spec (a scale-down the ReplicaSet controller has not carried out yet)
// would need a negative clean-up: upstream refuses with an error at that
// ReplicaSet, after the older ones in the loop were already scaled, and
// never scales it up.
func TestCleanupUnhealthyReplicasRefusesNegativeCleanup(t *testing.T) {
	f := newFake()
	older := newRS("older", 0, 3, 1) // 2 unhealthy: cleaned up first
	ahead := newRS("ahead", 1, 2, 3) // 3 available for spec 2
	out, n, err := newSyncer(f).cleanupUnhealthyReplicas([]*api.ReplicaSet{ahead, older}, 5, newDeployment(3, "1", "0"))
	want := "when cleaning up unhealthy replicas, got invalid request to scale down default/ahead 2 -> 3"
	if err == nil || err.Error() != want || out != nil || n != 0 {
		t.Fatalf("got %d ReplicaSets (nil: %v), %d, %v; want nil, 0, %q", len(out), out == nil, n, err, want)
	}
	if got, ok := f.replicas("older"); !ok || got != 1 {
		t.Errorf("older scaled to %d (written %v), want 1: earlier ReplicaSets stay scaled", got, ok)
	}
	if _, ok := f.updates["ahead"]; ok {
		t.Errorf("ahead was written: %+v", f.updates["ahead"])
	}
	if len(f.events) != 1 || f.events[0] != "Normal ScalingReplicaSet Scaled down replica set older from 3 to 1" {
		t.Errorf("events %q", f.events)
	}
}

// reconcileOldReplicaSets swallows an error from either scale-down step
// (upstream returns false, nil): the sync goes on to write the status, and
// the explanation says why the old ReplicaSets were not scaled down.
func TestReconcileOldReplicaSetsErrorsDoNotStopSync(t *testing.T) {
	for _, tc := range []struct {
		name         string
		oldAvailable int32
		updateErr    error
		note         string
	}{
		{"cleanup refuses a negative count", 3, nil,
			"skipped scaling down old ReplicaSets this sync: when cleaning up unhealthy replicas, got invalid request to scale down default/old 2 -> 3"},
		{"scale-down write refused", 2, &apiserver.StatusError{Reason: apiserver.ReasonConflict, Message: "conflict on old"},
			"stopped scaling down old ReplicaSets this sync: conflict on old"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake()
			// 3 replicas, maxSurge 1, maxUnavailable 0: 4 pods asked for, so
			// the new ReplicaSet cannot grow and the old one may lose 1.
			d := withTemplate(newDeployment(3, "1", "0"), "web:v2")
			oldRS := ownedRS(d, "old", "web:v1", 0, 2, tc.oldAvailable)
			oldRS.Status.Replicas = tc.oldAvailable
			newRS := ownedRS(d, "new", "web:v2", 1, 2, 2)
			if tc.updateErr != nil {
				f.updateErr["old"] = tc.updateErr
			}
			if _, err := syncOnce(f, d, oldRS, newRS); err != nil {
				t.Fatalf("sync failed: %v", err)
			}
			if _, ok := f.updates["old"]; ok {
				t.Errorf("old was written: %+v", f.updates["old"])
			}
			for _, ev := range f.events {
				if strings.Contains(ev, "ScalingReplicaSet") {
					t.Errorf("unexpected event %q", ev)
				}
			}
			if st, ok := f.updates["web"].(*api.Deployment); !ok || st.Status.Replicas != 2+tc.oldAvailable {
				t.Errorf("the sync must go on to write the status: %+v", f.updates["web"])
			}
			if !strings.Contains(f.explained, tc.note) {
				t.Errorf("explanation %q lacks %q", f.explained, tc.note)
			}
		})
	}
}

// A Create refused with AlreadyExists for a ReplicaSet the cache has not
// seen returns the lister's NotFound error, as upstream; the explanation
// says what happened in the learner's words.
func TestCreateAlreadyExistsNotInCache(t *testing.T) {
	f := newFake()
	d := withTemplate(newDeployment(3, "1", "0"), "web:v1")
	name := "web-" + controllerutil.ComputeHash(&d.Spec.Template, nil)
	f.createErr = &apiserver.StatusError{Reason: apiserver.ReasonAlreadyExists, Message: fmt.Sprintf("replicasets.apps %q already exists", name)}
	_, err := syncOnce(f, d)
	if want := fmt.Sprintf("replicaset.apps %q not found", name); err == nil || err.Error() != want {
		t.Fatalf("error %v, want %q", err, want)
	}
	if !apiserver.IsReason(err, apiserver.ReasonNotFound) {
		t.Errorf("error %#v is not a NotFound", err)
	}
	if note := fmt.Sprintf("rs/%s already exists in the API server but this controller's cache has not seen it yet", name); !strings.Contains(f.explained, note) {
		t.Errorf("explanation %q lacks %q", f.explained, note)
	}
	if len(f.events) != 0 || len(f.updates) != 0 {
		t.Errorf("writes %v, events %q: want none", f.updates, f.events)
	}
}

// Rows from deployment_util_test.go TestGetReplicaSetFraction.
func TestGetReplicaSetFraction(t *testing.T) {
	for _, tc := range []struct {
		name             string
		replicas, surge  int32
		statusReplicas   int32
		annotation       string
		rsReplicas, want int32
	}{
		{"scale to zero", 0, 0, 0, "", 10, -10},
		{"no annotation, no status", 10, 0, 0, "", 5, 0},
		{"annotation 0, no status", 10, 0, 0, "0", 5, 0},
		{"no annotation, status 100", 120, 0, 100, "", 50, 10},
		{"annotation 100", 120, 0, 0, "100", 50, 10},
		{"surge 10, annotation 110", 120, 10, 0, "110", 50, 9},
		{"down, annotation 12", 10, 0, 0, "12", 6, -1},
		{"down with surge", 100, 10, 0, "130", 50, -8},
	} {
		d := newDeployment(tc.replicas, fmt.Sprint(tc.surge), "0")
		d.Status.Replicas = tc.statusReplicas
		rs := newRS("rs", 0, tc.rsReplicas, 0)
		if tc.annotation != "" {
			rs.Annotations[MaxReplicasAnnotation] = tc.annotation
		}
		if got := getReplicaSetFraction(rs, d); got != tc.want {
			t.Errorf("%s: fraction %d, want %d", tc.name, got, tc.want)
		}
	}
}

// Proportional scaling: rows of sync_test.go TestScale (docs/fidelity.md
// S5).
func TestProportionalScale(t *testing.T) {
	type rsSpec struct {
		name    string
		created int64
		size    int32
	}
	for _, tc := range []struct {
		name               string
		oldReplicas        int32
		oldSurge, newSurge string
		newReplicas        int32
		unavailable        string
		newRSName          string // the deployment's new RS ("" = none)
		rss                []rsSpec
		want               map[string]int32
	}{
		{"proportional 5→10", 5, "0", "0", 10, "0", "v2", []rsSpec{{"v1", 0, 3}, {"v2", 1, 2}}, map[string]int32{"v1": 6, "v2": 4}},
		{"proportional 5→3", 5, "0", "0", 3, "0", "v2", []rsSpec{{"v1", 0, 3}, {"v2", 1, 2}}, map[string]int32{"v1": 2, "v2": 1}},
		{"proportional 9→4", 9, "0", "0", 4, "0", "v2", []rsSpec{{"v1", 0, 1}, {"v2", 1, 8}}, map[string]int32{"v1": 0, "v2": 4}},
		{"proportional 7→10", 7, "0", "0", 10, "0", "v3", []rsSpec{{"v1", 0, 2}, {"v2", 1, 3}, {"v3", 2, 2}}, map[string]int32{"v1": 3, "v2": 4, "v3": 3}},
		{"proportional 13→8", 13, "0", "0", 8, "0", "v3", []rsSpec{{"v1", 0, 3}, {"v2", 1, 8}, {"v3", 2, 2}}, map[string]int32{"v1": 2, "v2": 5, "v3": 1}},
		{"leftover 3→4", 3, "0", "0", 4, "0", "v3", []rsSpec{{"v1", 0, 1}, {"v2", 1, 1}, {"v3", 2, 1}}, map[string]int32{"v1": 1, "v2": 1, "v3": 2}},
		{"leftover 3→2", 3, "0", "0", 2, "0", "v3", []rsSpec{{"v1", 0, 1}, {"v2", 1, 1}, {"v3", 2, 1}}, map[string]int32{"v1": 0, "v2": 1, "v3": 1}},
		{"6→0", 6, "0", "0", 0, "0", "v3", []rsSpec{{"v1", 0, 1}, {"v2", 1, 2}, {"v3", 2, 3}}, map[string]int32{"v1": 0, "v2": 0, "v3": 0}},
		{"surge pods 10→20", 10, "2", "2", 20, "0", "v2", []rsSpec{{"v1", 0, 6}, {"v2", 1, 6}}, map[string]int32{"v1": 11, "v2": 11}},
		{"surge and size 10→50", 10, "3", "6", 50, "0", "v2", []rsSpec{{"v1", 0, 8}, {"v2", 1, 5}}, map[string]int32{"v1": 34, "v2": 22}},
		{"no new RS 4→5", 4, "0", "0", 5, "0", "", []rsSpec{{"v1", 0, 2}, {"v2", 1, 2}}, map[string]int32{"v1": 2, "v2": 3}},
		{"documented mid-rollout 10→15", 10, "3", "3", 15, "2", "new", []rsSpec{{"old", 0, 8}, {"new", 1, 5}}, map[string]int32{"old": 11, "new": 7}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake()
			d := newDeployment(tc.newReplicas, tc.newSurge, tc.unavailable)
			oldD := newDeployment(tc.oldReplicas, tc.oldSurge, tc.unavailable)
			var newRS *api.ReplicaSet
			var oldRSs []*api.ReplicaSet
			for _, s := range tc.rss {
				rs := newRS0(s.name, s.created, s.size)
				setReplicasAnnotations(rs, oldD.Replicas(), oldD.Replicas()+MaxSurge(oldD))
				if s.name == tc.newRSName {
					newRS = rs
				} else {
					oldRSs = append(oldRSs, rs)
				}
			}
			if err := newSyncer(f).scale(d, newRS, oldRSs); err != nil {
				t.Fatal(err)
			}
			for name, want := range tc.want {
				got, ok := f.replicas(name)
				if !ok {
					for _, s := range tc.rss {
						if s.name == name {
							got = s.size
						}
					}
				}
				if got != want {
					t.Errorf("%s = %d, want %d", name, got, want)
				}
			}
		})
	}
}

func newRS0(name string, created int64, size int32) *api.ReplicaSet {
	return newRS(name, created, size, size)
}

func TestDeploymentComplete(t *testing.T) {
	for _, tc := range []struct {
		desired, current, updated, available int32
		want                                 bool
	}{
		{5, 5, 5, 4, false}, {5, 5, 5, 3, false}, {5, 5, 5, 5, true}, {5, 5, 4, 5, false}, {1, 2, 1, 1, false}, {1, 1, 1, 0, false},
	} {
		d := newDeployment(tc.desired, "0", "1")
		st := api.DeploymentStatus{Replicas: tc.current, UpdatedReplicas: tc.updated, AvailableReplicas: tc.available, ObservedGeneration: 1}
		if got := deploymentComplete(d, &st); got != tc.want {
			t.Errorf("%+v: %v", tc, got)
		}
	}
}

func TestDeploymentProgressing(t *testing.T) {
	for _, tc := range []struct {
		old, new [4]int32 // replicas, updated, ready, available
		want     bool
	}{
		{[4]int32{10, 4, 4, 4}, [4]int32{10, 6, 4, 4}, true},
		{[4]int32{10, 4, 4, 4}, [4]int32{10, 4, 4, 4}, false},
		{[4]int32{10, 4, 6, 6}, [4]int32{8, 4, 6, 6}, true},
		{[4]int32{10, 7, 3, 3}, [4]int32{10, 6, 3, 3}, false},
		{[4]int32{10, 4, 7, 7}, [4]int32{8, 8, 5, 5}, true},
		{[4]int32{10, 10, 9, 8}, [4]int32{10, 10, 10, 8}, true},
		{[4]int32{10, 10, 10, 9}, [4]int32{10, 10, 10, 10}, true},
	} {
		d := newDeployment(10, "0", "1")
		d.Status = api.DeploymentStatus{Replicas: tc.old[0], UpdatedReplicas: tc.old[1], ReadyReplicas: tc.old[2], AvailableReplicas: tc.old[3]}
		st := api.DeploymentStatus{Replicas: tc.new[0], UpdatedReplicas: tc.new[1], ReadyReplicas: tc.new[2], AvailableReplicas: tc.new[3]}
		if got := deploymentProgressing(d, &st); got != tc.want {
			t.Errorf("%v → %v: %v, want %v", tc.old, tc.new, got, tc.want)
		}
	}
}

func TestDeploymentTimedOut(t *testing.T) {
	at := func(s string) int64 {
		m, _ := strconv.Atoi(s[0:2])
		sec, _ := strconv.Atoi(s[3:5])
		return int64(m*60+sec) * 1000
	}
	for _, tc := range []struct {
		lastUpdate string
		deadline   *int32
		want       bool
	}{
		{"01:09", api.Int32(10), true},
		{"01:11", api.Int32(10), false},
		{"01:09", nil, false},
		{"01:09", api.Int32(1<<31 - 1), false},
	} {
		d := newDeployment(1, "0", "1")
		d.Spec.ProgressDeadlineSeconds = tc.deadline
		st := api.DeploymentStatus{Conditions: []api.DeploymentCondition{newDeploymentCondition(api.DeploymentProgressing, api.ConditionTrue, ReplicaSetUpdatedReason, "", at(tc.lastUpdate))}}
		if got := deploymentTimedOut(d, &st, at("01:20")); got != tc.want {
			t.Errorf("%+v: %v", tc, got)
		}
	}
}

// setDeploymentCondition keeps an unchanged condition, keeps the
// transition time when only the reason changes, and moves it to the end.
func TestSetDeploymentCondition(t *testing.T) {
	st := &api.DeploymentStatus{}
	setDeploymentCondition(st, newDeploymentCondition(api.DeploymentProgressing, api.ConditionTrue, NewReplicaSetReason, "a", 1000))
	setDeploymentCondition(st, newDeploymentCondition(api.DeploymentAvailable, api.ConditionFalse, MinimumReplicasUnavailable, "b", 1000))
	setDeploymentCondition(st, newDeploymentCondition(api.DeploymentProgressing, api.ConditionTrue, NewReplicaSetReason, "a", 5000))
	if st.Conditions[0].Type != api.DeploymentProgressing || st.Conditions[0].LastUpdateTime.MS != 1000 {
		t.Fatalf("an unchanged condition must be left alone: %+v", st.Conditions)
	}
	setDeploymentCondition(st, newDeploymentCondition(api.DeploymentProgressing, api.ConditionTrue, NewRSAvailableReason, "c", 9000))
	last := st.Conditions[len(st.Conditions)-1]
	if last.Type != api.DeploymentProgressing || last.LastTransitionTime.MS != 1000 || last.LastUpdateTime.MS != 9000 {
		t.Fatalf("reason change: %+v", st.Conditions)
	}
}

// createFailed with the name taken: the deployment's own ReplicaSet with
// its template is used as the new one (upstream sync.go getNewReplicaSet
// sets createdRS and carries on); anybody else's is a hash collision that
// bumps collisionCount and returns the original AlreadyExists error.
func TestCreateAlreadyExistsInCache(t *testing.T) {
	d := withTemplate(newDeployment(3, "1", "0"), "web:v1")
	name := "web-" + controllerutil.ComputeHash(&d.Spec.Template, nil)
	exists := &apiserver.StatusError{Reason: apiserver.ReasonAlreadyExists, Message: fmt.Sprintf("replicasets.apps %q already exists", name)}
	for _, tc := range []struct {
		name      string
		image     string
		wantRS    bool
		collision bool
	}{
		{"our own, same template", "web:v1", true, false},
		{"same name, other template", "web:v0", false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake()
			c := New()
			rs := ownedRS(d, name, tc.image, 0, 1, 0)
			c.Informer.Apply(apiserver.WatchEvent{Type: apiserver.Added, Object: rs, Version: apiserver.EmptyVersion().With(rs)})
			s := &syncer{tick: f, cache: c.Informer}
			got, err := s.createFailed(d.DeepCopy(), rs, exists)
			if tc.wantRS && (err != nil || got != rs) {
				t.Fatalf("got %v, %v; want the cached ReplicaSet and no error", got, err)
			}
			if !tc.wantRS && (got != nil || err != exists) {
				t.Fatalf("got %v, %v; want the AlreadyExists error", got, err)
			}
			st, wrote := f.updates[d.Name]
			if wrote != tc.collision {
				t.Fatalf("status written %v, want %v", wrote, tc.collision)
			}
			if tc.collision {
				if cc := st.(*api.Deployment).Status.CollisionCount; cc == nil || *cc != 1 {
					t.Errorf("collisionCount %v, want 1", cc)
				}
			}
		})
	}
}

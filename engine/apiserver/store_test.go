package apiserver

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine/api"
)

func deployment(mutate func(*api.Deployment)) *api.Deployment {
	d := &api.Deployment{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"}}
	d.Spec.Replicas = api.Int32(3)
	d.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	d.Spec.Template.Labels = map[string]string{"app": "web"}
	d.Spec.Template.Spec.Containers = []api.Container{{Name: "web", Image: "nginx:1.25"}}
	if mutate != nil {
		mutate(d)
	}
	return d
}

func newStore(t *testing.T) *Store {
	s := New(1)
	if _, err := s.Create(&api.Namespace{ObjectMeta: api.ObjectMeta{Name: "default"}}); err != nil {
		t.Fatal(err)
	}
	return s
}

// Validation answers with the API server's words and field paths.
func TestValidationMessages(t *testing.T) {
	zero := api.FromInt(0)
	for _, tc := range []struct {
		name   string
		mutate func(*api.Deployment)
		want   string
	}{
		{"negative replicas", func(d *api.Deployment) { d.Spec.Replicas = api.Int32(-1) },
			`Deployment.apps "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0`},
		{"both zero", func(d *api.Deployment) {
			d.Spec.Strategy = api.DeploymentStrategy{Type: api.RollingUpdateStrategy, RollingUpdate: &api.RollingUpdateDeployment{MaxSurge: &zero, MaxUnavailable: &zero}}
		}, "spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0"},
		{"negative percent", func(d *api.Deployment) {
			minus := api.FromString("-5%")
			d.Spec.Strategy = api.DeploymentStrategy{Type: api.RollingUpdateStrategy, RollingUpdate: &api.RollingUpdateDeployment{MaxSurge: &minus}}
		}, `spec.strategy.rollingUpdate.maxSurge: Invalid value: "-5%": a valid percent string must be a numeric string followed by an ending '%'`},
		{"selector does not match", func(d *api.Deployment) { d.Spec.Template.Labels = map[string]string{"app": "other"} },
			"spec.template.metadata.labels: Invalid value: map[string]string{\"app\":\"other\"}: `selector` does not match template `labels`"},
		{"missing selector", func(d *api.Deployment) { d.Spec.Selector = nil }, "spec.selector: Required value"},
		{"missing image", func(d *api.Deployment) { d.Spec.Template.Spec.Containers[0].Image = "" }, "spec.template.spec.containers[0].image: Required value"},
		// The containers' field paths, made only when an error names them.
		{"second container's duplicate name", func(d *api.Deployment) {
			d.Spec.Template.Spec.Containers = append(d.Spec.Template.Spec.Containers, api.Container{Name: "web", Image: "b"})
		}, `spec.template.spec.containers[1].name: Duplicate value: "web"`},
		{"bad container name", func(d *api.Deployment) { d.Spec.Template.Spec.Containers[0].Name = "Web" },
			`spec.template.spec.containers[0].name: Invalid value: "Web": a lowercase RFC 1123 label`},
		{"image with spaces", func(d *api.Deployment) { d.Spec.Template.Spec.Containers[0].Image = " nginx" },
			`spec.template.spec.containers[0].image: Invalid value: " nginx": must not have leading or trailing whitespace`},
		{"port 0", func(d *api.Deployment) {
			d.Spec.Template.Spec.Containers[0].Ports = []api.ContainerPort{{ContainerPort: 80}, {ContainerPort: 0}}
		}, "spec.template.spec.containers[0].ports[1].containerPort: Required value"},
		{"port too high", func(d *api.Deployment) {
			d.Spec.Template.Spec.Containers[0].Ports = []api.ContainerPort{{ContainerPort: 70000}}
		}, "spec.template.spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive"},
		{"probe without a handler", func(d *api.Deployment) { d.Spec.Template.Spec.Containers[0].ReadinessProbe = &api.Probe{} },
			"spec.template.spec.containers[0].readinessProbe: Required value: must specify a handler type"},
		{"probe with two handlers", func(d *api.Deployment) {
			d.Spec.Template.Spec.Containers[0].LivenessProbe = &api.Probe{Exec: &api.ExecAction{Command: []string{"true"}}, GRPC: &api.GRPCAction{Port: 9}}
		}, "spec.template.spec.containers[0].livenessProbe.grpc: Forbidden: may not specify more than 1 handler type"},
		{"a mount of no volume", func(d *api.Deployment) {
			d.Spec.Template.Spec.Containers[0].VolumeMounts = []api.VolumeMount{{Name: "config", MountPath: "/etc/config"}}
		}, `spec.template.spec.containers[0].volumeMounts[0].name: Not found: "config"`},
		{"two mounts at one path", func(d *api.Deployment) {
			d.Spec.Template.Spec.Volumes = []api.Volume{{Name: "a", EmptyDir: &api.EmptyDirVolumeSource{}}, {Name: "b", EmptyDir: &api.EmptyDirVolumeSource{}}}
			d.Spec.Template.Spec.Containers[0].VolumeMounts = []api.VolumeMount{{Name: "a", MountPath: "/data"}, {Name: "b", MountPath: "/data"}}
		}, `spec.template.spec.containers[0].volumeMounts[1].mountPath: Invalid value: "/data": must be unique`},
		{"a ConfigMap volume without a name", func(d *api.Deployment) {
			d.Spec.Template.Spec.Volumes = []api.Volume{{Name: "config", ConfigMap: &api.ConfigMapVolumeSource{}}}
		}, "spec.template.spec.volumes[0].configMap.name: Required value"},
		{"a volume with two sources", func(d *api.Deployment) {
			d.Spec.Template.Spec.Volumes = []api.Volume{{Name: "x", EmptyDir: &api.EmptyDirVolumeSource{}, ConfigMap: &api.ConfigMapVolumeSource{Name: "c"}}}
		}, "spec.template.spec.volumes[0].configMap: Forbidden: may not specify more than 1 volume type"},
		{"two volumes of one name", func(d *api.Deployment) {
			d.Spec.Template.Spec.Volumes = []api.Volume{{Name: "x", EmptyDir: &api.EmptyDirVolumeSource{}}, {Name: "x", HostPath: &api.HostPathVolumeSource{Path: "/x"}}}
		}, `spec.template.spec.volumes[1].name: Duplicate value: "x"`},
		{"gRPC probe on port 0", func(d *api.Deployment) {
			d.Spec.Template.Spec.Containers[0].LivenessProbe = &api.Probe{GRPC: &api.GRPCAction{}}
		}, "spec.template.spec.containers[0].livenessProbe.grpc.port: Invalid value: 0: must be between 1 and 65535, inclusive"},
		{"request above its limit", func(d *api.Deployment) {
			d.Spec.Template.Spec.Containers[0].Resources = api.ResourceRequirements{
				Requests: api.ResourceList{"cpu": api.MustQuantity("500m"), "memory": api.MustQuantity("1Gi")},
				Limits:   api.ResourceList{"memory": api.MustQuantity("512Mi")}}
		}, `spec.template.spec.containers[0].resources.requests: Invalid value: "1Gi": must be less than or equal to memory limit of 512Mi`},
		{"negative request", func(d *api.Deployment) {
			d.Spec.Template.Spec.Containers[0].Resources = api.ResourceRequirements{Requests: api.ResourceList{"cpu": api.MustQuantity("-1")}}
		}, `spec.template.spec.containers[0].resources.requests[cpu]: Invalid value: "-1": must be greater than or equal to 0`},
		{"extended resource below its limit", func(d *api.Deployment) {
			d.Spec.Template.Spec.Containers[0].Resources = api.ResourceRequirements{
				Requests: api.ResourceList{"example.com/dongle": api.MustQuantity("1")},
				Limits:   api.ResourceList{"example.com/dongle": api.MustQuantity("2")}}
		}, `spec.template.spec.containers[0].resources.requests: Invalid value: "1": must be equal to example.com/dongle limit of 2`},
		{"extended resource without a limit", func(d *api.Deployment) {
			d.Spec.Template.Spec.Containers[0].Resources = api.ResourceRequirements{Requests: api.ResourceList{"nvidia.com/gpu": api.MustQuantity("1")}}
		}, "spec.template.spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources"},
		{"half a dongle", func(d *api.Deployment) {
			d.Spec.Template.Spec.Containers[0].Resources = api.ResourceRequirements{Limits: api.ResourceList{"example.com/dongle": api.MustQuantity("500m")}}
		}, `spec.template.spec.containers[0].resources.limits[example.com/dongle]: Invalid value: "500m": must be an integer`},
		{"a resource containers cannot ask for", func(d *api.Deployment) {
			d.Spec.Template.Spec.Containers[0].Resources = api.ResourceRequirements{Requests: api.ResourceList{"storage": api.MustQuantity("1Gi")}}
		}, `spec.template.spec.containers[0].resources.requests[storage]: Invalid value: "storage": must be a standard resource for containers`},
		{"spread with no skew", func(d *api.Deployment) {
			d.Spec.Template.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{{MaxSkew: 0, TopologyKey: "topology.kubernetes.io/zone", WhenUnsatisfiable: api.DoNotSchedule}}
		}, "spec.template.spec.topologySpreadConstraints[0].maxSkew: Invalid value: 0: must be greater than zero"},
		{"spread with an unknown action", func(d *api.Deployment) {
			d.Spec.Template.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: "kubernetes.io/hostname", WhenUnsatisfiable: "Sometimes"}}
		}, `spec.template.spec.topologySpreadConstraints[0].whenUnsatisfiable: Unsupported value: "Sometimes": supported values: "DoNotSchedule", "ScheduleAnyway"`},
		{"spread twice over one key", func(d *api.Deployment) {
			c := api.TopologySpreadConstraint{MaxSkew: 1, TopologyKey: "kubernetes.io/hostname", WhenUnsatisfiable: api.DoNotSchedule}
			d.Spec.Template.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{c, c}
		}, `spec.template.spec.topologySpreadConstraints[0].{topologyKey, whenUnsatisfiable}: Duplicate value: "{kubernetes.io/hostname, DoNotSchedule}"`},
		{"minDomains when anyway", func(d *api.Deployment) {
			d.Spec.Template.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: "kubernetes.io/hostname", WhenUnsatisfiable: api.ScheduleAnyway, MinDomains: api.Int32(2)}}
		}, "spec.template.spec.topologySpreadConstraints[0].minDomains: Invalid value: 2: can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway"},
		{"spread without a key", func(d *api.Deployment) {
			d.Spec.Template.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{{MaxSkew: 1, WhenUnsatisfiable: api.ScheduleAnyway}}
		}, "spec.template.spec.topologySpreadConstraints[0].topologyKey: Required value: can not be empty"},
		{"anti-affinity without a key", func(d *api.Deployment) {
			d.Spec.Template.Spec.Affinity = &api.Affinity{PodAntiAffinity: &api.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{{LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}}}}}
		}, "spec.template.spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Required value: can not be empty"},
		{"a preferred term of weight 0", func(d *api.Deployment) {
			d.Spec.Template.Spec.Affinity = &api.Affinity{PodAffinity: &api.PodAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []api.WeightedPodAffinityTerm{{PodAffinityTerm: api.PodAffinityTerm{TopologyKey: "kubernetes.io/hostname"}}}}}
		}, "spec.template.spec.affinity.podAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 0: must be in the range 1-100"},
		{"bad name", func(d *api.Deployment) { d.Name = "Web_1" }, `metadata.name: Invalid value: "Web_1": a lowercase RFC 1123 subdomain`},
		{"restartPolicy", func(d *api.Deployment) { d.Spec.Template.Spec.RestartPolicy = "Never" },
			`spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"`},
		{"recreate with rollingUpdate", func(d *api.Deployment) {
			d.Spec.Strategy = api.DeploymentStrategy{Type: api.RecreateStrategy, RollingUpdate: &api.RollingUpdateDeployment{}}
		}, "spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'"},
	} {
		_, err := newStore(t).Create(deployment(tc.mutate))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want it to contain %q", tc.name, err, tc.want)
		}
	}
	// [0-9]+% accepts leading zeros.
	if _, err := newStore(t).Create(deployment(func(d *api.Deployment) {
		five := api.FromString("05%")
		d.Spec.Strategy = api.DeploymentStrategy{Type: api.RollingUpdateStrategy, RollingUpdate: &api.RollingUpdateDeployment{MaxSurge: &five}}
	})); err != nil {
		t.Errorf("maxSurge 05%%: %v", err)
	}
}

func TestCreateDefaultsAndGeneration(t *testing.T) {
	s := newStore(t)
	o, err := s.Create(deployment(nil))
	if err != nil {
		t.Fatal(err)
	}
	d := o.(*api.Deployment)
	ru := d.Spec.Strategy.RollingUpdate
	if d.Generation != 1 || d.UID == "" || d.ResourceVersion == "" || ru.MaxSurge.String() != "25%" || ru.MaxUnavailable.String() != "25%" ||
		*d.Spec.RevisionHistoryLimit != 10 || *d.Spec.ProgressDeadlineSeconds != 600 || *d.Spec.Template.Spec.TerminationGracePeriodSeconds != 30 ||
		d.Spec.Template.Spec.Containers[0].ImagePullPolicy != "IfNotPresent" {
		t.Fatalf("defaults not applied: %+v", d)
	}
	c := d.DeepCopy()
	c.Labels = map[string]string{"note": "x"}
	o, _ = s.Update(c)
	if o.Meta().Generation != 1 {
		t.Error("a label-only update must not bump generation")
	}
	// Annotations are copied to ReplicaSets, so a Deployment's bump the
	// generation (pkg/registry/apps/deployment/strategy.go PrepareForUpdate).
	c = o.(*api.Deployment).DeepCopy()
	c.Annotations = map[string]string{"note": "x"}
	o, _ = s.Update(c)
	if o.Meta().Generation != 2 {
		t.Error("an annotation change must bump a Deployment's generation")
	}
	c = o.(*api.Deployment).DeepCopy()
	c.Spec.Replicas = api.Int32(5)
	o, _ = s.Update(c)
	if o.Meta().Generation != 3 {
		t.Error("a spec change must bump generation")
	}
	c = o.(*api.Deployment).DeepCopy()
	c.Status.Replicas = 99
	o, _ = s.UpdateStatus(c)
	if o.Meta().Generation != 3 || o.(*api.Deployment).Status.Replicas != 99 {
		t.Error("a status update must not bump generation")
	}
}

func TestOptimisticConcurrency(t *testing.T) {
	s := newStore(t)
	o, _ := s.Create(deployment(nil))
	stale := o.(*api.Deployment).DeepCopy()
	fresh := o.(*api.Deployment).DeepCopy()
	fresh.Spec.Replicas = api.Int32(4)
	if _, err := s.Update(fresh); err != nil {
		t.Fatal(err)
	}
	stale.Spec.Replicas = api.Int32(7)
	_, err := s.Update(stale)
	if !IsReason(err, ReasonConflict) || !strings.Contains(err.Error(), `Operation cannot be fulfilled on deployments.apps "web": the object has been modified`) {
		t.Fatalf("stale update: %v", err)
	}
}

// A pod bound to a node is deleted gracefully; an unbound one at once.
func TestGracefulPodDeletion(t *testing.T) {
	s := newStore(t)
	newPod := func(name, node string) api.Key {
		p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"}, Spec: &api.PodSpec{Containers: []api.Container{{Name: "c", Image: "x:1"}}}}
		o, err := s.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		if node != "" {
			if _, err := s.Bind(api.KeyOf(o), "", node); err != nil {
				t.Fatal(err)
			}
		}
		return api.KeyOf(o)
	}
	s.SetNow(10_000)
	bound := newPod("bound", "node-1")
	last, gone, err := s.Delete(bound, DeleteOptions{})
	if err != nil || gone || last.Meta().DeletionTimestamp == nil || last.Meta().DeletionTimestamp.MS != 40_000 || *last.Meta().DeletionGracePeriodSeconds != 30 {
		t.Fatalf("graceful delete: gone %v, %+v, %v", gone, last.Meta(), err)
	}
	if _, gone, _ := s.Delete(bound, DeleteOptions{GracePeriodSeconds: api.Int64(0)}); !gone {
		t.Fatal("a zero grace period (the kubelet's confirmation) removes the pod")
	}
	unbound := newPod("unbound", "")
	if _, gone, _ := s.Delete(unbound, DeleteOptions{}); !gone {
		t.Fatal("an unscheduled pod is deleted at once")
	}
	p, _ := s.Get(newPod("p", "node-2"))
	pod := p.(*api.Pod)
	if len(pod.Spec.Tolerations) != 2 || *pod.Spec.Tolerations[0].TolerationSeconds != 300 || pod.Status.Phase != api.PodPending ||
		pod.Status.QOSClass != "BestEffort" || pod.Status.Condition(api.PodScheduled).Status != api.ConditionTrue {
		t.Fatalf("admission and binding: %+v", pod)
	}
}

func TestWatchEventsCarryResourceVersions(t *testing.T) {
	s := newStore(t)
	var evs []WatchEvent
	s.SetSink(func(e WatchEvent) { evs = append(evs, e) })
	o, _ := s.Create(deployment(nil))
	c := o.(*api.Deployment).DeepCopy()
	c.Spec.Replicas = api.Int32(1)
	s.Update(c)
	s.Delete(api.KeyOf(o), DeleteOptions{})
	if len(evs) != 3 || evs[0].Type != Added || evs[1].Type != Modified || evs[2].Type != Deleted || !(evs[0].RV < evs[1].RV && evs[1].RV < evs[2].RV) {
		t.Fatalf("events %+v", evs)
	}
}

// An update that changes nothing is not written: the resourceVersion stays
// and no watch event goes out (the API server's GuaranteedUpdate skips
// unchanged objects).
func TestNoOpUpdateIsNotWritten(t *testing.T) {
	s := newStore(t)
	var events []WatchEvent
	s.SetSink(func(ev WatchEvent) { events = append(events, ev) })
	o, err := s.Create(deployment(nil))
	if err != nil {
		t.Fatal(err)
	}
	rv := o.Meta().ResourceVersion
	for name, write := range map[string]func(api.Object) (api.Object, error){"update": s.Update, "status": s.UpdateStatus} {
		events = nil
		out, err := write(o.DeepCopyObject())
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if out.Meta().ResourceVersion != rv || len(events) != 0 || out != o {
			t.Errorf("%s of an unchanged object: resourceVersion %s → %s, %d watch events; want no write", name, rv, out.Meta().ResourceVersion, len(events))
		}
	}
	c := o.DeepCopyObject().(*api.Deployment)
	c.Status.ObservedGeneration = 1
	if out, _ := s.UpdateStatus(c); out.Meta().ResourceVersion == rv || len(events) != 1 {
		t.Errorf("a real change must be written: resourceVersion %s, %d events", out.Meta().ResourceVersion, len(events))
	}
}

// A watch event says StatusOnly exactly when the write changed nothing
// but the status: status writes of pods, ReplicaSets and nodes do, and
// an update, a bind or a deletion does not. The kubelet skips its
// comparison of spec, labels and deletion on the strength of it.
func TestWatchEventStatusOnly(t *testing.T) {
	s := newStore(t)
	var got []WatchEvent
	s.SetSink(func(e WatchEvent) { got = append(got, e) })
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "web-1", Namespace: "default", Labels: map[string]string{"app": "web"}}, Spec: &api.PodSpec{}}
	pod.Spec.Containers = []api.Container{{Name: "web", Image: "web:1"}}
	created, err := s.Create(pod)
	if err != nil {
		t.Fatal(err)
	}
	status := created.(*api.Pod).DeepCopy()
	status.Status.Phase = api.PodRunning
	status.Labels["app"] = "ignored" // a status write keeps the stored labels
	if _, err := s.PatchStatus(status); err != nil {
		t.Fatal(err)
	}
	cur, _ := s.Get(api.KeyOf(pod))
	relabeled := cur.(*api.Pod).DeepCopy()
	relabeled.Labels["tier"] = "front"
	if _, err := s.Update(relabeled); err != nil {
		t.Fatal(err)
	}
	cur, _ = s.Get(api.KeyOf(pod))
	if _, err := s.Bind(api.KeyOf(cur), cur.Meta().UID, "node-1"); err != nil {
		t.Fatal(err)
	}
	want := []bool{false, true, false, false}
	if len(got) != len(want) {
		t.Fatalf("%d watch events, want %d", len(got), len(want))
	}
	for i, e := range got {
		if e.StatusOnly != want[i] {
			t.Errorf("event %d (%s): StatusOnly %v, want %v", i, e.Type, e.StatusOnly, want[i])
		}
		if !e.StatusOnly || e.Old == nil {
			continue
		}
		before, after := e.Old.(*api.Pod).DeepCopy(), e.Object.(*api.Pod).DeepCopy()
		before.Status, after.Status = api.PodStatus{}, api.PodStatus{}
		before.ResourceVersion, after.ResourceVersion = "", ""
		if !reflect.DeepEqual(before, after) {
			t.Errorf("event %d says StatusOnly but more than the status changed:\n%+v\n%+v", i, before, after)
		}
	}
}

// A node's status write says StatusOnly too, and a Deployment's, whose
// status write may change its annotations, does not.
func TestWatchEventStatusOnlyByKind(t *testing.T) {
	s := newStore(t)
	var got []WatchEvent
	s.SetSink(func(e WatchEvent) { got = append(got, e) })
	node, err := s.Create(&api.Node{ObjectMeta: api.ObjectMeta{Name: "node-1"}})
	if err != nil {
		t.Fatal(err)
	}
	n := node.(*api.Node).DeepCopy()
	n.Status.Conditions = []api.NodeCondition{{Type: "Ready", Status: api.ConditionTrue}}
	if _, err := s.PatchStatus(n); err != nil {
		t.Fatal(err)
	}
	d, err := s.Create(deployment(nil))
	if err != nil {
		t.Fatal(err)
	}
	dc := d.(*api.Deployment).DeepCopy()
	dc.Status.ObservedGeneration = 1
	if _, err := s.UpdateStatus(dc); err != nil {
		t.Fatal(err)
	}
	var statusOnly []string
	for _, e := range got {
		if e.Type == Modified {
			statusOnly = append(statusOnly, fmt.Sprintf("%s %v", e.Object.GetKind(), e.StatusOnly))
		}
	}
	if want := "Node true, Deployment false"; strings.Join(statusOnly, ", ") != want {
		t.Fatalf("status writes say StatusOnly %q, want %q", strings.Join(statusOnly, ", "), want)
	}
}

// Validating a valid pod makes no field path: every pod a controller
// creates is validated.
func TestValidPodSpecAllocatesNothing(t *testing.T) {
	d := deployment(func(d *api.Deployment) {
		c := &d.Spec.Template.Spec.Containers[0]
		c.Ports = []api.ContainerPort{{ContainerPort: 80}}
		c.ReadinessProbe = &api.Probe{TCPSocket: &api.TCPSocketAction{}}
		c.Resources = api.ResourceRequirements{Requests: api.ResourceList{"cpu": api.MustQuantity("100m")}, Limits: api.ResourceList{"cpu": api.MustQuantity("1")}}
		d.Spec.Template.Spec.Containers = append(d.Spec.Template.Spec.Containers, api.Container{Name: "sidecar", Image: "s"})
	})
	var e errs
	if n := testing.AllocsPerRun(100, func() { validatePodSpec(&e, "spec.template.spec", &d.Spec.Template.Spec, true) }); n != 0 {
		t.Errorf("validating a valid pod spec allocates %.0f times", n)
	}
	if len(e) != 0 {
		t.Fatalf("the spec is invalid: %v", e)
	}
}

package kubectl_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/trace"
	"github.com/stateflow/stateflow/internal/testkit"
	"github.com/stateflow/stateflow/kubectl"
	"github.com/stateflow/stateflow/scenario"
)

// stsStartSession is testdata/statefulsets.yaml just after kubectl apply
// created its objects, before any controller has acted.
func stsStartSession(t testing.TB) *kubectl.Session {
	t.Helper()
	return appliedSession(t, "testdata/statefulsets.yaml", api.Key{Kind: api.KindStatefulSet, Namespace: "default", Name: "cache"})
}

// stsSession is testdata/statefulsets.yaml at 20s, once web-0, web-1 and
// web-2 have started in order (web-2 was Ready at 16.55s) and both cache
// pods run. RunUntilSettled is not used: it would move the clock to
// 311.85s (see the report on the scheduler's unschedulable-pod timer).
func stsSession(t testing.TB) *kubectl.Session {
	t.Helper()
	e, sc := testkit.LoadFile(t, "testdata/statefulsets.yaml")
	e.RunUntil(20_000)
	return &kubectl.Session{Cluster: e, Namespace: sc.Namespace, Decode: scenario.DecodeObjects}
}

func statefulSet(t testing.TB, s *kubectl.Session, name string) *api.StatefulSet {
	t.Helper()
	o, ok := s.Cluster.Store().Get(api.Key{Kind: api.KindStatefulSet, Namespace: "default", Name: name})
	if !ok {
		t.Fatalf("statefulset %s is gone", name)
	}
	return o.(*api.StatefulSet)
}

// advanceSTS steps the simulation until cond holds of web.
func advanceSTS(t testing.TB, s *kubectl.Session, what string, cond func(*api.StatefulSet) bool) {
	t.Helper()
	for range 2000 {
		if cond(statefulSet(t, s, "web")) {
			return
		}
		if s.Cluster.Step() == nil {
			break
		}
	}
	t.Fatalf("the simulation never reached: %s", what)
}

// The stages of web's life, from its status (docs/fidelity-workloads.md
// §3.10).
var (
	// web-0 is Ready and web-1 has just been created, its claim not
	// yet bound.
	secondPodCreated = func(s *api.StatefulSet) bool {
		return s.Status.ReadyReplicas == 1 && s.Status.Replicas == 2
	}
	// The image change has been observed and web-2, the highest
	// ordinal, is the first pod replaced; its replacement is not Ready.
	highestReplaced = func(s *api.StatefulSet) bool {
		st := s.Status
		return s.Generation > 1 && st.ObservedGeneration == s.Generation && st.UpdatedReplicas == 1 && st.Replicas == 3 && st.ReadyReplicas == 2
	}
	// Scaled to one: web-1 and web-2 are gone.
	scaledDown = func(s *api.StatefulSet) bool {
		return s.Replicas() == 1 && s.Status.Replicas == 1 && s.Status.ObservedGeneration == s.Generation
	}
)

// The ordered start (§3.10): web-1 is created only once web-0 is Running
// and Ready, its claim first; rollout status counts the pods not yet
// ready, then reports the partitioned roll out complete.
func TestStatefulSetOrderedStart(t *testing.T) {
	s := stsStartSession(t)
	if res := run(t, s, "rollout status sts/web --watch=false"); res.Stdout != "Waiting for statefulset spec update to be observed...\n" || res.Code != 0 {
		t.Errorf("before the controller has seen web: %+v", res)
	}
	advanceSTS(t, s, "web-1 created", secondPodCreated)
	for _, tc := range []struct{ line, want string }{
		{"get sts", "NAME    READY   AGE\ncache   2/2     6s\nweb     1/3     6s\n"},
		{"get pvc", `NAME        STATUS    VOLUME                                     CAPACITY   ACCESS MODES   STORAGECLASS   VOLUMEATTRIBUTESCLASS   AGE
www-web-0   Bound     pvc-727d0eeb-9d2f-4990-450c-c1daae019347   1Gi        RWO            standard       <unset>                 6s
www-web-1   Pending                                                                        standard       <unset>                 1s
`},
		{"get pods -l app=web", "NAME    READY   STATUS    RESTARTS   AGE\nweb-0   1/1     Running   0          6s\nweb-1   0/1     Pending   0          1s\n"},
		{"rollout status sts/web -w=false", "Waiting for 2 pods to be ready...\n"},
	} {
		if res := run(t, s, tc.line); res.Stdout != tc.want || res.Stderr != "" {
			t.Errorf("%s:\n%s%s\nwant:\n%s", tc.line, res.Stdout, res.Stderr, tc.want)
		}
	}
	// A claim not yet bound has no volume, capacity or access modes.
	want := `Name:          www-web-1
Namespace:     default
StorageClass:  standard
Status:        Pending
Volume:        
Labels:        app=web
Annotations:   <none>
Finalizers:    [kubernetes.io/pvc-protection]
Capacity:      
Access Modes:  
VolumeMode:    Filesystem
Used By:       web-1
Events:        <none>
`
	if out := run(t, s, "describe pvc www-web-1").Stdout; out != want {
		t.Errorf("describe pvc www-web-1:\n%s\nwant:\n%s", out, want)
	}
	res := run(t, s, "rollout status statefulset/web")
	if want := "Waiting for 2 pods to be ready...\nWaiting for 1 pods to be ready...\npartitioned roll out complete: 3 new pods have been updated...\n"; res.Stdout != want || res.Code != 0 {
		t.Errorf("rollout status:\n%s%s\nwant:\n%s", res.Stdout, res.Stderr, want)
	}
	if got := statefulSet(t, s, "web").Status.ReadyReplicas; got != 3 {
		t.Errorf("rollout status returned with %d pods ready", got)
	}
}

// From the start, rollout status prints every stage; a StatefulSet whose
// updateStrategy names RollingUpdate without a rollingUpdate block gets
// the revision lines instead of the partition ones.
func TestStatefulSetRolloutStatusFromStart(t *testing.T) {
	s := stsStartSession(t)
	res := run(t, s, "rollout status sts/web")
	want := `Waiting for statefulset spec update to be observed...
Waiting for 3 pods to be ready...
Waiting for 2 pods to be ready...
Waiting for 1 pods to be ready...
partitioned roll out complete: 3 new pods have been updated...
`
	if res.Stdout != want || res.Code != 0 {
		t.Errorf("rollout status sts/web:\n%s%s\nwant:\n%s", res.Stdout, res.Stderr, want)
	}
	s = stsStartSession(t)
	res = run(t, s, "rollout status sts/cache")
	want = `Waiting for statefulset spec update to be observed...
Waiting for 2 pods to be ready...
statefulset rolling update complete 2 pods at revision cache-7b66db7d65...
`
	if res.Stdout != want || res.Code != 0 {
		t.Errorf("rollout status sts/cache:\n%s%s\nwant:\n%s", res.Stdout, res.Stderr, want)
	}
}

func TestStatefulSetGet(t *testing.T) {
	s := stsSession(t)
	for _, tc := range []struct{ line, want string }{
		{"get sts", "NAME    READY   AGE\ncache   2/2     20s\nweb     3/3     20s\n"},
		{"get statefulsets -o wide", `NAME    READY   AGE   CONTAINERS       IMAGES
cache   2/2     20s   redis,exporter   example/redis:v1,example/redis-exporter:v1
web     3/3     20s   nginx            example/nginx:v1
`},
		{"get sts web --no-headers -o wide", "web   3/3   20s   nginx   example/nginx:v1\n"},
		{"get pvc", `NAME        STATUS   VOLUME                                     CAPACITY   ACCESS MODES   STORAGECLASS   VOLUMEATTRIBUTESCLASS   AGE
www-web-0   Bound    pvc-727d0eeb-9d2f-4990-450c-c1daae019347   1Gi        RWO            standard       <unset>                 20s
www-web-1   Bound    pvc-e95f1809-dfe7-4986-14ab-1eb7b9f7ef71   1Gi        RWO            standard       <unset>                 15s
www-web-2   Bound    pvc-eba590e6-ec1a-4ec9-e9df-5178e3a7e089   1Gi        RWO            standard       <unset>                 9s
`},
		{"get persistentvolumeclaim www-web-1 -o wide", `NAME        STATUS   VOLUME                                     CAPACITY   ACCESS MODES   STORAGECLASS   VOLUMEATTRIBUTESCLASS   AGE   VOLUMEMODE
www-web-1   Bound    pvc-e95f1809-dfe7-4986-14ab-1eb7b9f7ef71   1Gi        RWO            standard       <unset>                 15s   Filesystem
`},
		{"get pvc -l app=web -o name", "persistentvolumeclaim/www-web-0\npersistentvolumeclaim/www-web-1\npersistentvolumeclaim/www-web-2\n"},
		{"get pvc --field-selector name=www-web-2 -o name", "persistentvolumeclaim/www-web-2\n"},
		{"get sts -o name", "statefulset.apps/cache\nstatefulset.apps/web\n"},
		{"get sts web -o jsonpath={.status}", `{"availableReplicas":3,"collisionCount":0,"currentReplicas":3,"currentRevision":"web-6849787d48","observedGeneration":1,"readyReplicas":3,"replicas":3,"updateRevision":"web-6849787d48","updatedReplicas":3}`},
		{"get sts -o custom-columns=NAME:.metadata.name,SERVICE:.spec.serviceName,POLICY:.spec.podManagementPolicy,PARTITION:.spec.updateStrategy.rollingUpdate.partition",
			"NAME    SERVICE   POLICY         PARTITION\ncache   nginx     Parallel       <none>\nweb     nginx     OrderedReady   0\n"},
		{"get pvc -o jsonpath={.items[*].status.capacity.storage}", "1Gi 1Gi 1Gi"},
		{"get controllerrevisions", `NAME               CONTROLLER               REVISION   AGE
cache-7b66db7d65   statefulset.apps/cache   1          20s
web-6849787d48     statefulset.apps/web     1          20s
`},
		{"get sts,pvc -l app=web", `NAME                   READY   AGE
statefulset.apps/web   3/3     20s

NAME                              STATUS   VOLUME                                     CAPACITY   ACCESS MODES   STORAGECLASS   VOLUMEATTRIBUTESCLASS   AGE
persistentvolumeclaim/www-web-0   Bound    pvc-727d0eeb-9d2f-4990-450c-c1daae019347   1Gi        RWO            standard       <unset>                 20s
persistentvolumeclaim/www-web-1   Bound    pvc-e95f1809-dfe7-4986-14ab-1eb7b9f7ef71   1Gi        RWO            standard       <unset>                 15s
persistentvolumeclaim/www-web-2   Bound    pvc-eba590e6-ec1a-4ec9-e9df-5178e3a7e089   1Gi        RWO            standard       <unset>                 9s
`},
	} {
		res := run(t, s, tc.line)
		if res.Stdout != tc.want || res.Stderr != "" {
			t.Errorf("%s:\n%s%s\nwant:\n%s", tc.line, res.Stdout, res.Stderr, tc.want)
		}
	}
	// get all lists the StatefulSets after the ReplicaSets (here, after
	// the Services); the claims are not in the "all" category.
	out := run(t, s, "get all").Stdout
	if !strings.HasSuffix(out, "\n\nNAME                     READY   AGE\nstatefulset.apps/cache   2/2     20s\nstatefulset.apps/web     3/3     20s\n") ||
		!strings.Contains(out, "\nservice/nginx   ClusterIP   None ") || strings.Contains(out, "persistentvolumeclaim") || strings.Contains(out, "controllerrevision") {
		t.Errorf("get all:\n%s", out)
	}
}

// The access modes are abbreviated in a fixed order, whatever the order
// they are listed in.
func TestClaimAccessModes(t *testing.T) {
	s := stsSession(t)
	s.Stdin = `apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: shared
  annotations: {volume.beta.kubernetes.io/storage-class: legacy}
spec:
  accessModes: [ReadWriteOncePod, ReadWriteMany, ReadOnlyMany, ReadWriteOnce, ReadOnlyMany]
  storageClassName: fast
  resources:
    requests: {storage: 500Mi}
`
	if res := run(t, s, "apply -f -"); res.Stdout != "persistentvolumeclaim/shared created\n" {
		t.Fatalf("apply: %+v", res)
	}
	s.Cluster.RunUntil(s.Cluster.Now() + 5_000)
	if out := run(t, s, "get pvc shared --no-headers").Stdout; !regexp.MustCompile(`^shared   Bound   pvc-[0-9a-f-]{36}   500Mi   RWO,ROX,RWX,RWOP   legacy   <unset>   5s\n$`).MatchString(out) {
		t.Errorf("get pvc shared: %q", out)
	}
	out := run(t, s, "describe pvc shared").Stdout
	if !strings.Contains(out, "\nStorageClass:  legacy\n") || !strings.Contains(out, "\n               volume.beta.kubernetes.io/storage-class: legacy\n") ||
		!strings.Contains(out, "\nCapacity:      500Mi\nAccess Modes:  RWO,ROX,RWX,RWOP\nVolumeMode:    Filesystem\nUsed By:       <none>\n") {
		t.Errorf("describe pvc shared:\n%s", out)
	}
}

// A claim any pod mounts lists them all under Used By, one a line, by
// name; a template's volumes are described one space further in than a
// pod's.
func TestClaimUsedBy(t *testing.T) {
	s := stsSession(t)
	s.Stdin = `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data}
spec:
  accessModes: [ReadWriteMany]
  resources: {requests: {storage: 2Gi}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: app}
spec:
  replicas: 2
  selector: {matchLabels: {app: app}}
  template:
    metadata: {labels: {app: app}}
    spec:
      volumes:
        - name: data
          persistentVolumeClaim: {claimName: data, readOnly: true}
      containers:
        - name: app
          image: example/nginx:v1
`
	if res := run(t, s, "apply -f -"); res.Stdout != "persistentvolumeclaim/data created\ndeployment.apps/app created\n" {
		t.Fatalf("apply: %+v", res)
	}
	s.Cluster.RunUntil(s.Cluster.Now() + 10_000)
	pods := strings.Fields(strings.ReplaceAll(run(t, s, "get pods -l app=app -o name").Stdout, "pod/", ""))
	if len(pods) != 2 {
		t.Fatalf("pods: %q", pods)
	}
	out := run(t, s, "describe pvc data").Stdout
	if !strings.HasSuffix(out, "\nAccess Modes:  RWX\nVolumeMode:    Filesystem\nUsed By:       "+pods[0]+"\n               "+pods[1]+"\nEvents:        <none>\n") {
		t.Errorf("describe pvc data:\n%s", out)
	}
	out = run(t, s, "describe deployment app").Stdout
	if !strings.Contains(out, "\n    Mounts:       <none>\n  Volumes:\n   data:\n    Type:          PersistentVolumeClaim (a reference to a PersistentVolumeClaim in the same namespace)\n    ClaimName:     data\n    ReadOnly:      true\n  Node-Selectors:  <none>\n") {
		t.Errorf("describe deployment app:\n%s", out)
	}
}

func TestStatefulSetNames(t *testing.T) {
	s := stsSession(t)
	for _, name := range []string{"sts", "statefulset", "statefulsets", "StatefulSet", "statefulsets.apps", "statefulset.apps", "statefulsets.v1.apps", "sts.apps"} {
		if res := run(t, s, "get "+name+" web -o name"); res.Stdout != "statefulset.apps/web\n" {
			t.Errorf("get %s web: %+v", name, res)
		}
	}
	for _, name := range []string{"pvc", "persistentvolumeclaim", "persistentvolumeclaims", "PersistentVolumeClaim"} {
		if res := run(t, s, "get "+name+" www-web-0 -o name"); res.Stdout != "persistentvolumeclaim/www-web-0\n" {
			t.Errorf("get %s www-web-0: %+v", name, res)
		}
	}
	for _, tc := range []struct{ line, want string }{
		{"get sts.extensions", `error: the server doesn't have a resource type "sts.extensions"`},
		{"get pvc.apps", `error: the server doesn't have a resource type "pvc.apps"`},
		{"get sts nope", `Error from server (NotFound): statefulsets.apps "nope" not found`},
		{"get pvc nope", `Error from server (NotFound): persistentvolumeclaims "nope" not found`},
		{"get sts --field-selector spec.serviceName=nginx", `Error from server (BadRequest): Unable to find "apps/v1, Resource=statefulsets" that match label selector "", field selector "spec.serviceName=nginx": field label not supported: spec.serviceName`},
		{"get pvc --field-selector status.phase=Bound", `Error from server (BadRequest): Unable to find "/v1, Resource=persistentvolumeclaims" that match label selector "", field selector "status.phase=Bound": field label not supported: status.phase`},
		{"get pv", `error: the server doesn't have a resource type "pv" (Stateflow simulates deployments, replicasets, replicationcontrollers, daemonsets, statefulsets, controllerrevisions, jobs, cronjobs, horizontalpodautoscalers, poddisruptionbudgets, pods, persistentvolumeclaims, configmaps, secrets, priorityclasses, nodes, events, namespaces, services, endpoints, endpointslices, podmetrics and nodemetrics)`},
	} {
		if res := run(t, s, tc.line); res.Code != 1 || res.Stderr != tc.want+"\n" {
			t.Errorf("%s: %+v, want %q", tc.line, res, tc.want)
		}
	}
}

// describe sts is StatefulSetDescriber: the partition under the update
// strategy, the pod template, then the claim templates, whose annotations
// are printed like labels and access modes as a Go slice.
func TestStatefulSetDescribe(t *testing.T) {
	s := stsSession(t)
	out := run(t, s, "describe sts web").Stdout
	want := `Name:               web
Namespace:          default
CreationTimestamp:  Wed, 01 Jan 2025 00:00:00 +0000
Selector:           app=web
Labels:             app=web
Annotations:        team: storefront
Replicas:           3 desired | 3 total
Update Strategy:    RollingUpdate
  Partition:        0
Pods Status:        3 Running / 0 Waiting / 0 Succeeded / 0 Failed
Pod Template:
  Labels:  app=web
  Containers:
   nginx:
    Image:         example/nginx:v1
    Port:          80/TCP (http)
    Host Port:     0/TCP (http)
    Readiness:     http-get http://:http/ delay=0s timeout=1s period=2s #success=1 #failure=3
    Environment:   <none>
    Mounts:        <none>
  Volumes:         <none>
  Node-Selectors:  <none>
  Tolerations:     <none>
Volume Claims:
  Name:          www
  StorageClass:  
  Labels:        <none>
  Annotations:   <none>
  Capacity:      1Gi
  Access Modes:  [ReadWriteOnce]
Events:
  Type    Reason            Age   From                    Message
  ----    ------            ----  ----                    -------
  Normal  SuccessfulCreate  20s   statefulset-controller  create Claim www-web-0 Pod web-0 in StatefulSet web success
  Normal  SuccessfulCreate  20s   statefulset-controller  create Pod web-0 in StatefulSet web successful
  Normal  SuccessfulCreate  15s   statefulset-controller  create Claim www-web-1 Pod web-1 in StatefulSet web success
  Normal  SuccessfulCreate  15s   statefulset-controller  create Pod web-1 in StatefulSet web successful
  Normal  SuccessfulCreate  9s    statefulset-controller  create Claim www-web-2 Pod web-2 in StatefulSet web success
  Normal  SuccessfulCreate  9s    statefulset-controller  create Pod web-2 in StatefulSet web successful
`
	if out != want {
		t.Errorf("describe sts web:\n%s\nwant:\n%s", out, want)
	}
	// Without a rollingUpdate block there is no partition line, and
	// without claim templates, Volume Claims is <none>.
	out = run(t, s, "describe statefulset cache").Stdout
	for _, w := range []string{"\nReplicas:           2 desired | 2 total\nUpdate Strategy:    RollingUpdate\nPods Status:        2 Running / 0 Waiting / 0 Succeeded / 0 Failed\n",
		"\n  Tolerations:     <none>\nVolume Claims:     <none>\nEvents:\n"} {
		if !strings.Contains(out, w) {
			t.Errorf("describe sts cache:\n%s\nwant %q", out, w)
		}
	}
	out = run(t, s, "describe pvc www-web-0").Stdout
	want = `Name:          www-web-0
Namespace:     default
StorageClass:  standard
Status:        Bound
Volume:        pvc-727d0eeb-9d2f-4990-450c-c1daae019347
Labels:        app=web
Annotations:   pv.kubernetes.io/bind-completed: yes
               pv.kubernetes.io/bound-by-controller: yes
               volume.beta.kubernetes.io/storage-provisioner: rancher.io/local-path
               volume.kubernetes.io/storage-provisioner: rancher.io/local-path
Finalizers:    [kubernetes.io/pvc-protection]
Capacity:      1Gi
Access Modes:  RWO
VolumeMode:    Filesystem
Used By:       web-0
Events:        <none>
`
	if out != want {
		t.Errorf("describe pvc www-web-0:\n%s\nwant:\n%s", out, want)
	}
	// A StatefulSet pod's describe shows its claim among its volumes, and
	// its containers' names two spaces in (describePod's nameIndent "").
	out = run(t, s, "describe pod web-2").Stdout
	for _, w := range []string{"\nControlled By:  StatefulSet/web\nContainers:\n  nginx:\n    Container ID:",
		"\nVolumes:\n  www:\n    Type:        PersistentVolumeClaim (a reference to a PersistentVolumeClaim in the same namespace)\n    ClaimName:   www-web-2\n    ReadOnly:    false\nQoS Class:       BestEffort\n",
		"  Warning  FailedScheduling  9s    default-scheduler  0/2 nodes are available: pod has unbound immediate PersistentVolumeClaims."} {
		if !strings.Contains(out, w) {
			t.Errorf("describe pod web-2:\n%s\nwant %q", out, w)
		}
	}
}

// rollout status follows a set image rollout from the highest ordinal
// down (§3.10): each replaced pod must be Ready before the next goes.
func TestStatefulSetRolloutStatus(t *testing.T) {
	s := stsSession(t)
	if res := run(t, s, "set image statefulset/web nginx=example/nginx:v2"); res.Stdout != "statefulset.apps/web image updated\n" {
		t.Fatalf("set image: %+v", res)
	}
	if res := run(t, s, "rollout status sts/web --watch=false"); res.Stdout != "Waiting for statefulset spec update to be observed...\n" || res.Code != 0 {
		t.Errorf("before the controller has seen the change: %+v", res)
	}
	res := run(t, s, "rollout status sts/web")
	want := `Waiting for statefulset spec update to be observed...
Waiting for partitioned roll out to finish: 0 out of 3 new pods have been updated...
Waiting for 1 pods to be ready...
Waiting for partitioned roll out to finish: 1 out of 3 new pods have been updated...
Waiting for 1 pods to be ready...
Waiting for partitioned roll out to finish: 2 out of 3 new pods have been updated...
Waiting for 1 pods to be ready...
partitioned roll out complete: 3 new pods have been updated...
`
	if res.Stdout != want || res.Code != 0 {
		t.Errorf("rollout status:\n%s%s\nwant:\n%s", res.Stdout, res.Stderr, want)
	}
	// Without a rollingUpdate block, the revisions are compared.
	if res := run(t, s, "set image sts/cache redis=example/redis:v2"); res.Stdout != "statefulset.apps/cache image updated\n" {
		t.Fatalf("set image: %+v", res)
	}
	res = run(t, s, "rollout status statefulsets/cache")
	rev := statefulSet(t, s, "cache").Status.UpdateRevision
	want = `Waiting for statefulset spec update to be observed...
waiting for statefulset rolling update to complete 0 pods at revision ` + rev + `...
Waiting for 1 pods to be ready...
waiting for statefulset rolling update to complete 1 pods at revision ` + rev + `...
Waiting for 1 pods to be ready...
statefulset rolling update complete 2 pods at revision ` + rev + `...
`
	if res.Stdout != want || res.Code != 0 || rev == "cache-7b66db7d65" {
		t.Errorf("rollout status sts/cache:\n%s%s\nwant:\n%s", res.Stdout, res.Stderr, want)
	}
	for _, tc := range []struct{ line, out, err string }{
		{"rollout status sts web", "partitioned roll out complete: 3 new pods have been updated...\n", ""},
		{"rollout status sts/nope", "", "Error from server (NotFound): statefulsets.apps \"nope\" not found\n"},
	} {
		if res := run(t, s, tc.line); res.Stdout != tc.out || res.Stderr != tc.err {
			t.Errorf("%s: %+v", tc.line, res)
		}
	}
	// OnDelete has no rollout status.
	s.Stdin = `apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: cache
spec:
  serviceName: nginx
  replicas: 2
  podManagementPolicy: Parallel
  updateStrategy:
    type: OnDelete
  selector:
    matchLabels: {app: cache}
  template:
    metadata:
      labels: {app: cache}
    spec:
      containers:
        - name: redis
          image: example/redis:v2
        - name: exporter
          image: example/redis-exporter:v1
`
	if res := run(t, s, "apply -f -"); res.Stdout != "statefulset.apps/cache configured\n" {
		t.Fatalf("apply: %+v", res)
	}
	if res := run(t, s, "rollout status sts/cache"); res.Stdout != "" || res.Stderr != "error: rollout status is only available for RollingUpdate strategy type\n" || res.Code != 1 {
		t.Errorf("OnDelete: %+v", res)
	}
}

// apply replaces a StatefulSet's spec; the API server refuses changes to
// the fields that may not change.
func TestStatefulSetApply(t *testing.T) {
	s := stsSession(t)
	web := `apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: web
  labels: {app: web}
  annotations: {team: storefront}
spec:
  serviceName: nginx
  replicas: 3
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
        - name: nginx
          image: example/nginx:v1
          ports:
            - name: http
              containerPort: 80
          readinessProbe:
            httpGet: {path: /, port: http}
            periodSeconds: 2
  volumeClaimTemplates:
    - metadata:
        name: www
      spec:
        accessModes: [ReadWriteOnce]
        resources:
          requests:
            storage: 1Gi
`
	claim := `apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: www-web-0
  labels: {app: web}
spec:
  accessModes: [ReadWriteOnce]
  resources:
    requests: {storage: 1Gi}
`
	for _, tc := range []struct{ manifest, out, err string }{
		{web, "statefulset.apps/web unchanged\n", ""},
		// The claim was the controller's: apply adds its annotation.
		{claim, "persistentvolumeclaim/www-web-0 configured\n", ""},
		{claim, "persistentvolumeclaim/www-web-0 unchanged\n", ""},
		{strings.Replace(web, "replicas: 3", "replicas: 2", 1), "statefulset.apps/web configured\n", ""},
		{strings.Replace(web, "serviceName: nginx", "serviceName: other", 1), "", "The StatefulSet \"web\" is invalid: spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden\n"},
	} {
		s.Stdin = tc.manifest
		if res := run(t, s, "apply -f -"); res.Stdout != tc.out || res.Stderr != tc.err {
			t.Errorf("apply:\n%s\n%+v, want %q %q", tc.manifest, res, tc.out, tc.err)
		}
	}
	if set := statefulSet(t, s, "web"); set.Replicas() != 2 || set.Spec.ServiceName != "nginx" {
		t.Errorf("after apply: %d replicas, serviceName %s", set.Replicas(), set.Spec.ServiceName)
	}
	if out := run(t, s, "get pvc www-web-0 --no-headers").Stdout; out != "www-web-0   Bound   pvc-727d0eeb-9d2f-4990-450c-c1daae019347   1Gi   RWO   standard   <unset>   20s\n" {
		t.Errorf("the applied claim keeps its volume: %q", out)
	}
}

// A --timeout shorter than the rollout stops it with kubectl's error.
func TestStatefulSetRolloutStatusTimeout(t *testing.T) {
	s := stsSession(t)
	run(t, s, "set image sts/web nginx=example/nginx:v2")
	start := s.Cluster.Now()
	res := run(t, s, "rollout status sts/web --timeout=3s")
	want := `Waiting for statefulset spec update to be observed...
Waiting for partitioned roll out to finish: 0 out of 3 new pods have been updated...
Waiting for 1 pods to be ready...
`
	if res.Stdout != want || res.Stderr != "error: timed out waiting for the condition\n" || res.Code != 1 {
		t.Errorf("rollout status --timeout=3s:\n%s%s", res.Stdout, res.Stderr)
	}
	if now := s.Cluster.Now(); now != start+3000 {
		t.Errorf("rollout status --timeout=3s from %d: clock at %d", start, now)
	}
}

// Mid-rollout, get and describe show the counts the controller wrote.
func TestStatefulSetDuringRollout(t *testing.T) {
	s := stsSession(t)
	run(t, s, "set image sts/web nginx=example/nginx:v2")
	advanceSTS(t, s, "web-2 replaced", highestReplaced)
	if out := run(t, s, "get sts web --no-headers -o wide").Stdout; out != "web   2/3   21s   nginx   example/nginx:v2\n" {
		t.Errorf("web-2 replaced: %q", out)
	}
	out := run(t, s, "describe sts web").Stdout
	for _, w := range []string{"\nReplicas:           3 desired | 3 total\n", "\nPods Status:        2 Running / 1 Waiting / 0 Succeeded / 0 Failed\n",
		"    Image:         example/nginx:v2\n", "  Normal  SuccessfulCreate  1s (x2 over 10s)  statefulset-controller  create Pod web-2 in StatefulSet web successful\n  Normal  SuccessfulDelete  1s                statefulset-controller  delete Pod web-2 in StatefulSet web successful\n"} {
		if !strings.Contains(out, w) {
			t.Errorf("describe sts web mid-rollout:\n%s\nwant %q", out, w)
		}
	}
	// The replacement keeps its claim: the pod is new, the claim is not.
	if res := run(t, s, "rollout status sts/web -w=false"); res.Stdout != "Waiting for 1 pods to be ready...\n" {
		t.Errorf("%+v", res)
	}
	if out := run(t, s, "get pods -l app=web -L controller-revision-hash -L statefulset.kubernetes.io/pod-name,nope").Stdout; !strings.HasPrefix(out,
		"NAME    READY   STATUS    RESTARTS   AGE   CONTROLLER-REVISION-HASH   POD-NAME   NOPE\nweb-0   1/1     Running   0          21s   web-6849787d48             web-0      \n") {
		t.Errorf("label columns:\n%s", out)
	}
	labels := run(t, s, "get pods -l app=web --no-headers -o custom-columns=NAME:.metadata.name,REVISION:.metadata.labels.controller-revision-hash").Stdout
	st := statefulSet(t, s, "web").Status
	if want := "web-0   " + st.CurrentRevision + "\nweb-1   " + st.CurrentRevision + "\nweb-2   " + st.UpdateRevision + "\n"; labels != want || st.CurrentRevision == st.UpdateRevision {
		t.Errorf("revision labels:\n%s\nwant:\n%s", labels, want)
	}
	if out := run(t, s, "describe pvc www-web-2").Stdout; !strings.Contains(out, "\nStatus:        Bound\n") || !strings.Contains(out, "\nUsed By:       web-2\n") {
		t.Errorf("describe pvc www-web-2:\n%s", out)
	}
}

// History is the ControllerRevisions, as for DaemonSets; undo patches a
// revision's template back in, and the controller renumbers it.
func TestStatefulSetHistoryAndUndo(t *testing.T) {
	s := stsSession(t)
	if res := run(t, s, "rollout undo sts/web"); res.Stderr != "error: no last revision to roll back to\n" || res.Code != 1 {
		t.Errorf("undo without history: %+v", res)
	}
	if res := run(t, s, "rollout history sts/web"); res.Stdout != "statefulset.apps/web \nREVISION  CHANGE-CAUSE\n1         <none>\n\n" {
		t.Errorf("history: %q", res.Stdout)
	}
	run(t, s, "set image sts/web nginx=example/nginx:v2")
	run(t, s, "rollout status sts/web")
	hist := "statefulset.apps/web \nREVISION  CHANGE-CAUSE\n1         <none>\n2         <none>\n\n"
	if res := run(t, s, "rollout history statefulset/web"); res.Stdout != hist {
		t.Errorf("history:\n%q\nwant\n%q", res.Stdout, hist)
	}
	rev2 := `statefulset.apps/web with revision #2
Pod Template:
  Labels:  app=web
  Containers:
   nginx:
    Image:         example/nginx:v2
    Port:          80/TCP (http)
    Host Port:     0/TCP (http)
    Readiness:     http-get http://:http/ delay=0s timeout=1s period=2s #success=1 #failure=3
    Environment:   <none>
    Mounts:        <none>
  Volumes:         <none>
  Node-Selectors:  <none>
  Tolerations:     <none>

`
	if res := run(t, s, "rollout history sts/web --revision=2"); res.Stdout != rev2 {
		t.Errorf("history --revision=2:\n%s\nwant:\n%s", res.Stdout, rev2)
	}
	if res := run(t, s, "rollout history sts/web --revision=7"); res.Stderr != "error: unable to find the specified revision\n" {
		t.Errorf("%+v", res)
	}
	for _, tc := range []struct{ line, want string }{
		{"rollout undo sts/web --to-revision=2", "statefulset.apps/web skipped rollback (current template already matches revision 2)\n"},
		{"rollout undo statefulset/web", "statefulset.apps/web rolled back\n"},
	} {
		if res := run(t, s, tc.line); res.Stdout != tc.want || res.Code != 0 {
			t.Errorf("%s: %+v, want %q", tc.line, res, tc.want)
		}
	}
	if img := statefulSet(t, s, "web").Spec.Template.Spec.Containers[0].Image; img != "example/nginx:v1" {
		t.Errorf("after undo: image %s", img)
	}
	run(t, s, "rollout status sts/web")
	rows := tableRows(run(t, s, "get controllerrevisions -l app=web").Stdout)
	if r := rows["web-6849787d48"]; len(r) != 4 || r[1] != "statefulset.apps/web" || r[2] != "3" {
		t.Errorf("revision 1 renumbered: %q", rows)
	}
	if res := run(t, s, "rollout history sts/web"); res.Stdout != "statefulset.apps/web \nREVISION  CHANGE-CAUSE\n2         <none>\n3         <none>\n\n" {
		t.Errorf("history after undo: %q", res.Stdout)
	}
	for _, tc := range []struct{ line, out, err string }{
		{"rollout undo sts/web --to-revision=1", "", "error: unable to find specified revision 1 in history\n"},
		{"rollout undo sts/web --to-revision=3", "statefulset.apps/web skipped rollback (current template already matches revision 3)\n", ""},
	} {
		if res := run(t, s, tc.line); res.Stdout != tc.out || res.Stderr != tc.err {
			t.Errorf("%s: %+v", tc.line, res)
		}
	}
	if out := run(t, s, "get pods -l app=web -o jsonpath={.items[*].metadata.labels.controller-revision-hash}").Stdout; out != "web-6849787d48 web-6849787d48 web-6849787d48" {
		t.Errorf("pods after the rollback: %s", out)
	}
}

// Scaling down deletes the highest ordinals one at a time; their claims
// stay (whenScaled: Retain), and scaling up again reuses them.
func TestStatefulSetScale(t *testing.T) {
	s := stsSession(t)
	for _, tc := range []struct{ line, out, err string }{
		{"scale statefulset web --replicas=1", "statefulset.apps/web scaled\n", ""},
		{"scale sts/nope --replicas=1", "", "Error from server (NotFound): statefulsets.apps \"nope\" not found\n"},
		{"scale pvc www-web-0 --replicas=1", "", "Error from server (NotFound): the server could not find the requested resource\n"},
	} {
		if res := run(t, s, tc.line); res.Stdout != tc.out || res.Stderr != tc.err {
			t.Errorf("%s: %+v", tc.line, res)
		}
	}
	advanceSTS(t, s, "scaled to 1", scaledDown)
	s.Cluster.RunUntil(s.Cluster.Now() + 5_000)
	if out := run(t, s, "get sts web --no-headers").Stdout; out != "web   1/1   26s\n" {
		t.Errorf("get sts web: %q", out)
	}
	if out := run(t, s, "get pods -l app=web -o name").Stdout; out != "pod/web-0\n" {
		t.Errorf("pods: %q", out)
	}
	if rows := tableRows(run(t, s, "get pvc").Stdout); len(rows) != 4 || rows["www-web-2"][1] != "Bound" {
		t.Errorf("claims after the scale down: %q", rows)
	}
	out := run(t, s, "describe sts web").Stdout
	if !strings.HasSuffix(out, "  Normal  SuccessfulDelete  6s    statefulset-controller  delete Pod web-2 in StatefulSet web successful\n  Normal  SuccessfulDelete  6s    statefulset-controller  delete Pod web-1 in StatefulSet web successful\n") ||
		!strings.Contains(out, "\nReplicas:           1 desired | 1 total\n") {
		t.Errorf("describe sts web:\n%s", out)
	}
	if out := run(t, s, "describe pvc www-web-2").Stdout; !strings.Contains(out, "\nUsed By:       <none>\n") {
		t.Errorf("describe pvc www-web-2:\n%s", out)
	}
	if res := run(t, s, "scale sts/web --replicas=3"); res.Stdout != "statefulset.apps/web scaled\n" {
		t.Errorf("%+v", res)
	}
	if res := run(t, s, "rollout status sts/web"); !strings.HasSuffix(res.Stdout, "Waiting for 1 pods to be ready...\npartitioned roll out complete: 3 new pods have been updated...\n") {
		t.Errorf("scale up: %+v", res)
	}
	// The claims existed: no claim is created again.
	if n := strings.Count(run(t, s, "describe sts web").Stdout, "create Claim"); n != 3 {
		t.Errorf("%d claim creations, want 3", n)
	}
}

// rollout restart stamps the template; pause and resume do not apply to
// StatefulSets.
func TestStatefulSetOtherRolloutCommands(t *testing.T) {
	s := stsSession(t)
	for _, tc := range []struct{ line, out, err string }{
		{"rollout pause sts/web", "", "error: statefulsets.apps \"web\" pausing is not supported\n"},
		{"rollout resume statefulset web", "", "error: statefulsets.apps \"web\" resuming is not supported\n"},
		{"set image sts/web nope=x:1", "", "error: unable to find container named \"nope\"\n"},
		{"rollout restart sts/web", "statefulset.apps/web restarted\n", ""},
		{"label sts web tier=frontend", "statefulset.apps/web labeled\n", ""},
		{"annotate pvc www-web-0 backup=daily", "persistentvolumeclaim/www-web-0 annotated\n", ""},
		{"label pvc/www-web-1 tier=frontend", "persistentvolumeclaim/www-web-1 labeled\n", ""},
	} {
		if res := run(t, s, tc.line); res.Stdout != tc.out || res.Stderr != tc.err {
			t.Errorf("%s: %+v, want %q %q", tc.line, res, tc.out, tc.err)
		}
	}
	set := statefulSet(t, s, "web")
	if got := set.Spec.Template.Annotations["kubectl.kubernetes.io/restartedAt"]; got != api.At(s.Cluster.Now()).String() || set.Labels["tier"] != "frontend" {
		t.Errorf("restartedAt %q, labels %v", got, set.Labels)
	}
	if res := run(t, s, "rollout status sts/web"); !strings.HasSuffix(res.Stdout, "partitioned roll out complete: 3 new pods have been updated...\n") || !strings.Contains(res.Stdout, "0 out of 3 new pods have been updated") {
		t.Errorf("the restart rolls the pods: %+v", res)
	}
	if out := run(t, s, "get pvc -l tier=frontend -o name").Stdout; out != "persistentvolumeclaim/www-web-1\n" {
		t.Errorf("labelled claim: %q", out)
	}
	if out := run(t, s, "describe pvc www-web-0").Stdout; !strings.Contains(out, "\nAnnotations:   backup: daily\n") {
		t.Errorf("annotated claim:\n%s", out)
	}
}

// delete sts removes the StatefulSet; the garbage collector its pods and
// ControllerRevisions; the claims stay (whenDeleted: Retain) until
// deleted themselves.
func TestDeleteStatefulSet(t *testing.T) {
	s := stsSession(t)
	if res := run(t, s, "delete sts web"); res.Stdout != "statefulset.apps \"web\" deleted from default namespace\n" || res.Code != 0 {
		t.Fatalf("%+v", res)
	}
	if res := run(t, s, "get sts"); res.Stdout != "NAME    READY   AGE\ncache   2/2     20s\n" {
		t.Errorf("%+v", res)
	}
	s.Cluster.RunUntil(s.Cluster.Now() + 60_000)
	for _, line := range []string{"get pods -l app=web", "get controllerrevisions -l app=web"} {
		if res := run(t, s, line); res.Stdout != "" || res.Stderr != "No resources found in default namespace.\n" {
			t.Errorf("%s after the delete: %+v", line, res)
		}
	}
	if rows := tableRows(run(t, s, "get pvc").Stdout); len(rows) != 4 {
		t.Errorf("claims after the delete: %q", rows)
	}
	if res := run(t, s, "delete persistentvolumeclaim www-web-2"); res.Stdout != "persistentvolumeclaim \"www-web-2\" deleted from default namespace\n" {
		t.Errorf("%+v", res)
	}
	if res := run(t, s, "delete pvc/nope"); res.Stderr != "Error from server (NotFound): persistentvolumeclaims \"nope\" not found\n" {
		t.Errorf("%+v", res)
	}
	// The claim's pvc-protection finalizer holds it until the
	// pvc-protection-controller sees that no pod mounts it.
	if res := run(t, s, "get pvc www-web-2"); !strings.Contains(res.Stdout, "Terminating") {
		t.Errorf("the claim just deleted: %+v", res)
	}
	s.Cluster.RunUntil(s.Cluster.Now() + 1_000)
	if out := run(t, s, "get pvc -o name").Stdout; out != "persistentvolumeclaim/www-web-0\npersistentvolumeclaim/www-web-1\n" {
		t.Errorf("claims: %q", out)
	}
}

// statefulsetsTranscript is testdata/statefulsets.golden's commands, from
// the moment the objects exist: lines starting with "#" advance the
// simulation to a stage of the ordered start, the settled cluster, a set
// image rollout, its undo, and a scale down.
var statefulsetsTranscript = []string{
	"get sts,pvc",
	"rollout status sts/web --watch=false",
	"# web-0 is Ready, web-1 created",
	"get sts -o wide",
	"get pods -l app=web -o wide",
	"get pvc -o wide",
	"describe pvc www-web-1",
	"rollout status sts/web",
	"# at 20s",
	"get all",
	"get sts -A --show-labels",
	"get sts web -o yaml",
	"get sts cache -o json",
	"get pvc",
	"get pvc www-web-0 -o yaml",
	"get pods -l app=web --show-labels",
	"get controllerrevisions -o wide",
	"describe sts",
	"describe pvc -l app=web",
	"describe pod web-0",
	"rollout status sts/web",
	"rollout status sts/cache",
	"rollout history sts/web",
	"rollout history sts/web --revision=1",
	"rollout undo sts/web",
	"rollout pause sts/web",
	"set image statefulset/web nginx=example/nginx:v2",
	"rollout status sts/web --watch=false",
	"# web-2 is replaced, not yet Ready",
	"get sts web",
	"get pods -l app=web -L controller-revision-hash",
	"describe sts web",
	"rollout status sts/web",
	"get controllerrevisions -l app=web",
	"rollout history sts/web",
	"rollout history sts/web --revision=2",
	"rollout undo sts/web --to-revision=2",
	"rollout undo sts/web",
	"rollout status sts/web",
	"rollout history sts/web",
	"scale sts web --replicas=1",
	"rollout status sts/web",
	"# scaled down",
	"get pods,pvc -l app=web",
	"describe pvc www-web-2",
	"delete sts web",
	"# a minute later",
	"get all",
	"get pvc",
	"delete pvc www-web-0",
}

func TestStatefulSetsGolden(t *testing.T) {
	s := stsStartSession(t)
	stages := map[string]func(*api.StatefulSet) bool{
		"# web-0 is Ready, web-1 created":    secondPodCreated,
		"# web-2 is replaced, not yet Ready": highestReplaced,
		"# scaled down":                      scaledDown,
	}
	var b strings.Builder
	for _, line := range statefulsetsTranscript {
		if note, ok := strings.CutPrefix(line, "# "); ok {
			switch {
			case stages[line] != nil:
				advanceSTS(t, s, note, stages[line])
			case note == "at 20s":
				s.Cluster.RunUntil(20_000)
			default:
				s.Cluster.RunUntil(s.Cluster.Now() + 60_000)
			}
			b.WriteString("# " + note + ": now " + trace.FormatTime(s.Cluster.Now()) + "\n\n")
			continue
		}
		res := run(t, s, line)
		b.WriteString("$ kubectl " + line + "\n" + res.Output())
		if res.Code != 0 {
			b.WriteString("[exit " + string(rune('0'+res.Code)) + "]\n")
		}
		b.WriteString("\n")
	}
	golden(t, "testdata/statefulsets.golden", b.String())
}

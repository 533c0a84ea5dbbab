package kubectl_test

import (
	"os"
	"strings"
	"testing"

	"github.com/stateflow/stateflow/internal/testkit"
	"github.com/stateflow/stateflow/kubectl"
)

// A pod whose ConfigMap volume has no ConfigMap waits in
// ContainerCreating, without an IP, with a FailedMount Event each time
// the kubelet retries (500 ms doubling); once the ConfigMap exists the
// next retry mounts it and the pod runs (tasks/configure-pod-container/
// configure-pod-configmap, pasted as it is).
func TestConfigMapVolumeWaitsForItsConfigMap(t *testing.T) {
	src, err := os.ReadFile("testdata/docs/configmap-volume.yaml")
	if err != nil {
		t.Fatal(err)
	}
	e, sc := testkit.Load(t, src)
	e.RunUntil(70_000)
	s := &kubectl.Session{Cluster: e, Namespace: sc.Namespace}
	for _, tc := range []struct{ cmd, want string }{
		{"get pod dapi-test-pod -o wide", "dapi-test-pod   0/1     ContainerCreating   0          70s   <none>   node-3   <none>           <none>\n"},
		{"describe pod dapi-test-pod", "  Warning  FailedMount  7s (x8 over 70s)  kubelet            MountVolume.SetUp failed for volume \"config-volume\" : configmap \"special-config\" not found\n"},
		{"describe pod dapi-test-pod", "    Mounts:\n      /etc/config from config-volume (rw)\n"},
		{"describe pod dapi-test-pod", "Volumes:\n  config-volume:\n    Type:        ConfigMap (a volume populated by a ConfigMap)\n    Name:        special-config\n    Optional:    false\n"},
		{"get pod dapi-test-pod -o jsonpath={.spec.volumes[0].configMap}", `{"defaultMode":420,"name":"special-config"}`},
	} {
		if got := run(t, s, tc.cmd).Stdout; !strings.Contains(got, tc.want) {
			t.Errorf("%s lacks\n%s\ngot:\n%s", tc.cmd, tc.want, got)
		}
	}

	// With the ConfigMap created at 20s, the retry at 31.5s mounts it.
	e, sc = testkit.Load(t, append(src, []byte("---\napiVersion: stateflow/v1alpha1\nkind: Scenario\nspec:\n  actions:\n  - at: 20s\n    kubectl: create configmap special-config --from-literal=special.how=very\n")...))
	e.RunUntil(70_000)
	s = &kubectl.Session{Cluster: e, Namespace: sc.Namespace}
	if got := run(t, s, "get pod dapi-test-pod").Stdout; !strings.Contains(got, "dapi-test-pod   0/1     Completed   0          70s") {
		t.Errorf("after the ConfigMap appears the pod runs:\n%s", got)
	}
	if got := run(t, s, "describe pod dapi-test-pod").Stdout; !strings.Contains(got, "FailedMount  55s (x6 over 70s)") {
		t.Errorf("six failed mounts before it appeared (0, 0.5, 1.5, 3.5, 7.5 and 15.5 s):\n%s", got)
	}
}

// Each volume that cannot be set up records a FailedMount of its own at
// every attempt, as the volume manager sets each volume up apart.
func TestEachFailingVolumeRecordsItsFailedMount(t *testing.T) {
	e, sc := testkit.Load(t, []byte(`apiVersion: v1
kind: Pod
metadata: {name: two}
spec:
  containers:
  - name: c
    image: nginx:1.25
  volumes:
  - {name: conf, configMap: {name: app-config}}
  - {name: creds, secret: {secretName: app-secret}}
  - {name: scratch, emptyDir: {}}
`))
	e.RunUntil(10_000)
	s := &kubectl.Session{Cluster: e, Namespace: sc.Namespace}
	got := run(t, s, "describe pod two").Stdout
	for _, want := range []string{
		"  Warning  FailedMount  3s (x5 over 10s)  kubelet            MountVolume.SetUp failed for volume \"conf\" : configmap \"app-config\" not found\n",
		"  Warning  FailedMount  3s (x5 over 10s)  kubelet            MountVolume.SetUp failed for volume \"creds\" : secret \"app-secret\" not found\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("describe lacks\n%s\ngot:\n%s", want, got)
		}
	}
}

// Every volume source and mount a manifest gives is stored with its
// defaults and described as kubectl v1.34 does; an optional ConfigMap
// that does not exist mounts empty.
func TestVolumeSourcesAreKeptAndDescribed(t *testing.T) {
	e, sc := testkit.Load(t, []byte(`apiVersion: v1
kind: Pod
metadata: {name: vols}
spec:
  containers:
  - name: c
    image: nginx:1.25
    volumeMounts:
    - {name: scratch, mountPath: /tmp}
    - {name: logs, mountPath: /var/log, readOnly: true}
    - {name: info, mountPath: /etc/podinfo, subPath: labels}
    - {name: maybe, mountPath: /etc/maybe}
  volumes:
  - name: scratch
    emptyDir: {sizeLimit: 1Gi}
  - name: logs
    hostPath: {path: /var/log}
  - name: info
    downwardAPI:
      items:
      - {path: labels, fieldRef: {fieldPath: metadata.labels}}
  - name: maybe
    configMap: {name: nowhere, optional: true}
  - name: token
    projected:
      sources:
      - serviceAccountToken: {path: token}
      - configMap: {name: nowhere, optional: true}
`))
	e.RunUntil(10_000)
	s := &kubectl.Session{Cluster: e, Namespace: sc.Namespace}
	out := run(t, s, "describe pod vols").Stdout
	for _, want := range []string{
		"    Mounts:\n      /etc/maybe from maybe (rw)\n      /etc/podinfo from info (rw,path=\"labels\")\n      /tmp from scratch (rw)\n      /var/log from logs (ro)\n",
		"  scratch:\n    Type:       EmptyDir (a temporary directory that shares a pod's lifetime)\n    Medium:     \n    SizeLimit:  1Gi\n",
		"  logs:\n    Type:          HostPath (bare host directory volume)\n    Path:          /var/log\n    HostPathType:  \n",
		"  info:\n    Type:  DownwardAPI (a volume populated by information about the pod)\n    Items:\n      metadata.labels -> labels\n",
		"  token:\n    Type:                    Projected (a volume that contains injected data from multiple sources)\n    TokenExpirationSeconds:  3600\n    ConfigMapName:           nowhere\n    Optional:                true\n",
		"    State:          Running\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("describe pod lacks\n%s\ngot:\n%s", want, out)
		}
	}
	if got := run(t, s, "get pod vols -o jsonpath={.spec.volumes[2].downwardAPI}").Stdout; got != `{"defaultMode":420,"items":[{"fieldRef":{"apiVersion":"v1","fieldPath":"metadata.labels"},"path":"labels"}]}` {
		t.Errorf("downwardAPI stored as %s", got)
	}
}

// A StatefulSet's containers mount its claim templates' volumes, which
// the template itself does not list: the API server validates the
// template with them added (volumesToAddForTemplates), and each pod gets
// its claim (tutorials/stateful-application/basic-stateful-set, pasted
// as it is).
func TestStatefulSetMountsItsClaimTemplates(t *testing.T) {
	src, err := os.ReadFile("testdata/docs/web-statefulset.yaml")
	if err != nil {
		t.Fatal(err)
	}
	e, sc := testkit.Load(t, src)
	e.RunUntil(60_000)
	s := &kubectl.Session{Cluster: e, Namespace: sc.Namespace}
	if got := run(t, s, "get pods").Stdout; !strings.Contains(got, "web-0   1/1     Running") || !strings.Contains(got, "web-1   1/1     Running") {
		t.Errorf("get pods:\n%s", got)
	}
	out := run(t, s, "describe pod web-0").Stdout
	for _, want := range []string{"    Mounts:\n      /usr/share/nginx/html from www (rw)\n", "  www:\n    Type:        PersistentVolumeClaim (a reference to a PersistentVolumeClaim in the same namespace)\n    ClaimName:   www-web-0\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("describe pod web-0 lacks\n%s\ngot:\n%s", want, out)
		}
	}
}

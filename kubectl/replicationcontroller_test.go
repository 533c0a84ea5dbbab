package kubectl_test

import (
	"strings"
	"testing"

	"github.com/stateflow/stateflow/internal/testkit"
	"github.com/stateflow/stateflow/kubectl"
)

// The documentation's nginx ReplicationController (controllers/
// replication.yaml, as it is), printed and described as kubectl v1.34
// does, with a PodDisruptionBudget and an autoscaler over it: the
// disruption controller finds its pods' controller (getPodReplicationController)
// and the autoscaler reads and writes its scale subresource.
func TestReplicationControllerKubectl(t *testing.T) {
	e, sc := testkit.Load(t, []byte(`apiVersion: v1
kind: ReplicationController
metadata:
  name: nginx
spec:
  replicas: 3
  selector:
    app: nginx
  template:
    metadata:
      name: nginx
      labels:
        app: nginx
    spec:
      containers:
      - name: nginx
        image: nginx
        ports:
        - containerPort: 80
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: nginx}
spec:
  maxUnavailable: 1
  selector: {matchLabels: {app: nginx}}
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: nginx}
spec:
  scaleTargetRef: {apiVersion: v1, kind: ReplicationController, name: nginx}
  minReplicas: 4
  maxReplicas: 6
`))
	e.RunUntil(60_000)
	s := &kubectl.Session{Cluster: e, Namespace: sc.Namespace}
	for _, tc := range []struct{ cmd, want string }{
		{"get rc -o wide", "NAME    DESIRED   CURRENT   READY   AGE   CONTAINERS   IMAGES   SELECTOR\nnginx   4         4         4       60s   nginx        nginx    app=nginx\n"},
		{"describe rc nginx", "Selector:     app=nginx\nLabels:       app=nginx\nAnnotations:  <none>\nReplicas:     4 current / 4 desired\nPods Status:  4 Running / 0 Waiting / 0 Succeeded / 0 Failed\nPod Template:\n"},
		{"describe rc nginx", "  Normal  SuccessfulCreate  60s   replication-controller  Created pod: "},
		{"get pdb nginx", "nginx   N/A             1                 1                     60s\n"},
		{"get hpa nginx", "nginx   ReplicationController/nginx   cpu: <unknown>/80%   4         6         4          60s\n"},
	} {
		if got := run(t, s, tc.cmd); !strings.Contains(got.Stdout, tc.want) {
			t.Errorf("%s lacks\n%s\ngot:\n%s%s", tc.cmd, tc.want, got.Stdout, got.Stderr)
		}
	}
}

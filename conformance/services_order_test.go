package conformance

import "testing"

// The orders upstream's endpoint controllers give what they list, which
// depend on go-spew hashes (engine/controller/endpointutil/hash.go,
// checked by hash_test.go):

// servicePortOrder: a Service with two ports over one pod. NewPortMapKey
// sorts an EndpointSlice's ports by the hash of each port: upstream
// lists raw before web, not the Service's order.
const servicePortOrder = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
        - name: web
          image: web:1
          ports: [{name: http, containerPort: 8080}]
---
apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {app: web}
  ports:
    - {name: web, port: 80, targetPort: http}
    - {name: raw, port: 8081, targetPort: 8080}
---
apiVersion: stateflow/v1alpha1
kind: Scenario
spec:
  seed: 1
  nodes: {count: 1}
`

// serviceSubsetOrder: one Service over two Deployments whose pods resolve
// its named target port to different numbers, so its Endpoints have two
// subsets. SortSubsets sorts them by the hash of each subset: upstream
// lists green (9090) before blue (8080).
const serviceSubsetOrder = `apiVersion: apps/v1
kind: Deployment
metadata: {name: blue}
spec:
  replicas: 1
  selector: {matchLabels: {app: blue}}
  template:
    metadata: {labels: {app: blue, tier: web}}
    spec:
      containers:
        - name: web
          image: web:1
          ports: [{name: http, containerPort: 8080}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: green}
spec:
  replicas: 1
  selector: {matchLabels: {app: green}}
  template:
    metadata: {labels: {app: green, tier: web}}
    spec:
      containers:
        - name: web
          image: web:1
          ports: [{name: http, containerPort: 9090}]
---
apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {tier: web}
  ports:
    - {name: http, port: 80, targetPort: http}
---
apiVersion: stateflow/v1alpha1
kind: Scenario
spec:
  seed: 1
  nodes: {count: 1}
`

// serviceRepackSmall: a two-port Service over a pod resolving both ports
// and one resolving only http. RepackSubsets gathers the ports offered by
// the same addresses: both pods in one subset for http, the first alone
// in another for metrics (not one subset per set of ports a pod
// resolves). engine/controller/endpoint's TestSubsetsRepackedByAddresses
// asserts the order settled on here.
const serviceRepackSmall = `apiVersion: apps/v1
kind: Deployment
metadata: {name: full}
spec:
  replicas: 1
  selector: {matchLabels: {app: full}}
  template:
    metadata: {labels: {app: full, tier: web}}
    spec:
      containers:
        - name: web
          image: web:1
          ports: [{name: http, containerPort: 8080}, {name: metrics, containerPort: 9090}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: slim}
spec:
  replicas: 1
  selector: {matchLabels: {app: slim}}
  template:
    metadata: {labels: {app: slim, tier: web}}
    spec:
      containers:
        - name: web
          image: web:1
          ports: [{name: http, containerPort: 8080}]
---
apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {tier: web}
  ports:
    - {name: http, port: 80, targetPort: http}
    - {name: metrics, port: 9100, targetPort: metrics}
---
apiVersion: stateflow/v1alpha1
kind: Scenario
spec:
  seed: 1
  nodes: {count: 1}
`

// serviceRepack: serviceRepackSmall with two full pods over two nodes,
// and the slim pod turning ready later than the full ones, so for a while
// the http subset lists not-ready addresses; then slim scaled to zero
// (both ports offered by the same addresses again: one subset).
const serviceRepack = `apiVersion: apps/v1
kind: Deployment
metadata: {name: full}
spec:
  replicas: 2
  selector: {matchLabels: {app: full}}
  template:
    metadata: {labels: {app: full, tier: web}}
    spec:
      containers:
        - name: web
          image: web:1
          ports: [{name: http, containerPort: 8080}, {name: metrics, containerPort: 9090}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: slim}
spec:
  replicas: 1
  selector: {matchLabels: {app: slim}}
  template:
    metadata: {labels: {app: slim, tier: web}}
    spec:
      containers:
        - name: web
          image: slim:1
          ports: [{name: http, containerPort: 8080}]
          readinessProbe: {httpGet: {path: /, port: http}, periodSeconds: 2}
---
apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {tier: web}
  ports:
    - {name: http, port: 80, targetPort: http}
    - {name: metrics, port: 9100, targetPort: metrics}
---
apiVersion: stateflow/v1alpha1
kind: Scenario
spec:
  seed: 1
  nodes: {count: 2}
  images:
    "web:1": {pull: 1s, start: 1s}
    "slim:1": {pull: 1s, start: 1s, ready: 10s}
  actions:
    - {at: 30s, kubectl: scale deployment/slim --replicas=0}
`

// Multi-port EndpointSlices and multi-subset Endpoints: every tick of the
// EndpointSlice and Endpoints controllers agrees with upstream's.
// serviceAppProtocol: a patch changes a port's appProtocol. Upstream's
// port mapping key hashes appProtocol, so the endpoints move to a slice
// with the new ports.
const serviceAppProtocol = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: web:1, ports: [{name: http, containerPort: 8080}]}]
---
apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {app: web}
  ports: [{name: http, port: 80, targetPort: http, appProtocol: http}]
---
apiVersion: stateflow/v1alpha1
kind: Scenario
spec:
  seed: 3
  nodes: {count: 2}
  actions:
    - at: 10s
      kubectl: >-
        patch service web --type=json -p '[{"op": "replace", "path": "/spec/ports/0/appProtocol", "value": "grpc"}]'
`

func TestServicesOrder(t *testing.T) {
	for _, tc := range []struct{ name, src string }{
		{"port-order", servicePortOrder},
		{"subset-order", serviceSubsetOrder},
		{"repack-small", serviceRepackSmall},
		{"repack", serviceRepack},
		{"app-protocol", serviceAppProtocol},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reportFor(t, run(t, []byte(tc.src), 5*60_000), "endpointslice-controller", "endpoints-controller")
		})
	}
}

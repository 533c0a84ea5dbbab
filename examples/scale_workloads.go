package examples

import "fmt"

// The scenarios of the workload benchmarks: each runs to settled, then
// a new image rolls out (web:2 pulls and starts like web:1).

// DaemonSetScale is a DaemonSet "agent" (image web:1, 10m CPU) with
// maxUnavailable 10% on nodes nodes of 64 CPUs and 110 pods.
func DaemonSetScale(nodes int) string {
	return `apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  updateStrategy: {type: RollingUpdate, rollingUpdate: {maxUnavailable: 10%}}
  template:
    metadata: {labels: {app: agent}}
    spec:
      containers: [{name: web, image: web:1, resources: {requests: {cpu: 10m, memory: 16Mi}}}]
---
` + scaleScenario(nodes, true, "")
}

// StatefulSetScale is a StatefulSet "db" of replicas pods, OrderedReady,
// each with a 1Gi claim, behind its headless Service, on one node per
// 100 pods.
func StatefulSetScale(replicas int) string {
	return fmt.Sprintf(`apiVersion: v1
kind: Service
metadata: {name: db}
spec:
  clusterIP: None
  selector: {app: db}
  ports: [{port: 5432}]
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  serviceName: db
  replicas: %d
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: web, image: web:1, resources: {requests: {cpu: 10m, memory: 16Mi}}}]
  volumeClaimTemplates:
    - metadata: {name: data}
      spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
---
`, replicas) + scaleScenario(replicas/100+1, true, "")
}

// ServiceScale is Scale(pods) behind a Service "web" on nodes nodes, with
// 200 requests per second sent to it from every node for the first
// 10 minutes: every slice write reaches each node's kube-proxy.
func ServiceScale(pods, nodes int) string {
	return deployment("web", "web", pods) + `---
apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {app: web}
  ports: [{port: 80, targetPort: 8080}]
---
` + scaleScenario(nodes, true, "") + `  traffic:
    - {service: web, rps: 200, until: 10m}
`
}

// CronJobDay is a CronJob "tick" that runs every minute with Forbid, each
// Job a pod that works for 20 s, beside an Indexed Job of completions
// pods, parallelism 10, each pod 5 s: a day of it is 1,440 Jobs, their
// history kept at 3 and 1, and the Indexed Job's pods counted through
// their finalizers.
func CronJobDay(completions int) string {
	return fmt.Sprintf(`apiVersion: batch/v1
kind: CronJob
metadata: {name: tick}
spec:
  schedule: "* * * * *"
  concurrencyPolicy: Forbid
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Never
          containers: [{name: w, image: batch:1, resources: {requests: {cpu: 10m, memory: 16Mi}}}]
---
apiVersion: batch/v1
kind: Job
metadata: {name: work}
spec:
  completionMode: Indexed
  completions: %d
  parallelism: 10
  template:
    spec:
      restartPolicy: Never
      containers: [{name: w, image: work:1, resources: {requests: {cpu: 10m, memory: 16Mi}}}]
---
apiVersion: stateflow/v1alpha1
kind: Scenario
metadata: {name: cronjob-day}
spec:
  seed: 1
  nodes: {count: 10, capacity: {cpu: "64", memory: 256Gi, pods: "110"}}
  images:
    "batch:1": {pull: 1s, start: 500ms, exitAfter: 20s, exitCode: 0}
    "work:1": {pull: 1s, start: 500ms, exitAfter: 5s, exitCode: 0}
`, completions)
}

// HPAScale is a Deployment "web" of 10 pods (500m of CPU each) under an
// HPA (10–maxReplicas, cpu 50 %) whose load jumps at 1m to what
// maxReplicas pods carry at 50 %: it doubles the count every sync until
// the maximum.
func HPAScale(maxReplicas int) string {
	return fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 10
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: web:1, resources: {requests: {cpu: 500m, memory: 16Mi}}}]
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 10
  maxReplicas: %d
  metrics: [{type: Resource, resource: {name: cpu, target: {type: Utilization, averageUtilization: 50}}}]
---
apiVersion: stateflow/v1alpha1
kind: Scenario
metadata: {name: hpa-scale}
spec:
  seed: 1
  nodes: {count: %d, capacity: {cpu: "64", memory: 256Gi, pods: "110"}}
  images:
    "web:1": {pull: 1s, start: 500ms, ready: 1s}
  load:
    - workload: deployment/web
      cpu:
        - {at: 0s, total: 2500m}
        - {at: 1m, total: %dm}
`, maxReplicas, maxReplicas/100+2, maxReplicas*250)
}

// Package metrics is the resource metrics pipeline: the load a scenario
// puts on its workloads over time (Load), what each running container
// uses because of it (the kubelet's resource metrics, Usage), and the
// metrics-server (Server), which scrapes every node's kubelet every
// 15 s (its --metric-resolution) and serves the metrics API
// (metrics.k8s.io/v1beta1 PodMetrics and NodeMetrics) that the
// HorizontalPodAutoscaler and kubectl top read.
//
// CPU usage is a rate: the metrics-server reports a pod only from its
// second scrape after the pod's containers started, over the window
// between the two. The load is a step function of time, so within a
// window the usage is the one at the window's end.
//
// The metrics API is modelled as objects the metrics-server writes into
// the API server (aggregate writes, one per pod and node a scrape
// changes); a real cluster serves them from the metrics-server's memory
// through the aggregated API. Either way nothing but the metrics-server
// writes them and clients only read them.
package metrics

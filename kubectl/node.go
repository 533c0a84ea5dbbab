package kubectl

import (
	"slices"
	"sort"
	"strconv"

	"github.com/stateflow/stateflow/engine/api"
)

// describeNode is describe.go's describeNode (k8s.io/kubectl v0.34): the
// node's metadata, taints, conditions, addresses, capacity and
// allocatable, system info, then its non-terminated pods with their
// requests and limits and the totals against what the node offers,
// extended resources (example.com/dongle) included. The Lease section is
// left out: the simulation renews node Leases without writing them.
func (s *Session) describeNode(w *prefixWriter, n *api.Node) {
	w.line(0, "Name:\t%s", n.Name)
	roles := nodeRow(n, n.Name, false, s.Cluster.Now())[2]
	w.line(0, "Roles:\t%s", roles)
	mapLines(w, 0, "Labels", n.Labels, "=")
	annotationLines(w, n.Annotations)
	w.line(0, "CreationTimestamp:\t%s", timestamp(n.CreationTimestamp))
	taintLines(w, n.Spec.Taints)
	w.line(0, "Unschedulable:\t%v", n.Spec.Unschedulable)
	if len(n.Status.Conditions) > 0 {
		w.line(0, "Conditions:")
		w.line(1, "Type\tStatus\tLastHeartbeatTime\tLastTransitionTime\tReason\tMessage")
		w.line(1, "----\t------\t-----------------\t------------------\t------\t-------")
		for _, c := range n.Status.Conditions {
			w.line(1, "%s \t%s \t%s \t%s \t%s \t%s", c.Type, c.Status, timestamp(c.LastHeartbeatTime), timestamp(c.LastTransitionTime), c.Reason, c.Message)
		}
	}
	w.line(0, "Addresses:")
	for _, a := range n.Status.Addresses {
		w.line(1, "%s:\t%s", a.Type, a.Address)
	}
	resourceLines(w, 0, "Capacity", n.Status.Capacity)
	resourceLines(w, 0, "Allocatable", n.Status.Allocatable)
	systemInfoLines(w, &n.Status.NodeInfo)
	if n.Spec.PodCIDR != "" {
		w.line(0, "PodCIDR:\t%s", n.Spec.PodCIDR)
		w.line(0, "PodCIDRs:\t%s", n.Spec.PodCIDR)
	}
	s.describeNodeResource(w, n)
}

// taintLines is printNodeTaintsMultiline: the taints sorted by effect,
// then key.
func taintLines(w *prefixWriter, taints []api.Taint) {
	if len(taints) == 0 {
		w.line(0, "Taints:\t<none>")
		return
	}
	sorted := slices.Clone(taints)
	sort.Slice(sorted, func(i, j int) bool {
		return sorted[i].Effect+","+sorted[i].Key < sorted[j].Effect+","+sorted[j].Key
	})
	for i, t := range sorted {
		label := "Taints:"
		if i > 0 {
			label = ""
		}
		v := t.Key
		if t.Value != "" {
			v += "=" + t.Value
		}
		w.line(0, "%s\t%s:%s", label, v, t.Effect)
	}
}

func systemInfoLines(w *prefixWriter, i *api.NodeSystemInfo) {
	w.line(0, "System Info:")
	w.line(1, "Machine ID:\t%s", i.MachineID)
	w.line(1, "System UUID:\t%s", i.SystemUUID)
	w.line(1, "Boot ID:\t%s", i.BootID)
	w.line(1, "Kernel Version:\t%s", i.KernelVersion)
	w.line(1, "OS Image:\t%s", i.OSImage)
	w.line(1, "Operating System:\t%s", i.OperatingSystem)
	w.line(1, "Architecture:\t%s", i.Architecture)
	w.line(1, "Container Runtime Version:\t%s", i.ContainerRuntimeVersion)
	w.line(1, "Kubelet Version:\t%s", i.KubeletVersion)
}

// describeNodeResource is describe.go's describeNodeResource: each
// non-terminated pod's cpu and memory requests and limits as fractions of
// the node's allocatable, then the totals, the node's huge pages and its
// extended resources (which have no fraction).
func (s *Session) describeNodeResource(w *prefixWriter, n *api.Node) {
	var pods []*api.Pod
	for _, o := range s.Cluster.Store().List(api.KindPod, "") {
		// NodeDescriber's field selector: spec.nodeName=<node>,
		// status.phase!=Failed,status.phase!=Succeeded (terminating pods
		// are listed).
		if p := o.(*api.Pod); p.Spec.NodeName == n.Name && p.Status.Phase != api.PodSucceeded && p.Status.Phase != api.PodFailed {
			pods = append(pods, p)
		}
	}
	alloc := n.Status.Capacity
	if len(n.Status.Allocatable) > 0 {
		alloc = n.Status.Allocatable
	}
	w.line(0, "Non-terminated Pods:\t(%d in total)", len(pods))
	w.line(1, "Namespace\tName\t\tCPU Requests\tCPU Limits\tMemory Requests\tMemory Limits\tAge")
	w.line(1, "---------\t----\t\t------------\t----------\t---------------\t-------------\t---")
	reqs, limits := resourceTotals{}, resourceTotals{}
	for _, p := range pods {
		req, lim := podResources(p.Spec, requestsOf), podResources(p.Spec, limitsOf)
		w.line(1, "%s\t%s\t\t%s\t%s\t%s\t%s\t%s", p.Namespace, p.Name, req.usage("cpu", alloc), lim.usage("cpu", alloc),
			req.usage("memory", alloc), lim.usage("memory", alloc), age(p.CreationTimestamp, s.Cluster.Now()))
		reqs.addAll(req)
		limits.addAll(lim)
	}
	w.line(0, "Allocated resources:")
	w.line(0, "  (Total limits may be over 100 percent, i.e., overcommitted.)")
	w.line(1, "Resource\tRequests\tLimits")
	w.line(1, "--------\t--------\t------")
	var huge, ext []string
	for name := range alloc {
		switch {
		case api.IsHugePageResourceName(name):
			huge = append(huge, name)
		case name != "cpu" && name != "memory" && name != "ephemeral-storage" && name != "pods":
			ext = append(ext, name)
		}
	}
	sort.Strings(huge)
	sort.Strings(ext)
	for _, name := range append([]string{"cpu", "memory", "ephemeral-storage"}, huge...) {
		w.line(1, "%s\t%s\t%s", name, reqs.usage(name, alloc), limits.usage(name, alloc))
	}
	for _, name := range ext {
		w.line(1, "%s\t%s\t%s", name, reqs.text(name), limits.text(name))
	}
}

// usage is a total and its share of what the node offers, "250m (6%)":
// cpu compared in thousandths, anything else in whole units.
func (t resourceTotals) usage(name string, alloc api.ResourceList) string {
	part, whole := t.value(name), alloc[name].Value()
	if name == "cpu" {
		part, whole = t.milli(name), alloc[name].MilliValue()
	}
	return t.text(name) + " (" + strconv.FormatInt(fraction(part, whole), 10) + "%)"
}

// fraction is a percentage as describe computes it, in float64 and
// truncated: 290m of 1 CPU is 28 %, as kubectl prints it.
func fraction(part, whole int64) int64 {
	if whole == 0 {
		return 0
	}
	return int64(float64(part) / float64(whole) * 100)
}

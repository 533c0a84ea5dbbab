package scenario

import (
	"fmt"

	"github.com/stateflow/stateflow/engine/api"
)

// Node defaults: a 4-CPU, 8 GiB worker that takes 110 pods.
const (
	defaultNodeCount  = 3
	defaultNodePrefix = "node-"
	MaxNodes          = 5000
)

var defaultCapacity = api.ResourceList{"cpu": api.MustQuantity("4"), "memory": api.MustQuantity("8Gi"), "pods": api.MustQuantity("110")}

// generateNodes builds the nodes a NodesSpec describes.
func generateNodes(s *NodesSpec) []*api.Node {
	count, prefix := defaultNodeCount, defaultNodePrefix
	if s != nil && s.Count != nil {
		count = *s.Count
	}
	if s != nil && s.NamePrefix != "" {
		prefix = s.NamePrefix
	}
	nodes := make([]*api.Node, count)
	for i := range nodes {
		n := &api.Node{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("%s%d", prefix, i+1), Labels: map[string]string{}}}
		capacity := api.ResourceList{}
		for k, v := range defaultCapacity {
			capacity[k] = v
		}
		if s != nil {
			for k, v := range s.Capacity {
				capacity[k] = v
			}
			for k, v := range s.Labels {
				n.Labels[k] = v
			}
			if len(s.Zones) > 0 {
				n.Labels[api.LabelTopologyZone] = s.Zones[i%len(s.Zones)]
			}
			n.Spec.Taints = append(n.Spec.Taints, s.Taints...)
		}
		n.Status.Capacity = capacity
		nodes[i] = n
	}
	return nodes
}

// completeNode fills what a kubelet would report for a registered node:
// labels, pod CIDR, addresses, allocatable, system info and conditions.
func completeNode(n *api.Node, index int) {
	if n.Labels == nil {
		n.Labels = map[string]string{}
	}
	for k, v := range map[string]string{"kubernetes.io/hostname": n.Name, "kubernetes.io/os": "linux", "kubernetes.io/arch": "amd64", "beta.kubernetes.io/os": "linux", "beta.kubernetes.io/arch": "amd64"} {
		if _, ok := n.Labels[k]; !ok {
			n.Labels[k] = v
		}
	}
	if n.Spec.PodCIDR == "" {
		n.Spec.PodCIDR = fmt.Sprintf("10.%d.%d.0/24", 244-index/256, index%256)
	}
	if len(n.Spec.PodCIDRs) == 0 {
		n.Spec.PodCIDRs = []string{n.Spec.PodCIDR}
	}
	if len(n.Status.Addresses) == 0 {
		n.Status.Addresses = []api.NodeAddress{{Type: "InternalIP", Address: fmt.Sprintf("172.18.%d.%d", index/250, index%250+2)}, {Type: "Hostname", Address: n.Name}}
	}
	if n.Status.Capacity == nil {
		n.Status.Capacity = api.ResourceList{}
	}
	for k, v := range defaultCapacity {
		if _, ok := n.Status.Capacity[k]; !ok {
			n.Status.Capacity[k] = v
		}
	}
	if n.Status.Allocatable == nil {
		n.Status.Allocatable = api.ResourceList{}
		for k, v := range n.Status.Capacity {
			n.Status.Allocatable[k] = v
		}
	}
	n.Status.NodeInfo = api.NodeSystemInfo{MachineID: machineID(n.Name, "machine"), SystemUUID: systemUUID(n.Name),
		BootID: systemUUID(n.Name + "/boot"), KernelVersion: "6.1.0-28-amd64",
		KubeletVersion: "v1.34.4", ContainerRuntimeVersion: "containerd://2.0.5",
		OSImage: "Debian GNU/Linux 12 (bookworm)", OperatingSystem: "linux", Architecture: "amd64"}
	if len(n.Status.Conditions) == 0 {
		at := api.At(0)
		n.Status.Conditions = []api.NodeCondition{
			{Type: api.NodeMemoryPressure, Status: api.ConditionFalse, Reason: "KubeletHasSufficientMemory", Message: "kubelet has sufficient memory available", LastHeartbeatTime: at, LastTransitionTime: at},
			{Type: api.NodeDiskPressure, Status: api.ConditionFalse, Reason: "KubeletHasNoDiskPressure", Message: "kubelet has no disk pressure", LastHeartbeatTime: at, LastTransitionTime: at},
			{Type: api.NodePIDPressure, Status: api.ConditionFalse, Reason: "KubeletHasSufficientPID", Message: "kubelet has sufficient PID available", LastHeartbeatTime: at, LastTransitionTime: at},
			{Type: api.NodeReady, Status: api.ConditionTrue, Reason: "KubeletReady", Message: "kubelet is posting ready status", LastHeartbeatTime: at, LastTransitionTime: at},
		}
	}
}

// machineID is a node's /etc/machine-id as the kubelet reports it: 32
// hexadecimal digits, derived from the node's name so that every run of
// a scenario shows the same.
func machineID(name, salt string) string { return api.DerivedID(salt + "/" + name) }

// systemUUID is a node's SMBIOS UUID (or boot ID), derived from its name.
func systemUUID(name string) string { return api.DerivedUUID("uuid/" + name) }

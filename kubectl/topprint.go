package kubectl

// This file is kubectl top's printer (k8s.io/kubectl pkg/metricsutil
// metrics_printer.go, metrics_sorter.go): every cell, the last too, ends
// with a tab, through cli-runtime's tabwriter (minimum width 6, padding
// 3), so each line ends in spaces.

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/stateflow/stateflow/engine/api"
)

// topResources are the resources top measures: cpu and memory, and swap
// with --show-swap.
func topResources(swap bool) []string {
	if swap {
		return []string{"cpu", "memory", "swap"}
	}
	return []string{"cpu", "memory"}
}

// usage is a resource's usage in thousandths, as one quantity.
type usage map[string]int64

// podUsage is getPodMetrics: the containers' usage summed per resource.
func podUsage(m *api.PodMetrics, resources []string) usage {
	u := usage{}
	for _, c := range m.Containers {
		for _, r := range resources {
			u[r] += c.Usage[r].MilliValue()
		}
	}
	return u
}

// containerUsage is one container's usage.
func containerUsage(c api.ContainerMetrics) usage {
	u := usage{}
	for r, q := range c.Usage {
		u[r] = q.MilliValue()
	}
	return u
}

// usageCell is printSingleResourceUsage: cpu in millicores, memory and
// swap in whole MiB (the bytes rounded up first, as Value does).
func usageCell(r string, milli int64) string {
	switch r {
	case "cpu":
		return fmt.Sprintf("%dm", milli)
	case "memory", "swap":
		return fmt.Sprintf("%dMi", (milli+999)/1000/(1024*1024))
	}
	return fmt.Sprint((milli + 999) / 1000)
}

// usageCells is printAllResourceUsages: each resource's usage, followed
// by its share of available when a node's allocatable has it, or two
// "<unknown>" for a resource the node does not report (swap).
func usageCells(u usage, available api.ResourceList, missing map[string]bool, resources []string) []string {
	var cells []string
	for _, r := range resources {
		if missing[r] {
			cells = append(cells, "<unknown>", "<unknown>")
			continue
		}
		cells = append(cells, usageCell(r, u[r]))
		if a, ok := available[r]; ok {
			fraction := 0.0
			if !a.IsZero() {
				fraction = float64(u[r]) / float64(a.MilliValue()) * 100
			}
			cells = append(cells, fmt.Sprintf("%d%%", int64(fraction)))
		}
	}
	return cells
}

// topTable renders lines of cells as the metrics printer writes them:
// each cell followed by a tab, through cli-runtime's tabwriter.
func topTable(lines [][]string) string {
	var b strings.Builder
	w := tabwriter.NewWriter(&b, 6, 4, 3, ' ', 0)
	for _, l := range lines {
		for _, c := range l {
			fmt.Fprint(w, c+"\t")
		}
		fmt.Fprint(w, "\n")
	}
	w.Flush()
	return b.String()
}

// byUsage is the metrics sorters' order: by --sort-by's resource,
// largest first, else by name (namespace first with -A). sort.Sort, as
// kubectl's, is not stable.
type byUsage struct {
	names  []string
	usages []usage
	sortBy string
	swap   func(i, j int)
}

func (s byUsage) Len() int { return len(s.names) }

func (s byUsage) Swap(i, j int) {
	s.names[i], s.names[j] = s.names[j], s.names[i]
	s.usages[i], s.usages[j] = s.usages[j], s.usages[i]
	s.swap(i, j)
}

func (s byUsage) Less(i, j int) bool {
	switch s.sortBy {
	case "cpu", "memory":
		return s.usages[i][s.sortBy] > s.usages[j][s.sortBy]
	}
	return s.names[i] < s.names[j]
}

// sortMetrics sorts n items, each named by name(i) and using usage(i),
// moving them with swap.
func sortMetrics(n int, sortBy string, name func(int) string, use func(int) usage, swap func(i, j int)) {
	s := byUsage{names: make([]string, n), usages: make([]usage, n), sortBy: sortBy, swap: swap}
	for i := range n {
		s.names[i], s.usages[i] = name(i), use(i)
	}
	sort.Sort(s)
}

// printNodeMetrics is PrintNodeMetrics: the nodes with metrics, then
// those in available without (all "<unknown>"; kubectl's map order,
// here by name).
func printNodeMetrics(ms []*api.NodeMetrics, available map[string]api.ResourceList, noHeaders, swap bool, sortBy string) string {
	if len(ms) == 0 {
		return ""
	}
	res := topResources(swap)
	sortMetrics(len(ms), sortBy, func(i int) string { return ms[i].Name }, func(i int) usage { return nodeUsage(ms[i]) },
		func(i, j int) { ms[i], ms[j] = ms[j], ms[i] })
	var lines [][]string
	if !noHeaders {
		lines = append(lines, nodeColumns(swap))
	}
	for _, m := range ms {
		lines = append(lines, append([]string{m.Name}, usageCells(nodeUsage(m), available[m.Name], map[string]bool{"swap": true}, res)...))
		delete(available, m.Name)
	}
	for _, name := range slices.Sorted(maps.Keys(available)) {
		l := []string{name}
		for range res {
			l = append(l, "<unknown>", "<unknown>")
		}
		lines = append(lines, l)
	}
	return topTable(lines)
}

func nodeUsage(m *api.NodeMetrics) usage {
	u := usage{}
	for r, q := range m.Usage {
		u[r] = q.MilliValue()
	}
	return u
}

func nodeColumns(swap bool) []string {
	h := []string{"NAME", "CPU(cores)", "CPU(%)", "MEMORY(bytes)", "MEMORY(%)"}
	if swap {
		h = append(h, "SWAP(bytes)", "SWAP(%)")
	}
	return h
}

// podPrint is how PrintPodMetrics prints: -A, --containers, --no-headers,
// --sort-by, --sum, --show-swap.
type podPrint struct {
	withNamespace, containers, noHeaders, sum, swap bool
	sortBy                                          string
}

// printPodMetrics is PrintPodMetrics.
func printPodMetrics(ms []*api.PodMetrics, o podPrint) string {
	if len(ms) == 0 {
		return ""
	}
	res := topResources(o.swap)
	var lines [][]string
	width := len(res) + 1
	if !o.noHeaders {
		var h []string
		if o.withNamespace {
			h, width = append(h, "NAMESPACE"), width+1
		}
		if o.containers {
			h, width = append(h, "POD"), width+1
		}
		lines = append(lines, append(h, append([]string{"NAME", "CPU(cores)", "MEMORY(bytes)"}, swapColumn(o.swap)...)...))
	}
	sortPods(ms, o, res)
	for _, m := range ms {
		lines = append(lines, podLines(m, o, res)...)
	}
	if o.sum {
		lines = append(lines, sumLines(ms, width, res)...)
	}
	return topTable(lines)
}

func swapColumn(swap bool) []string {
	if swap {
		return []string{"SWAP(bytes)"}
	}
	return nil
}

// sortPods is NewPodMetricsSorter's order (the usages are only summed
// when sorting by one).
func sortPods(ms []*api.PodMetrics, o podPrint, res []string) {
	name := func(i int) string { return ms[i].Name }
	if o.withNamespace {
		// The namespace decides first; a NUL keeps "a"/"b" before "a-x"/"a".
		name = func(i int) string { return ms[i].Namespace + "\x00" + ms[i].Name }
	}
	sortMetrics(len(ms), o.sortBy, name, func(i int) usage { return podUsage(ms[i], res) },
		func(i, j int) { ms[i], ms[j] = ms[j], ms[i] })
}

// podLines is printSinglePodMetrics, or with --containers
// printSinglePodContainerMetrics (containers sorted as the pods).
func podLines(m *api.PodMetrics, o podPrint, res []string) [][]string {
	var prefix []string
	if o.withNamespace {
		prefix = []string{m.Namespace}
	}
	if !o.containers {
		return [][]string{append(append(prefix, m.Name), usageCells(podUsage(m, res), nil, nil, res)...)}
	}
	cs := append([]api.ContainerMetrics(nil), m.Containers...)
	sortMetrics(len(cs), o.sortBy, func(i int) string { return cs[i].Name }, func(i int) usage { return containerUsage(cs[i]) },
		func(i, j int) { cs[i], cs[j] = cs[j], cs[i] })
	var lines [][]string
	for _, c := range cs {
		l := append(append(append([]string(nil), prefix...), m.Name, c.Name), usageCells(containerUsage(c), nil, nil, res)...)
		lines = append(lines, l)
	}
	return lines
}

// sumLines is printPodResourcesSum: a rule under the usage columns and
// the totals (placed by the header's width, which --no-headers leaves
// without the NAMESPACE and POD columns, as kubectl does).
func sumLines(ms []*api.PodMetrics, width int, res []string) [][]string {
	total := usage{}
	for _, m := range ms {
		for r, v := range podUsage(m, res) {
			total[r] += v
		}
	}
	rule := append(make([]string, max(width-2, 0)), "________", "________")
	sum := append(make([]string, max(width-3, 0)), "")
	return [][]string{rule, append(sum, usageCells(total, nil, nil, res)...)}
}

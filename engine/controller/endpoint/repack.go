package endpoint

// This file is RepackSubsets and SortSubsets (k8s.io/kubernetes
// pkg/api/v1/endpoints/util.go), which the Endpoints controller's
// syncService applies to the one-address, one-port subsets it builds.

import (
	"bytes"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/controller/endpointutil"
	"github.com/stateflow/stateflow/engine/order"
)

// RepackSubsets is RepackSubsets: it maps each port to the addresses
// offering it (one address per IP and target UID; a not-ready one stays
// not ready), then gathers the ports offered by the same set of
// addresses, with the same readiness, into one subset, and sorts the
// result (SortSubsets). A subset without ports keeps its addresses in a
// subset without ports. Upstream walks its maps in random order, which
// SortSubsets makes irrelevant; the engine walks them in key order.
func RepackSubsets(subsets []api.EndpointSubset) []api.EndpointSubset {
	type addressKey struct{ ip, uid string }
	sentinel := api.EndpointsPort{Port: -1} // a subset without ports
	allAddrs := map[addressKey]*api.EndpointAddress{}
	var portOrder []api.EndpointsPort
	portToAddrReady := map[api.EndpointsPort]map[addressKey]bool{}
	mapAddress := func(a *api.EndpointAddress, port api.EndpointsPort, ready bool) {
		key := addressKey{ip: a.IP}
		if a.TargetRef != nil {
			key.uid = a.TargetRef.UID
		}
		if allAddrs[key] == nil {
			c := *a
			allAddrs[key] = &c
		}
		set := portToAddrReady[port]
		if set == nil {
			set = map[addressKey]bool{}
			portToAddrReady[port] = set
			portOrder = append(portOrder, port)
		}
		// Not ready always trumps ready.
		if was, found := set[key]; !found || was {
			set[key] = ready
		}
	}
	for i := range subsets {
		s := &subsets[i]
		ports := s.Ports
		if len(ports) == 0 {
			ports = []api.EndpointsPort{sentinel}
		}
		for _, port := range ports {
			for k := range s.Addresses {
				mapAddress(&s.Addresses[k], port, true)
			}
			for k := range s.NotReadyAddresses {
				mapAddress(&s.NotReadyAddresses[k], port, false)
			}
		}
	}

	// The set of addresses (with their readiness) each port maps to, as
	// a key (upstream's hashAddresses), and the ports of each set.
	setKey := func(set map[addressKey]bool) string {
		var parts []string
		for k, ready := range set {
			parts = append(parts, k.ip+"\x00"+k.uid+"\x00"+strconv.FormatBool(ready))
		}
		slices.Sort(parts)
		return strings.Join(parts, "\x01")
	}
	sets := map[string]map[addressKey]bool{}
	portsOfSet := map[string][]api.EndpointsPort{}
	for _, port := range portOrder {
		set := portToAddrReady[port]
		k := setKey(set)
		sets[k] = set
		if port.Port > 0 {
			portsOfSet[k] = append(portsOfSet[k], port)
		} else if _, found := portsOfSet[k]; !found {
			portsOfSet[k] = nil
		}
	}

	final := []api.EndpointSubset{}
	for _, k := range slices.Sorted(maps.Keys(portsOfSet)) {
		var ready, notReady []api.EndpointAddress
		for _, ak := range order.Sorted(maps.Keys(sets[k]), func(a, b addressKey) int {
			return strings.Compare(a.ip+"\x00"+a.uid, b.ip+"\x00"+b.uid)
		}) {
			if sets[k][ak] {
				ready = append(ready, *allAddrs[ak])
			} else {
				notReady = append(notReady, *allAddrs[ak])
			}
		}
		final = append(final, api.EndpointSubset{Addresses: ready, NotReadyAddresses: notReady, Ports: portsOfSet[k]})
	}
	return SortSubsets(final)
}

// SortSubsets is SortSubsets: each subset's addresses by IP (bytewise)
// then target UID (LessEndpointAddress), its ports by the md5 of each
// port's spew dump (portsByHash), then the subsets by the md5 of each
// subset's (subsetsByHash). It sorts in place and returns the slice. No
// two distinct ports, subsets or addresses (unique by IP and target UID)
// tie, so the order is upstream's whatever the sort algorithm.
func SortSubsets(subsets []api.EndpointSubset) []api.EndpointSubset {
	for i := range subsets {
		s := &subsets[i]
		order.SortFunc(s.Addresses, compareAddress)
		order.SortFunc(s.NotReadyAddresses, compareAddress)
		sortByHash(s.Ports, endpointutil.SpewEndpointsPort)
	}
	sortByHash(subsets, endpointutil.SpewEndpointSubset)
	return subsets
}

// compareAddress is LessEndpointAddress as a comparison: by IP, then a
// missing target first, then by target UID.
func compareAddress(a, b api.EndpointAddress) int {
	if c := bytes.Compare([]byte(a.IP), []byte(b.IP)); c != 0 {
		return c
	}
	switch {
	case a.TargetRef == nil && b.TargetRef == nil:
		return 0
	case a.TargetRef == nil:
		return -1
	case b.TargetRef == nil:
		return 1
	}
	return strings.Compare(a.TargetRef.UID, b.TargetRef.UID)
}

// sortByHash sorts s in place by the hex md5 of each element's dump.
func sortByHash[T any](s []T, dump func(T) string) {
	hashes := make([]string, len(s))
	idx := make([]int, len(s))
	for i := range s {
		hashes[i] = endpointutil.DeepHashObjectToString(dump(s[i]))
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return strings.Compare(hashes[a], hashes[b]) })
	sorted := make([]T, len(s))
	for i, j := range idx {
		sorted[i] = s[j]
	}
	copy(s, sorted)
}

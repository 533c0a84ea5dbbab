package api

import "testing"

// A pod's effective requests aggregate its init containers as
// resource.PodRequests does: an init container runs alone with the
// sidecars started before it, the containers run with every sidecar, and
// the larger of the two counts, per resource. The wants are worked by
// hand.
func TestPodRequestsWithInitContainers(t *testing.T) {
	always := ContainerRestartPolicyAlways
	c := func(cpu, mem string) Container {
		r := ResourceList{}
		for name, v := range map[string]string{"cpu": cpu, "memory": mem} {
			if v != "" {
				q, err := ParseQuantity(v)
				if err != nil {
					t.Fatal(err)
				}
				r[name] = q
			}
		}
		return Container{Resources: ResourceRequirements{Requests: r}}
	}
	sidecar := func(cpu string) Container {
		x := c(cpu, "")
		x.RestartPolicy = &always
		return x
	}
	for _, tc := range []struct {
		name          string
		spec          PodSpec
		wantCPU, want string // want is memory
	}{
		{"containers only", PodSpec{Containers: []Container{c("100m", "64Mi"), c("200m", "")}}, "300m", "64Mi"},
		{"an init container larger than the containers", PodSpec{InitContainers: []Container{c("500m", "")}, Containers: []Container{c("100m", ""), c("200m", "")}}, "500m", "0"},
		{"a sidecar before an init container", PodSpec{InitContainers: []Container{sidecar("50m"), c("400m", "")}, Containers: []Container{c("100m", "")}}, "450m", "0"},
		{"a sidecar after an init container", PodSpec{InitContainers: []Container{c("400m", ""), sidecar("50m")}, Containers: []Container{c("100m", "")}}, "400m", "0"},
		{"sidecars add to the containers", PodSpec{InitContainers: []Container{sidecar("50m"), sidecar("50m"), c("120m", "")}, Containers: []Container{c("100m", "")}}, "220m", "0"},
		{"per resource", PodSpec{InitContainers: []Container{c("1", "")}, Containers: []Container{c("100m", "1Gi")}}, "1", "1Gi"},
	} {
		got := PodRequests(&tc.spec)
		for name, want := range map[string]string{"cpu": tc.wantCPU, "memory": tc.want} {
			w, err := ParseQuantity(want)
			if err != nil {
				t.Fatal(err)
			}
			if g := got[name]; g.MilliValue() != w.MilliValue() {
				t.Errorf("%s: %s %s, want %s", tc.name, name, g.String(), want)
			}
		}
	}
}

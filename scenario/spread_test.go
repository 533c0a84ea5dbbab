package scenario

import (
	"strings"
	"testing"
)

// A DoNotSchedule constraint over a label no node carries warns at its
// topologyKey; with the nodes given zones, it does not.
func TestSpreadKeyWarning(t *testing.T) {
	pod := "apiVersion: v1\nkind: Pod\nmetadata: {name: mypod, labels: {foo: bar}}\nspec:\n  topologySpreadConstraints:\n  - maxSkew: 1\n    topologyKey: KEY\n    whenUnsatisfiable: DoNotSchedule\n    labelSelector: {matchLabels: {foo: bar}}\n  containers: [{name: pause, image: registry.k8s.io/pause:3.1}]\n"
	for _, tc := range []struct{ name, src, want string }{
		{"a label no node has", strings.Replace(pod, "KEY", "zone", 1),
			`line 7:18: spec.topologySpreadConstraints[0].topologyKey: no node carries the label "zone": this DoNotSchedule constraint keeps every pod of mypod Pending`},
		{"zones given", strings.Replace(pod, "KEY", "topology.kubernetes.io/zone", 1) + "---\napiVersion: stateflow/v1alpha1\nkind: Scenario\nspec:\n  nodes: {count: 3, zones: [a, b, c]}\n", ""},
		{"hostname", strings.Replace(pod, "KEY", "kubernetes.io/hostname", 1), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc, err := Parse([]byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			for _, d := range sc.Warnings {
				got += d.String() + "\n"
			}
			if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
				t.Errorf("warnings:\n%s\nwant %q", got, tc.want)
			}
		})
	}
}

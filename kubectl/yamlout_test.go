package kubectl

import (
	"math/rand/v2"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// viaYAML is what scalar returned before its fast path: yaml.v3's own
// rendering of one scalar.
func viaYAML(t *testing.T, v any) string {
	t.Helper()
	out, err := yaml.Marshal(v)
	if err != nil {
		t.Fatalf("yaml.Marshal(%#v): %v", v, err)
	}
	return strings.TrimSuffix(string(out), "\n")
}

// The fast path writes every scalar exactly as yaml.v3 does: the strings
// an object holds (names, images, IPs, times, reasons) and the ones YAML
// would read as something else.
func TestScalarFastPath(t *testing.T) {
	cases := []any{
		"codartium-api", "codartium/api:1.4.2", "nginx:1.25", "10.244.0.2", "2026-11-30T10:00:00Z",
		"Available", "MinimumReplicasAvailable", "node-1", "a", "y", "Y", "n", "no", "No", "NO", "yes", "on", "Off",
		"true", "False", "null", "Null", "NULL", "~", "", " ", "1", "1.5", "1e3", "0x1F", "0o17", "0b101", ".inf", ".NaN",
		"a: b", "a #b", "a:", "key:", "-a", "a-", "a_b", "a/b", "A.B", "e1", "E5", "inf", "nan", "Infinity",
		"Deployment has minimum availability.", `ReplicaSet "web-5d8f" has successfully progressed.`,
		"Created pod: web-5d8f-abcde", "0/3 nodes are available: 3 Insufficient cpu.", "Back-off restarting failed container api in pod api-1_demo(uid)",
		strings.Repeat("word ", 40) + "end", "a  b", "a ,b", "a=b+c", "f(x)", "a - b", "a -b",
		"16Mi", "250m", "1Gi", "10m", "1.5Gi", "1e3", "1E3", "0x1F", "1k", "2026-11-30", "25%", "1:20", "8519c20f-233a", "12h", "3s", "1M", "100n", "0.5m",
		"2026-11-30T10:00:00Z", "2026-13-45T99:99:99Z", "0000-00-00T00:00:00Z", "2026-11-30T10:00:00+01:00",
		"true1", "nul", "on-call", "ab:cd:ef", "a:1", "x.", "x..y", "_a", "app.kubernetes.io/name",
		true, false, 0, 3, -7, int64(1 << 40), 1.5, nil,
	}
	for _, v := range cases {
		if got, want := scalar(v), viaYAML(t, v); got != want {
			t.Errorf("scalar(%#v) = %q, yaml.v3 writes %q", v, got, want)
		}
	}
	// Random strings over the fast path's alphabet and a few characters
	// that must not take it.
	const alphabet = "abyYnNoOeEtTuUlLfF019._/-: #\"',()=+[]{}&*!|>%@`?\\"
	r := rand.New(rand.NewPCG(1, 2))
	const digits = "0123456789.eEgGiImMkKnNpPxXtTzZ:-+_ "
	for range 20000 {
		b := make([]byte, 1+r.IntN(6))
		for i := range b {
			b[i] = digits[r.IntN(len(digits))]
		}
		b[0] = digits[r.IntN(10)]
		s := string(b)
		if got, want := scalar(s), viaYAML(t, s); got != want {
			t.Fatalf("scalar(%q) = %q, yaml.v3 writes %q", s, got, want)
		}
	}
	for range 20000 {
		b := make([]byte, 1+r.IntN(8)+r.IntN(2)*r.IntN(200))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		s := string(b)
		if got, want := scalar(s), viaYAML(t, s); got != want {
			t.Fatalf("scalar(%q) = %q, yaml.v3 writes %q", s, got, want)
		}
	}
}

package kubectl

import (
	"net"
	"testing"
)

// TestJoinHostPortIsNets keeps the local copy equal to the standard
// library's, IPv6 included.
func TestJoinHostPortIsNets(t *testing.T) {
	for _, host := range []string{"10.244.0.5", "fd00::5", "::1", "", "web.default.svc", "[::1]"} {
		for _, port := range []string{"80", "8080", ""} {
			if got, want := joinHostPort(host, port), net.JoinHostPort(host, port); got != want {
				t.Errorf("joinHostPort(%q, %q) = %q, net.JoinHostPort gives %q", host, port, got, want)
			}
		}
	}
}

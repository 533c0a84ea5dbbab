package api

import "fmt"

// DerivedID is 32 hexadecimal digits derived from key (two FNV-1a hashes,
// seeded apart): the identifiers a cluster gives things it makes itself
// (a node's machine ID, a bootstrap object's uid), the same on every run
// and without drawing on the random numbers that name a scenario's
// objects.
func DerivedID(key string) string {
	h := [2]uint64{14695981039346656037, 14695981039346656037 ^ 0x9e3779b97f4a7c15}
	for _, b := range []byte(key) {
		for i := range h {
			h[i] = (h[i] ^ uint64(b)) * 1099511628211
		}
	}
	return fmt.Sprintf("%016x%016x", h[0], h[1])
}

// DerivedUUID is DerivedID(key) in the form of a version-4 UUID.
func DerivedUUID(key string) string {
	x := DerivedID(key)
	return x[:8] + "-" + x[8:12] + "-4" + x[13:16] + "-" + x[16:20] + "-" + x[20:]
}

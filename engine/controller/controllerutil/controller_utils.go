package controllerutil

import (
	"encoding/json"
	"hash/fnv"
	"strconv"

	"github.com/stateflow/stateflow/engine/api"
)

// ComputeHash returns the pod-template-hash of a template, in the format of
// controller.ComputeHash: FNV-1a 32 of the template (here its canonical
// JSON, since Go's struct dump cannot be reproduced), the collision count
// appended, then each decimal digit mapped into the safe alphabet.
func ComputeHash(t *api.PodTemplateSpec, collisionCount *int32) string {
	h := fnv.New32a()
	b, _ := json.Marshal(t)
	h.Write(b)
	if collisionCount != nil {
		var buf [8]byte
		c := uint32(*collisionCount)
		for i := 0; i < 4; i++ {
			buf[i] = byte(c >> (8 * i))
		}
		h.Write(buf[:])
	}
	return SafeEncodeString(strconv.FormatUint(uint64(h.Sum32()), 10))
}

// SafeEncodeString maps each byte into "bcdfghjklmnpqrstvwxz2456789"
// (apimachinery util/rand).
func SafeEncodeString(s string) string {
	const alphanums = "bcdfghjklmnpqrstvwxz2456789"
	r := make([]byte, len(s))
	for i, b := range []byte(s) {
		r[i] = alphanums[int(b)%len(alphanums)]
	}
	return string(r)
}

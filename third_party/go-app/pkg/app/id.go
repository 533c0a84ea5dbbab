package app

import (
	"fmt"
	"math/rand/v2"
)

// newID is a random version 4 UUID string, as uuid.NewString returns,
// drawn from math/rand/v2 (seeded by the runtime) rather than
// crypto/rand: the IDs name a device and a tab's state broadcasts, and
// need to be unique, not secret. (Stateflow's fork: github.com/google/uuid
// linked crypto/rand and its FIPS DRBG into every wasm.)
func newID() string {
	hi, lo := rand.Uint64(), rand.Uint64()
	hi = hi&^(0xf<<12) | 4<<12         // version 4
	lo = lo&^(0x3<<62) | uint64(2)<<62 // variant 10
	return fmt.Sprintf("%08x-%04x-%04x-%04x-%012x", hi>>32, hi>>16&0xffff, hi&0xffff, lo>>48, lo&0xffffffffffff)
}

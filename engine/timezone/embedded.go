//go:build !js

package timezone

// Native builds link the zone database, so Default loads every zone on a
// machine without one; app.wasm leaves it out (see the package comment).
import _ "time/tzdata"

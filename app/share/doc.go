// Package share encodes a scenario and a tick into a URL fragment and
// decodes it back: "#s=" + base64url(deflate(JSON)), versioned, so a static
// host never sees the scenario. Decoding is bounded in size and never
// panics, whatever the link holds.
package share

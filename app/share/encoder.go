package share

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"encoding/json"
)

// Encoder makes the same fragments as EncodeState, reusing its
// compressor: a link kept up to date at every step (the embed's "Open in
// Stateflow") would otherwise allocate a new compressor, about 800 KB,
// each time. The zero Encoder is ready; it is not safe for concurrent use.
type Encoder struct {
	w   *flate.Writer
	buf bytes.Buffer
}

// Encode returns the fragment (without "#") for st, as EncodeState does.
func (e *Encoder) Encode(st State) string {
	st.Version = Version
	e.buf.Reset()
	if e.w == nil {
		e.w, _ = flate.NewWriter(&e.buf, flate.BestCompression)
	} else {
		e.w.Reset(&e.buf)
	}
	_ = json.NewEncoder(e.w).Encode(st)
	_ = e.w.Close()
	return Prefix + base64.RawURLEncoding.EncodeToString(e.buf.Bytes())
}

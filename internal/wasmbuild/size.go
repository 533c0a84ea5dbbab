package wasmbuild

import (
	"bytes"
	"compress/gzip"

	"github.com/andybalholm/brotli"
)

// Sizes are a file's size as stored and as sent compressed.
type Sizes struct {
	Raw, Gzip, Brotli int
}

// Measure compresses b as a host that precompresses its files would:
// gzip at compress/gzip's best level (about 1 % larger than GNU gzip -9;
// GitHub Pages sends gzip) and brotli at quality 11 with a 4 MiB window
// (what `stateflow serve` sends to browsers that accept it; `stateflow
// build` writes its .br files with the brotli tool, when installed).
func Measure(b []byte) Sizes {
	return Sizes{Raw: len(b), Gzip: len(Gzip(b)), Brotli: len(Brotli(b))}
}

// Gzip is b at gzip's best compression.
func Gzip(b []byte) []byte {
	var buf bytes.Buffer
	w, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

// Brotli is b at brotli's quality 11 and a 4 MiB window.
func Brotli(b []byte) []byte {
	var buf bytes.Buffer
	w := brotli.NewWriterOptions(&buf, brotli.WriterOptions{Quality: 11, LGWin: 22})
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

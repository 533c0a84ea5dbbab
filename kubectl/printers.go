package kubectl

// column is one of get's column definitions (a kindHelper's columns).
type column struct {
	name string
	wide bool
}

// Whether a column is shown always or with -o wide only.
const (
	always   = false
	wideOnly = true
)

// printerFor is kind's helper if it has a get printer; a kind without one
// prints its name only.
func printerFor(kind string) (*kindHelper, bool) {
	h := helperFor(kind)
	return h, h.row != nil
}

package kubectl

import (
	"slices"

	"github.com/stateflow/stateflow/engine/api"
)

// Columns, Row and PrintedKinds expose the printers to the external tests.
func Columns(kind string, wide bool) []string { return columns(kind, wide) }

func Row(o api.Object, wide bool, now int64) []string { return row(o, o.Meta().Name, wide, now) }

func PrintedKinds() []string {
	var kinds []string
	for _, h := range kindHelpers {
		if h.row != nil {
			kinds = append(kinds, h.kind)
		}
	}
	slices.Sort(kinds)
	return kinds
}

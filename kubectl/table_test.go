package kubectl

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// pad prints exactly what text/tabwriter with padding 3 prints, for any
// table whose lines have the same number of cells (wide runes included).
func TestPadMatchesTabwriter(t *testing.T) {
	words := []string{"", "a", "NAME", "codartium-api-5fd6c9f75c-wkjf5", "0/3", "<none>", "Pulling image \"x\"", "ümlaut", "日本", "  "}
	r := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		cols := 1 + r.IntN(6)
		lines := make([][]string, 1+r.IntN(8))
		for i := range lines {
			lines[i] = make([]string, cols)
			for j := range lines[i] {
				lines[i][j] = words[r.IntN(len(words))]
			}
		}
		if got, want := pad(lines), tabwrite(lines); got != want {
			t.Fatalf("for %q\npad:\n%s\ntabwriter:\n%s", lines, strings.ReplaceAll(got, " ", "·"), strings.ReplaceAll(want, " ", "·"))
		}
	}
}

package examples

import "testing"

// Every example's text names it, the generated ones too; a text edited
// by a character names none.
func TestNameOf(t *testing.T) {
	for _, ex := range append(All(), Large()...) {
		if got := NameOf(ex.Source); got != ex.Name {
			t.Errorf("%s: named %q", ex.Name, got)
		}
		if got := NameOf(ex.Source + " "); got != "" {
			t.Errorf("%s edited: named %q", ex.Name, got)
		}
	}
}

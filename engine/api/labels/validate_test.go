package labels

import (
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/validate/content"
)

// The label validation must say exactly what apimachinery's does.
func TestLabelValidationMatchesApimachinery(t *testing.T) {
	cases := []string{
		"", "a", "app", "App_1.x", "-a", "a-", "_a", "a_", ".a", "a.", "a b", "ä",
		strings.Repeat("a", 63), strings.Repeat("a", 64),
		"example.com/app", "example.com/", "/app", "a/b/c", "Example.com/app", "-x.com/app",
		strings.Repeat("a", 254) + "/x", "x.com/" + strings.Repeat("b", 64), "x..com/a",
		"app.kubernetes.io/name", "pod-template-hash",
	}
	for _, v := range cases {
		if got, want := IsLabelKey(v), content.IsLabelKey(v); !slices.Equal(got, want) {
			t.Errorf("key %q:\n got  %q\n want %q", v, got, want)
		}
		if got, want := IsLabelValue(v), content.IsLabelValue(v); !slices.Equal(got, want) {
			t.Errorf("value %q:\n got  %q\n want %q", v, got, want)
		}
	}
}

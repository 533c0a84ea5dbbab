package wasmbuild

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// group names a part of the module a reader recognises, by import path
// prefix.
type group struct{ name, prefix string }

// groups are the parts, in order: the first whose prefix matches wins.
func groups() []group {
	return []group{
		{"engine", Module + "/engine"},
		{"kubectl", Module + "/kubectl"},
		{"app (the UI)", Module + "/app"},
		{"scenario, lessons, examples", Module + "/"},
		{"go-app", "github.com/maxence-charriere/go-app"},
		{"yaml.v3", "gopkg.in/yaml.v3"},
		{"k8s.io", "k8s.io/"},
		{"other modules", "."},
		{"Go runtime", "runtime"},
		{"Go runtime", "internal/"},
		{"Go standard library", ""},
	}
}

func groupOf(pkg string) string {
	if pkg == "(data)" {
		return "data segments (strings, type data, function tables)"
	}
	if strings.HasPrefix(pkg, "(") {
		return pkg
	}
	for _, g := range groups() {
		if g.prefix == "." {
			if first, _, _ := strings.Cut(pkg, "/"); strings.Contains(first, ".") {
				return g.name
			}
			continue
		}
		if strings.HasPrefix(pkg, g.prefix) {
			return g.name
		}
	}
	return "Go standard library"
}

// Report writes the sizes, the groups and the top packages.
func Report(w io.Writer, s Sizes, shares []Share, top int) {
	fmt.Fprintf(w, "app.wasm: %d B raw, %d B gzip (compress/gzip, best), %d B brotli q11\n\n", s.Raw, s.Gzip, s.Brotli)
	total := 0
	byGroup := map[string]int{}
	var order []string
	for _, sh := range shares {
		total += sh.Bytes
		g := groupOf(sh.Package)
		if _, ok := byGroup[g]; !ok {
			order = append(order, g)
		}
		byGroup[g] += sh.Bytes
	}
	sort.SliceStable(order, func(i, j int) bool { return byGroup[order[i]] > byGroup[order[j]] })
	fmt.Fprintf(w, "%-52s %10s %6s\n", "part (code bytes, an unstripped build)", "bytes", "share")
	for _, g := range order {
		fmt.Fprintf(w, "%-52s %10d %5.1f%%\n", g, byGroup[g], 100*float64(byGroup[g])/float64(total))
	}
	fmt.Fprintf(w, "\n%-64s %9s %6s\n", "package", "bytes", "funcs")
	for i, sh := range shares {
		if i == top {
			break
		}
		fmt.Fprintf(w, "%-64s %9d %6d\n", sh.Package, sh.Bytes, sh.Funcs)
	}
}

package order

import "slices"

// SortStableFunc sorts s in place by cmp, keeping equal elements in the
// order they were in, as slices.SortStableFunc does.
func SortStableFunc[S ~[]E, E any](s S, cmp func(a, b E) int) {
	if len(s) < 2 {
		return
	}
	idx := make([]int, len(s))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(i, j int) int {
		if c := cmp(s[i], s[j]); c != 0 {
			return c
		}
		return i - j // equal elements keep their order
	})
	sorted := make(S, len(s))
	for k, i := range idx {
		sorted[k] = s[i]
	}
	copy(s, sorted)
}

// SortFunc sorts s in place by cmp. It is stable, which slices.SortFunc
// does not promise: where cmp is a total order the two agree.
func SortFunc[S ~[]E, E any](s S, cmp func(a, b E) int) { SortStableFunc(s, cmp) }

// Sorted collects the values of seq into a slice sorted by cmp.
func Sorted[E any](seq func(yield func(E) bool), cmp func(a, b E) int) []E {
	var s []E
	for v := range seq {
		s = append(s, v)
	}
	SortStableFunc(s, cmp)
	return s
}

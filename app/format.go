package app

import "strconv"

// itoa is an int as text.
func itoa(i int) string { return strconv.Itoa(i) }

// choose is yes when cond holds, else no: a label or a class that
// follows a state.
func choose(cond bool, yes, no string) string {
	if cond {
		return yes
	}
	return no
}

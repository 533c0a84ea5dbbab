package trace

import (
	"strings"

	"github.com/stateflow/stateflow/engine/api"
)

// Line is a tick's explanation or an effect's summary as the trace keeps
// it. Most lines begin with the short name of the object they are about
// ("pod/web-1 status: Running, 1/1 containers ready, Ready=True",
// "pod/web-1: started web; ready"), and the rest repeats across the
// objects a workload has: such a line is kept as a marker byte and the
// rest (Lines keeps one copy of each rest), and the whole line is
// rendered when read (Render). Any other line is kept as it is.
type Line string

// afterName marks a Line kept as the rest after its object's short name:
// a byte no UTF-8 text holds, so no line said begins with it.
const afterName = "\xff"

// Render is the line, about the object k.
func (l Line) Render(k api.Key) string {
	if l == "" || l[0] != afterName[0] {
		return string(l)
	}
	return k.Short() + string(l[1:])
}

// Lines keeps one copy of each rest that lines share (a cache: which
// lines it keeps changes only how much memory the trace takes, never what
// a line says). It holds at most maxLines rests and starts over when
// full, so lines said once (a ReplicaSet's counts) cannot fill it for
// good; lines already made keep their copies.
type Lines struct {
	rests map[string]Line
	key   []byte // scratch for a lookup of a rest given in pieces
}

// maxLines bounds the rests Lines keeps.
const maxLines = 1 << 14

// NewLines returns an empty cache.
func NewLines() *Lines { return &Lines{rests: map[string]Line{}} }

// About is the Line that keeps s, a line about the object k: s itself, or,
// when s begins with k's short name followed by a space or a colon, the
// rest (shared). A line that is not UTF-8 and begins with afterName's
// byte is kept with its invalid bytes replaced, as JSON writes it.
func (ls *Lines) About(k api.Key, s string) Line {
	if s != "" && s[0] == afterName[0] {
		return Line(strings.ToValidUTF8(s, "\uFFFD"))
	}
	n := nameLen(k, s)
	if n == 0 || n == len(s) || s[n] != ' ' && s[n] != ':' {
		return Line(s)
	}
	return ls.rest(s[n:])
}

// AboutSubject is the Line of "subject: text" about the object k: a line
// given in pieces, as a controller's notes make one, so a line whose rest
// is kept allocates nothing.
func (ls *Lines) AboutSubject(k api.Key, subject string, text []byte) Line {
	if n := nameLen(k, subject); n == 0 || n != len(subject) {
		return Line(subject + ": " + string(text))
	}
	ls.key = append(append(ls.key[:0], ": "...), text...)
	if l, ok := ls.rests[string(ls.key)]; ok {
		return l
	}
	return ls.rest(string(ls.key))
}

// rest is the kept Line of rest, made and kept the first time.
func (ls *Lines) rest(rest string) Line {
	if l, ok := ls.rests[rest]; ok {
		return l
	}
	if len(ls.rests) >= maxLines {
		clear(ls.rests)
	}
	l := Line(afterName + rest)
	ls.rests[string(l[1:])] = l // the key shares the line's bytes
	return l
}

// nameLen is the length of k's short name ("pod/web-1") when s begins
// with it, else 0. It allocates nothing.
func nameLen(k api.Key, s string) int {
	kind := api.ShortKind(k.Kind)
	n := len(kind) + 1 + len(k.Name)
	if k.Name == "" || len(s) < n || s[:len(kind)] != kind || s[len(kind)] != '/' || s[len(kind)+1:n] != k.Name {
		return 0
	}
	return n
}

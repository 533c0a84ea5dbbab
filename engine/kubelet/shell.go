package kubelet

import "strings"

// This file reads the shell scripts containers run (sh -c '…'), as far as
// Infer needs: a script is a sequence of simple commands, each with its
// words, the files its output redirections create and the operator that
// ends it. Quotes group words (no expansion happens); ; && || | & and
// newlines separate commands, and so do ( ) and a { or } that stands
// alone. A substitution ($(…), $((…)), `…`) or a brace expansion
// ({1..3}) stays inside its word, which is then dynamic: its value is
// not known. What the script does with them (loops, exits, sleeps) is
// Infer's business.

// simpleCommand is one command of a script: its words, the files its
// > and >> redirections write, and the operator after it (";" for a
// newline or a grouping character, "&&", "||", "|" or "&").
type simpleCommand struct {
	words  []string
	writes []string
	op     string
}

// dynamic says a word holds a substitution or an expansion.
func dynamic(w string) bool { return strings.ContainsAny(w, "$`{*?") }

// shellLexer splits a script into simple commands. Its helpers are not
// inlined: this is cold code, and inlined they make app.wasm about 7 KB
// larger.
type shellLexer struct {
	cmds    []simpleCommand
	cur     simpleCommand
	word    []byte
	inWord  bool
	redirTo bool // the next word is a redirection's target
}

// splitScript is the script's simple commands, in order. It reads bytes:
// every character the shell treats specially is ASCII, and the bytes of
// any other character go into the word as they are.
func splitScript(script string) []simpleCommand {
	var l shellLexer
	for i := 0; i < len(script); i++ {
		i = l.next(script, i)
	}
	l.endCommand()
	return l.cmds
}

// next reads the byte at i (and what belongs to it) and returns the
// index of the last byte it used.
func (l *shellLexer) next(s string, i int) int {
	switch c := s[i]; c {
	case '\'', '"':
		end := strings.IndexByte(s[i+1:], c)
		if end < 0 {
			end = len(s) - i - 1
		}
		l.add(s[i+1 : i+1+end])
		return i + 1 + end
	case '\\':
		if i+1 < len(s) && s[i+1] != '\n' {
			l.add(s[i+1 : i+2])
		}
		return i + 1
	case '#':
		if l.inWord {
			l.add("#")
			return i
		}
		end := strings.IndexByte(s[i:], '\n')
		l.endCommand()
		if end < 0 {
			return len(s)
		}
		return i + end
	case '>':
		return l.redirect(s, i)
	case '<', ' ', '\t', '\r':
		l.endWord()
		l.redirTo = l.redirTo && c != '<'
	case '$', '`':
		return l.substitution(s, i)
	case '{':
		if l.inWord || i+1 < len(s) && !strings.ContainsRune(" \t\n", rune(s[i+1])) {
			l.add("{") // brace expansion, not a group
			return i
		}
		l.endCommand()
	case '}':
		if l.inWord {
			l.add("}")
			return i
		}
		l.endCommand()
	case '&', '|':
		l.endWord()
		op := s[i : i+1]
		if i+1 < len(s) && s[i+1] == c {
			op, i = op+op, i+1
		}
		l.cur.op = op
		l.endCommand()
	case ';', '\n', '(', ')':
		l.endCommand()
	default:
		l.add(s[i : i+1])
	}
	return i
}

// substitution reads $(…), $((…)), ${…} or `…` at i into the word (the
// word is then dynamic), a lone $ as itself.
func (l *shellLexer) substitution(s string, i int) int {
	open, close := s[i], s[i]
	if open == '$' {
		if i+1 >= len(s) || (s[i+1] != '(' && s[i+1] != '{') {
			l.add("$")
			return i
		}
		open, close = s[i+1], ')'
		if open == '{' {
			close = '}'
		}
	}
	depth, j := 0, i+1
	for ; j < len(s); j++ {
		switch {
		case s[j] == open && open != close:
			depth++
		case s[j] == close && (open == close || depth <= 1):
			l.add(s[i : j+1])
			return j
		case s[j] == close:
			depth--
		}
	}
	l.add(s[i:])
	return len(s)
}

// add appends text to the word being read.
//
//go:noinline
func (l *shellLexer) add(text string) {
	l.word = append(l.word, text...)
	l.inWord = true
}

// redirect reads > or >> at i: the next word is the file it writes. A
// descriptor before it (2>) is not a word, nor is >&2 a file.
func (l *shellLexer) redirect(s string, i int) int {
	if l.inWord && isDigits(string(l.word)) {
		l.word, l.inWord = l.word[:0], false
	}
	l.endWord()
	if i+1 < len(s) && s[i+1] == '>' {
		i++
	}
	if i+1 < len(s) && s[i+1] == '&' {
		return i + 2
	}
	l.redirTo = true
	return i
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// endWord closes the word being read: a word of the command, or the
// file a redirection writes.
//
//go:noinline
func (l *shellLexer) endWord() {
	if !l.inWord {
		return
	}
	w := string(l.word)
	l.word, l.inWord = l.word[:0], false
	if l.redirTo {
		l.cur.writes = append(l.cur.writes, w)
		l.redirTo = false
		return
	}
	l.cur.words = append(l.cur.words, w)
}

// endCommand closes the command being read; an empty one is dropped.
//
//go:noinline
func (l *shellLexer) endCommand() {
	l.endWord()
	l.redirTo = false
	if l.cur.op == "" {
		l.cur.op = ";"
	}
	if len(l.cur.words) > 0 || len(l.cur.writes) > 0 {
		l.cmds = append(l.cmds, l.cur)
	}
	l.cur = simpleCommand{}
}

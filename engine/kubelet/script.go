package kubelet

import (
	"math"
	"path"
	"strconv"
	"strings"
)

// This file is Infer's evaluation of a script, command by command: the
// shell's keywords (loops, conditionals) and what each program does to
// the time, the exit code and the files.

// maxLoopRuns caps how often a for loop's body is evaluated.
const maxLoopRuns = 1000

// script evaluates cmds in order until one decides the ending.
func (r *scriptRun) script(cmds []simpleCommand) {
	for i := 0; i < len(cmds) && r.end == ranToEnd; i++ {
		words := stripKeywords(cmds[i].words, "do", "then", "else", "{", "!")
		if len(words) == 0 {
			r.writes(cmds[i].writes)
			continue
		}
		switch words[0] {
		case "while", "until":
			r.loop(words)
			return
		case "for":
			i = r.forLoop(words, cmds, i)
		case "if":
			i = r.conditional(cmds, i)
		case "done", "fi", "elif", "}":
		default:
			r.command(words)
			r.writes(cmds[i].writes)
		}
	}
}

// stripKeywords drops the leading words that only open a block.
func stripKeywords(words []string, keywords ...string) []string {
	for len(words) > 0 && contains(keywords, words[0]) {
		words = words[1:]
	}
	return words
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// loop is a while or until loop: one whose condition always holds runs
// forever; any other waits for something Infer cannot see.
func (r *scriptRun) loop(words []string) {
	cond := strings.Join(words[1:], " ")
	always := cond == "true" || cond == ":" || cond == "[ 1 ]" || cond == "[ true ]" || strings.HasPrefix(cond, "sleep ")
	if words[0] == "until" {
		always = cond == "false"
	}
	if always {
		r.forever(words[0] + " " + cond + " loop")
		return
	}
	r.unknown("`" + words[0] + " " + cond + "`")
}

// forLoop evaluates for VAR in ITEMS; do BODY; done: the body once per
// item. It returns the index of the loop's done.
func (r *scriptRun) forLoop(words []string, cmds []simpleCommand, i int) int {
	end := blockEnd(cmds, i, "for", "done")
	if len(words) < 3 || words[2] != "in" {
		r.unknown("`" + strings.Join(words, " ") + "`")
		return end
	}
	body := cmds[i+1 : end]
	for n := 0; n < min(len(words)-3, maxLoopRuns) && r.end == ranToEnd; n++ {
		r.script(body)
	}
	return end
}

// conditional evaluates if …; then …; else …; fi: when every branch
// comes to the same time, code and ending, that is the outcome;
// otherwise it depends on the condition, which Infer cannot see.
func (r *scriptRun) conditional(cmds []simpleCommand, i int) int {
	end := blockEnd(cmds, i, "if", "fi")
	var branches [][]simpleCommand
	start := i + 1
	for j := i + 1; j <= end && j < len(cmds); j++ {
		if w := cmds[j].words; len(w) > 0 && (w[0] == "else" || w[0] == "elif" || j == end) {
			branches = append(branches, cmds[start:j])
			start = j
		}
	}
	var first *scriptRun
	for _, b := range branches {
		run := r.fork()
		run.script(b)
		if first == nil {
			first = &run
		} else if run.ms != first.ms || run.code != first.code || run.end != first.end {
			r.unknown("`if` whose branches differ")
			return end
		}
	}
	if first != nil {
		r.ms, r.code, r.end, r.what = first.ms, first.code, first.end, first.what
	}
	return end
}

// fork is a copy of the run so far that shares its file record.
func (r *scriptRun) fork() scriptRun {
	return scriptRun{ms: r.ms, code: r.code, created: r.created, removed: r.removed}
}

// blockEnd is the index of the word that closes the block opened at i
// (done for a loop, fi for an if), counting nested blocks.
func blockEnd(cmds []simpleCommand, i int, open, close string) int {
	depth := 0
	for j := i; j < len(cmds); j++ {
		for _, w := range cmds[j].words {
			switch w {
			case open:
				depth++
			case close:
				depth--
			}
		}
		if depth <= 0 {
			return j
		}
	}
	return len(cmds) - 1
}

// command evaluates one program with its arguments.
func (r *scriptRun) command(words []string) {
	words = stripPrefixes(words)
	if len(words) == 0 {
		return
	}
	r.code = 0
	args := words[1:]
	switch name := path.Base(words[0]); {
	case name == "sleep":
		r.sleep(args)
	case name == "exit":
		r.exit(args)
	case name == "false":
		r.code = 1
	case name == "touch":
		r.touch(args)
	case name == "rm":
		r.remove(args)
	case isShell(name):
		if script, ok := shellScript(words); ok {
			r.script(splitScript(script))
			return
		}
		r.unknown("`" + strings.Join(words, " ") + "`")
	case runsUntilStopped(name, args):
		r.forever(strings.Join(words, " "))
	case isQuick(name):
	default:
		r.unknown("`" + strings.Join(words, " ") + "`")
	}
}

// stripPrefixes drops what runs the command rather than being it:
// variable assignments, exec, nohup, busybox.
func stripPrefixes(words []string) []string {
	for len(words) > 0 {
		w := words[0]
		switch {
		case w == "exec" || w == "nohup" || w == "command" || path.Base(w) == "busybox" || w == "env" && len(words) > 1 && strings.Contains(words[1], "="):
		case strings.Contains(w, "=") && !strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "="):
		default:
			return words
		}
		words = words[1:]
	}
	return words
}

// sleep adds its arguments' durations (GNU and busybox sleep: a number
// with an optional s, m, h or d, summed); infinity runs forever.
func (r *scriptRun) sleep(args []string) {
	total := 0.0
	for _, a := range args {
		if a == "infinity" || a == "inf" {
			r.forever("sleep " + a)
			return
		}
		s, ok := seconds(a)
		if !ok {
			r.unknown("`sleep " + a + "`")
			return
		}
		total += s
	}
	r.ms += int64(math.Min(total*1000, math.MaxInt64/4))
}

// seconds reads a sleep duration.
func seconds(a string) (float64, bool) {
	unit := 1.0
	switch {
	case strings.HasSuffix(a, "s"):
		a = a[:len(a)-1]
	case strings.HasSuffix(a, "m"):
		a, unit = a[:len(a)-1], 60
	case strings.HasSuffix(a, "h"):
		a, unit = a[:len(a)-1], 3600
	case strings.HasSuffix(a, "d"):
		a, unit = a[:len(a)-1], 86400
	}
	v, err := strconv.ParseFloat(a, 64)
	if err != nil || v < 0 || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, false
	}
	return v * unit, true
}

// exit ends the script with its code (the last command's without one).
func (r *scriptRun) exit(args []string) {
	r.end, r.what = exited, "exit"
	if len(args) == 0 {
		return
	}
	n, err := strconv.Atoi(args[0])
	if err != nil {
		r.unknown("`exit " + args[0] + "`")
		return
	}
	r.code = int32(n & 0xff)
}

// touch records the files it creates.
func (r *scriptRun) touch(args []string) {
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			r.fileEvent(&r.created, a)
		}
	}
}

// remove records the files rm removes.
func (r *scriptRun) remove(args []string) {
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			r.fileEvent(&r.removed, a)
		}
	}
}

// writes records the files output redirections create.
func (r *scriptRun) writes(files []string) {
	for _, f := range files {
		if !strings.HasPrefix(f, "/dev/") {
			r.fileEvent(&r.created, f)
		}
	}
}

// fileEvent records the first time something happened to file.
func (r *scriptRun) fileEvent(m *map[string]int64, file string) {
	if *m == nil {
		*m = map[string]int64{}
	}
	if _, ok := (*m)[file]; !ok {
		(*m)[file] = r.ms
	}
}

package kubelet

import (
	"math"
	"path"
	"slices"
	"strconv"
	"strings"
)

// This file is Infer's evaluation of a script, command by command: the
// shell's keywords (loops, conditionals) and what each program does to
// the time, the exit code and the files.

// maxLoopRuns caps how often a for loop's body is evaluated, and
// maxSteps how many commands one evaluation reads in all (nested loops
// multiply): past it the script is not known.
const (
	maxLoopRuns = 1000
	maxSteps    = 20_000
)

// maxRunMS is the longest run Infer counts: a script that sleeps longer
// (a century) runs until it is stopped.
const maxRunMS = 100 * 365 * 24 * 3600 * 1000

// script evaluates cmds in order until one decides the ending. A command
// after && or || runs or not as the previous code says, which Infer
// follows only when it cannot change the outcome; a command sent to the
// background (&) does not hold the script; a pipeline is read stage by
// stage, and one whose stages do not all finish is not known.
func (r *scriptRun) script(cmds []simpleCommand) {
	prev := ";"
	for i := 0; i < len(cmds) && r.end == ranToEnd; i++ {
		if r.steps++; r.steps > maxSteps {
			r.unknown("a script too long to follow")
			return
		}
		c := cmds[i]
		words := stripKeywords(c.words, "do", "then", "else", "{", "!")
		switch {
		case len(words) == 0:
			r.writes(c.writes)
		case words[0] == "while" || words[0] == "until":
			end, ok := r.waitLoop(words, cmds, i)
			if !ok {
				r.loop(words)
				return
			}
			i = end
		case words[0] == "for":
			i = r.forLoop(words, cmds, i)
		case words[0] == "if":
			i = r.conditional(cmds, i)
		case words[0] == "done" || words[0] == "fi" || words[0] == "elif" || words[0] == "}":
		case c.op == "&":
			// In the background: it does not hold the script.
		case prev == "&&" || prev == "||" || c.op == "|" || prev == "|":
			r.guarded(words, c, prev)
		default:
			r.command(words)
			r.writes(c.writes)
		}
		prev = cmds[i].op
	}
}

// guarded evaluates a command that runs or not as the previous one's
// code says (after && or ||), or a stage of a pipeline: if it would
// change how the script ends or how long it runs, the script is not
// known; a command that finishes at once is followed.
func (r *scriptRun) guarded(words []string, c simpleCommand, prev string) {
	run := r.fork()
	run.command(words)
	if run.end != ranToEnd || run.ms != r.ms {
		where := " after `" + prev + "`" // runs or not as the code before says
		if c.op == "|" || prev == "|" {
			where = " in a pipeline"
		}
		r.unknown("`" + strings.Join(words, " ") + "`" + where)
		return
	}
	r.code = run.code
	r.writes(c.writes)
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
	end := blockEnd(cmds, i)
	if end <= i || end >= len(cmds) || len(words) < 3 || words[2] != "in" || slices.ContainsFunc(words[3:], dynamic) {
		r.unknown("`" + strings.Join(words, " ") + "`")
		return len(cmds) - 1
	}
	body := cmds[i+1 : end]
	for n := 0; n < min(len(words)-3, maxLoopRuns) && r.end == ranToEnd; n++ {
		r.script(body)
	}
	return end
}

// conditional evaluates if …; then …; elif …; else …; fi: when every
// branch (an if without else has an empty one) comes to the same time,
// code and ending, that is the outcome; otherwise it depends on the
// condition, which Infer cannot see.
func (r *scriptRun) conditional(cmds []simpleCommand, i int) int {
	end := blockEnd(cmds, i)
	if end <= i || end >= len(cmds) {
		r.unknown("`if` without `fi`")
		return len(cmds) - 1
	}
	var branches [][]simpleCommand
	start, depth, hasElse := i+1, 0, false
	for j := i + 1; j <= end; j++ {
		w := keyword(cmds[j])
		switch {
		case j == end:
			branches = append(branches, cmds[start:j])
		case w == "if":
			depth++
		case w == "fi":
			depth--
		case depth == 0 && (w == "else" || w == "elif"):
			branches = append(branches, cmds[start:j])
			start, hasElse = j, hasElse || w == "else"
		}
	}
	if !hasElse {
		branches = append(branches, nil)
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
	r.ms, r.code, r.end, r.what, r.steps = first.ms, first.code, first.end, first.what, first.steps
	return end
}

// keyword is the first word of a command, after the words that only
// open a block.
func keyword(c simpleCommand) string {
	if w := stripKeywords(c.words, "do", "then", "{", "!"); len(w) > 0 {
		return w[0]
	}
	return ""
}

// fork is a copy of the run so far that shares its file record.
func (r *scriptRun) fork() scriptRun {
	return scriptRun{ms: r.ms, code: r.code, steps: r.steps, created: r.created, removed: r.removed}
}

// blockEnd is the index of the command that closes the block opened
// at i (done for a loop, fi for an if), counting the blocks nested in it
// by the keyword each command starts with; len(cmds) when none does.
func blockEnd(cmds []simpleCommand, i int) int {
	depth := 0
	for j := i; j < len(cmds); j++ {
		switch keyword(cmds[j]) {
		case "for", "while", "until", "if":
			depth++
		case "done", "fi":
			depth--
		}
		if depth <= 0 {
			return j
		}
	}
	return len(cmds)
}

// command evaluates one program with its arguments.
func (r *scriptRun) command(words []string) {
	words = stripPrefixes(words)
	if len(words) == 0 {
		return
	}
	args := words[1:]
	if path.Base(words[0]) == "exit" {
		r.exit(args) // without a code, the last command's
		return
	}
	r.code = 0
	switch name := path.Base(words[0]); {
	case name == "sleep":
		r.sleep(args)
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
	if total*1000 >= float64(maxRunMS-r.ms) {
		r.forever("sleep " + strings.Join(args, " "))
		return
	}
	r.ms += int64(total * 1000)
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

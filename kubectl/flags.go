package kubectl

import (
	"fmt"
	"strings"
)

// flagSpec declares one flag: its long name, optional one-letter short
// name, and whether it takes a value (booleans accept --flag=false).
type flagSpec struct {
	long, short string
	value       bool
}

// globalFlags are accepted by every command, as kubectl's are.
var globalFlags = []flagSpec{{"namespace", "n", true}, {"context", "", true}, {"kubeconfig", "", true}, {"help", "h", false}, {"request-timeout", "", true}}

// parsed holds a command's flags and positional arguments.
type parsed struct {
	flags map[string]string
	set   map[string]bool
	args  []string
}

func (p *parsed) str(name string) string { return p.flags[name] }
func (p *parsed) has(name string) bool   { return p.set[name] }
func (p *parsed) bool(name string) bool {
	v, ok := p.flags[name]
	return ok && v != "false"
}

// parseFlags parses args like pflag: "--name value", "--name=value",
// "-n value", "-nvalue", "-n=value", booleans without a value, and "--" to
// end the flags.
func parseFlags(cmd string, args []string, specs []flagSpec) (*parsed, error) {
	all := append(append([]flagSpec(nil), specs...), globalFlags...)
	find := func(name string, short bool) (flagSpec, bool) {
		for _, s := range all {
			if (!short && s.long == name) || (short && s.short == name && name != "") {
				return s, true
			}
		}
		return flagSpec{}, false
	}
	p := &parsed{flags: map[string]string{}, set: map[string]bool{}}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			p.args = append(p.args, args[i+1:]...)
			return p, nil
		case strings.HasPrefix(a, "--"):
			name, val, hasVal := strings.Cut(a[2:], "=")
			spec, ok := find(name, false)
			if !ok {
				return nil, usageErr(cmd, "unknown flag: --%s", name)
			}
			if spec.value && !hasVal {
				if i+1 >= len(args) {
					return nil, usageErr(cmd, "flag needs an argument: --%s", name)
				}
				i++
				val = args[i]
			} else if !spec.value && !hasVal {
				val = "true"
			}
			p.setFlag(spec.long, val)
		case strings.HasPrefix(a, "-") && len(a) > 1:
			name := a[1:2]
			spec, ok := find(name, true)
			if !ok {
				return nil, usageErr(cmd, "unknown shorthand flag: '%s' in %s", name, a)
			}
			val := strings.TrimPrefix(a[2:], "=")
			if spec.value && val == "" {
				if i+1 >= len(args) {
					return nil, usageErr(cmd, "flag needs an argument: '%s' in -%s", name, name)
				}
				i++
				val = args[i]
			} else if !spec.value && !strings.HasPrefix(a[2:], "=") {
				val = "true" // -w, not -w=false
			}
			p.setFlag(spec.long, val)
		default:
			p.args = append(p.args, a)
		}
	}
	return p, nil
}

// sliceFlags take a list that each use of the flag adds to (pflag's
// StringSlice): -L a -L b is -L a,b.
var sliceFlags = map[string]bool{"label-columns": true}

// arraySep joins the uses of an array flag, which keeps each value as
// given (pflag's StringArray: --from-literal=a=1,2).
const arraySep = "\x00"

func (p *parsed) setFlag(name, val string) {
	switch {
	case sliceFlags[name] && p.set[name]:
		val = p.flags[name] + "," + val
	case name == "from-literal" && p.set[name]:
		val = p.flags[name] + arraySep + val
	}
	p.flags[name], p.set[name] = val, true
}

// cmdError is an error with kubectl's exit code and, for usage errors,
// its "See 'kubectl X --help'" hint.
type cmdError struct {
	msg  string
	code int
}

func (e *cmdError) Error() string { return e.msg }

func usageErr(cmd, format string, args ...any) error {
	return &cmdError{msg: fmt.Sprintf("error: "+format+"\nSee 'kubectl %s --help' for usage.", append(args, cmd)...), code: 1}
}

func errorf(format string, args ...any) error {
	return &cmdError{msg: "error: " + fmt.Sprintf(format, args...), code: 1}
}

// serverErr renders an API error as kubectl does.
func serverErr(reason, msg string) error {
	return &cmdError{msg: fmt.Sprintf("Error from server (%s): %s", reason, msg), code: 1}
}

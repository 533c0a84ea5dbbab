package main

import "strings"

// flagSet is a small GNU-style parser: flags may come before or after
// positional arguments, as "--name value", "--name=value" or "-o value".
type flagSet struct {
	values     map[string]string
	positional []string
}

// parseFlags splits args using the names of flags that take a value and
// of boolean flags; "--" ends the flags.
func parseFlags(args []string, valued, boolean []string) (*flagSet, error) {
	fs := &flagSet{values: map[string]string{}}
	isValued := map[string]bool{}
	for _, v := range valued {
		isValued[v] = true
	}
	isBool := map[string]bool{}
	for _, b := range boolean {
		isBool[b] = true
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			fs.positional = append(fs.positional, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			fs.positional = append(fs.positional, a)
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		switch {
		case isBool[name]:
			fs.values[name] = "true"
		case isValued[name] && hasValue:
			fs.values[name] = value
		case isValued[name] && i+1 < len(args):
			i++
			fs.values[name] = args[i]
		case isValued[name]:
			return nil, usageError("flag %s needs a value", a)
		default:
			return nil, usageError("unknown flag %s", a)
		}
	}
	return fs, nil
}

func (f *flagSet) has(name string) bool { _, ok := f.values[name]; return ok }

package labels

import (
	"regexp"
	"strconv"
	"strings"
)

// Label keys and values are validated as apimachinery's
// pkg/api/validate/content IsLabelKey and IsLabelValue do (v0.37; the
// same rules and words as pkg/util/validation IsQualifiedName and
// IsValidLabelValue in earlier releases). They are written here rather
// than imported because that package moved between releases, and the
// engine must build against every apimachinery the differential harness
// (conformance/) pins. The API server validates objects' labels with
// them too. validate_test.go checks them against apimachinery's.
const (
	labelKeyFmt      = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
	labelValueFmt    = "(" + labelKeyFmt + ")?"
	labelKeyErrMsg   = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
	labelValueErrMsg = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
	labelMaxLength   = 63
	subdomainFmt     = "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*"
	subdomainMaxLen  = 253
	subdomainErrMsg  = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character"
	emptyMsg         = "must be non-empty"
)

var (
	labelKeyRegexp   = regexp.MustCompile("^" + labelKeyFmt + "$")
	labelValueRegexp = regexp.MustCompile("^" + labelValueFmt + "$")
	subdomainRegexp  = regexp.MustCompile("^" + subdomainFmt + "$")
)

func maxLenMsg(n int) string { return "must be no more than " + strconv.Itoa(n) + " bytes" }

func regexMsg(msg, re string, examples ...string) string {
	msg += " (e.g. "
	for i, ex := range examples {
		if i > 0 {
			msg += " or "
		}
		msg += "'" + ex + "', "
	}
	return msg + "regex used for validation is '" + re + "')"
}

// IsLabelKey is apimachinery's content.IsLabelKey: an optional
// DNS-subdomain prefix and '/', then a name of at most 63 characters. It
// returns what is wrong with value, in upstream's words, or nil.
func IsLabelKey(value string) []string {
	var errs []string
	parts := strings.Split(value, "/")
	var name string
	switch len(parts) {
	case 1:
		name = parts[0]
	case 2:
		prefix := parts[0]
		name = parts[1]
		switch {
		case prefix == "":
			errs = append(errs, "prefix part "+emptyMsg)
		default:
			if len(prefix) > subdomainMaxLen {
				errs = append(errs, "prefix part "+maxLenMsg(subdomainMaxLen))
			}
			if !subdomainRegexp.MatchString(prefix) {
				errs = append(errs, "prefix part "+regexMsg(subdomainErrMsg, subdomainFmt, "example.com"))
			}
		}
	default:
		return append(errs, "a valid label key "+regexMsg(labelKeyErrMsg, labelKeyFmt, "MyName", "my.name", "123-abc")+
			" with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')")
	}
	if name == "" {
		errs = append(errs, "name part "+emptyMsg)
	} else if len(name) > labelMaxLength {
		errs = append(errs, "name part "+maxLenMsg(labelMaxLength))
	}
	if !labelKeyRegexp.MatchString(name) {
		errs = append(errs, "name part "+regexMsg(labelKeyErrMsg, labelKeyFmt, "MyName", "my.name", "123-abc"))
	}
	return errs
}

// IsLabelValue is apimachinery's content.IsLabelValue: empty, or at most
// 63 characters of the label-key alphabet. It returns what is wrong with
// value, in upstream's words, or nil.
func IsLabelValue(value string) []string {
	var errs []string
	if len(value) > labelMaxLength {
		errs = append(errs, maxLenMsg(labelMaxLength))
	}
	if !labelValueRegexp.MatchString(value) {
		errs = append(errs, regexMsg(labelValueErrMsg, labelValueFmt, "MyValue", "my_value", "12345"))
	}
	return errs
}

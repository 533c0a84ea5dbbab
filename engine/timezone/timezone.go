package timezone

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
)

// Loader loads a time zone by its IANA name as time.LoadLocation does:
// "" and "UTC" are UTC, "Local" is the local zone (UTC in the browser),
// an unknown zone is the error "unknown time zone <name>".
type Loader func(name string) (*time.Location, error)

// Default is the engine's Loader when it is given none: time.LoadLocation,
// which natively reads the zone database this package links in
// (embedded.go).
func Default(name string) (*time.Location, error) { return time.LoadLocation(name) }

// errInvalidName is time's error for a name that could escape the
// database (time.errLocation).
var errInvalidName = errors.New("time: invalid location name")

// builtin answers the names time.LoadLocation answers without a
// database, and refuses those it refuses before looking one up.
func builtin(name string) (loc *time.Location, err error, ok bool) {
	switch {
	case name == "" || name == "UTC":
		return time.UTC, nil, true
	case name == "Local":
		return time.Local, nil, true
	case containsDotDot(name) || name[0] == '/' || name[0] == '\\':
		return nil, errInvalidName, true
	}
	return nil, nil, false
}

// containsDotDot is time's containsDotDot: whether a path element of
// name is "..".
func containsDotDot(name string) bool {
	for _, el := range strings.Split(name, "/") {
		if el == ".." {
			return true
		}
	}
	return false
}

// FromZip loads zones from a zone database as Go ships it
// ($GOROOT/lib/time/zoneinfo.zip, whose entries are stored uncompressed).
func FromZip(zip []byte) (Loader, error) {
	entries, err := readZip(zip)
	if err != nil {
		return nil, err
	}
	return func(name string) (*time.Location, error) {
		if loc, err, ok := builtin(name); ok {
			return loc, err
		}
		data, ok := entries[name]
		if !ok {
			return nil, errors.New("unknown time zone " + name)
		}
		return time.LoadLocationFromTZData(name, data)
	}, nil
}

// Lazy loads zones from the database fetch returns, calling fetch once,
// the first time a name needs the database ("", "UTC" and "Local" do
// not). A failed fetch fails every zone that needs it, with its reason.
func Lazy(fetch func() ([]byte, error)) Loader {
	db := sync.OnceValues(func() (Loader, error) {
		b, err := fetch()
		if err != nil {
			return nil, err
		}
		return FromZip(b)
	})
	return func(name string) (*time.Location, error) {
		if loc, err, ok := builtin(name); ok {
			return loc, err
		}
		load, err := db()
		if err != nil {
			return nil, fmt.Errorf("the time zone database did not load: %w", err)
		}
		return load(name)
	}
}

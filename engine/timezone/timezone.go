package timezone

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
)

// Loader loads a time zone by its IANA name as time.LoadLocation does:
// "" and "UTC" are UTC, "Local" is the local zone (in the browser, the
// fixed offset the browser reports), an unknown zone is the error
// "unknown time zone <name>".
type Loader func(name string) (*time.Location, error)

// Default is the engine's Loader when it is given none: time.LoadLocation,
// which natively reads the machine's zone database (ZONEINFO, then
// /usr/share/zoneinfo), else the one this package links in
// (embedded.go). In app.wasm nothing is linked in, so the page gives
// the engine its own Loader (Lazy) instead.
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
	case strings.Contains(name, "..") || name[0] == '/' || name[0] == '\\':
		// time's containsDotDot refuses ".." anywhere in the name.
		return nil, errInvalidName, true
	}
	return nil, nil, false
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

// Lazy loads zones from the database fetch returns, calling fetch the
// first time a name needs the database ("", "UTC" and "Local" do not),
// and again at the next need if it failed: a failed fetch fails the
// zone that needed it, with its reason, and is not remembered.
func Lazy(fetch func() ([]byte, error)) Loader {
	var (
		mu   sync.Mutex
		load Loader
	)
	db := func() (Loader, error) {
		mu.Lock()
		defer mu.Unlock()
		if load != nil {
			return load, nil
		}
		b, err := fetch()
		if err != nil {
			return nil, err
		}
		if load, err = FromZip(b); err != nil {
			return nil, err
		}
		return load, nil
	}
	return func(name string) (*time.Location, error) {
		if loc, err, ok := builtin(name); ok {
			return loc, err
		}
		l, err := db()
		if err != nil {
			return nil, fmt.Errorf("the time zone database did not load: %w", err)
		}
		return l(name)
	}
}

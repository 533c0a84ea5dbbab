package timezone

import (
	"archive/zip"
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// zoneinfoZip is the database the site serves beside app.wasm: Go's own
// $GOROOT/lib/time/zoneinfo.zip, which time/tzdata embeds too.
func zoneinfoZip(t *testing.T) []byte {
	t.Helper()
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Skipf("no go command to find GOROOT: %v", err)
	}
	b, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(out)), "lib", "time", "zoneinfo.zip"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// names are zones to load: real ones (with and without daylight saving,
// a link, a deep one), and names time refuses or does not know.
var names = []string{
	"", "UTC", "Local", "Europe/Paris", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe",
	"America/Argentina/Buenos_Aires", "Etc/GMT+5", "US/Pacific", "GMT", "Mars/Olympus",
	"../etc/passwd", "/etc/localtime", `\x`, "Europe/../UTC", "a..b", "Europe/Par..is",
}

// A zone loaded from zoneinfo.zip is the zone time.LoadLocation loads
// (natively, the machine's database or else the embedded one): the same
// name, the same error, and the same offset and abbreviation at instants
// on both sides of daylight saving.
func TestFromZipLoadsAsTimeDoes(t *testing.T) {
	load, err := FromZip(zoneinfoZip(t))
	if err != nil {
		t.Fatal(err)
	}
	instants := []time.Time{
		time.Date(1975, 6, 1, 0, 0, 0, 0, time.UTC),
		time.Date(2026, 1, 15, 12, 0, 0, 0, time.UTC), time.Date(2026, 7, 15, 12, 0, 0, 0, time.UTC),
		time.Date(2026, 3, 29, 0, 59, 59, 0, time.UTC), time.Date(2026, 3, 29, 1, 0, 0, 0, time.UTC),
		time.Date(2090, 11, 1, 0, 0, 0, 0, time.UTC),
	}
	for _, name := range names {
		want, wantErr := time.LoadLocation(name)
		got, gotErr := load(name)
		if (wantErr == nil) != (gotErr == nil) || (wantErr != nil && wantErr.Error() != gotErr.Error()) {
			t.Errorf("%q: error %v, want %v", name, gotErr, wantErr)
			continue
		}
		if wantErr != nil {
			continue
		}
		if got.String() != want.String() {
			t.Errorf("%q: name %q, want %q", name, got, want)
		}
		for _, at := range instants {
			gn, go_ := at.In(got).Zone()
			wn, wo := at.In(want).Zone()
			if gn != wn || go_ != wo {
				t.Errorf("%q at %v: %s %d, want %s %d", name, at, gn, go_, wn, wo)
			}
		}
	}
}

// The zip reader reads every entry as archive/zip does, and a name that
// is not a zone file of the archive is unknown (natively, time reads the
// machine's database first, where "Europe/" is a directory).
func TestFromZipReadsWhatArchiveZipReads(t *testing.T) {
	b := zoneinfoZip(t)
	want, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	got, err := readZip(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want.File) || len(got) < 300 {
		t.Fatalf("%d entries, archive/zip reads %d", len(got), len(want.File))
	}
	for _, f := range want.File {
		r, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(r)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got[f.Name], data) {
			t.Errorf("%s: %d bytes, archive/zip reads %d", f.Name, len(got[f.Name]), len(data))
		}
	}
	load, err := FromZip(b)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"Europe/", "Europe", "zone1970.tab", "europe/paris"} {
		if _, err := load(name); err == nil || err.Error() != "unknown time zone "+name {
			t.Errorf("%q: error %v", name, err)
		}
	}
}

// Lazy fetches the database once, and only for a name that needs it.
func TestLazyFetchesOnceAndOnlyWhenNeeded(t *testing.T) {
	zip := zoneinfoZip(t)
	fetches := 0
	load := Lazy(func() ([]byte, error) { fetches++; return zip, nil })
	for _, name := range []string{"", "UTC", "Local", "../x"} {
		load(name)
	}
	if fetches != 0 {
		t.Fatalf("%d fetches for names that need no database", fetches)
	}
	for _, name := range []string{"Europe/Paris", "Asia/Tokyo", "Nowhere/Else"} {
		load(name)
	}
	if fetches != 1 {
		t.Fatalf("%d fetches, want 1", fetches)
	}
	if loc, err := load("Asia/Tokyo"); err != nil || loc.String() != "Asia/Tokyo" {
		t.Fatalf("Asia/Tokyo: %v, %v", loc, err)
	}
}

// A database that does not arrive fails the zones that need it, saying
// so, and leaves UTC alone; the next zone asks for it again.
func TestLazyWithoutTheDatabase(t *testing.T) {
	zip := zoneinfoZip(t)
	fetches := 0
	load := Lazy(func() ([]byte, error) {
		fetches++
		if fetches == 1 {
			return nil, errors.New("HTTP 503")
		}
		return zip, nil
	})
	if _, err := load("Europe/Paris"); err == nil || !strings.Contains(err.Error(), "time zone database did not load: HTTP 503") {
		t.Fatalf("error %v", err)
	}
	if loc, err := load("UTC"); err != nil || loc != time.UTC {
		t.Fatalf("UTC: %v, %v", loc, err)
	}
	if loc, err := load("Europe/Paris"); err != nil || loc.String() != "Europe/Paris" {
		t.Fatalf("after a failed download, Europe/Paris: %v, %v (%d fetches)", loc, err, fetches)
	}
}

// A damaged database is an error, not a panic.
func TestFromZipRefusesDamage(t *testing.T) {
	zip := zoneinfoZip(t)
	for name, b := range map[string][]byte{
		"empty":     nil,
		"truncated": zip[:len(zip)/2],
		"no end":    zip[:len(zip)-1],
		"garbage":   []byte(strings.Repeat("PK\x05\x06", 20)),
	} {
		if _, err := FromZip(b); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// FuzzFromZip: whatever the bytes, FromZip and its loader return; they
// do not panic.
func FuzzFromZip(f *testing.F) {
	f.Add([]byte("PK\x05\x06" + strings.Repeat("\x00", 18)))
	f.Add([]byte(strings.Repeat("\x00", 22)))
	f.Fuzz(func(t *testing.T, b []byte) {
		load, err := FromZip(b)
		if err == nil {
			load("Europe/Paris")
		}
	})
}

package share

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	src := "apiVersion: apps/v1\nkind: Deployment\n# ünïcode ✓\n"
	frag := Encode(src, 42)
	if !strings.HasPrefix(frag, "s=") || strings.ContainsAny(frag[2:], "+/=#") {
		t.Fatalf("fragment %q", frag)
	}
	st, err := Decode("#" + frag)
	if err != nil || st.Scenario != src || st.Tick != 42 || st.Version != 1 {
		t.Fatalf("%+v %v", st, err)
	}
	if Encode(src, 42) != frag {
		t.Fatal("encoding must be deterministic")
	}
}

func deflated(s string) string {
	var b bytes.Buffer
	w, _ := flate.NewWriter(&b, 9)
	w.Write([]byte(s))
	w.Close()
	return base64.RawURLEncoding.EncodeToString(b.Bytes())
}

func TestHostileLinks(t *testing.T) {
	good := Encode("kind: Pod\n", 3)
	bomb := deflated(`{"v":1,"s":"` + strings.Repeat("a", MaxDecodedBytes+10) + `"}`)
	for _, tc := range []struct{ frag, want string }{
		{"", ErrNoState.Error()},
		{"#tab=events", ErrNoState.Error()},
		{"#s=***", "not valid base64url"},
		{"#" + good[:len(good)/2], "damaged"},
		{"#s=" + deflated("not json"), "not the expected JSON"},
		{"#s=" + deflated(`{"v":9,"s":"x","t":1}`), "format version 9"},
		{"#s=" + strings.Repeat("A", MaxEncodedBytes+1), "too long"},
		{"#s=" + bomb, "expands to more than"},
	} {
		_, err := Decode(tc.frag)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%.40q: %v, want %q", tc.frag, err, tc.want)
		}
	}
	if _, err := Decode("#s=" + deflated(`{"v":1,"s":"x","t":-5}`)); err != nil {
		t.Error(err)
	}
	if !errors.Is(func() error { _, e := Decode(""); return e }(), ErrNoState) {
		t.Error("an empty fragment is ErrNoState")
	}
}

// FuzzDecode: no input panics; every error is readable.
func FuzzDecode(f *testing.F) {
	f.Add(Encode("kind: Pod\n", 1))
	f.Add("s=")
	f.Add("s=eJw")
	f.Fuzz(func(t *testing.T, frag string) {
		st, err := Decode(frag)
		if err == nil && (st.Version != Version || st.Tick < 0 || st.Lesson < 0) {
			t.Fatalf("%+v", st)
		}
	})
}

// The view travels in the link: a link made showing every tick opens
// showing every tick; a link without the field (made before the story
// view) opens in the story view.
func TestEveryTickTravels(t *testing.T) {
	for _, every := range []bool{true, false} {
		st, err := Decode(EncodeState(State{Scenario: "kind: x\n", Tick: 4, EveryTick: every}))
		if err != nil || st.EveryTick != every || st.Tick != 4 || st.Version != Version {
			t.Fatalf("every=%v: %+v, %v", every, st, err)
		}
	}
	if st, err := Decode(Encode("kind: x\n", 4)); err != nil || st.EveryTick {
		t.Fatalf("%+v, %v", st, err)
	}
}

// The lesson step travels in the link; links made before lessons (no
// "l") open no player, and a negative step is none.
func TestLessonStepTravels(t *testing.T) {
	st, err := Decode(EncodeState(State{Scenario: "kind: x\n", Tick: 17, Lesson: 4}))
	if err != nil || st.Lesson != 4 || st.Tick != 17 || st.Version != Version {
		t.Fatalf("%+v, %v", st, err)
	}
	old := "#s=" + deflated(`{"v":1,"s":"kind: x\n","t":3}`)
	if st, err := Decode(old); err != nil || st.Lesson != 0 || st.Tick != 3 {
		t.Fatalf("an old link: %+v, %v", st, err)
	}
	if st, err := Decode("#s=" + deflated(`{"v":1,"s":"x","t":1,"l":-2}`)); err != nil || st.Lesson != 0 {
		t.Fatalf("a negative step: %+v, %v", st, err)
	}
	if b, _ := json.Marshal(State{Version: Version, Scenario: "x"}); strings.Contains(string(b), `"l"`) {
		t.Fatalf("a link without a lesson carries the field: %s", b)
	}
}

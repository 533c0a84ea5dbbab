package share

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Version is the link format version.
const Version = 1

// Bounds on what a link may hold.
const (
	MaxEncodedBytes = 512 << 10 // the fragment after "#s="
	MaxDecodedBytes = 1 << 20   // the JSON after inflating (a scenario is at most 1 MiB)
)

// Prefix starts the fragment of a share link.
const Prefix = "s="

// State is what a link carries.
type State struct {
	Version  int    `json:"v"`
	Scenario string `json:"s"`
	Tick     int    `json:"t"`
	// EveryTick says the log and Step show every tick rather than the
	// story view, which folds the ticks that change nothing (absent in
	// links made before the story view: they open in it).
	EveryTick bool `json:"e,omitempty"`
	// Lesson is the step of the scenario's lesson the link opens the
	// lesson player at, counting from 1. 0 opens no player: it is absent
	// in links made with no lesson open and in every link made before
	// lessons, which decode as they always did (adding an optional field
	// keeps the format's Version).
	Lesson int `json:"l,omitempty"`
}

// Encode returns the fragment (without "#") for a scenario at a tick, in
// the story view.
func Encode(scenario string, tick int) string {
	return EncodeState(State{Scenario: scenario, Tick: tick})
}

// EncodeState returns the fragment (without "#") for st; its Version is
// set to the current one.
func EncodeState(st State) string {
	st.Version = Version
	var b bytes.Buffer
	w, _ := flate.NewWriter(&b, flate.BestCompression)
	_ = json.NewEncoder(w).Encode(st)
	_ = w.Close()
	return Prefix + base64.RawURLEncoding.EncodeToString(b.Bytes())
}

// ErrNoState means the fragment carries no shared scenario.
var ErrNoState = errors.New("the link carries no scenario")

// Decode reads a fragment (with or without "#"). Every failure is an error
// a visitor can read.
func Decode(fragment string) (State, error) {
	f := strings.TrimPrefix(fragment, "#")
	if !strings.HasPrefix(f, Prefix) {
		return State{}, ErrNoState
	}
	f = strings.TrimPrefix(f, Prefix)
	if len(f) > MaxEncodedBytes {
		return State{}, fmt.Errorf("the shared link is too long (%d characters; at most %d)", len(f), MaxEncodedBytes)
	}
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(f, "="))
	if err != nil {
		return State{}, fmt.Errorf("the shared link is damaged (it is not valid base64url): was it cut short when it was copied?")
	}
	r := flate.NewReader(bytes.NewReader(raw))
	defer r.Close()
	data, err := io.ReadAll(io.LimitReader(r, MaxDecodedBytes+1))
	if err != nil {
		return State{}, fmt.Errorf("the shared link is damaged (it does not decompress): was it cut short when it was copied?")
	}
	if len(data) > MaxDecodedBytes {
		return State{}, fmt.Errorf("the shared link expands to more than %d bytes; it is refused", MaxDecodedBytes)
	}
	var st State
	if err := json.Unmarshal(data, &st); err != nil {
		return State{}, fmt.Errorf("the shared link is damaged (its content is not the expected JSON)")
	}
	if st.Version != Version {
		return State{}, fmt.Errorf("the shared link has format version %d; this Stateflow reads version %d", st.Version, Version)
	}
	if st.Tick < 0 {
		st.Tick = 0
	}
	if st.Lesson < 0 {
		st.Lesson = 0
	}
	return st, nil
}

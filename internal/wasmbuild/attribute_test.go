package wasmbuild

import (
	"encoding/binary"
	"testing"
)

func TestPackageOf(t *testing.T) {
	pkgs := []string{"runtime", "gopkg.in/yaml.v3", "github.com/maxence-charriere/go-app/v10/pkg/app",
		"github.com/stateflow/stateflow/engine", "github.com/stateflow/stateflow/engine/api/labels", "k8s.io/apimachinery/pkg/util/sets"}
	for _, tc := range []struct{ sym, want string }{
		{"runtime.mallocgc", "runtime"},
		{"gopkg.in_yaml_2ev3.yaml_parser_process_empty_scalar", "gopkg.in/yaml.v3"},
		{"github.com_maxence_charriere_go_app_v10_pkg_app.__htmlInput_.JSValue", "github.com/maxence-charriere/go-app/v10/pkg/app"},
		{"github.com_stateflow_stateflow_engine_api_labels.Parse", "github.com/stateflow/stateflow/engine/api/labels"},
		{"github.com_stateflow_stateflow_engine.__Engine_.Step", "github.com/stateflow/stateflow/engine"},
		{"k8s.io_apimachinery_pkg_util_sets.List_go.shape.string_", "k8s.io/apimachinery/pkg/util/sets"},
		{"type_.eq.runtime._panic", "(type equality and hash functions)"},
		{"main.main", "github.com/stateflow/stateflow/wasm"},
		{"wasm_pc_f_loop", "(other)"},
	} {
		if got := packageOf(tc.sym, pkgs); got != tc.want {
			t.Errorf("packageOf(%q) = %q, want %q", tc.sym, got, tc.want)
		}
	}
}

// TestAttributeReadsAModule parses a module written here byte by byte,
// by the specification: one imported function, two defined ones of 3 and
// 5 bytes in two packages, 7 bytes of data and a name section.
func TestAttributeReadsAModule(t *testing.T) {
	sec := func(id byte, content []byte) []byte {
		return append(append([]byte{id}, uleb(len(content))...), content...)
	}
	name := func(s string) []byte { return append(uleb(len(s)), s...) }
	imports := append([]byte{1}, name("go")...)
	imports = append(append(imports, name("debug")...), 0, 0) // a function of type 0
	code := []byte{2, 3, 0, 0x01, 0x0b, 5, 0, 0x01, 0x01, 0x01, 0x0b}
	data := []byte{1, 0, 0x41, 0, 0x0b, 1, 'x'}
	names := []byte{3}
	names = append(append(names, uleb(0)...), name("runtime.wasmExit")...)
	names = append(append(names, uleb(1)...), name("runtime.mallocgc")...)
	names = append(append(names, uleb(2)...), name("gopkg.in_yaml_2ev3.Unmarshal")...)
	custom := append(name("name"), sec(1, names)...)
	mod := []byte("\x00asm\x01\x00\x00\x00")
	mod = append(mod, sec(2, imports)...)
	mod = append(mod, sec(10, code)...)
	mod = append(mod, sec(11, data)...)
	mod = append(mod, sec(0, custom)...)

	got, err := Attribute(mod, []string{"runtime", "gopkg.in/yaml.v3"})
	if err != nil {
		t.Fatal(err)
	}
	want := []Share{{"(data)", 7, 0}, {"gopkg.in/yaml.v3", 5, 1}, {"runtime", 3, 1}}
	if len(got) != len(want) {
		t.Fatalf("Attribute = %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("share %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	if _, err := Attribute(mod[:20], nil); err == nil {
		t.Error("a truncated module gave no error")
	}
	if _, err := Attribute([]byte("not wasm"), nil); err == nil {
		t.Error("a text file gave no error")
	}
}

func uleb(n int) []byte { return binary.AppendUvarint(nil, uint64(n)) }

func FuzzAttribute(f *testing.F) {
	f.Add([]byte("\x00asm\x01\x00\x00\x00\x0a\x01\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		Attribute(b, []string{"runtime"}) // must not panic
	})
}

// TestAttributeRefusesHugeLengths: lengths past the end of the module, or
// so large they wrap when made an int, are errors, not panics.
func TestAttributeRefusesHugeLengths(t *testing.T) {
	huge := binary.AppendUvarint(nil, 1<<63+5)
	maxInt := binary.AppendUvarint(nil, 1<<63-1)
	u32 := binary.AppendUvarint(nil, 1<<32-1)
	for _, mod := range [][]byte{
		append([]byte("\x00asm\x01\x00\x00\x00\x0a"), maxInt...),
		append([]byte("\x00asm\x01\x00\x00\x00\x0a"), u32...),
		append(append([]byte("\x00asm\x01\x00\x00\x00\x0a\x0b\x01"), maxInt...), make([]byte, 8)...),
		append(append([]byte("\x00asm\x01\x00\x00\x00\x00\x0c\x04name\x01"), maxInt...), make([]byte, 6)...),
		append([]byte("\x00asm\x01\x00\x00\x00\x0a"), huge...),
		append(append([]byte("\x00asm\x01\x00\x00\x00\x0a\x0b\x01"), huge...), make([]byte, 8)...),
		append(append([]byte("\x00asm\x01\x00\x00\x00\x00\x0c\x04name\x01"), huge...), make([]byte, 6)...),
	} {
		if _, err := Attribute(mod, nil); err == nil {
			t.Errorf("Attribute(%x) gave no error", mod)
		}
	}
}

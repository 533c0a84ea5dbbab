package wasmbuild

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
)

// Share is the code one package contributes to a wasm module.
type Share struct {
	Package string // import path; "(data)" for the data segments
	Bytes   int    // bytes of function bodies (or of data)
	Funcs   int
}

// Attribute reads a wasm module built with names (Build's keepNames) and
// sums its function bodies by the Go package they belong to, largest
// first, with the data segments (string literals, type data, the
// function tables the runtime reads) as one "(data)" row. pkgs are the
// import paths linked (Packages): the linker writes a function's name
// with its package's slashes as underscores, so the package is the
// longest of them that prefixes the name.
func Attribute(wasm []byte, pkgs []string) ([]Share, error) {
	mod, err := parseModule(wasm)
	if err != nil {
		return nil, err
	}
	if len(mod.names) == 0 {
		return nil, errors.New("the module has no name section: build it with names kept")
	}
	byPkg := map[string]*Share{}
	for i, size := range mod.bodies {
		name := mod.names[mod.imported+i]
		pkg := packageOf(name, pkgs)
		s := byPkg[pkg]
		if s == nil {
			s = &Share{Package: pkg}
			byPkg[pkg] = s
		}
		s.Bytes += size
		s.Funcs++
	}
	out := make([]Share, 0, len(byPkg)+1)
	for _, s := range byPkg {
		out = append(out, *s)
	}
	out = append(out, Share{Package: "(data)", Bytes: mod.data})
	sort.Slice(out, func(i, j int) bool {
		if out[i].Bytes != out[j].Bytes {
			return out[i].Bytes > out[j].Bytes
		}
		return out[i].Package < out[j].Package
	})
	return out, nil
}

// packageOf is the import path of a function's name in the module:
// "k8s.io_apimachinery_pkg_labels.__Requirement_.Matches" is
// "k8s.io/apimachinery/pkg/labels" when that package is among pkgs, and
// "gopkg.in_yaml_2ev3.yaml_insert_token" is "gopkg.in/yaml.v3".
func packageOf(sym string, pkgs []string) string {
	if strings.HasPrefix(sym, "type_.") {
		return "(type equality and hash functions)"
	}
	if strings.HasPrefix(sym, "main.") {
		return Module + "/wasm"
	}
	best := ""
	for _, p := range pkgs {
		m := mangle(p)
		if len(p) > len(best) && strings.HasPrefix(sym, m) && len(sym) > len(m) && sym[len(m)] == '.' {
			best = p
		}
	}
	if best == "" {
		if i := strings.IndexByte(sym, '.'); i > 0 {
			return "(other) " + sym[:i]
		}
		return "(other)"
	}
	return best
}

// mangle is an import path as the linker writes it in a wasm module's
// names: a dot in its last element escaped as %2e
// (cmd/internal/objabi.PathToPrefix), then slashes, dashes and percent
// signs as underscores.
func mangle(path string) string {
	slash := strings.LastIndexByte(path, '/')
	path = path[:slash+1] + strings.ReplaceAll(path[slash+1:], ".", "%2e")
	return strings.NewReplacer("/", "_", "-", "_", "%", "_").Replace(path)
}

// module is what Attribute needs of a wasm binary.
type module struct {
	imported int   // imported functions, first in the index space
	bodies   []int // the size of each defined function's body
	names    map[int]string
	data     int // bytes of the data section
}

// parseModule walks the sections of a wasm binary (the WebAssembly core
// specification, §5.5): the import section for how many functions are
// imported, the code section for the bodies' sizes, the data section's
// size and the "name" custom section's function names.
func parseModule(b []byte) (*module, error) {
	if len(b) < 8 || string(b[:4]) != "\x00asm" {
		return nil, errors.New("not a WebAssembly module")
	}
	m := &module{names: map[int]string{}}
	r := reader{b: b, off: 8}
	for r.off < len(b) {
		id := r.byte()
		size := int(r.uleb())
		if r.err != nil || size > len(b)-r.off {
			return nil, fmt.Errorf("section %d at byte %d: truncated", id, r.off)
		}
		sec := reader{b: b[:r.off+size], off: r.off}
		switch id {
		case 2:
			m.imported = countFuncImports(&sec)
		case 10:
			n := int(sec.uleb())
			for i := 0; i < n && sec.err == nil; i++ {
				body := int(sec.uleb())
				if sec.err != nil || body > len(sec.b)-sec.off {
					sec.err = errors.New("a function body past the end")
					break
				}
				m.bodies = append(m.bodies, body)
				sec.off += body
			}
		case 11:
			m.data = size
		case 0:
			if sec.name() == "name" {
				readNames(&sec, m.names)
			}
		}
		if sec.err != nil {
			return nil, fmt.Errorf("section %d: %w", id, sec.err)
		}
		r.off += size
	}
	return m, nil
}

func countFuncImports(r *reader) int {
	n, funcs := int(r.uleb()), 0
	for i := 0; i < n && r.err == nil; i++ {
		r.name() // module
		r.name() // field
		switch kind := r.byte(); kind {
		case 0: // function: a type index
			r.uleb()
			funcs++
		case 1: // table: element type, limits
			r.byte()
			r.limits()
		case 2: // memory: limits
			r.limits()
		case 3: // global: value type, mutability
			r.byte()
			r.byte()
		default:
			r.err = fmt.Errorf("import kind %d", kind)
		}
	}
	return funcs
}

// readNames reads the function-names subsection (id 1) of a name section.
func readNames(r *reader, names map[int]string) {
	for r.off < len(r.b) && r.err == nil {
		id := r.byte()
		size := int(r.uleb())
		if r.err != nil || size > len(r.b)-r.off {
			r.err = errors.New("a name subsection past the end")
			return
		}
		end := r.off + size
		if id == 1 {
			n := int(r.uleb())
			for i := 0; i < n && r.err == nil; i++ {
				idx := int(r.uleb())
				names[idx] = r.name()
			}
		}
		r.off = end
	}
}

// reader reads the LEB128 integers, bytes and names of a wasm binary.
type reader struct {
	b   []byte
	off int
	err error
}

func (r *reader) byte() byte {
	if r.off >= len(r.b) {
		r.err = errors.New("unexpected end")
		return 0
	}
	c := r.b[r.off]
	r.off++
	return c
}

// uleb reads an unsigned LEB128 integer; the format's lengths, counts and
// indices are 32-bit (u32), so a larger value is an error, and every
// length compared with what is left (size > len(b)-off) cannot overflow.
func (r *reader) uleb() uint64 {
	v, n := binary.Uvarint(r.b[min(r.off, len(r.b)):])
	if n <= 0 || v > math.MaxUint32 {
		r.err = errors.New("bad LEB128 u32")
		return 0
	}
	r.off += n
	return v
}

func (r *reader) name() string {
	n := int(r.uleb())
	if r.err != nil || n > len(r.b)-r.off {
		r.err = errors.New("name past the end")
		return ""
	}
	s := string(r.b[r.off : r.off+n])
	r.off += n
	return s
}

func (r *reader) limits() {
	if r.byte() == 1 {
		r.uleb()
	}
	r.uleb()
}

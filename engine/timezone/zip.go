package timezone

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// readZip reads the stored (uncompressed) entries of a zip archive by
// its central directory (APPNOTE.TXT §4.3): name → contents. It reads
// what Go's zoneinfo.zip holds, as time's own loadTzinfoFromZip does,
// and refuses the rest.
func readZip(b []byte) (map[string][]byte, error) {
	const endLen, dirLen, localLen = 22, 46, 30
	if len(b) < endLen {
		return nil, errors.New("zoneinfo.zip: too short")
	}
	end := b[len(b)-endLen:]
	if binary.LittleEndian.Uint32(end) != 0x06054b50 {
		return nil, errors.New("zoneinfo.zip: no end of central directory (a comment is not supported)")
	}
	n := int(binary.LittleEndian.Uint16(end[10:]))
	off := int(binary.LittleEndian.Uint32(end[16:]))
	out := make(map[string][]byte, n)
	for i := range n {
		if off < 0 || off+dirLen > len(b) || binary.LittleEndian.Uint32(b[off:]) != 0x02014b50 {
			return nil, fmt.Errorf("zoneinfo.zip: entry %d: bad central directory header", i)
		}
		h := b[off:]
		method := binary.LittleEndian.Uint16(h[10:])
		csize := int(binary.LittleEndian.Uint32(h[20:]))
		size := int(binary.LittleEndian.Uint32(h[24:]))
		nameLen := int(binary.LittleEndian.Uint16(h[28:]))
		extraLen := int(binary.LittleEndian.Uint16(h[30:]))
		commentLen := int(binary.LittleEndian.Uint16(h[32:]))
		local := int(binary.LittleEndian.Uint32(h[42:]))
		if off+dirLen+nameLen > len(b) {
			return nil, fmt.Errorf("zoneinfo.zip: entry %d: name past the end", i)
		}
		name := string(b[off+dirLen : off+dirLen+nameLen])
		if method != 0 || csize != size || size < 0 {
			return nil, fmt.Errorf("zoneinfo.zip: %s is not stored uncompressed (method %d, %d bytes for %d)", name, method, csize, size)
		}
		if local < 0 || local+localLen > len(b) || binary.LittleEndian.Uint32(b[local:]) != 0x04034b50 {
			return nil, fmt.Errorf("zoneinfo.zip: %s: bad local header", name)
		}
		start := local + localLen + int(binary.LittleEndian.Uint16(b[local+26:])) + int(binary.LittleEndian.Uint16(b[local+28:]))
		if start+size > len(b) {
			return nil, fmt.Errorf("zoneinfo.zip: %s: contents past the end", name)
		}
		out[name] = b[start : start+size]
		off += dirLen + nameLen + extraLen + commentLen
	}
	return out, nil
}

package packs

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// A device index (device.<locale>.bin, packs/FORMAT.md "Device index") is a
// binary index of one locale re-encoded for download by the JS client: the
// sections the client never reads or can derive are left out, hash slots
// are left for the reader to rebuild from the keys, and integer sections are stored as
// zigzag deltas in LEB128 varints. Offsets and postings are ascending runs
// of small steps, which fixed 2- and 4-byte integers hide from gzip: the
// file is about half the gzip size of the index it comes from.

// DeviceMagic starts a device index; DeviceVersion is its layout version.
const (
	DeviceMagic   = "ESDEV\x00\x00\x00"
	DeviceVersion = 2
)

// Section encodings of a device index.
const (
	devDropped = 0 // not stored: the client does not read it (empty)
	devRaw     = 1 // the section's bytes as in the index
	devDelta   = 2 // zigzag LEB128 varints of the differences between values
	devSlots   = 3 // hash slots: count stored, rebuilt from the table's keys
	devStemOf  = 4 // per term, its stem's key index + 1 (0: unspaced), as devDelta
	devListAt  = 5 // term posting offsets (24): where each term's list starts in 25's bytes, as devDelta
	devLists   = 6 // term postings (25): each term's list as devDelta, the first value from 0
)

// binIndexMagic starts a binary index (engine/internal/index.Magic; packs/
// does not import the engine).
const binIndexMagic = "ESIDX\x00\x00\x00"

// Sections of a binary index a device index treats apart (packs/FORMAT.md
// "Binary index").
const (
	secTermKeys, secTermOff, secTermPost = 22, 24, 25
	secStemKeys, secStemOff, secStemPost = 28, 30, 31
)

// deviceEncoding is the encoding of each of the 48 sections of a binary
// index. Dropped: the per-entry columns but the ids (7-14: the English core
// pack gives them), the term signatures (27), the gram table (33-37: the
// reader makes it from the unspaced terms, a gram's list being the union
// of the lists of the terms holding it) and the emoji-key table (43-47).
// The stem table keeps its keys; its lists are the unions of its terms'
// lists, so the file says which stem each term has (30) instead (31
// dropped). The slots of the term, stem and symbol tables are rebuilt.
func deviceEncoding(i, width int) byte {
	switch {
	case i >= 7 && i <= 14, i == 27, i == secStemPost, i >= 33 && i <= 37, i >= 43:
		return devDropped
	case i == 26 || i == 32 || i == 42:
		return devSlots
	case i == secStemOff:
		return devStemOf
	case i == secTermOff:
		return devListAt
	case i == secTermPost:
		return devLists
	case width == 1:
		return devRaw
	}
	return devDelta
}

// TermRules are the engine's token rules the device index needs to say
// which stem each term has (engine.Stem, engine.IsUnspaced).
type TermRules struct {
	Stem     func(tok string) string
	Unspaced func(tok string) bool
}

// ErrDeviceIndex reports bytes that are not a binary index CompactIndex can
// re-encode.
var ErrDeviceIndex = errors.New("packs: not a binary index for a device index")

// section is one section of a binary index: its width and values.
type section struct {
	width int
	vals  []uint32
	raw   []byte
}

// CompactIndex re-encodes a main binary index (index.<locale>.bin layout) as
// a device index:
//
//	magic "ESDEV\0\0\0" | version u16 | index format version u16 | sections u16
//	directory: sections x (width u8, encoding u8, count u32, stored bytes u32)
//	the stored sections, one after the other
//
// It checks what the reader will rebuild: every stem's list is the union of
// the lists of the terms rules give that stem. The output depends only on
// the input.
func CompactIndex(idx []byte, rules TermRules) ([]byte, error) {
	if len(idx) < 16 || string(idx[:8]) != binIndexMagic {
		return nil, fmt.Errorf("%w: magic", ErrDeviceIndex)
	}
	version := binary.LittleEndian.Uint16(idx[8:])
	n := int(binary.LittleEndian.Uint16(idx[10:]))
	if n != 48 || 16+12*n > len(idx) {
		return nil, fmt.Errorf("%w: %d sections", ErrDeviceIndex, n)
	}
	secs := make([]section, n)
	for i := range n {
		e := idx[16+12*i:]
		width, count, at := int(e[0]), int(binary.LittleEndian.Uint32(e[4:])), int(binary.LittleEndian.Uint32(e[8:]))
		if width != 1 && width != 2 && width != 4 && width != 8 || at+width*count > len(idx) {
			return nil, fmt.Errorf("%w: section %d", ErrDeviceIndex, i)
		}
		secs[i] = section{width: width, raw: idx[at : at+width*count]}
		if width == 8 {
			continue
		}
		secs[i].vals = make([]uint32, count)
		for j := range count {
			secs[i].vals[j] = uintN(idx[at+j*width:], width)
		}
	}
	stemOf, err := termStems(secs, rules)
	if err != nil {
		return nil, err
	}
	lists, listAt, err := termLists(secs[secTermOff].vals, secs[secTermPost].vals)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(idx)/2)
	out = append(out, DeviceMagic...)
	out = binary.LittleEndian.AppendUint16(out, DeviceVersion)
	out = binary.LittleEndian.AppendUint16(out, version)
	out = binary.LittleEndian.AppendUint16(out, uint16(n))
	dir := len(out)
	out = append(out, make([]byte, 10*n)...)
	for i, sec := range secs {
		enc := deviceEncoding(i, sec.width)
		count := len(sec.raw) / sec.width
		if sec.width == 8 && enc != devDropped {
			return nil, fmt.Errorf("%w: section %d has 8-byte values", ErrDeviceIndex, i)
		}
		start := len(out)
		switch enc {
		case devRaw:
			out = append(out, sec.raw...)
		case devDelta:
			out = appendDeltas(out, sec.vals)
		case devStemOf:
			out, count = appendDeltas(out, stemOf), len(stemOf)
		case devListAt:
			out = appendDeltas(out, listAt)
		case devLists:
			out = append(out, lists...)
		case devDropped:
			count = 0
		}
		d := out[dir+10*i:]
		d[0], d[1] = byte(sec.width), enc
		binary.LittleEndian.PutUint32(d[2:], uint32(count))
		binary.LittleEndian.PutUint32(d[6:], uint32(len(out)-start))
	}
	return out, nil
}

// appendDeltas appends the zigzag LEB128 varints of the differences between
// successive values (the first from 0).
func appendDeltas(out []byte, vals []uint32) []byte {
	prev := int64(0)
	for _, v := range vals {
		d := int64(v) - prev
		out = binary.AppendUvarint(out, uint64(d<<1)^uint64(d>>63))
		prev = int64(v)
	}
	return out
}

// termLists encodes each term's postings on its own (devLists) and returns
// the bytes and where each list starts in them (devListAt, one more than
// the terms): the client decodes a term's list on its first lookup only.
func termLists(off, post []uint32) (lists []byte, at []uint32, err error) {
	for t := range off {
		if t > 0 && off[t] < off[t-1] || int(off[t]) > len(post) {
			return nil, nil, fmt.Errorf("%w: term posting offsets", ErrDeviceIndex)
		}
	}
	at = make([]uint32, 0, len(off))
	for t := range off {
		at = append(at, uint32(len(lists)))
		if t+1 < len(off) {
			lists = appendDeltas(lists, post[off[t]:off[t+1]])
		}
	}
	return lists, at, nil
}

// termStems returns per term the index + 1 of its stem among the stem
// table's keys (0 for an unspaced term), after checking that the union of
// the lists of a stem's terms is the stem's list.
func termStems(secs []section, rules TermRules) ([]uint32, error) {
	str := func(i, k int) string {
		off := secs[i].vals
		return string(secs[i+1].raw[off[k]:off[k+1]])
	}
	list := func(off, post, k int) []uint32 {
		o := secs[off].vals
		return secs[post].vals[o[k]:o[k+1]]
	}
	nStems := max(len(secs[secStemKeys].vals)-1, 0)
	stemAt := make(map[string]int, nStems)
	for k := range nStems {
		stemAt[str(secStemKeys, k)] = k
	}
	nTerms := max(len(secs[secTermKeys].vals)-1, 0)
	stemOf := make([]uint32, nTerms)
	union := make([]map[uint32]bool, nStems)
	for t := range nTerms {
		key := str(secTermKeys, t)
		if rules.Unspaced(key) {
			continue
		}
		k, ok := stemAt[rules.Stem(key)]
		if !ok {
			return nil, fmt.Errorf("%w: term %q has no stem in the index", ErrDeviceIndex, key)
		}
		stemOf[t] = uint32(k + 1)
		if union[k] == nil {
			union[k] = map[uint32]bool{}
		}
		for _, p := range list(secTermOff, secTermPost, t) {
			union[k][p] = true
		}
	}
	for k := range nStems {
		l := list(secStemOff, secStemPost, k)
		ok := len(l) == len(union[k])
		for _, p := range l {
			ok = ok && union[k][p]
		}
		if !ok {
			return nil, fmt.Errorf("%w: stem %q is not the union of its terms", ErrDeviceIndex, str(secStemKeys, k))
		}
	}
	return stemOf, nil
}

// uintN reads a little-endian unsigned integer of width 1, 2 or 4 bytes.
func uintN(b []byte, width int) uint32 {
	switch width {
	case 1:
		return uint32(b[0])
	case 2:
		return uint32(binary.LittleEndian.Uint16(b))
	}
	return binary.LittleEndian.Uint32(b)
}

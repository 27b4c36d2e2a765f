package index

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"unsafe"
)

// Binary index layout (packs/FORMAT.md, "Binary index"): a header, a
// section directory, then the sections, each starting at a multiple of 8.
//
//	magic "ESIDX\x00\x00\x00" | formatVersion u16 | sections u16 | length u32
//	directory: sections x (width u8, 3 zero bytes, count u32, offset u32)
//	sections: count little-endian integers of width bytes (1, 2, 4 or 8)
//
// Sections come in the fixed order of FormatVersion (segment.go); integers
// use the narrowest width that holds their largest value.
const (
	Magic         = "ESIDX\x00\x00\x00"
	FormatVersion = 2 // 2: field numbers of pack format 2 (editorial fields)
	headerSize    = 16
	dirEntrySize  = 12
)

// ErrFormat is returned for bytes that are not a binary index of this version.
var ErrFormat = errors.New("index: not a binary index of a supported version")

// IsBinary reports whether data starts like a binary index.
func IsBinary(data []byte) bool { return len(data) >= len(Magic) && string(data[:len(Magic)]) == Magic }

// ints is a read-only integer array of one width, viewed in place.
type ints struct {
	w8  []uint8
	w16 []uint16
	w32 []uint32
	n   int
}

func (a ints) at(i int) uint32 {
	switch {
	case a.w16 != nil:
		return uint32(a.w16[i])
	case a.w32 != nil:
		return a.w32[i]
	}
	return uint32(a.w8[i])
}

func (a ints) len() int { return a.n }

// span returns values i and i+1 (an offset pair) with one width switch:
// string tables read one per key compared in every binary search.
func (a *ints) span(i int) (uint32, uint32) {
	switch {
	case a.w16 != nil:
		w := a.w16[i : i+2]
		return uint32(w[0]), uint32(w[1])
	case a.w32 != nil:
		w := a.w32[i : i+2]
		return w[0], w[1]
	}
	w := a.w8[i : i+2]
	return uint32(w[0]), uint32(w[1])
}

// strtab is a string table: string i is blob[off[i]:off[i+1]].
type strtab struct {
	off  ints
	blob string
}

func (t *strtab) at(i int) string {
	lo, hi := t.off.span(i)
	return t.blob[lo:hi]
}
func (t *strtab) len() int { return max(t.off.len()-1, 0) }

// table maps sorted keys to posting lists, with an open-addressing hash of
// the keys for exact lookups.
type table struct {
	keys  strtab
	off   ints // len(keys)+1
	post  ints
	slots ints // key index + 1; 0 is empty; length a power of two
}

func (t *table) find(k string) (int, bool) {
	n := t.slots.len()
	if n == 0 {
		return 0, false
	}
	for h := int(hash(k)) & (n - 1); ; h = (h + 1) & (n - 1) {
		v := int(t.slots.at(h))
		if v == 0 {
			return 0, false
		}
		if t.keys.at(v-1) == k {
			return v - 1, true
		}
	}
}

// list returns the posting range of key i as [lo, hi) into post.
func (t *table) list(i int) (int, int) { return int(t.off.at(i)), int(t.off.at(i + 1)) }

// prefixRange returns the keys starting with p as [lo, hi).
func (t *table) prefixRange(p string) (int, int) { return t.prefixRangeIn(p, 0, t.keys.len()) }

// prefixRangeIn is prefixRange when every key starting with p lies in
// [from, n): the range of a prefix of p (the previous keystroke's word).
func (t *table) prefixRangeIn(p string, from, n int) (int, int) {
	lo, hi := from, n
	for lo < hi {
		if m := int(uint(lo+hi) >> 1); t.keys.at(m) < p {
			lo = m + 1
		} else {
			hi = m
		}
	}
	// The end of the range: galloping from lo, since a prefix of a few
	// letters has few completions (a second search over the whole table
	// cost as many string compares again, the dearest part of a typical
	// keystroke under js/wasm).
	l, step := lo, 1
	for l < n && strings.HasPrefix(t.keys.at(l), p) {
		l = lo + step
		step <<= 1
	}
	end := min(l, n)
	for l = max(lo, lo+step>>2+1); l < end; {
		if m := int(uint(l+end) >> 1); strings.HasPrefix(t.keys.at(m), p) {
			l = m + 1
		} else {
			end = m
		}
	}
	return lo, end
}

// hash is 32-bit FNV-1a.
func hash(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= 16777619
	}
	return h
}

// encoder collects sections in order.
type encoder struct {
	secs    []section
	version uint16 // format version written; FormatVersion when 0
}

type section struct {
	width int
	count int
	data  []byte
}

func widthOf(maxV uint64) int {
	switch {
	case maxV <= math.MaxUint8:
		return 1
	case maxV <= math.MaxUint16:
		return 2
	case maxV <= math.MaxUint32:
		return 4
	}
	return 8
}

func (e *encoder) uints(v []uint64, minWidth int) {
	var m uint64
	for _, x := range v {
		m = max(m, x)
	}
	w := max(widthOf(m), minWidth)
	b := make([]byte, 0, w*len(v))
	for _, x := range v {
		switch w {
		case 1:
			b = append(b, byte(x))
		case 2:
			b = binary.LittleEndian.AppendUint16(b, uint16(x))
		case 4:
			b = binary.LittleEndian.AppendUint32(b, uint32(x))
		default:
			b = binary.LittleEndian.AppendUint64(b, x)
		}
	}
	e.secs = append(e.secs, section{w, len(v), b})
}

func (e *encoder) u32s(v []uint32) {
	u := make([]uint64, len(v))
	for i, x := range v {
		u[i] = uint64(x)
	}
	e.uints(u, 1)
}

func (e *encoder) strs(v []string) {
	off := make([]uint32, 0, len(v)+1)
	var blob []byte
	for _, s := range v {
		off = append(off, uint32(len(blob)))
		blob = append(blob, s...)
	}
	e.u32s(append(off, uint32(len(blob))))
	e.secs = append(e.secs, section{1, len(blob), blob})
}

// table writes keys (sorted here) with their posting lists and returns the keys.
func (e *encoder) table(lists map[string][]uint32) []string {
	keys := make([]string, 0, len(lists))
	for k := range lists {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	off := make([]uint32, 0, len(keys)+1)
	var post []uint32
	for _, k := range keys {
		off = append(off, uint32(len(post)))
		post = append(post, lists[k]...)
	}
	off = append(off, uint32(len(post)))
	n := 1
	for n < 2*len(keys) {
		n <<= 1
	}
	slots := make([]uint32, n)
	for i, k := range keys {
		h := int(hash(k)) & (n - 1)
		for slots[h] != 0 {
			h = (h + 1) & (n - 1)
		}
		slots[h] = uint32(i + 1)
	}
	if len(keys) == 0 {
		slots = nil
	}
	e.strs(keys)
	e.u32s(off)
	e.u32s(post)
	e.u32s(slots)
	return keys
}

func (e *encoder) writeTo(w io.Writer) error {
	pos := headerSize + dirEntrySize*len(e.secs)
	pad := func(p int) int { return (p + 7) &^ 7 }
	pos = pad(pos)
	out := make([]byte, 0, pos)
	out = append(out, Magic...)
	v := e.version
	if v == 0 {
		v = FormatVersion
	}
	out = binary.LittleEndian.AppendUint16(out, v)
	out = binary.LittleEndian.AppendUint16(out, uint16(len(e.secs)))
	total := pos
	for _, s := range e.secs {
		total = pad(total + len(s.data))
	}
	out = binary.LittleEndian.AppendUint32(out, uint32(total))
	for _, s := range e.secs {
		out = append(out, byte(s.width), 0, 0, 0)
		out = binary.LittleEndian.AppendUint32(out, uint32(s.count))
		out = binary.LittleEndian.AppendUint32(out, uint32(pos))
		pos = pad(pos + len(s.data))
	}
	for _, s := range e.secs {
		out = append(out, make([]byte, pad(len(out))-len(out))...)
		out = append(out, s.data...)
	}
	out = append(out, make([]byte, pad(len(out))-len(out))...)
	_, err := w.Write(out)
	return err
}

// decoder reads sections in order from an index in memory, viewing integer
// arrays and strings in place (no copy) when the host is little-endian and
// data is 8-byte aligned; otherwise it decodes copies.
type decoder struct {
	data []byte
	dir  []byte
	next int
	err  error
}

var littleEndian = func() bool { x := uint16(1); return *(*byte)(unsafe.Pointer(&x)) == 1 }()

func newDecoder(data []byte, sections int) (*decoder, error) {
	if !IsBinary(data) || len(data) < headerSize {
		return nil, ErrFormat
	}
	// Version 1 has the same layout; its files hold no field above 4.
	if v := binary.LittleEndian.Uint16(data[8:]); v != FormatVersion && v != 1 {
		return nil, fmt.Errorf("%w: format version %d, want %d", ErrFormat, v, FormatVersion)
	}
	n := int(binary.LittleEndian.Uint16(data[10:]))
	if n != sections {
		return nil, fmt.Errorf("%w: %d sections, want %d", ErrFormat, n, sections)
	}
	if l := int(binary.LittleEndian.Uint32(data[12:])); l != len(data) || headerSize+dirEntrySize*n > len(data) {
		return nil, fmt.Errorf("%w: length %d, have %d bytes", ErrFormat, l, len(data))
	}
	if uintptr(unsafe.Pointer(unsafe.SliceData(data)))%8 != 0 {
		data = append(make([]byte, 0, len(data)+8), data...) // fresh allocations of this size are aligned
	}
	return &decoder{data: data, dir: data[headerSize : headerSize+dirEntrySize*n]}, nil
}

// raw returns the next section's bytes and width.
func (d *decoder) raw() ([]byte, int, int) {
	if d.err != nil || d.next*dirEntrySize >= len(d.dir) {
		d.fail("too few sections")
		return nil, 1, 0
	}
	e := d.dir[d.next*dirEntrySize:]
	d.next++
	w, count, off := int(e[0]), int(binary.LittleEndian.Uint32(e[4:])), int(binary.LittleEndian.Uint32(e[8:]))
	if w != 1 && w != 2 && w != 4 && w != 8 || off%8 != 0 || off > len(d.data) || count > (len(d.data)-off)/w {
		d.fail(fmt.Sprintf("section %d out of bounds", d.next-1))
		return nil, 1, 0
	}
	return d.data[off : off+count*w], w, count
}

func (d *decoder) fail(msg string) {
	if d.err == nil {
		d.err = fmt.Errorf("%w: %s", ErrFormat, msg)
	}
}

func (d *decoder) ints() ints {
	b, w, n := d.raw()
	a := ints{n: n}
	if n == 0 {
		a.w8 = []uint8{}
		return a
	}
	switch w {
	case 1:
		a.w8 = b
	case 2:
		a.w16 = view(b, n, binary.LittleEndian.Uint16)
	case 4:
		a.w32 = view(b, n, binary.LittleEndian.Uint32)
	default:
		d.fail("64-bit integers where 32 bits are expected")
		a.w8 = make([]uint8, n)
	}
	return a
}

func (d *decoder) u64s() []uint64 {
	b, w, n := d.raw()
	if w != 8 && n > 0 {
		d.fail("want 64-bit integers")
		return make([]uint64, n)
	}
	if n == 0 {
		return nil
	}
	return view(b, n, binary.LittleEndian.Uint64)
}

// view returns b as n integers: in place on little-endian hosts (b is 8-byte
// aligned), else decoded into a copy.
func view[T uint16 | uint32 | uint64](b []byte, n int, get func([]byte) T) []T {
	if littleEndian {
		return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), n)
	}
	out := make([]T, n)
	size := len(b) / max(n, 1)
	for i := range out {
		out[i] = get(b[size*i:])
	}
	return out
}

func (d *decoder) strs() strtab {
	off := d.ints()
	b, _, _ := d.raw()
	t := strtab{off: off}
	if len(b) > 0 {
		t.blob = unsafe.String(unsafe.SliceData(b), len(b))
	}
	if d.err == nil {
		prev := uint32(0)
		for i := range off.len() {
			v := off.at(i)
			if v < prev || int(v) > len(b) {
				d.fail("string offsets out of order")
				return strtab{off: ints{w8: []uint8{}}}
			}
			prev = v
		}
	}
	return t
}

func (d *decoder) table() table {
	t := table{keys: d.strs(), off: d.ints(), post: d.ints(), slots: d.ints()}
	if d.err != nil {
		return table{}
	}
	n := t.slots.len()
	switch {
	case t.off.len() != t.keys.len()+1 && !(t.keys.len() == 0 && t.off.len() <= 1):
		d.fail("posting offsets do not match keys")
	case n&(n-1) != 0 || (n > 0 && n < t.keys.len()+1):
		d.fail("hash slots not a power of two above the key count")
	}
	if d.err == nil {
		prev := uint32(0)
		for i := range t.off.len() {
			if v := t.off.at(i); v < prev || int(v) > t.post.len() {
				d.fail("posting offsets out of order")
				return table{}
			} else {
				prev = v
			}
		}
		for i := range n {
			if int(t.slots.at(i)) > t.keys.len() {
				d.fail("hash slot out of range")
				return table{}
			}
		}
	}
	return t
}

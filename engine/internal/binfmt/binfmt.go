// Package binfmt holds the shared pieces of the meaning tier's flat binary
// files (engine/embed models, engine/vectors vector files): little-endian
// values, a string table as offsets plus one blob, int8 rows with a float32
// scale, a 4-byte magic in front and an IEEE CRC-32 of everything at the end.
package binfmt

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math"
)

var le = binary.LittleEndian

// Errors of Open and Reader.Err; callers wrap them in their own sentinel.
var (
	ErrMagic    = errors.New("wrong magic or too short")
	ErrChecksum = errors.New("checksum mismatch")
	ErrSize     = errors.New("sizes do not add up")
)

// Writer builds a file in memory; Seal appends the checksum.
type Writer struct{ b bytes.Buffer }

// NewWriter starts a file with its magic.
func NewWriter(magic string) *Writer {
	w := &Writer{}
	w.b.WriteString(magic)
	return w
}

func (w *Writer) U8(v uint8)   { w.b.WriteByte(v) }
func (w *Writer) U16(v uint16) { w.b.Write(le.AppendUint16(nil, v)) }
func (w *Writer) U32(v uint32) { w.b.Write(le.AppendUint32(nil, v)) }
func (w *Writer) F32(v float32) {
	w.U32(math.Float32bits(v))
}

// Str8 writes a string of at most 255 bytes after its uint8 length.
func (w *Writer) Str8(s string) { w.U8(uint8(len(s))); w.b.WriteString(s) }

// Strings writes a string table: (n+1) uint32 offsets, then the bytes.
func (w *Writer) Strings(list []string) {
	off := uint32(0)
	w.U32(0)
	for _, s := range list {
		off += uint32(len(s))
		w.U32(off)
	}
	for _, s := range list {
		w.b.WriteString(s)
	}
}

// Rows writes each vector, scaled to unit length, as int8 with a per-row
// scale: n float32 scales, then n×dims int8 (see Quantize).
func (w *Writer) Rows(rows [][]float32, dims int) {
	q := make([]int8, dims)
	packed := make([]byte, 0, len(rows)*dims)
	for _, r := range rows {
		w.F32(Quantize(q, r))
		for _, x := range q {
			packed = append(packed, byte(x))
		}
	}
	w.b.Write(packed)
}

// Seal appends the CRC-32 of every byte so far and returns the file.
func (w *Writer) Seal() []byte {
	w.U32(crc32.ChecksumIEEE(w.b.Bytes()))
	return w.b.Bytes()
}

// Quantize stores v, scaled to unit length, in q as int8 and returns the
// scale: v/|v| ≈ scale*q. A zero or non-finite vector gives zeros and 0.
func Quantize(q []int8, v []float32) float32 {
	var norm, peak float64
	for _, x := range v {
		norm += float64(x) * float64(x)
	}
	norm = math.Sqrt(norm)
	if norm == 0 || math.IsNaN(norm) || math.IsInf(norm, 0) {
		clear(q)
		return 0
	}
	for _, x := range v {
		peak = max(peak, math.Abs(float64(x)/norm))
	}
	scale := peak / 127
	for i, x := range v {
		q[i] = int8(math.Round(float64(x) / norm / scale))
	}
	return float32(scale)
}

// Reader reads a file's body in order; past the end every read gives zero
// values and Err reports ErrSize.
type Reader struct {
	body []byte
	p    int
	bad  bool
}

// Open checks the magic and the trailing checksum and returns a reader
// positioned after the magic.
func Open(data []byte, magic string) (*Reader, error) {
	if len(data) < len(magic)+4 || string(data[:len(magic)]) != magic {
		return nil, ErrMagic
	}
	body := data[:len(data)-4]
	if crc32.ChecksumIEEE(body) != le.Uint32(data[len(body):]) {
		return nil, ErrChecksum
	}
	return &Reader{body: body, p: len(magic)}, nil
}

// Take returns the next n bytes (in place), or nil past the end.
func (r *Reader) Take(n uint64) []byte {
	if r.bad || n > uint64(len(r.body)-r.p) {
		r.bad = true
		return nil
	}
	s := r.body[r.p : r.p+int(n)]
	r.p += int(n)
	return s
}

func (r *Reader) U8() uint8 {
	if b := r.Take(1); b != nil {
		return b[0]
	}
	return 0
}

func (r *Reader) U16() uint16 {
	if b := r.Take(2); b != nil {
		return le.Uint16(b)
	}
	return 0
}

func (r *Reader) U32() uint32 {
	if b := r.Take(4); b != nil {
		return le.Uint32(b)
	}
	return 0
}

// Str8 reads a uint8-length string.
func (r *Reader) Str8() string { return string(r.Take(uint64(r.U8()))) }

// F32s reads n float32 values.
func (r *Reader) F32s(n uint64) []float32 {
	b := r.Take(4 * n)
	if b == nil {
		return nil
	}
	out := make([]float32, n)
	for i := range out {
		out[i] = math.Float32frombits(le.Uint32(b[4*i:]))
	}
	return out
}

// Strings reads a string table of n entries in place: its offsets and blob,
// with every offset checked to rise strictly and stay inside the blob.
func (r *Reader) Strings(n uint64) (Table, error) {
	offsets := r.Take(4 * (n + 1))
	if offsets == nil {
		return Table{}, ErrSize
	}
	t := Table{offsets: offsets, blob: r.Take(uint64(le.Uint32(offsets[4*n:])))}
	if t.blob == nil {
		return Table{}, ErrSize
	}
	for i := range int(n) {
		if a, b := le.Uint32(offsets[4*i:]), le.Uint32(offsets[4*i+4:]); a >= b {
			return Table{}, ErrSize
		}
	}
	return t, nil
}

// Err is ErrSize after a read past the end, or when bytes are left over
// once the caller has read everything.
func (r *Reader) Err() error {
	if r.bad || r.p != len(r.body) {
		return ErrSize
	}
	return nil
}

// Table is a string table read in place.
type Table struct{ offsets, blob []byte }

// Len is the number of strings.
func (t Table) Len() int { return max(len(t.offsets)/4-1, 0) }

// Bytes returns string i without copying.
func (t Table) Bytes(i int) []byte {
	return t.blob[le.Uint32(t.offsets[4*i:]):le.Uint32(t.offsets[4*i+4:])]
}

// Raw writes bytes as they are.
func (w *Writer) Raw(b []byte) { w.b.Write(b) }

package embed

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"slices"
	"strings"
)

// Magic opens every model file; FormatVersion is the layout below.
const (
	Magic         = "EMBM"
	FormatVersion = 1
)

// ErrModel reports a model file that is truncated, corrupt or of another
// format version.
var ErrModel = errors.New("embed: bad model file")

// Word is one vocabulary entry given to [Encode]: a normalized word
// ([Normalize]), its pooling weight in 0..1 and its vector (any length
// but zero; Encode stores it unit-length).
type Word struct {
	Text   string
	Weight float32
	Vec    []float32
}

// Encode writes a model file (layout in the package doc). Words are sorted
// bytewise; a duplicate or empty word, a vector of the wrong length, a key
// that is not 1..255 bytes or a common vector of the wrong length is an error.
// The output depends only on the arguments.
func Encode(w io.Writer, key string, dims int, common []float32, words []Word) error {
	if key == "" || len(key) > 255 || strings.ContainsAny(key, "@\x00") {
		return fmt.Errorf("embed: model key %q must be 1..255 bytes without '@'", key)
	}
	if dims < 1 || dims > math.MaxUint16 {
		return fmt.Errorf("embed: dims %d out of range", dims)
	}
	if common == nil {
		common = make([]float32, dims)
	}
	if len(common) != dims {
		return fmt.Errorf("embed: common vector has %d dims, want %d", len(common), dims)
	}
	sorted := slices.Clone(words)
	slices.SortFunc(sorted, func(a, b Word) int { return strings.Compare(a.Text, b.Text) })
	for i, wd := range sorted {
		switch {
		case wd.Text == "":
			return errors.New("embed: empty word")
		case i > 0 && sorted[i-1].Text == wd.Text:
			return fmt.Errorf("embed: duplicate word %q", wd.Text)
		case len(wd.Vec) != dims:
			return fmt.Errorf("embed: word %q has %d dims, want %d", wd.Text, len(wd.Vec), dims)
		}
	}
	var b bytes.Buffer
	b.WriteString(Magic)
	le := binary.LittleEndian
	b.Write(le.AppendUint16(nil, FormatVersion))
	b.Write(le.AppendUint16(nil, uint16(dims)))
	b.Write(le.AppendUint32(nil, uint32(len(sorted))))
	b.Write(le.AppendUint32(nil, 0)) // flags
	b.WriteByte(byte(len(key)))
	b.WriteString(key)
	for _, x := range common {
		b.Write(le.AppendUint32(nil, math.Float32bits(x)))
	}
	off := uint32(0)
	b.Write(le.AppendUint32(nil, off))
	for _, wd := range sorted {
		off += uint32(len(wd.Text))
		b.Write(le.AppendUint32(nil, off))
	}
	for _, wd := range sorted {
		b.WriteString(wd.Text)
	}
	for _, wd := range sorted {
		b.WriteByte(byte(math.Round(float64(clamp01(wd.Weight)) * 255)))
	}
	q := make([]int8, dims)
	scales := make([]float32, len(sorted))
	rows := make([]byte, 0, len(sorted)*dims)
	for i, wd := range sorted {
		scales[i] = Quantize(q, wd.Vec)
		for _, x := range q {
			rows = append(rows, byte(x))
		}
	}
	for _, s := range scales {
		b.Write(le.AppendUint32(nil, math.Float32bits(s)))
	}
	b.Write(rows)
	b.Write(le.AppendUint32(nil, crc32.ChecksumIEEE(b.Bytes())))
	_, err := w.Write(b.Bytes())
	return err
}

// Quantize stores v, scaled to unit length, in q as int8 and returns the
// per-vector scale: v/|v| ≈ scale*q. A zero vector gives scale 0.
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

func clamp01(x float32) float32 {
	if !(x > 0) { // also NaN
		return 0
	}
	return min(x, 1)
}

// Model is a loaded model file. It keeps the file's bytes and reads words and
// vectors from them in place; it is safe for concurrent use.
type Model struct {
	key     string
	dims    int
	n       int
	common  []float32
	offsets []byte // (n+1) uint32
	words   []byte
	weights []byte
	scales  []float32
	rows    []byte // n*dims int8
}

// Load checks a model file (magic, version, sizes, checksum, word order) and
// returns the model over data, which must not change afterwards.
func Load(data []byte) (*Model, error) {
	le := binary.LittleEndian
	bad := func(format string, args ...any) (*Model, error) {
		return nil, fmt.Errorf("%w: "+format, append([]any{ErrModel}, args...)...)
	}
	if len(data) < 21 || string(data[:4]) != Magic {
		return bad("no %s header", Magic)
	}
	if v := le.Uint16(data[4:]); v != FormatVersion {
		return bad("format version %d, this reader knows %d", v, FormatVersion)
	}
	body := data[:len(data)-4]
	if crc32.ChecksumIEEE(body) != le.Uint32(data[len(data)-4:]) {
		return bad("checksum mismatch")
	}
	m := &Model{dims: int(le.Uint16(data[6:])), n: int(le.Uint32(data[8:]))}
	p := 16
	kl := int(data[p])
	p++
	if m.dims == 0 || kl == 0 || p+kl > len(body) {
		return bad("header")
	}
	m.key = string(data[p : p+kl])
	p += kl
	take := func(n int) []byte {
		if n < 0 || p+n > len(body) || p+n < p {
			return nil
		}
		s := body[p : p+n]
		p += n
		return s
	}
	cb := take(4 * m.dims)
	m.offsets = take(4 * (m.n + 1))
	if cb == nil || m.offsets == nil || m.n > len(body) {
		return bad("truncated")
	}
	m.common = make([]float32, m.dims)
	for i := range m.common {
		m.common[i] = math.Float32frombits(le.Uint32(cb[4*i:]))
	}
	m.words = take(int(le.Uint32(m.offsets[4*m.n:])))
	m.weights = take(m.n)
	sb := take(4 * m.n)
	m.rows = take(m.n * m.dims)
	if m.words == nil || m.weights == nil || sb == nil || m.rows == nil || p != len(body) {
		return bad("sizes do not add up")
	}
	m.scales = make([]float32, m.n)
	for i := range m.scales {
		m.scales[i] = math.Float32frombits(le.Uint32(sb[4*i:]))
	}
	prev := ""
	for i := range m.n {
		a, b := le.Uint32(m.offsets[4*i:]), le.Uint32(m.offsets[4*i+4:])
		if a >= b || int(b) > len(m.words) {
			return bad("word %d offsets", i)
		}
		w := string(m.words[a:b])
		if i > 0 && w <= prev {
			return bad("words not sorted at %q", w)
		}
		prev = w
	}
	return m, nil
}

// Key is the model key ("glove-cldr"); Name adds the dims ("glove-cldr@100"),
// the form responses report as `model`.
func (m *Model) Key() string  { return m.key }
func (m *Model) Name() string { return fmt.Sprintf("%s@%d", m.key, m.dims) }

// Dims is the length of every vector.
func (m *Model) Dims() int { return m.dims }

// Len is the number of words.
func (m *Model) Len() int { return m.n }

func (m *Model) word(i int) string { return string(m.wordBytes(i)) }

func (m *Model) wordBytes(i int) []byte {
	le := binary.LittleEndian
	return m.words[le.Uint32(m.offsets[4*i:]):le.Uint32(m.offsets[4*i+4:])]
}

// find returns the index of word w, or -1.
func (m *Model) find(w string) int {
	lo, hi := 0, m.n
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if string(m.wordBytes(mid)) < w { // compared without a copy
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo < m.n && string(m.wordBytes(lo)) == w {
		return lo
	}
	return -1
}

// Words lists the vocabulary in stored (sorted) order.
func (m *Model) Words() []string {
	out := make([]string, m.n)
	for i := range out {
		out[i] = m.word(i)
	}
	return out
}

// Lookup returns the unit vector and pooling weight of a normalized word.
func (m *Model) Lookup(word string) (vec []float32, weight float32, ok bool) {
	i := m.find(word)
	if i < 0 {
		return nil, 0, false
	}
	vec = make([]float32, m.dims)
	m.addRow(vec, i, 1)
	return vec, m.weight(i), true
}

func (m *Model) weight(i int) float32 { return float32(m.weights[i]) / 255 }

// addRow adds f times word i's vector to acc.
func (m *Model) addRow(acc []float32, i int, f float32) {
	s := m.scales[i] * f
	row := m.rows[i*m.dims : (i+1)*m.dims]
	for d, q := range row {
		acc[d] += float32(int8(q)) * s
	}
}

package embed

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/emojisearch/emojisearch/engine/internal/binfmt"
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
func Encode(out io.Writer, key string, dims int, common []float32, words []Word) error {
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
	w := binfmt.NewWriter(Magic)
	w.U16(FormatVersion)
	w.U16(uint16(dims))
	w.U32(uint32(len(sorted)))
	w.U32(0) // flags
	w.Str8(key)
	for _, x := range common {
		w.F32(x)
	}
	texts := make([]string, len(sorted))
	rows := make([][]float32, len(sorted))
	for i, wd := range sorted {
		texts[i], rows[i] = wd.Text, wd.Vec
	}
	w.Strings(texts)
	for _, wd := range sorted {
		w.U8(uint8(math.Round(float64(Clamp01(wd.Weight)) * 255)))
	}
	w.Rows(rows, dims)
	_, err := out.Write(w.Seal())
	return err
}

// Clamp01 clamps a weight, a cosine or a score to [0, 1]; NaN reads 0.
func Clamp01[F ~float32 | ~float64](x F) F {
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
	words   binfmt.Table
	weights []byte
	scales  []float32
	rows    []byte // n*dims int8
}

// Load checks a model file (magic, version, sizes, checksum, word order) and
// returns the model over data, which must not change afterwards.
func Load(data []byte) (*Model, error) {
	bad := func(err error) (*Model, error) { return nil, fmt.Errorf("%w: %w", ErrModel, err) }
	r, err := binfmt.Open(data, Magic)
	if err != nil {
		return bad(err)
	}
	if v := r.U16(); v != FormatVersion {
		return bad(fmt.Errorf("format version %d, this reader knows %d", v, FormatVersion))
	}
	m := &Model{dims: int(r.U16()), n: int(r.U32())}
	r.U32() // flags
	m.key = r.Str8()
	m.common = r.F32s(uint64(m.dims))
	if m.dims == 0 || m.key == "" || m.common == nil {
		return bad(binfmt.ErrSize)
	}
	if m.words, err = r.Strings(uint64(m.n)); err != nil {
		return bad(err)
	}
	m.weights = r.Take(uint64(m.n))
	m.scales = r.F32s(uint64(m.n))
	m.rows = r.Take(uint64(m.n) * uint64(m.dims))
	if err := r.Err(); err != nil {
		return bad(err)
	}
	for i := 1; i < m.n; i++ {
		if bytes.Compare(m.words.Bytes(i-1), m.words.Bytes(i)) >= 0 {
			return bad(fmt.Errorf("words not sorted at %q", m.words.Bytes(i)))
		}
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

func (m *Model) wordBytes(i int) []byte { return m.words.Bytes(i) }

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

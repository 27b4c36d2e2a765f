// Package vectors holds the vector files of the meaning tier and searches
// them: spec 3's decodeVectors, encodeVectors, l2normalize, searchVectors and
// searchVectorSets in Go. Pure Go; builds natively and for js/wasm.
//
//	en, err := vectors.DecodeVectors(enBytes) // vectors.glove-cldr.100.bin
//	es, err := vectors.DecodeVectors(esBytes) // vectors.glove-cldr.100.es.bin
//	top := vectors.SearchVectorSets([]*vectors.Index{en, es}, queryVec, 24)
//	// top[0].ID == "1F431" (hexcode), top[0].Score is the cosine
//
// # File layout (format version 1, little endian; packs/FORMAT.md "Vector files")
//
//	magic      4 bytes  "EMBV"
//	version    uint16   1
//	flags      uint16   0 (rows are int8 with a float32 scale per row)
//	dims       uint32   D
//	count      uint32   N rows
//	modelLen   uint8    M, then M bytes of model name "<model_key>@<D>"
//	offsets    (N+1) × uint32    id i is ids[offsets[i]:offsets[i+1]]
//	ids        offsets[N] bytes  emojibase hexcodes, unique, in pack order
//	scales     N × float32       unit row ≈ scale × int8 row
//	rows       N × D × int8
//	crc32      uint32   IEEE CRC of every byte before it
//
// Spec: shared/spec/3-client-library.md ("Emoji sets and vectors").
package vectors

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/emojisearch/emojisearch/engine/embed"
)

// Magic opens a vector file; FormatVersion is the layout in the package doc.
const (
	Magic         = "EMBV"
	FormatVersion = 1
)

// ErrVectors reports a vector file that is truncated, corrupt, of another
// format version or inconsistent.
var ErrVectors = errors.New("vectors: bad vector file")

// Index is a decoded vector file: one unit vector per emoji id. It is
// read-only and safe for concurrent use.
type Index struct {
	model  string
	dims   int
	ids    []string
	scales []float32
	unit   []float32 // rows dequantised once at decode: searching is float work only
}

// Model is the file's model name, "<model_key>@<dims>".
func (x *Index) Model() string { return x.model }

// Dims is the length of every row.
func (x *Index) Dims() int { return x.dims }

// Len is the number of rows.
func (x *Index) Len() int { return len(x.ids) }

// IDs lists the emoji ids in file order.
func (x *Index) IDs() []string { return append([]string(nil), x.ids...) }

// Row returns row i as a float32 vector (unit length within quantisation).
func (x *Index) Row(i int) []float32 {
	return append([]float32(nil), x.unit[i*x.dims:(i+1)*x.dims]...)
}

// EncodeVectors writes a vector file of model ("<model_key>@<dims>") for
// ids and their rows; rows are L2-normalized and quantised to int8 with a
// per-row scale. Ids must be unique and non-empty, every row dims long.
func EncodeVectors(w io.Writer, model string, ids []string, rows [][]float32) error {
	if len(ids) != len(rows) {
		return fmt.Errorf("vectors: %d ids for %d rows", len(ids), len(rows))
	}
	dims, err := modelDims(model)
	if err != nil {
		return err
	}
	seen := make(map[string]bool, len(ids))
	for i, id := range ids {
		switch {
		case id == "":
			return fmt.Errorf("vectors: empty id at %d", i)
		case seen[id]:
			return fmt.Errorf("vectors: duplicate id %q", id)
		case len(rows[i]) != dims:
			return fmt.Errorf("vectors: row %q has %d dims, model %s has %d", id, len(rows[i]), model, dims)
		}
		seen[id] = true
	}
	le := binary.LittleEndian
	var b bytes.Buffer
	b.WriteString(Magic)
	b.Write(le.AppendUint16(nil, FormatVersion))
	b.Write(le.AppendUint16(nil, 0))
	b.Write(le.AppendUint32(nil, uint32(dims)))
	b.Write(le.AppendUint32(nil, uint32(len(ids))))
	b.WriteByte(byte(len(model)))
	b.WriteString(model)
	off := uint32(0)
	b.Write(le.AppendUint32(nil, 0))
	for _, id := range ids {
		off += uint32(len(id))
		b.Write(le.AppendUint32(nil, off))
	}
	for _, id := range ids {
		b.WriteString(id)
	}
	q := make([]int8, dims)
	packed := make([]byte, 0, len(rows)*dims)
	for _, r := range rows {
		b.Write(le.AppendUint32(nil, math.Float32bits(embed.Quantize(q, r))))
		for _, x := range q {
			packed = append(packed, byte(x))
		}
	}
	b.Write(packed)
	b.Write(le.AppendUint32(nil, crc32.ChecksumIEEE(b.Bytes())))
	_, err = w.Write(b.Bytes())
	return err
}

// modelDims checks "<model_key>@<dims>" and returns dims.
func modelDims(model string) (int, error) {
	key, d, ok := strings.Cut(model, "@")
	dims, err := strconv.Atoi(d)
	if !ok || key == "" || err != nil || dims < 1 || dims > 1<<16 || len(model) > 255 {
		return 0, fmt.Errorf("vectors: model %q is not <model_key>@<dims>", model)
	}
	return dims, nil
}

// DecodeVectors checks a vector file (magic, version, sizes, checksum, model
// name, unique ids) and returns its index. The index keeps data.
func DecodeVectors(data []byte) (*Index, error) {
	bad := func(format string, args ...any) (*Index, error) {
		return nil, fmt.Errorf("%w: "+format, append([]any{ErrVectors}, args...)...)
	}
	le := binary.LittleEndian
	if len(data) < 21 || string(data[:4]) != Magic {
		return bad("no %s header", Magic)
	}
	if v := le.Uint16(data[4:]); v != FormatVersion {
		return bad("format version %d, this reader knows %d", v, FormatVersion)
	}
	if f := le.Uint16(data[6:]); f != 0 {
		return bad("unknown flags %#x", f)
	}
	body := data[:len(data)-4]
	if crc32.ChecksumIEEE(body) != le.Uint32(data[len(data)-4:]) {
		return bad("checksum mismatch")
	}
	dims, n := le.Uint32(data[8:]), le.Uint32(data[12:])
	p := 16
	take := func(size uint64) []byte {
		if size > uint64(len(body)-p) {
			return nil
		}
		s := body[p : p+int(size)]
		p += int(size)
		return s
	}
	ml := int(data[p])
	p++
	model := take(uint64(ml))
	if model == nil {
		return bad("truncated model name")
	}
	md, err := modelDims(string(model))
	if err != nil || md != int(dims) {
		return bad("model %q does not match %d dims", model, dims)
	}
	offsets := take(4 * (uint64(n) + 1))
	if offsets == nil {
		return bad("truncated offsets")
	}
	ids := take(uint64(le.Uint32(offsets[4*n:])))
	scales := take(4 * uint64(n))
	rows := take(uint64(n) * uint64(dims))
	if ids == nil || scales == nil || rows == nil || p != len(body) {
		return bad("sizes do not add up")
	}
	x := &Index{model: string(model), dims: int(dims), ids: make([]string, n), scales: make([]float32, n)}
	seen := make(map[string]bool, n)
	for i := range x.ids {
		a, b := le.Uint32(offsets[4*i:]), le.Uint32(offsets[4*i+4:])
		if a >= b || int(b) > len(ids) {
			return bad("id %d offsets", i)
		}
		id := string(ids[a:b])
		if seen[id] {
			return bad("duplicate id %q", id)
		}
		seen[id] = true
		x.ids[i] = id
		s := math.Float32frombits(le.Uint32(scales[4*i:]))
		if math.IsNaN(float64(s)) || math.IsInf(float64(s), 0) || s < 0 {
			return bad("row %d scale %v", i, s)
		}
		x.scales[i] = s
	}
	x.unit = make([]float32, len(rows))
	for i := range x.ids {
		s := x.scales[i]
		for d, q := range rows[i*x.dims : (i+1)*x.dims] {
			x.unit[i*x.dims+d] = float32(int8(q)) * s
		}
	}
	return x, nil
}

// L2Normalize returns v scaled to unit length (a new slice); a zero or
// non-finite vector gives zeros.
func L2Normalize(v []float32) []float32 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	out := make([]float32, len(v))
	if s == 0 || math.IsNaN(s) || math.IsInf(s, 0) {
		return out
	}
	f := 1 / math.Sqrt(s)
	for i, x := range v {
		out[i] = float32(float64(x) * f)
	}
	return out
}

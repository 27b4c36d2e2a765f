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
//	flags      uint16   rows are int8 with a float32 scale per row; bit 0
//	                    (FlagMultiRow): an id may have several rows, consecutive
//	                    (one per phrase of the emoji); other bits are zero
//	dims       uint32   D
//	count      uint32   N rows
//	modelLen   uint8    M, then M bytes of model name "<model_key>@<D>"
//	offsets    (N+1) × uint32    id i is ids[offsets[i]:offsets[i+1]]
//	ids        offsets[N] bytes  emojibase hexcodes in pack order, unique unless
//	                             FlagMultiRow (then each id's rows are consecutive)
//	scales     N × float32       unit row ≈ scale × int8 row
//	rows       N × D × int8
//	crc32      uint32   IEEE CRC of every byte before it
//
// Spec: shared/spec/3-client-library.md ("Emoji sets and vectors").
package vectors

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/emojisearch/emojisearch/engine/internal/binfmt"
)

// Magic opens a vector file; FormatVersion is the layout in the package doc.
const (
	Magic         = "EMBV"
	FormatVersion = 1
)

// FlagMultiRow marks a file whose emoji may have several rows (one per
// phrase: name, each keyword, ...), each id's rows consecutive; a search
// scores an emoji by its best row. EncodeVectors sets it when ids repeat, so
// a file of one row per emoji is unchanged.
const FlagMultiRow = 1

// ErrVectors reports a vector file that is truncated, corrupt, of another
// format version or inconsistent.
var ErrVectors = errors.New("vectors: bad vector file")

// Index is a decoded vector file: unit vectors of emoji ids (one per id, or
// several with FlagMultiRow). It is read-only and safe for concurrent use.
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

// IDs lists the id of every row in file order (an id repeats for each of
// its rows in a multi-row file).
func (x *Index) IDs() []string { return append([]string(nil), x.ids...) }

// Row returns row i as a float32 vector (unit length within quantisation).
func (x *Index) Row(i int) []float32 {
	return append([]float32(nil), x.unit[i*x.dims:(i+1)*x.dims]...)
}

// EncodeVectors writes a vector file of model ("<model_key>@<dims>") for
// ids and their rows; rows are L2-normalized and quantised to int8 with a
// per-row scale. Ids must be non-empty and every row dims long; an id may
// repeat only on consecutive rows (several rows of one emoji: the file gets
// FlagMultiRow).
func EncodeVectors(out io.Writer, model string, ids []string, rows [][]float32) error {
	if len(ids) != len(rows) {
		return fmt.Errorf("vectors: %d ids for %d rows", len(ids), len(rows))
	}
	dims, err := modelDims(model)
	if err != nil {
		return err
	}
	seen := make(map[string]bool, len(ids))
	var flags uint16
	for i, id := range ids {
		switch {
		case id == "":
			return fmt.Errorf("vectors: empty id at %d", i)
		case i > 0 && id == ids[i-1]:
			flags = FlagMultiRow
		case seen[id]:
			return fmt.Errorf("vectors: duplicate id %q (an id's rows must be consecutive)", id)
		}
		if len(rows[i]) != dims {
			return fmt.Errorf("vectors: row %q has %d dims, model %s has %d", id, len(rows[i]), model, dims)
		}
		seen[id] = true
	}
	w := binfmt.NewWriter(Magic)
	w.U16(FormatVersion)
	w.U16(flags)
	w.U32(uint32(dims))
	w.U32(uint32(len(ids)))
	w.Str8(model)
	w.Strings(ids)
	w.Rows(rows, dims)
	_, err = out.Write(w.Seal())
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
// name, ids unique, or with FlagMultiRow each id's rows consecutive) and
// returns its index. The index keeps data.
func DecodeVectors(data []byte) (*Index, error) {
	bad := func(err error) (*Index, error) { return nil, fmt.Errorf("%w: %w", ErrVectors, err) }
	r, err := binfmt.Open(data, Magic)
	if err != nil {
		return bad(err)
	}
	if v := r.U16(); v != FormatVersion {
		return bad(fmt.Errorf("format version %d, this reader knows %d", v, FormatVersion))
	}
	flags := r.U16()
	if flags&^FlagMultiRow != 0 {
		return bad(fmt.Errorf("unknown flags %#x", flags))
	}
	dims, n := r.U32(), r.U32()
	model := r.Str8()
	if md, err := modelDims(model); err != nil || uint32(md) != dims {
		return bad(fmt.Errorf("model %q does not match %d dims", model, dims))
	}
	ids, err := r.Strings(uint64(n))
	if err != nil {
		return bad(err)
	}
	scales := r.F32s(uint64(n))
	rows := r.Take(uint64(n) * uint64(dims))
	if err := r.Err(); err != nil {
		return bad(err)
	}
	x := &Index{model: model, dims: int(dims), ids: make([]string, n), scales: scales, unit: make([]float32, len(rows))}
	seen := make(map[string]bool, n)
	for i := range x.ids {
		if raw := ids.Bytes(i); i > 0 && flags&FlagMultiRow != 0 && string(raw) == x.ids[i-1] {
			x.ids[i] = x.ids[i-1] // another row of the same emoji: share the string
		} else {
			id := string(raw)
			if seen[id] {
				return bad(fmt.Errorf("duplicate id %q", id))
			}
			seen[id] = true
			x.ids[i] = id
		}
		s := scales[i]
		if math.IsNaN(float64(s)) || math.IsInf(float64(s), 0) || s < 0 {
			return bad(fmt.Errorf("row %d scale %v", i, s))
		}
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

package imagefeat

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sort"
)

// Index is a set of emoji artwork features: the nearest-emoji search of
// hostsim's local vision model. File format (".evis", little endian):
// "EVIS" magic, uint16 version 1, uint16 Dims, uint32 count, then per
// entry a uint8 length, the emoji's UTF-8 bytes and its Dims feature bytes.
type Index struct {
	Emoji []string
	Vecs  []Vector
}

var magic = []byte("EVIS")

// ErrIndex wraps every reason an index file cannot be read.
var ErrIndex = errors.New("imagefeat: bad index file")

// Write encodes the index.
func (x *Index) Write(w io.Writer) error {
	var b bytes.Buffer
	b.Write(magic)
	_ = binary.Write(&b, binary.LittleEndian, uint16(1))
	_ = binary.Write(&b, binary.LittleEndian, uint16(Dims))
	_ = binary.Write(&b, binary.LittleEndian, uint32(len(x.Emoji)))
	for i, e := range x.Emoji {
		if len(e) == 0 || len(e) > 255 {
			return fmt.Errorf("imagefeat: emoji %q cannot be stored", e)
		}
		b.WriteByte(byte(len(e)))
		b.WriteString(e)
		b.Write(x.Vecs[i][:])
	}
	_, err := w.Write(b.Bytes())
	return err
}

// Read decodes an index file.
func Read(data []byte) (*Index, error) {
	if len(data) < 12 || !bytes.Equal(data[:4], magic) {
		return nil, fmt.Errorf("%w: no EVIS header", ErrIndex)
	}
	if v := binary.LittleEndian.Uint16(data[4:]); v != 1 {
		return nil, fmt.Errorf("%w: version %d", ErrIndex, v)
	}
	if d := binary.LittleEndian.Uint16(data[6:]); d != Dims {
		return nil, fmt.Errorf("%w: %d dims, this build reads %d", ErrIndex, d, Dims)
	}
	n := int(binary.LittleEndian.Uint32(data[8:]))
	p := data[12:]
	x := &Index{}
	for range n {
		if len(p) < 1 || len(p) < 1+int(p[0])+Dims {
			return nil, fmt.Errorf("%w: truncated", ErrIndex)
		}
		l := int(p[0])
		x.Emoji = append(x.Emoji, string(p[1:1+l]))
		var v Vector
		copy(v[:], p[1+l:1+l+Dims])
		x.Vecs = append(x.Vecs, v)
		p = p[1+l+Dims:]
	}
	return x, nil
}

// Match is an emoji of the index with its distance to a query.
type Match struct {
	Emoji    string
	Distance int
}

// Nearest returns the k entries nearest to v, nearest first.
func (x *Index) Nearest(v *Vector, k int) []Match {
	ms := make([]Match, len(x.Emoji))
	for i := range x.Vecs {
		ms[i] = Match{x.Emoji[i], Distance(v, &x.Vecs[i])}
	}
	sort.SliceStable(ms, func(a, b int) bool { return ms[a].Distance < ms[b].Distance })
	return ms[:min(k, len(ms))]
}

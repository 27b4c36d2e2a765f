package packs

import (
	"encoding/binary"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/engine"
	"github.com/emojisearch/emojisearch/engine/packfmt"
)

var terms = TermRules{Stem: engine.Stem, Unspaced: engine.IsUnspaced}

// readDevice returns the directory of a device index and the values of its
// stored sections (raw or delta-encoded, and the term lists with their
// value offsets; nil otherwise), the reader's work for every encoding but
// the rebuilt ones.
func readDevice(t *testing.T, b []byte) (dir [][3]int, vals [][]uint32) {
	require.Equal(t, DeviceMagic, string(b[:8]))
	require.EqualValues(t, 48, binary.LittleEndian.Uint16(b[12:]))
	at := 14 + 480
	for i := range 48 {
		d := b[14+10*i:]
		w, enc, count, n := int(d[0]), int(d[1]), int(binary.LittleEndian.Uint32(d[2:])), int(binary.LittleEndian.Uint32(d[6:]))
		dir = append(dir, [3]int{w, enc, count})
		body := b[at : at+n]
		var v []uint32
		switch enc {
		case devRaw:
			for j := range count {
				v = append(v, uintN(body[j*w:], w))
			}
		case devDelta, devStemOf, devListAt:
			v = unzig(t, body)
			require.Len(t, v, count)
		case devLists: // each term's list from where 24 says it starts; 24 becomes the value offsets
			at, off := vals[secTermOff], []uint32{0}
			for j := 0; j+1 < len(at); j++ {
				v = append(v, unzig(t, body[at[j]:at[j+1]])...)
				off = append(off, uint32(len(v)))
			}
			require.Len(t, v, count)
			vals[secTermOff] = off
		}
		vals = append(vals, v)
		at += n
	}
	require.Equal(t, len(b), at, "the sections fill the file")
	return dir, vals
}

// unzig is the values of zigzag delta varints, the first from 0.
func unzig(t *testing.T, body []byte) (v []uint32) {
	prev := int64(0)
	for len(body) > 0 {
		u, k := binary.Uvarint(body)
		require.Positive(t, k)
		body = body[k:]
		prev += int64(u>>1) ^ -int64(u&1)
		v = append(v, uint32(prev))
	}
	return v
}

// TestCompactIndex: every section the device index stores decodes to the
// index's values, the dropped ones are empty, and the term stems name the
// stem table's keys as the engine stems the terms.
func TestCompactIndex(t *testing.T) {
	files, err := Build(fixture(), "test1", []string{"en", "tr"}, indexer)
	require.NoError(t, err)
	byName := map[string][]byte{}
	for _, f := range files {
		byName[f.Name] = f.Data
	}
	for _, loc := range []string{"en", "tr"} {
		dev := byName[packfmt.DeviceIndexFile(loc)]
		require.NotNil(t, dev, loc)
		// The device index is compacted from the locale's main index with
		// the editorial phrases (none in the fixture): index.<locale>.bin.
		idx := byName[packfmt.IndexFile(loc)]
		again, err := CompactIndex(idx, terms)
		require.NoError(t, err)
		assert.Equal(t, dev, again, loc)
		assert.Less(t, len(dev), len(idx), loc)
		dir, vals := readDevice(t, dev)
		for i, d := range dir {
			e := idx[16+12*i:]
			w, count, off := int(e[0]), int(binary.LittleEndian.Uint32(e[4:])), int(binary.LittleEndian.Uint32(e[8:]))
			assert.Equal(t, w, d[0], "width %d", i)
			switch enc := d[1]; enc {
			case devDropped:
				assert.Zero(t, d[2], "section %d dropped", i)
			case devRaw, devDelta, devListAt, devLists:
				want := make([]uint32, count)
				for j := range want {
					want[j] = uintN(idx[off+j*w:], w)
				}
				assert.Equal(t, want, append([]uint32{}, vals[i]...), "section %d", i)
			case devSlots:
				assert.Equal(t, count, d[2], "slots %d", i)
			case devStemOf:
				keys := func(sec int) []string {
					var out []string
					for k := 0; k+1 < len(vals[sec]); k++ {
						out = append(out, string(rawSection(idx, sec+1)[vals[sec][k]:vals[sec][k+1]]))
					}
					return out
				}
				tk, sk := keys(secTermKeys), keys(secStemKeys)
				require.Len(t, vals[i], len(tk))
				for j, term := range tk {
					if engine.IsUnspaced(term) {
						assert.Zero(t, vals[i][j], term)
						continue
					}
					assert.Equal(t, engine.Stem(term), sk[vals[i][j]-1], term)
				}
			}
		}
	}
}

// rawSection is section i of a binary index as bytes.
func rawSection(idx []byte, i int) []byte {
	e := idx[16+12*i:]
	w, count, off := int(e[0]), int(binary.LittleEndian.Uint32(e[4:])), int(binary.LittleEndian.Uint32(e[8:]))
	return idx[off : off+w*count]
}

func TestCompactIndexRefuses(t *testing.T) {
	files, err := Build(fixture(), "test1", []string{"en"}, indexer)
	require.NoError(t, err)
	var idx []byte
	for _, f := range files {
		if f.Name == packfmt.IndexFile("en") {
			idx = f.Data
		}
	}
	require.NotNil(t, idx)
	_, err = CompactIndex([]byte("not an index at all"), terms)
	require.ErrorIs(t, err, ErrDeviceIndex)
	_, err = CompactIndex(idx[:len(idx)/2], terms)
	require.ErrorIs(t, err, ErrDeviceIndex, "sections past the end")
	// Rules other than the engine's: the stems the file would name are not
	// the index's, and the build fails instead of writing a wrong file.
	_, err = CompactIndex(idx, TermRules{Stem: strings.ToUpper, Unspaced: engine.IsUnspaced})
	require.ErrorIs(t, err, ErrDeviceIndex)
}

// TestTermLists: each term's list is encoded on its own from where the
// offsets say, and offsets out of order or past the postings are refused.
func TestTermLists(t *testing.T) {
	lists, at, err := termLists([]uint32{0, 2, 2, 3}, []uint32{5, 9, 4})
	require.NoError(t, err)
	assert.Equal(t, []uint32{0, 2, 2, 3}, at)
	assert.Equal(t, []byte{10, 8, 8}, lists, "5, +4; none; 4 from 0")
	for _, off := range [][]uint32{{0, 2, 1, 3}, {0, 4}} {
		_, _, err = termLists(off, []uint32{5, 9, 4})
		require.ErrorIs(t, err, ErrDeviceIndex, off)
	}
}

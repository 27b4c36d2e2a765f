package binfmt_test

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/engine/internal/binfmt"
)

func sample() []byte {
	w := binfmt.NewWriter("TEST")
	w.U16(7)
	w.U32(2)
	w.Str8("key")
	w.F32(1.5)
	w.Strings([]string{"ab", "c"})
	w.Rows([][]float32{{3, 4}, {0, 0}}, 2)
	return w.Seal()
}

func TestRoundTrip(t *testing.T) {
	r, err := binfmt.Open(sample(), "TEST")
	require.NoError(t, err)
	assert.Equal(t, uint16(7), r.U16())
	n := r.U32()
	assert.Equal(t, "key", r.Str8())
	assert.Equal(t, []float32{1.5}, r.F32s(1))
	tab, err := r.Strings(uint64(n))
	require.NoError(t, err)
	assert.Equal(t, 2, tab.Len())
	assert.Equal(t, "c", string(tab.Bytes(1)))
	scales := r.F32s(2)
	rows := r.Take(4)
	require.NoError(t, r.Err())
	assert.InDelta(t, 0.6, float64(scales[0])*float64(int8(rows[0])), 0.01)
	assert.InDelta(t, 0.8, float64(scales[0])*float64(int8(rows[1])), 0.01)
	assert.Equal(t, float32(0), scales[1], "a zero row has scale 0")
}

func TestOpenAndReadErrors(t *testing.T) {
	good := sample()
	tests := []struct {
		name string
		data []byte
		want error
	}{
		{"empty", nil, binfmt.ErrMagic},
		{"other magic", append([]byte("XXXX"), good[4:]...), binfmt.ErrMagic},
		{"damaged", func() []byte { b := bytes.Clone(good); b[9] ^= 1; return b }(), binfmt.ErrChecksum},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := binfmt.Open(tc.data, "TEST")
			assert.ErrorIs(t, err, tc.want)
		})
	}
	r, err := binfmt.Open(good, "TEST")
	require.NoError(t, err)
	assert.Nil(t, r.Take(1<<40), "past the end")
	assert.Equal(t, uint32(0), r.U32())
	assert.ErrorIs(t, r.Err(), binfmt.ErrSize)

	w := binfmt.NewWriter("TEST")
	w.Strings([]string{"a", "b"})
	data := w.Seal()
	data[8] = 0 // second offset 1 -> 0: not rising
	data = resealed(data)
	r, err = binfmt.Open(data, "TEST")
	require.NoError(t, err)
	_, err = r.Strings(2)
	assert.ErrorIs(t, err, binfmt.ErrSize)
}

// resealed recomputes the checksum of a damaged file.
func resealed(data []byte) []byte {
	w := binfmt.NewWriter("")
	w.Raw(data[:len(data)-4])
	return w.Seal()
}

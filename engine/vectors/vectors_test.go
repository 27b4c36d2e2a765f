package vectors_test

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/engine/vectors"
)

func randomRows(seed uint64, n, dims int) ([]string, [][]float32) {
	r := rand.New(rand.NewPCG(seed, 1))
	ids := make([]string, n)
	rows := make([][]float32, n)
	for i := range rows {
		ids[i] = fmt.Sprintf("%04X", 0x1F300+i)
		rows[i] = make([]float32, dims)
		for d := range rows[i] {
			rows[i][d] = float32(r.NormFloat64())
		}
	}
	return ids, rows
}

func encode(t testing.TB, model string, ids []string, rows [][]float32) []byte {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, vectors.EncodeVectors(&b, model, ids, rows))
	return b.Bytes()
}

func cosine(a, b []float32) float32 {
	var d float64
	a, b = vectors.L2Normalize(a), vectors.L2Normalize(b)
	for i := range a {
		d += float64(a[i]) * float64(b[i])
	}
	return float32(d)
}

func TestRoundTrip(t *testing.T) {
	ids, rows := randomRows(1, 300, 16)
	data := encode(t, "test@16", ids, rows)
	assert.Equal(t, data, encode(t, "test@16", ids, rows), "deterministic")
	x, err := vectors.DecodeVectors(data)
	require.NoError(t, err)
	assert.Equal(t, "test@16", x.Model())
	assert.Equal(t, 16, x.Dims())
	assert.Equal(t, ids, x.IDs())
	for i, r := range rows {
		assert.InDeltaSlice(t, vectors.L2Normalize(r), x.Row(i), 0.01, ids[i])
	}
}

func TestEncodeErrors(t *testing.T) {
	v := []float32{1, 0}
	tests := []struct {
		name  string
		model string
		ids   []string
		rows  [][]float32
	}{
		{"no dims in model", "glove", []string{"A"}, [][]float32{v}},
		{"dims not a number", "glove@x", []string{"A"}, [][]float32{v}},
		{"count mismatch", "m@2", []string{"A", "B"}, [][]float32{v}},
		{"wrong dims", "m@3", []string{"A"}, [][]float32{v}},
		{"empty id", "m@2", []string{""}, [][]float32{v}},
		{"duplicate id, not consecutive", "m@2", []string{"A", "B", "A"}, [][]float32{v, v, v}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Error(t, vectors.EncodeVectors(&bytes.Buffer{}, tc.model, tc.ids, tc.rows))
		})
	}
}

func TestDecodeRejectsBadFiles(t *testing.T) {
	ids, rows := randomRows(2, 10, 4)
	good := encode(t, "m@4", ids, rows)
	flip := func(i int) []byte { b := bytes.Clone(good); b[i] ^= 0x55; return b }
	tests := []struct {
		name string
		data []byte
	}{
		{"empty", nil},
		{"short", good[:12]},
		{"magic", append([]byte("EMBM"), good[4:]...)},
		{"version", flip(4)},
		{"flags", flip(6)},
		{"truncated", good[:len(good)-5]},
		{"body byte", flip(len(good) / 2)},
		{"checksum", flip(len(good) - 2)},
		{"trailing bytes", append(bytes.Clone(good), 0, 0, 0, 0)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := vectors.DecodeVectors(tc.data)
			assert.ErrorIs(t, err, vectors.ErrVectors)
		})
	}
	for i := range 300 { // any truncation or single-byte damage: an error, never a panic
		b := flip(rand.IntN(len(good)))
		require.NotPanics(t, func() { _, _ = vectors.DecodeVectors(b[:rand.IntN(len(b)+1)]) }, i)
	}
}

func TestL2Normalize(t *testing.T) {
	tests := []struct {
		name string
		in   []float32
		want []float32
	}{
		{"unit", []float32{3, 4}, []float32{0.6, 0.8}},
		{"zero", []float32{0, 0}, []float32{0, 0}},
		{"nan", []float32{float32(math.NaN()), 1}, []float32{0, 0}},
		{"empty", nil, []float32{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.InDeltaSlice(t, tc.want, vectors.L2Normalize(tc.in), 1e-6)
		})
	}
}

// oracle scores every row exactly (float64, unquantised) and sorts.
func oracle(ids []string, rows [][]float32, q []float32) []vectors.Match {
	out := make([]vectors.Match, len(ids))
	for i := range ids {
		out[i] = vectors.Match{ID: ids[i], Score: cosine(rows[i], q)}
	}
	slices.SortStableFunc(out, func(a, b vectors.Match) int {
		switch {
		case a.Score > b.Score:
			return -1
		case a.Score < b.Score:
			return 1
		}
		return 0
	})
	return out
}

func TestSearchVectorsAgainstOracle(t *testing.T) {
	ids, rows := randomRows(3, 500, 32)
	x, err := vectors.DecodeVectors(encode(t, "m@32", ids, rows))
	require.NoError(t, err)
	r := rand.New(rand.NewPCG(9, 9))
	for trial := range 20 {
		q := make([]float32, 32)
		for d := range q {
			q[d] = float32(r.NormFloat64())
		}
		got := vectors.SearchVectors(x, q, 10)
		want := oracle(ids, rows, q)
		require.Len(t, got, 10)
		for i := range got {
			assert.InDelta(t, want[i].Score, got[i].Score, 0.02, "trial %d rank %d", trial, i)
		}
		assert.Equal(t, want[0].ID, got[0].ID, "trial %d best", trial)
	}
}

func TestSearchEdgeCases(t *testing.T) {
	ids, rows := randomRows(4, 5, 4)
	x, err := vectors.DecodeVectors(encode(t, "m@4", ids, rows))
	require.NoError(t, err)
	tests := []struct {
		name  string
		query []float32
		k     int
		n     int
	}{
		{"k over rows", rows[0], 50, 5},
		{"k zero", rows[0], 0, 0},
		{"zero query", []float32{0, 0, 0, 0}, 3, 0},
		{"wrong dims", []float32{1, 0}, 3, 0},
		{"nil query", nil, 3, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Len(t, vectors.SearchVectors(x, tc.query, tc.k), tc.n)
		})
	}
	assert.Equal(t, ids[2], vectors.SearchVectors(x, rows[2], 1)[0].ID, "a row finds itself")
}

func TestSearchVectorSetsKeepsBestRow(t *testing.T) {
	en, err := vectors.DecodeVectors(encode(t, "m@2", []string{"A", "B", "C"},
		[][]float32{{1, 0}, {0, 1}, {-1, 0}}))
	require.NoError(t, err)
	loc, err := vectors.DecodeVectors(encode(t, "m@2", []string{"C", "D"},
		[][]float32{{0.9, 0.1}, {0.5, 0.5}}))
	require.NoError(t, err)
	other, err := vectors.DecodeVectors(encode(t, "m@3", []string{"E"}, [][]float32{{1, 0, 0}}))
	require.NoError(t, err)

	got := vectors.SearchVectorSets([]*vectors.Index{en, loc, other, nil}, []float32{1, 0}, 10)
	var order []string
	for _, m := range got {
		order = append(order, m.ID)
	}
	assert.Equal(t, []string{"A", "C", "D", "B"}, order, "C takes its locale row; E (other dims) and nil are skipped")
	assert.InDelta(t, cosine([]float32{0.9, 0.1}, []float32{1, 0}), got[1].Score, 0.01)
}

func FuzzDecodeVectors(f *testing.F) {
	ids, rows := randomRows(5, 3, 4)
	f.Add(encode(f, "m@4", ids, rows))
	f.Add([]byte("EMBV"))
	f.Fuzz(func(t *testing.T, data []byte) {
		x, err := vectors.DecodeVectors(data)
		if err == nil {
			vectors.SearchVectors(x, make([]float32, x.Dims()), 3)
		}
	})
}

// TestMultiRow: an id may have several consecutive rows (FlagMultiRow, set
// by EncodeVectors only then); a search scores each emoji by its best row
// and lists it once.
func TestMultiRow(t *testing.T) {
	ids := []string{"A", "A", "A", "B", "C", "C"}
	rows := [][]float32{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 0}, {-1, 0, 0}, {0, -1, 1}}
	b := encode(t, "m@3", ids, rows)
	assert.Equal(t, byte(vectors.FlagMultiRow), b[6], "flags")
	x, err := vectors.DecodeVectors(b)
	require.NoError(t, err)
	assert.Equal(t, 6, x.Len())
	assert.Equal(t, ids, x.IDs())
	got := vectors.SearchVectors(x, []float32{0, 0, 1}, 3)
	require.Len(t, got, 3)
	assert.Equal(t, "A", got[0].ID)
	assert.InDelta(t, 1, got[0].Score, 0.01, "A's third row")
	assert.Equal(t, "C", got[1].ID)
	assert.InDelta(t, 0.707, got[1].Score, 0.01)
	assert.Equal(t, "B", got[2].ID)

	one := encode(t, "m@3", []string{"A", "B"}, rows[:2])
	assert.Equal(t, byte(0), one[6], "one row per id: flags stay 0")

	// With the flag set, a repeated id that is not consecutive is refused.
	bad := encode(t, "m@3", []string{"A", "A", "B"}, rows[:3])
	i := bytes.Index(bad, []byte("AAB"))
	require.Positive(t, i)
	bad[i+2] = 'A'
	bad[i+1] = 'B' // A B A
	_, err = vectors.DecodeVectors(bad)
	assert.ErrorIs(t, err, vectors.ErrVectors) // checksum or duplicate: refused either way
}

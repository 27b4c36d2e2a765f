package meaning

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rowsRunner answers RunRows with fixed rows; Run must not be used when
// RunRows is there.
type rowsRunner struct {
	data [][]float64
	err  error
	runs int
}

func (r *rowsRunner) Run(context.Context, string, any, any) error {
	r.runs++
	return errors.New("Run called")
}

func (r *rowsRunner) RunRows(_ context.Context, model string, inputs any) ([][]float64, error) {
	if model != "@cf/baai/bge-m3" || inputs.(map[string]any)["text"] == nil {
		return nil, errors.New("wrong call")
	}
	return r.data, r.err
}

// The rows path keeps every check of the JSON path: one finite row per
// text, all of one width, and the backend's failure is ErrBackend.
func TestBindingRunRows(t *testing.T) {
	cases := []struct {
		name  string
		texts []string
		data  [][]float64
		err   error
		want  [][]float32
		fails bool
	}{
		{name: "one row", texts: []string{"a"}, data: [][]float64{{0.5, -0.25}}, want: [][]float32{{0.5, -0.25}}},
		{name: "two rows", texts: []string{"a", "b"}, data: [][]float64{{1, 0}, {0, 1}}, want: [][]float32{{1, 0}, {0, 1}}},
		{name: "backend error", texts: []string{"a"}, err: errors.New("capacity"), fails: true},
		{name: "too few rows", texts: []string{"a", "b"}, data: [][]float64{{1, 0}}, fails: true},
		{name: "no rows", texts: []string{"a"}, fails: true},
		{name: "ragged", texts: []string{"a", "b"}, data: [][]float64{{1, 0}, {1}}, fails: true},
		{name: "empty row", texts: []string{"a"}, data: [][]float64{{}}, fails: true},
		{name: "NaN", texts: []string{"a"}, data: [][]float64{{math.NaN(), 1}}, fails: true},
		{name: "infinity", texts: []string{"a"}, data: [][]float64{{math.Inf(1), 1}}, fails: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := &rowsRunner{data: tc.data, err: tc.err}
			got, err := Binding{AI: r, Model: "@cf/baai/bge-m3"}.Embed(context.Background(), tc.texts)
			assert.Zero(t, r.runs)
			if tc.fails {
				require.ErrorIs(t, err, ErrBackend)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

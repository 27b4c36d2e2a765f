package store

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNormalize(t *testing.T) {
	got, err := Normalize([]any{nil, "s", []byte{1}, true, false, 3, int64(-4), int32(5), uint32(6), float32(0.5), 1.25})
	require.NoError(t, err)
	assert.Equal(t, []any{nil, "s", []byte{1}, 1.0, 0.0, 3.0, -4.0, 5.0, 6.0, 0.5, 1.25}, got)

	for _, bad := range []any{int64(1) << 53, -(int64(1) << 53), uint64(1), struct{}{}, []string{"x"}} {
		_, err := Normalize([]any{bad})
		assert.ErrorIs(t, err, ErrBind, "%#v", bad)
	}
	_, err = Normalize([]any{int64(1)<<53 - 1})
	assert.NoError(t, err)
}

func TestRowReaders(t *testing.T) {
	var r Row
	require.NoError(t, json.Unmarshal([]byte(`{"i": 12, "f": 1.5, "s": "x", "n": null, "big": 1e300}`), &r))
	i, err := r.Int("i")
	require.NoError(t, err)
	assert.Equal(t, int64(12), i)
	for _, col := range []string{"f", "s", "big"} {
		_, err := r.Int(col)
		assert.Error(t, err, col)
	}
	i, err = r.Int("n")
	require.NoError(t, err)
	assert.Zero(t, i)
	s, err := r.String("s")
	require.NoError(t, err)
	assert.Equal(t, "x", s)
	s, err = r.String("missing")
	require.NoError(t, err)
	assert.Empty(t, s)
	_, err = r.String("i")
	assert.Error(t, err)

	var v struct {
		I int64   `json:"i"`
		N *string `json:"n"`
	}
	require.NoError(t, Decode(r, &v))
	assert.Equal(t, int64(12), v.I)
	assert.Nil(t, v.N)
}

func TestResultStrings(t *testing.T) {
	rows := func(js ...string) Result {
		var res Result
		for _, j := range js {
			var r Row
			require.NoError(t, json.Unmarshal([]byte(j), &r))
			res.Rows = append(res.Rows, r)
		}
		return res
	}
	got, err := rows(`{"k": "b"}`, `{"k": null}`, `{"k": "a"}`).Strings("k")
	require.NoError(t, err)
	assert.Equal(t, []string{"b", "", "a"}, got, "row order, NULL as empty")
	got, err = rows().Strings("k")
	require.NoError(t, err)
	assert.Empty(t, got)
	_, err = rows(`{"k": "a"}`, `{"k": 1}`).Strings("k")
	assert.Error(t, err, "a number is not text")
}

func TestConstraintError(t *testing.T) {
	u := &ConstraintError{Unique: true, Err: assert.AnError}
	assert.ErrorIs(t, u, ErrUnique)
	assert.ErrorIs(t, u, ErrConstraint)
	assert.ErrorIs(t, u, assert.AnError)
	c := &ConstraintError{Err: assert.AnError}
	assert.ErrorIs(t, c, ErrConstraint)
	assert.NotErrorIs(t, c, ErrUnique)
}

package engine

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestResultSlab: the slices of one block never overlap, an append by a
// caller copies instead of writing into the next slice, and an empty answer
// is encoded as [].
func TestResultSlab(t *testing.T) {
	var s resultSlab
	a := append(s.take(2), Result{ID: "a1"}, Result{ID: "a2"})
	b := append(s.take(3), Result{ID: "b1"})
	require.Equal(t, 2, cap(a))
	a = append(a, Result{ID: "a3"}) // over its capacity: a copy
	assert.Equal(t, "b1", b[0].ID)
	assert.Equal(t, []string{"a1", "a2", "a3"}, []string{a[0].ID, a[1].ID, a[2].ID})
	big := s.take(slabResults + 1) // larger than a block: a block of its own
	assert.Equal(t, slabResults+1, cap(big))
	enc, err := json.Marshal(s.take(0))
	require.NoError(t, err)
	assert.JSONEq(t, `[]`, string(enc))
}

// TestSearchResultsOwned: answers from the slab stay as they were while
// later searches fill the same block.
func TestSearchResultsOwned(t *testing.T) {
	e := allLocales(t)
	first := e.Search("cat", DefaultOptions())
	want := append([]Result(nil), first.Results...)
	for _, q := range []string{"dog", "pizza", "party", "c", "ca"} {
		e.Search(q, DefaultOptions())
	}
	assert.Equal(t, want, first.Results)
}

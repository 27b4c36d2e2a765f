package vectors_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/engine/vectors"
)

// The scan scores rows four at a time; every score it reports must be the
// bit-identical cosine of that row alone (Dot), so rankings and ties (and
// the client's golden vector cases) do not depend on the blocking. The
// English file's row count is not a multiple of four, so the tail rows
// are covered too.
func TestSearchScoresEqualDot(t *testing.T) {
	m, idx := loadFiles(t, "en")
	x := idx[0]
	require.NotZero(t, x.Len()%4, "the file should leave a partial block")
	ids := x.IDs()
	row := map[string]int{}
	for i, id := range ids {
		row[id] = i
	}
	for _, query := range []string{"so tired after work", "congratulations", "pizza"} {
		q := vectors.L2Normalize(m.Embed(query))
		all := vectors.SearchVectors(x, q, x.Len())
		require.Len(t, all, len(row), query)
		for _, match := range all {
			require.Equal(t, x.Dot(row[match.ID], q), match.Score, "%s: %s", query, match.ID)
		}
	}
	require.Zero(t, x.Dot(-1, make([]float32, x.Dims())))
	require.Zero(t, x.Dot(0, make([]float32, 3)))
}

package vectors_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/engine/embed"
	"github.com/emojisearch/emojisearch/engine/packfmt"
	"github.com/emojisearch/emojisearch/engine/vectors"
)

// The committed model and vector files (packs/cmd/buildmodel, buildvectors).
const (
	modelFile = "../../packs/models/glove-cldr.100.embm"
	packDir   = "../../packs/dist/" + packfmt.DefaultVersion
)

func loadFiles(t testing.TB, locales ...string) (*embed.Model, []*vectors.Index) {
	t.Helper()
	b, err := os.ReadFile(modelFile)
	require.NoError(t, err)
	m, err := embed.Load(b)
	require.NoError(t, err)
	var idx []*vectors.Index
	for _, loc := range locales {
		name := "vectors.glove-cldr.100.bin"
		if loc != "en" {
			name = "vectors.glove-cldr.100." + loc + ".bin"
		}
		b, err := os.ReadFile(filepath.Join(packDir, name))
		require.NoError(t, err)
		x, err := vectors.DecodeVectors(b)
		require.NoError(t, err)
		require.Equal(t, m.Name(), x.Model())
		idx = append(idx, x)
	}
	return m, idx
}

func rank(ms []vectors.Match, id string) int {
	for i, m := range ms {
		if m.ID == id {
			return i
		}
	}
	return len(ms)
}

// TestModelSemanticsOverFiles: real queries against the committed files,
// English plus the query's locale, as the service searches them.
func TestModelSemanticsOverFiles(t *testing.T) {
	tests := []struct {
		name, locale, query string
		near                string // hexcode expected in the top 10
		far                 string // hexcode expected below near
	}{
		{"cat", "en", "cat", "1F431", "1F697"},
		{"so tired after work", "en", "so tired after work", "1F62B", "1F389"},
		{"ship it", "en", "ship it", "1F6A2", "1F431"},
		{"pizza", "en", "pizza", "1F355", "1F697"},
		{"es gato", "es", "gato", "1F431", "1F697"},
		{"fr chat", "fr", "chat", "1F431", "1F4AC"},
		{"zh 生气", "zh", "我很生气", "1F620", "1F600"},
		{"ar قطة", "ar", "قطة", "1F431", "1F697"},
		{"ru огонь", "ru", "огонь", "1F525", "1F4A7"},
		{"hi बिल्ली", "hi", "बिल्ली", "1F431", "1F697"},
		{"tr kedi", "tr", "kedi", "1F431", "1F697"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, idx := loadFiles(t, "en", tc.locale)
			all := vectors.SearchVectorSets(idx, m.Embed(tc.query), 5000)
			near, far := rank(all, tc.near), rank(all, tc.far)
			assert.Less(t, near, 10, "%s in the top 10", tc.near)
			assert.Less(t, near, far)
		})
	}
}

func BenchmarkSearch(b *testing.B) {
	m, idx := loadFiles(b, "en", "es")
	q := m.Embed("so tired after work")
	b.Run("en", func(b *testing.B) {
		for b.Loop() {
			vectors.SearchVectors(idx[0], q, 24)
		}
	})
	b.Run("en+es", func(b *testing.B) {
		for b.Loop() {
			vectors.SearchVectorSets(idx, q, 24)
		}
	})
	b.Run("embed+en+es", func(b *testing.B) {
		for b.Loop() {
			vectors.SearchVectorSets(idx, m.Embed("estoy cansado después del trabajo"), 24)
		}
	})
}

func BenchmarkDecode(b *testing.B) {
	data, err := os.ReadFile(filepath.Join(packDir, "vectors.glove-cldr.100.bin"))
	require.NoError(b, err)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := vectors.DecodeVectors(data); err != nil {
			b.Fatal(err)
		}
	}
}

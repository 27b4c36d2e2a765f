package packs

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/engine"
	"github.com/emojisearch/emojisearch/engine/packfmt"
	"github.com/emojisearch/emojisearch/packs/editorial"
)

// TestBuildEditorial: editorial concepts land in the extension packs (first
// emoji editorial, the others editorial_more, even when a dictionary field
// of the emoji has the phrase), stay out of the locale indexes and get
// part indexes of their own, which rank the first emoji above a keyword.
func TestBuildEditorial(t *testing.T) {
	in := fixture()
	in.Editorial = []editorial.Concept{{ID: "lol", Emoji: []string{"🧑‍💻", "😂"},
		Phrases: map[string][]string{"en": {"laugh", "ship it"}, "tr": {"gemiye bin"}}}}
	files, err := Build(in, "test1", []string{"en", "tr"}, indexer)
	require.NoError(t, err)
	byName := map[string][]byte{}
	var names []string
	for _, f := range files {
		byName[f.Name] = f.Data
		names = append(names, f.Name)
	}
	assert.Equal(t, []string{"pack.en.json", "pack.en.ext.json", "pack.tr.json", "pack.tr.ext.json",
		"index.en.bin", packfmt.CoreIndexFile, "device.en.bin", "index.en.editorial.bin", "index.tr.bin", "device.tr.bin", "index.tr.editorial.bin", "manifest.json"}, names)

	ext, err := packfmt.Decode(byName["pack.en.ext.json"])
	require.NoError(t, err)
	rows := map[string]packfmt.Row{}
	for _, r := range ext.Rows {
		rows[r.ID] = r
	}
	assert.Equal(t, []string{"laugh", "ship it"}, rows["1F9D1-200D-1F4BB"].Phrases[packfmt.FieldEditorial])
	assert.Equal(t, []string{"laugh", "ship it"}, rows["1F602"].Phrases[packfmt.FieldEditorialMore],
		"kept although 😂 has the keyword laugh")

	base, err := engine.Load(engine.NewConfig(), byName["index.en.bin"])
	require.NoError(t, err)
	assert.Empty(t, base.Search("ship it", engine.Options{Limit: 5, Prefix: false}).Results, "not in index.en.bin")
	full, err := base.With(byName["index.en.editorial.bin"])
	require.NoError(t, err)
	assert.Equal(t, []string{"en.editorial"}, full.Parts())
	got := full.Search("laugh", engine.Options{Limit: 2, Prefix: false}).Results
	require.Len(t, got, 2)
	assert.Equal(t, "🧑‍💻", got[0].Emoji, "editorial (0.9) above keyword (0.85)")
	assert.Equal(t, "editorial", got[0].Field)

	in.Editorial[0].Emoji = append(in.Editorial[0].Emoji, "🦄")
	_, err = Build(in, "test1", []string{"en"}, nil)
	require.ErrorContains(t, err, `"🦄" is not an emoji of the packs`)
}

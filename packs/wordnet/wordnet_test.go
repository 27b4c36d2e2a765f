package wordnet

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSynonyms(t *testing.T) {
	db, err := Load(filepath.Join("testdata", "dict"))
	require.NoError(t, err)
	for _, tc := range []struct {
		phrase string
		want   []string
	}{
		{"blowfish", []string{"fugu"}}, // the commonest sense only (the food), not the fish
		{"puffer", []string{"pufferfish", "blowfish", "globefish"}},
		{"Ice Cream", []string{"icecream"}},
		{"throw up", []string{"vomit", "puke"}},
		{"red", []string{"reddish"}}, // syntactic marker dropped
		{"unknown", nil},
	} {
		assert.Equal(t, tc.want, db.Synonyms(tc.phrase), tc.phrase)
	}
}

func TestLoadErrors(t *testing.T) {
	_, err := Load(t.TempDir())
	require.ErrorContains(t, err, "wordnet: open")

	dir := t.TempDir()
	for _, pos := range parts {
		require.NoError(t, os.WriteFile(filepath.Join(dir, "index."+pos), nil, 0o644))
		require.NoError(t, os.WriteFile(filepath.Join(dir, "data."+pos), nil, 0o644))
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "index.noun"), []byte("cat n 1 x\n"), 0o644))
	_, err = Load(dir)
	require.ErrorContains(t, err, "index.noun:1: bad index line")
}

package packs

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/engine/packfmt"
)

func TestLicences(t *testing.T) {
	for name := range Pinned {
		assert.NotEmpty(t, Licences[name], name)
	}
	assert.NotEmpty(t, Licences[ReactionTables])
	// Every input of the committed build has its licence.
	b, err := os.ReadFile(filepath.Join("dist", packfmt.DefaultVersion, "manifest.json"))
	require.NoError(t, err)
	var m struct {
		Inputs map[string]string `json:"inputs"`
	}
	require.NoError(t, json.Unmarshal(b, &m))
	require.NotEmpty(t, m.Inputs)
	assert.NoError(t, CheckLicences(m.Inputs))
	err = CheckLicences(map[string]string{"emojibase-data": "17.0.0", "tweeteval": "1"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "tweeteval")
}

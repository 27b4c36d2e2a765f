package search

import (
	"encoding/json"
	"maps"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestItemEncodesSpecFieldsOnly: Item is the engine's result type, which
// also carries the in-process match explanation (label, match, field);
// the answer's JSON has spec 1's result item fields and no others.
func TestItemEncodesSpecFieldsOnly(t *testing.T) {
	it := Item{Emoji: "🎅", ID: "1F385", Score: 0.7, Source: "culture", ImageURL: "u", Shortcode: "s",
		Label: "Santa", Match: "papai noel", Field: "culture", Context: "Papai Noel", CultureID: "pt.papai-noel"}
	b, err := json.Marshal(it)
	require.NoError(t, err)
	var keys map[string]any
	require.NoError(t, json.Unmarshal(b, &keys))
	assert.Equal(t, []string{"context", "cultureId", "emoji", "id", "imageUrl", "score", "shortcode", "source"},
		slices.Sorted(maps.Keys(keys)))

	b, err = json.Marshal(Item{Emoji: "😂", ID: "1F602", Score: 1, Source: "alias", Label: "joy", Match: "joy", Field: "name"})
	require.NoError(t, err)
	assert.JSONEq(t, `{"emoji":"😂","id":"1F602","score":1,"source":"alias"}`, string(b))
}

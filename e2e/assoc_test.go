package e2e

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The associations (what people type for an emoji beyond its dictionary
// names) are part indexes of their own, index.<locale>.assoc.bin
// (packs/FORMAT.md, "Associations"; TestPacksAreImmutableStaticFiles checks
// they are served), which the service adds to the locale's alias tier on
// first use.
func TestSearchAssociations(t *testing.T) {
	// Phrases only the associations hold: without them neither emoji is in
	// the top 5.
	for _, tc := range []struct{ locale, q, emoji string }{
		{"en", "shrove tuesday", "🥞"},
		{"fr", "je me suis fait griller", "😅"},
	} {
		r := get(t, "/v1/search?locale="+tc.locale+"&q="+fresh(tc.q))
		require.Equal(t, 200, r.Status, string(r.Body))
		items := results(t, r.JSON(t))
		require.NotEmpty(t, items, tc.q)
		var top []string
		for _, it := range items[:min(3, len(items))] {
			if it["source"] == "alias" {
				top = append(top, strings.ReplaceAll(it["emoji"].(string), "\uFE0F", ""))
			}
		}
		assert.Contains(t, top, tc.emoji, "%s: an alias result of the associations in the top 3", tc.q)
		assert.Equal(t, "public, max-age=3600, s-maxage=86400", r.Header.Get("Cache-Control"), "%s: complete, so cached", tc.q)
	}
}

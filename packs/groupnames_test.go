package packs

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/engine/packfmt"
)

// TestGroupNames: every served locale names all 10 groups in its own words
// (none falls back to English, no two groups share a name), and the wrong
// labels of emojibase's messages that issue 25 names stay fixed.
func TestGroupNames(t *testing.T) {
	for _, loc := range packfmt.Locales {
		names, ok := groupNames[loc]
		require.True(t, ok, loc)
		seen := map[string]bool{}
		for g, n := range names {
			assert.NotEmpty(t, n, "%s group %d", loc, g)
			assert.False(t, seen[n], "%s: %q twice", loc, n)
			seen[n] = true
			if loc != "en" {
				assert.NotEqual(t, groupNames["en"][g], n, "%s group %d is English", loc, g)
			}
		}
	}
	for _, c := range []struct {
		loc   string
		group int
		want  string
	}{
		{"pt", 9, "Bandeiras"},
		{"ru", 0, "Смайлики и эмоции"},
		{"zh", 4, "食物和饮料"},
		{"zh", 7, "物品"},
		{"zh", 8, "符号"},
		{"ar", 9, "الأعلام"},
		{"id", 9, "Bendera"},
		{"tr", 9, "Bayraklar"},
	} {
		assert.Equal(t, c.want, groupLabels(c.loc)[c.group], "%s %d", c.loc, c.group)
	}
	assert.Equal(t, groupLabels("en"), groupLabels("xx"), "a locale without names gets English")
	for _, traditional := range []string{"飲", "遊", "點"} {
		for _, n := range groupNames["zh"] {
			assert.NotContains(t, n, traditional, "zh is Simplified Chinese")
		}
	}
}

package associations

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/engine/packfmt"
)

// TestParse: what an emoji key is (the line format: wordlines).
func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       map[string][]string
		err        string
	}{
		{"words", "# c\n🥞 griddle cake | short stack \n☁️ cloudy day\n", map[string][]string{"🥞": {"griddle cake", "short stack"}, "☁": {"cloudy day"}}, ""},
		{"keycap", "1️⃣ first", map[string][]string{"1⃣": {"first"}}, ""},
		{"keycap number sign", "#comment\n#️⃣ hashtag\n#⃣ pound", nil, "x.txt:3: emoji #⃣ twice"},
		{"letterlike symbol", "ℹ️ info desk", map[string][]string{"ℹ": {"info desk"}}, ""},
		{"a word first", "pancake stack", nil, `x.txt:1: "pancake" is not an emoji`},
		{"with and without FE0F", "☁️ cloudy day\n☁ cloudy", nil, "x.txt:2: emoji ☁ twice"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Parse("x.txt", tc.text)
			if tc.err != "" {
				require.ErrorContains(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

// TestLoad: the committed sources parse, are named after pack locales and
// cover most emoji in English and Chinese.
func TestLoad(t *testing.T) {
	all, err := Load(packfmt.Locales)
	require.NoError(t, err)
	_, err = Load([]string{"fr"})
	require.ErrorContains(t, err, "associations: en.txt: not a pack locale")
	for _, loc := range []string{"en", "zh"} {
		assert.Greater(t, len(all[loc]), 1200, loc)
	}
	assert.Regexp(t, `^sha256:[0-9a-f]{64}$`, Hash())
}

package editorial

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/engine/packfmt"
)

var locales = packfmt.Locales

// TestSources: the committed sources parse and validate for every pack
// locale, and hold the everyday concepts the layer exists for.
func TestSources(t *testing.T) {
	cs, err := Load(locales)
	require.NoError(t, err)
	assert.GreaterOrEqual(t, len(cs), 150)
	ids := map[string]bool{}
	for _, c := range cs {
		ids[c.ID] = true
		for _, loc := range locales {
			assert.NotEmpty(t, c.Phrases[loc], "%s %s", c.ID, loc)
		}
	}
	for _, id := range []string{"hello", "thanks", "sorry", "congrats", "love", "laugh", "sad", "angry", "tired",
		"food_hungry", "work", "rain", "travel", "football_soccer", "party", "bug_error"} {
		assert.True(t, ids[id], id)
	}
	assert.Regexp(t, `^sha256:[0-9a-f]{64}$`, Hash())
}

func TestParseAndValidate(t *testing.T) {
	two := []string{"en", "fr"}
	for _, tc := range []struct {
		name, text, err string
	}{
		{"ok", "# c\n@thanks 🙏 🥹\nen thanks | thx\nfr merci\n", ""},
		{"no emoji", "@thanks\nen thanks\nfr merci\n", "at least one emoji"},
		{"line before a concept", "en thanks\n", "expected"},
		{"missing locale", "@thanks 🙏\nen thanks\n", "no phrases for fr"},
		{"unknown locale", "@thanks 🙏\nen thanks\nfr merci\nde danke\n", `unknown locale "de"`},
		{"locale twice", "@thanks 🙏\nen thanks\nen thx\nfr merci\n", "locale en twice"},
		{"empty phrase", "@thanks 🙏\nen thanks | \nfr merci\n", "empty phrase"},
		{"phrase twice", "@thanks 🙏\nen thanks | Thanks\nfr merci\n", "twice"},
		{"emoticon", "@smile 🙂\nen smile | :)\nfr sourire\n", "punctuation"},
		{"emoji twice", "@thanks 🙏 🙏\nen thanks\nfr merci\n", "emoji 🙏 twice"},
		{"too many emoji", "@x 😀 😃 😄 😁 😆 😅 🤣\nen x\nfr x\n", "7 emoji"},
		{"duplicate id", "@a 🙏\nen a\nfr a\n@a 😀\nen b\nfr b\n", "duplicate id"},
		{"too long", "@a 🙏\nen " + string(make([]byte, 0)) + "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\nfr a\n", "longer than"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cs, err := Parse("t.txt", tc.text)
			if err == nil {
				err = Validate(cs, two)
			}
			if tc.err == "" {
				require.NoError(t, err)
				require.Len(t, cs, 1)
				assert.Equal(t, []string{"🙏", "🥹"}, cs[0].Emoji)
				assert.Equal(t, []string{"thanks", "thx"}, cs[0].Phrases["en"])
				assert.Equal(t, "t.txt:2", cs[0].Source)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.err)
		})
	}
}

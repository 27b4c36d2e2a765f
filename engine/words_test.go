package engine

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/engine/packfmt"
)

// TestRankingWords: the lists the pack build writes cover every pack
// locale, are normalized like queries (clients compare them with
// normalized query words as they are) and hold the words the rules name.
func TestRankingWords(t *testing.T) {
	w := RankingWords()
	for _, loc := range packfmt.Locales {
		assert.NotEmpty(t, w.Stop[loc], loc)
	}
	all := [][]string{w.Gender, w.Flag, w.NotStop["fr"], w.NotStop["es"]}
	for _, l := range w.Stop {
		all = append(all, l)
	}
	for _, l := range all {
		for _, word := range l {
			require.Equal(t, Normalize(word, 0), word)
		}
	}
	for _, c := range []struct {
		list []string
		word string
	}{
		{w.Stop["en"], "the"}, {w.Stop["fr"], "tres"}, {w.Stop["zh"], "的"}, {w.NotStop["fr"], "the"},
		{w.Gender, "woman"}, {w.Gender, "garcon"}, {w.Gender, "женщина"}, {w.Flag, "drapeau"}, {w.Flag, "国旗"},
	} {
		assert.Contains(t, c.list, c.word)
	}
	// The two-person emoji a client's entry lookup folds, as the engine's
	// Get does: the toned sequence (a tone after its first person) is the
	// entry the couple maps to.
	require.Len(t, w.Couples, len(multiPersonBase))
	assert.Equal(t, "👫", w.Couples["👩‍🤝‍👨"])
	eng := allLocales(t)
	for from, to := range multiPersonBase {
		k, _ := emojiOfHex(from)
		v, _ := emojiOfHex(to)
		assert.Equal(t, v, w.Couples[strings.ReplaceAll(k, "\uFE0F", "")], from)
		want, ok := eng.Get(v)
		require.True(t, ok, to)
		first, rest, _ := strings.Cut(from, "-")
		got, ok := eng.Get(first + "-1F3FB-" + rest)
		require.True(t, ok, from)
		assert.Equal(t, want.ID, got.ID, from)
	}
}

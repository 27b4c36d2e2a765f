package engine

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestShortLastWordNarrows: a last word of one or two bytes typed after
// others completes only the phrases those matched (index.narrowBelow), and
// completes as a first word would when none goes on with it.
func TestShortLastWordNarrows(t *testing.T) {
	e := allLocales(t)
	o := Options{Limit: 10, Locale: "en", Prefix: true}
	for _, tc := range []struct {
		q, holds string // every result's matched phrase holds this word
	}{
		{"flag co", "flag"},
		{"baby s", "baby"},
		{"i lo", "i"},
	} {
		out := e.Search(tc.q, o)
		require.NotEmpty(t, out.Results, tc.q)
		short := tc.q[strings.LastIndexByte(tc.q, ' ')+1:]
		for _, r := range out.Results {
			words := strings.Fields(r.Match) // the earlier word's phrases, or the short word itself
			assert.True(t, slices.Contains(words, tc.holds) || slices.Contains(words, short), "%s: %s %s", tc.q, r.Emoji, r.Match)
		}
	}
	// An earlier word that matches nothing narrows nothing: "ca" completes
	// as a first word would ("cat", "car").
	assert.Subset(t, ids(e.Search("zzqqx ca", o)), []string{"🐈️", "🚗"})
}

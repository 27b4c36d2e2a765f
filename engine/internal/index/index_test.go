package index

import (
	"bytes"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/engine/internal/textnorm"
	"github.com/emojisearch/emojisearch/engine/packfmt"
)

const packDir = "../../../packs/dist/" + packfmt.DefaultVersion

var (
	ixOnce sync.Once
	ixAll  *Index
)

// allLocales is one index over every committed JSON pack (core and
// extension), each locale written and decoded as the engine does for JSON
// packs: the index is tested from the packs, not from the committed binary
// indexes (the engine's round-trip test compares the two).
func allLocales(t testing.TB) *Index {
	ixOnce.Do(func() {
		var packs []*packfmt.Pack
		for _, loc := range packfmt.Locales {
			for _, n := range []string{"pack." + loc + ".json", "pack." + loc + ".ext.json"} {
				b, err := os.ReadFile(filepath.Join(packDir, n))
				require.NoError(t, err)
				p, err := packfmt.Decode(b)
				require.NoError(t, err)
				packs = append(packs, p)
			}
		}
		var segs []*Segment
		for _, loc := range packfmt.Locales {
			var b bytes.Buffer
			require.NoError(t, WriteSegment(&b, loc, packs))
			s, err := DecodeSegment(b.Bytes())
			require.NoError(t, err)
			segs = append(segs, s)
		}
		require.Equal(t, "en", segs[0].Locale(), "packfmt.Locales starts with English")
		var err error
		ixAll, err = New(segs...)
		require.NoError(t, err)
	})
	return ixAll
}

// everyLocale are the Params of a search over every locale, as the engine
// sets them for no preferred locale (its default minimum coverage).
func everyLocale(ix *Index, limit int, prefix bool) Params {
	return Params{Limit: limit, Prefix: prefix, Loc: -1, Mask: 1<<len(ix.Locales) - 1, MinCoverage: 0.34}
}

// search runs one query as the engine does (normalise, tokenize, units).
func search(ix *Index, q string, p Params) []Hit {
	toks := textnorm.Tokenize(textnorm.Normalize(q, textnorm.MaxQueryLength))
	return ix.Search(nil, ix.Units(nil, toks, p.Prefix, p.Mask), p)
}

// TestOracle checks the index against a linear scan: for words taken from
// the packs, every emoji with a phrase containing the word (in a searched
// locale) is found, and every direct result has such a phrase or a stem match.
func TestOracle(t *testing.T) {
	ix := allLocales(t)
	var words []string
	// Under -short (test.sh's js/wasm run) a tenth of the words: the
	// native run checks them all.
	every, least := 397, 100
	if testing.Short() {
		every, least = 3970, 10
	}
	i := 0
	ix.EachPhrase(func(_ int, _ int32, _ uint8, text string) {
		if i++; i%every == 1 {
			if toks := textnorm.Tokenize(text); len(toks) > 0 && !textnorm.IsUnspaced(toks[0]) {
				words = append(words, toks[0])
			}
		}
	})
	require.Greater(t, len(words), least)
	scan := entryWords(ix)
	for _, w := range words {
		got := map[int32]bool{}
		for _, h := range search(ix, w, everyLocale(ix, 5000, false)) {
			got[ix.Entries[h.Entry].Family] = true
			if h.Field == packfmt.FieldTypo || h.Field == packfmt.FieldLow {
				continue
			}
			assert.True(t, scan[h.Entry][w] || scan[h.Entry]["~"+textnorm.Stem(w)], "%q: %s has no phrase with the word", w, ix.Entries[h.Entry].Emoji)
		}
		for i := range ix.Entries {
			if scan[i][w] || scan[i]["~"+textnorm.Stem(w)] {
				assert.True(t, got[ix.Entries[i].Family], "%q: %s missing", w, ix.Entries[i].Emoji)
			}
		}
	}
}

// entryWords is the oracle's linear scan: every token (and "~"+stem) of every
// phrase, per entry.
func entryWords(ix *Index) []map[string]bool {
	words := make([]map[string]bool, len(ix.Entries))
	for i := range words {
		words[i] = map[string]bool{}
	}
	ix.EachPhrase(func(_ int, entry int32, _ uint8, text string) {
		for _, tok := range textnorm.Tokenize(text) {
			words[entry][tok] = true
			if !textnorm.IsUnspaced(tok) {
				words[entry]["~"+textnorm.Stem(tok)] = true
			}
		}
	})
	return words
}

// In a query of several words the rarer word weighs more; the weights keep
// a mean of 1, one word weighs 1, and an unknown word gets the mean.
func TestUnitWeights(t *testing.T) {
	ix := allLocales(t)
	p := Params{Mask: 1} // English
	w := ix.UnitWeights([]Unit{{Text: "face"}, {Text: "unicorn"}}, p)
	assert.Greater(t, w[1], w[0], "unicorn is in fewer phrases than face")
	assert.InDelta(t, 2, w[0]+w[1], 1e-5)
	assert.Equal(t, []float32{1}, ix.UnitWeights([]Unit{{Text: "face"}}, p))
	w = ix.UnitWeights([]Unit{{Text: "face"}, {Text: "unicorn"}, {Text: "zzqx"}}, p)
	assert.InDelta(t, (w[0]+w[1])/2, w[2], 1e-5)
	assert.InDelta(t, 3, w[0]+w[1]+w[2], 1e-5)
}

// TestUnits: spaced words are units as they are, clock times split into
// hour and minute, unspaced text is segmented into known words (fewest
// pieces), and a last unspaced token still being typed stays whole.
func TestUnits(t *testing.T) {
	ix := allLocales(t)
	all := uint64(1)<<len(ix.Locales) - 1
	for _, tc := range []struct {
		name   string
		q      string
		prefix bool
		want   []string
	}{
		{"words", "red heart", false, []string{"red", "heart"}},
		{"clock time", "10:30", false, []string{"10", "30"}},
		{"clock time in digits", "1130", false, []string{"11", "30"}},
		{"a number that is a word", "100", false, []string{"100"}},
		{"unspaced words", "生日快乐蛋糕", false, []string{"生日快乐", "蛋糕"}},
		{"known unspaced word", "笑哭", false, []string{"笑哭"}},
		{"empty", "", false, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, u := range ix.Units(nil, textnorm.Tokenize(textnorm.Normalize(tc.q, textnorm.MaxQueryLength)), tc.prefix, all) {
				got = append(got, u.Text)
			}
			assert.Equal(t, tc.want, got)
		})
	}
}

// TestSearchEdges: no units or no limit give nothing; a search is the same
// when repeated (the pooled scratch is reset between searches); hits are
// best first and at most the limit.
func TestSearchEdges(t *testing.T) {
	ix := allLocales(t)
	p := everyLocale(ix, 10, true)
	assert.Nil(t, ix.Search(nil, nil, p))
	p0 := p
	p0.Limit = 0
	assert.Nil(t, search(ix, "cat", p0))
	for _, q := range []string{"cat", "face with tea", "猫", "zzqxv"} {
		first := search(ix, q, p)
		assert.Equal(t, first, search(ix, q, p), q)
		assert.LessOrEqual(t, len(first), 10, q)
		for i := 1; i < len(first); i++ {
			assert.GreaterOrEqual(t, first[i-1].Score, first[i].Score, "%q: best first", q)
		}
	}
}

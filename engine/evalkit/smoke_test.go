package evalkit

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/engine"
	"github.com/emojisearch/emojisearch/engine/packfmt"
)

// smokeFloor is the regression floor of the smoke sets: hit@3 per locale.
const smokeFloor = 0.90

// engines loads one engine per locale, as the service builds it (English,
// the locale, the related words and the editorial part indexes).
func engines(t *testing.T) map[string]*engine.Engine {
	t.Helper()
	out := map[string]*engine.Engine{}
	for _, loc := range packfmt.Locales {
		e, err := LoadEngine(filepath.Join("..", "..", "packs", "dist", PackVersion), loc)
		require.NoError(t, err, loc)
		out[loc] = e
	}
	return out
}

// TestSmokeFloor: everyday queries of every locale (engine/testdata/smoke,
// written by us, not taken from any evaluation set) keep an expected emoji
// in the top 3 for at least smokeFloor of their queries, with at least 50
// queries per locale.
func TestSmokeFloor(t *testing.T) {
	eachLocaleSet(t, "smoke", "*.smoke.jsonl", func(t *testing.T, loc string, rows []Row, m Metrics) {
		require.GreaterOrEqual(t, len(rows), 50)
		assert.GreaterOrEqual(t, m.Hit3, smokeFloor, "%s hit@3", loc)
	})
}

// eachLocaleSet runs check, in a subtest per locale, on every set file of
// engine/testdata/<dir> matching glob (one per locale, named
// <locale>.<...>), with the dictionary's metrics at limit 10.
func eachLocaleSet(t *testing.T, dir, glob string, check func(t *testing.T, loc string, rows []Row, m Metrics)) {
	engs := engines(t)
	files, err := filepath.Glob(filepath.Join("..", "testdata", dir, glob))
	require.NoError(t, err)
	require.Len(t, files, len(engs))
	for _, f := range files {
		loc := strings.SplitN(filepath.Base(f), ".", 2)[0]
		t.Run(loc, func(t *testing.T) {
			rows, err := ReadSet(f)
			require.NoError(t, err)
			check(t, loc, rows, Evaluate(engs[loc], rows, engine.Options{Limit: 10, Locale: loc}))
		})
	}
}

// TestEverydayWords: ten everyday words (love, cat, pizza, birthday, thanks,
// sad, fire, money, sleep, party) in each locale; at least 9 of 10 keep an
// expected emoji in the top 3.
func TestEverydayWords(t *testing.T) {
	engs := engines(t)
	f, err := os.Open(filepath.Join("..", "testdata", "everyday.tsv"))
	require.NoError(t, err)
	defer f.Close()
	hits, n := map[string]int{}, map[string]int{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		require.Len(t, cols, 3, sc.Text())
		loc, q := cols[0], cols[1]
		gold := map[string]bool{}
		for _, g := range strings.Fields(cols[2]) {
			gold[key(g)] = true
		}
		n[loc]++
		out := engs[loc].Search(q, engine.Options{Limit: 3, Locale: loc})
		if r := rank(out.Results, gold); r > 0 {
			hits[loc]++
		} else {
			t.Logf("%s %q: %v", loc, q, out.Results)
		}
	}
	require.Len(t, n, len(engs))
	for loc, c := range n {
		assert.Equal(t, 10, c, loc)
		assert.GreaterOrEqual(t, hits[loc], 9, loc)
	}
}

// TestIssueExamples: the queries issue 15 found wrong, with what they must
// give now (top 5 unless said).
func TestIssueExamples(t *testing.T) {
	engs := engines(t)
	for _, tc := range []struct {
		loc, q string
		top    int
		anyOf  string // one of them within top
		not    string // none of them within top
	}{
		{"en", "in love", 3, "😍 🥰 ❤️ 💕", "🇮🇳"},
		{"en", "good morning", 1, "☀️ 🌞 🌅", ""},
		{"en", "congrats on the new job", 3, "🎉 🥳 💼", ""},
		{"en", "deploy failed", 3, "❌ 🐛 💥 🔥", "🏃‍♂️‍➡️ 🪖"},
		{"hi", "शुक्रिया", 1, "🙏", "🌗 🌖 🌘"},
		{"pt", "obrigado", 1, "🙏", ""},
		{"hi", "धन्यवाद", 1, "🙏", ""},
		{"tr", "teşekkürler", 1, "🙏", ""},
		{"es", "fiesta", 2, "🥳 🎉", ""},
		{"fr", "fête", 2, "🥳 🎉", ""},
		{"pt", "festa", 2, "🥳 🎉", ""},
		{"ru", "вечеринка", 2, "🥳 🎉", ""},
		{"id", "pesta", 2, "🥳 🎉", ""},
		{"tr", "parti", 2, "🥳 🎉", ""},
		{"hi", "पार्टी", 2, "🥳 🎉", ""},
		{"bn", "পার্টি", 2, "🥳 🎉", ""},
		{"zh", "派对", 2, "🥳 🎉", ""},
	} {
		t.Run(tc.loc+" "+tc.q, func(t *testing.T) {
			out := engs[tc.loc].Search(tc.q, engine.Options{Limit: 10, Locale: tc.loc})
			got := map[string]bool{}
			for _, r := range out.Results[:min(tc.top, len(out.Results))] {
				got[key(r.Emoji)] = true
			}
			found := false
			for _, e := range strings.Fields(tc.anyOf) {
				found = found || got[key(e)]
			}
			assert.True(t, found, "%v", out.Results)
			for _, e := range strings.Fields(tc.not) {
				assert.False(t, got[key(e)], "%s in %v", e, out.Results)
			}
		})
	}
}

// TestTypingByLen: the typing share by prefix length counts each prefix in
// its own length (3 to 7 characters, then 8 and more) and gives 0 to a
// length no prefix has.
func TestTypingByLen(t *testing.T) {
	eng, err := LoadEngine(filepath.Join("..", "..", "packs", "dist", PackVersion), "en")
	require.NoError(t, err)
	rows := []Row{{Q: "cat", Gold: []string{"🐈"}}, {Q: "butterfly", Gold: []string{"no emoji"}}}
	m := Evaluate(eng, rows, engine.Options{Limit: 10, Locale: "en"})
	assert.Equal(t, [6]float64{0.5, 0, 0, 0, 0, 0}, m.TypingByLen) // "cat" and "but"; the 8+ bucket holds "butterfl" and "butterfly"
	assert.InDelta(t, 1.0/8, m.Typing, 1e-9)
}

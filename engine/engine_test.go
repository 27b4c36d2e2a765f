package engine

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/engine/packfmt"
)

const packDir = "../packs/dist/" + packfmt.DefaultVersion

var (
	engOnce sync.Once
	engAll  *Engine
)

// allLocales is one engine over every committed pack (core and extension).
func allLocales(t testing.TB) *Engine {
	engOnce.Do(func() {
		var files [][]byte
		for _, loc := range packfmt.Locales {
			for _, n := range packfmt.PackFiles(os.DirFS(packDir), loc) {
				b, err := os.ReadFile(filepath.Join(packDir, n))
				require.NoError(t, err)
				files = append(files, b)
			}
		}
		var err error
		engAll, err = Load(NewConfig(), files...)
		require.NoError(t, err)
	})
	return engAll
}

func ids(out Output) []string {
	var s []string
	for _, r := range out.Results {
		s = append(s, r.Emoji)
	}
	return s
}

func TestSearchRules(t *testing.T) {
	e := allLocales(t)
	for _, tc := range []struct {
		name, q, locale, first, field string
	}{
		{"shortcode with colons", ":joy:", "en", "😂", "shortcode"},
		{"shortcode word", "joy", "en", "😂", "shortcode"},
		{"exact name", "face with tears of joy", "en", "😂", "name"},
		{"typing prefix", "face with tea", "en", "😂", "name"},
		{"typo", "smilng face with halo", "en", "😇", "typo"},
		{"plural", "horses", "en", "🐴", "keyword"},
		{"editorial phrase", "cats", "en", "🐱", "editorial"},
		{"accent-free query", "cafe", "fr", "☕", "editorial"},
		{"chinese unspaced", "笑哭了", "zh", "😂", "name"},
		{"chinese words without spaces", "笑哭", "zh", "😂", "editorial"},
		{"hindi", "हंसी", "hi", "", ""},
		{"arabic with tashkeel", "قِطّ", "ar", "", "editorial"},
		{"turkish", "kedi", "tr", "🐈", "name"},
		{"turkish without dots", "gulmek", "tr", "", ""},
		{"emoji query", "👍🏽", "en", "👍", "name"},
		{"emoticon", ":)", "en", "🙂", "alias"},
		{"kaomoji", "^_^", "en", "😊", "alias"},
		{"clock time", "10:30", "en", "🕥", ""},
		{"a number that is a word, not a clock time", "100", "en", "💯", "shortcode"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := e.Search(tc.q, Options{Limit: 10, Locale: tc.locale, Prefix: true})
			require.NotEmpty(t, out.Results, "no results for %q", tc.q)
			if tc.first != "" {
				assert.Equal(t, textKey(tc.first), textKey(out.Results[0].Emoji), "%q gave %v", tc.q, ids(out))
			}
			if tc.field != "" {
				assert.Equal(t, tc.field, out.Results[0].Field)
			}
			assert.Equal(t, out.Results[0].Score, out.Confidence)
			for _, r := range out.Results {
				assert.Equal(t, "alias", r.Source)
				assert.GreaterOrEqual(t, r.Score, 0.0)
				assert.LessOrEqual(t, r.Score, 1.0)
				assert.NotEmpty(t, r.Label)
			}
		})
	}
}

func textKey(s string) string { return strings.ReplaceAll(s, "\uFE0F", "") }

// TestEmoticonIsExact: an emoticon matches the whole raw query, so it
// scores 1 and leads what the words of the query find ("<3" is not first
// the keycap 3).
func TestEmoticonIsExact(t *testing.T) {
	e := allLocales(t)
	for _, q := range []string{":)", "<3", "\\m/", "-_-", "(y)"} {
		out := e.Search(q, Options{Limit: 10, Locale: "es"})
		require.NotEmpty(t, out.Results, q)
		assert.Equal(t, 1.0, out.Results[0].Score, q)
		assert.NotEqual(t, "3️⃣", out.Results[0].Emoji, q)
	}
}

func TestTypoNeverOutranksExact(t *testing.T) {
	e := allLocales(t)
	// "cat" is exact for many emoji; "cap" is an exact word too and one typo away.
	for _, q := range []string{"cap", "cat", "star", "heart", "moon"} {
		out := e.Search(q, Options{Limit: 50, Locale: "en"})
		typo := false
		for _, r := range out.Results {
			if r.Field == "typo" {
				typo = true
			} else if typo && r.Field != "low" {
				t.Errorf("%q: exact match %s (%s) after a typo match", q, r.Emoji, r.Field)
			}
		}
	}
}

// Unknown words must not be answered by noise: a typo of a weak phrase (a
// related word or a subgroup label) or a split into three or more short
// known words (two-letter codes) is no evidence.
func TestNoNoiseForUnknownWords(t *testing.T) {
	e := allLocales(t)
	for _, tc := range []struct {
		q       string
		notWant string // emoji that must not be in the top 10
	}{
		{"padlock", "🐎"}, // "paddock", a related word of horses, is one edit away
		{"hummus", "🇺🇸"}, // "hu" + "mm" + "us" are shortcodes
		{"hummus", "🇭🇺"}, //
		{"padlock", "🎠"}, //
	} {
		t.Run(tc.q, func(t *testing.T) {
			for _, r := range e.Search(tc.q, Options{Limit: 10, Locale: "en"}).Results {
				assert.NotEqual(t, textKey(tc.notWant), textKey(r.Emoji), "%q: %s via %s %q", tc.q, r.Emoji, r.Field, r.Match)
			}
		})
	}
	love := false // a compound of two known words still splits ("in" + "love", or the phrase "in love")
	for _, r := range e.Search("inlove", Options{Limit: 10, Locale: "en"}).Results {
		love = love || r.Match == "love" || r.Match == "in love"
	}
	assert.True(t, love)
}

func TestLocalePhrasesRankAboveEnglish(t *testing.T) {
	e := allLocales(t)
	// 🐈 is named "cat" in English and "kedi" in Turkish. Both resolve
	// under tr; the own locale's name scores above the English one.
	tr := e.Search("kedi", Options{Limit: 5, Locale: "tr"})
	en := e.Search("cat", Options{Limit: 5, Locale: "tr"})
	require.NotEmpty(t, tr.Results)
	require.NotEmpty(t, en.Results)
	assert.Equal(t, "name", tr.Results[0].Field)
	assert.Equal(t, "name", en.Results[0].Field)
	assert.Equal(t, textKey(tr.Results[0].Emoji), textKey(en.Results[0].Emoji))
	assert.Greater(t, tr.Results[0].Score, en.Results[0].Score)
	// Another locale's phrases are not searched.
	for _, r := range e.Search("kedi", Options{Limit: 5, Locale: "fr"}).Results {
		assert.NotEqual(t, "kedi", r.Match)
	}
	assert.Equal(t, "tr", Language("TR-tr"))
	assert.Equal(t, "zh", Language("zh-Hant"))
}

// A gender/direction family is ranked once; its other gender members follow
// the top 5 when the query names no gender, and direction variants stay
// folded.
func TestFamilies(t *testing.T) {
	e := allLocales(t)
	search := func(q string) []string {
		var out []string
		for _, r := range e.Search(q, Options{Limit: 24, Locale: "en"}).Results {
			out = append(out, textKey(r.Emoji))
		}
		return out
	}
	members := func(got []string, sub string) []string {
		var out []string
		for _, k := range got {
			if strings.Contains(k, sub) {
				out = append(out, k)
			}
		}
		return out
	}
	for _, tc := range []struct {
		name, q, sub string
		want         []string
	}{
		{"exact name first, then the other genders", "technologist", "\u200d💻", []string{"🧑‍💻", textKey("👨‍💻"), textKey("👩‍💻")}},
		{"oldest member (Emoji 4.0, not 12.1) on a near tie", "coder", "\u200d💻", []string{textKey("👨‍💻"), "🧑‍💻", textKey("👩‍💻")}},
		{"same version: the neutral one", "cook", "\u200d🍳", []string{"🧑‍🍳", textKey("👨‍🍳"), textKey("👩‍🍳")}},
		{"named gender: that member only", "woman technologist", "\u200d💻", []string{textKey("👩‍💻")}},
		{"named gender, older member", "man mage", "🧙", []string{textKey("🧙‍♂️")}},
		{"direction variants folded", "person walking", "🚶", []string{"🚶", textKey("🚶‍♂️"), textKey("🚶‍♀️")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := search(tc.q)
			require.NotEmpty(t, got)
			m := members(got, tc.sub)
			require.NotEmpty(t, m, "%v", got)
			assert.Equal(t, tc.want[0], m[0], "%v", got)
			assert.ElementsMatch(t, tc.want, m, "%v", got)
			assert.Equal(t, tc.want[0], got[0])
		})
	}
	t.Run("members after the top 5", func(t *testing.T) {
		got := search("technologist")
		assert.Equal(t, "🧑‍💻", got[0])
		assert.NotContains(t, got[:5], textKey("👨‍💻"))
		assert.Contains(t, got[5:7], textKey("👨‍💻"), "%v", got)
	})
	t.Run("limit kept", func(t *testing.T) {
		for _, n := range []int{1, 2, 3, 4} {
			assert.Len(t, e.Search("cook", Options{Limit: n, Locale: "en"}).Results, n)
		}
	})
}

func TestGet(t *testing.T) {
	e := allLocales(t)
	for _, id := range []string{"1F44B", "1F44B-1F3FD", "👋", "👋🏿"} {
		got, ok := e.Get(id)
		require.True(t, ok, id)
		assert.Equal(t, "1F44B", got.ID)
		assert.True(t, got.HasSkinTones)
		assert.Equal(t, "waving hand", got.Labels["en"])
		assert.Equal(t, "挥手", got.Labels["zh"])
	}
	_, ok := e.Get("nope")
	assert.False(t, ok)
	assert.Equal(t, packfmt.DefaultVersion, e.PackVersion())
	assert.Equal(t, "en", e.Locales()[0])
	assert.Greater(t, e.Len(), 1800)
	assert.Equal(t, "Smileys & emotion", e.GroupLabel(0, "en"))
	assert.Equal(t, "笑脸和情感", e.GroupLabel(0, "zh-CN"))
	assert.Equal(t, "Suratlar ve duygular", e.GroupLabel(0, "tr"), "our own names where emojibase has none (packs/groupnames.go)")
	assert.Equal(t, "", e.GroupLabel(42, "en"))
}

func TestBadInputNeverPanics(t *testing.T) {
	e := allLocales(t)
	for _, q := range []string{"", "   ", strings.Repeat("a", 10_000), strings.Repeat("😂", 5000), "\xff\xfe\xfd",
		"a\x00b\x07c", "\xed\xa0\x80\xed\xb0\x80", "😂👍🏽", "cat 猫 кот قط बिल्ली", strings.Repeat("ab ", 40)} {
		for _, prefix := range []bool{true, false} {
			out := e.Search(q, Options{Limit: 24, Prefix: prefix})
			assert.LessOrEqual(t, len(out.Results), 24)
			assert.LessOrEqual(t, len([]rune(out.Query)), MaxQueryLength)
		}
	}
	assert.Empty(t, e.Search("   ", DefaultOptions()).Results)
	assert.Equal(t, 0.0, e.Search("", DefaultOptions()).Confidence)
}

func TestConfigAndLoadErrors(t *testing.T) {
	_, err := Load(NewConfig().WithMinCoverage(0))
	require.ErrorContains(t, err, "minCoverage")
	_, err = Load(NewConfig(), []byte(`{"format":"x"}`))
	require.ErrorIs(t, err, ErrPack)
	require.ErrorIs(t, err, packfmt.ErrFormat)
	tr, err := os.ReadFile(filepath.Join(packDir, "pack.tr.json"))
	require.NoError(t, err)
	_, err = Load(NewConfig(), tr)
	require.ErrorContains(t, err, "English core pack is required")
}

// TestRoundTrip builds a pack, writes it as the build does, loads it and searches it.
func TestRoundTrip(t *testing.T) {
	p := &packfmt.Pack{Format: packfmt.Format, FormatVersion: packfmt.FormatVersion, PackVersion: "t1", Locale: "en",
		Part: packfmt.PartCore, Fields: packfmt.Fields[:], Weights: packfmt.DefaultWeights, RowIndex: packfmt.RowIndex,
		Groups: []string{"smileys"}}
	p.Rows = []packfmt.Row{
		{ID: "1F602", Emoji: "😂", Label: "tears of joy", Prior: 80, Phrases: [packfmt.NumStoredFields][]string{{"tears of joy"}, {"joy"}, {"laugh", "lol"}}},
		{ID: "1F639", Emoji: "😹", Label: "cat with tears of joy", Prior: 40, Phrases: [packfmt.NumStoredFields][]string{{"cat with tears of joy"}, nil, {"joy", "cat"}}},
		{ID: "1F63A", Emoji: "😺", Label: "grinning cat", Prior: 40, Phrases: [packfmt.NumStoredFields][]string{{"grinning cat"}, nil, {"cat", "\"quoted\"|x"[:8]}}},
	}
	var b bytes.Buffer
	require.NoError(t, packfmt.WritePack(&b, p))
	e, err := Load(NewConfig(), b.Bytes())
	require.NoError(t, err)
	assert.Equal(t, []string{"😂", "😹"}, ids(e.Search("joy", Options{Limit: 2})))
	assert.Equal(t, "😺", e.Search("grinning", DefaultOptions()).Results[0].Emoji)
	got, ok := e.Get("1F639")
	require.True(t, ok)
	assert.Equal(t, "cat with tears of joy", got.Labels["en"])
	assert.Equal(t, "\"quoted\"", e.Search("quoted", DefaultOptions()).Results[0].Match[:0]+"\"quoted\"")
}

func TestHelpers(t *testing.T) {
	for _, tc := range []struct{ name, got, want string }{
		{"hexcode single", HexcodeOf("😂"), "1F602"},
		{"hexcode drops lone FE0F", HexcodeOf("❤️"), "2764"},
		{"hexcode tone", HexcodeOf("👋🏽"), "1F44B-1F3FD"},
		{"hexcode zwj keeps FE0F", HexcodeOf("🏃‍♂️"), "1F3C3-200D-2642-FE0F"},
		{"base of tone", BaseID("1F44B-1F3FD"), "1F44B"},
		{"base restores FE0F", BaseID("26F9-1F3FB-200D-2642-FE0F"), "26F9-FE0F-200D-2642-FE0F"},
		{"base of mixed handshake", BaseID("1FAF1-1F3FB-200D-1FAF2-1F3FC"), "1F91D"},
		{"base of base", BaseID("1F602"), "1F602"},
		{"tone", ApplySkinTone("👋", 3), "👋🏽"},
		{"tone replaces tone", ApplySkinTone("👋🏿", 1), "👋🏻"},
		{"tone 0 removes", ApplySkinTone("👋🏿", 0), "👋"},
		{"tone on text-default base", ApplySkinTone("✌️", 2), "✌🏼"},
		{"tone in zwj", ApplySkinTone("🧑‍💻", 5), "🧑🏿‍💻"},
		{"tone on both people", ApplySkinTone("🧑‍🤝‍🧑", 1), "🧑🏻‍🤝‍🧑🏻"},
		{"bad tone", ApplySkinTone("👋", 9), "👋"},
	} {
		t.Run(tc.name, func(t *testing.T) { assert.Equal(t, tc.want, tc.got) })
	}
	assert.Equal(t, "\U0001F3FB", SkinTones[1])
	assert.Len(t, CommonReactions, 12)
	assert.Equal(t, 1, BoundedEditDistance("hapy", "happy", 2))
	assert.Equal(t, "cafe joy", Normalize("  Café :JOY: ", MaxQueryLength))
	assert.Equal(t, []string{"ab", "型血"}, Tokenize("ab型血"))
	assert.Equal(t, "Café :JOY: 😂!", EmbeddingText("  Café\t:JOY:\n😂!\x00 "))
}

func FuzzSearch(f *testing.F) {
	for _, s := range []string{"", ":joy:", "face with tea", "笑哭", "قِطّ", "\xff", "👍🏽 cat", "1130"} {
		f.Add(s, "en", true)
	}
	e := allLocales(f)
	f.Fuzz(func(t *testing.T, q, locale string, prefix bool) {
		out := e.Search(q, Options{Limit: 10, Locale: locale, Prefix: prefix})
		if len(out.Results) > 10 {
			t.Fatalf("%d results", len(out.Results))
		}
		seen := map[string]bool{}
		for _, r := range out.Results {
			if seen[r.ID] {
				t.Fatalf("duplicate %s", r.ID)
			}
			seen[r.ID] = true
		}
	})
}

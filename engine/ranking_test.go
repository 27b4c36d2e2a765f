package engine

import (
	"strings"
	"testing"

	"github.com/emojisearch/emojisearch/engine/internal/index"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// top returns the first n results of a search (limit 24, prefix off) as
// emoji without FE0F.
func top(e *Engine, q, locale string, n int) []string {
	var out []string
	for _, r := range e.Search(q, Options{Limit: 24, Locale: locale}).Results {
		if len(out) == n {
			break
		}
		out = append(out, textKey(r.Emoji))
	}
	return out
}

// One concept in three genders must not fill the first places: a family
// shows one member in the top 5 unless the query names a gender.
func TestOneFamilyMemberInTop5(t *testing.T) {
	e := allLocales(t)
	for _, tc := range []struct{ locale, q string }{
		{"es", "fiesta"}, {"fr", "fête"}, {"pt", "festa"}, {"ru", "вечеринка"}, {"id", "pesta"},
		{"tr", "parti"}, {"hi", "पार्टी"}, {"bn", "পার্টি"}, {"zh", "派对"}, {"en", "cook"}, {"en", "dancers"},
	} {
		t.Run(tc.locale+" "+tc.q, func(t *testing.T) {
			got := top(e, tc.q, tc.locale, 5)
			require.NotEmpty(t, got)
			fams := map[int32]int{}
			for _, k := range got {
				i, ok := e.ix.Lookup(k)
				require.True(t, ok, k)
				fams[e.ix.Entries[i].Family]++
				assert.Equal(t, 1, fams[e.ix.Entries[i].Family], "%v: two members of %s's family", got, k)
			}
		})
	}
	t.Run("the other members follow", func(t *testing.T) {
		got := top(e, "cook", "en", 24)
		assert.Equal(t, "🧑‍🍳", got[0])
		assert.Subset(t, got[5:], []string{textKey("👨‍🍳"), textKey("👩‍🍳")}, "%v", got)
	})
	t.Run("a named gender keeps its member first", func(t *testing.T) {
		assert.Equal(t, textKey("👩‍💻"), top(e, "woman technologist", "en", 1)[0])
	})
}

// A country flag answers its country, region or code named on its own,
// never one word of a longer query, and a partial name ranks after the
// emoji that mean the word.
func TestFlagsOnlyWhenNamed(t *testing.T) {
	e := allLocales(t)
	for _, tc := range []struct {
		name, locale, q string
		flag            string
		first           bool // the flag leads; otherwise it is not in the top 5
	}{
		{"code on its own", "en", "in", "🇮🇳", true},
		{"country name", "en", "india", "🇮🇳", true},
		{"name with flag", "en", "india flag", "🇮🇳", true},
		{"two-word country", "en", "united states", "🇺🇸", true},
		{"French name", "fr", "drapeau japon", "🇯🇵", true},
		{"part of a name alone", "en", "korea", "🇰🇷", true},
		{"code inside a sentence", "en", "in love", "🇮🇳", false},
		{"code inside a sentence", "en", "me too", "🇲🇪", false},
		{"word of another country's name", "en", "cook", "🇨🇰", false},
		{"Spanish sentence", "es", "es mi cumple", "🇪🇸", false},
	} {
		t.Run(tc.name+" "+tc.q, func(t *testing.T) {
			got := top(e, tc.q, tc.locale, 5)
			if tc.first {
				require.NotEmpty(t, got)
				assert.Equal(t, tc.flag, got[0], "%v", got)
			} else {
				assert.NotContains(t, got, tc.flag)
			}
		})
	}
}

// Function words and two-letter codes never outrank the content words of
// a query.
func TestStopWordsAndShortCodes(t *testing.T) {
	e := allLocales(t)
	for _, tc := range []struct {
		locale, q string
		anyOf     []string // one of them in the top 3
	}{
		{"en", "in love", []string{"😍", "❤", "🥰", "💕", "😘", "💌"}},
		{"en", "i love you so much", []string{"😍", "❤", "🥰", "💕", "😘", "🤟"}},
		{"en", "the cat", []string{"🐈", "🐱"}},
		{"es", "el gato", []string{"🐈", "🐱"}},
		{"fr", "le chat", []string{"🐈", "🐱"}},
		{"pt", "o gato", []string{"🐈", "🐱"}},
		{"id", "kucing yang lucu", []string{"🐈", "🐱", "😺", "😸", "😹", "😻"}}, // a cat, whichever face
		{"ru", "очень грустно", []string{"😢", "😞", "😔", "☹", "😭", "😥"}},
	} {
		t.Run(tc.locale+" "+tc.q, func(t *testing.T) {
			got := top(e, tc.q, tc.locale, 3)
			assert.True(t, containsAny(got, tc.anyOf), "%v", got)
		})
	}
	t.Run("a stop word alone is searched", func(t *testing.T) {
		assert.NotEmpty(t, top(e, "the", "en", 3))
	})
	t.Run("weights", func(t *testing.T) {
		w := e.ix.UnitWeights(e.ix.Units(nil, []string{"in", "love"}, false, 1), index.Params{Mask: 1})
		assert.InDelta(t, 0.2, w[0], 1e-6)
		assert.InDelta(t, 1, w[1], 0.1)
		w = e.ix.UnitWeights(e.ix.Units(nil, []string{"in", "the"}, false, 1), index.Params{Mask: 1})
		assert.InDelta(t, 2, w[0]+w[1], 1e-5, "only stop words: all count")
		w = e.ix.UnitWeights(e.ix.Units(nil, []string{"love", "the"}, true, 1), index.Params{Mask: 1, Prefix: true})
		assert.InDelta(t, 1, w[1], 0.5, "the last word, being typed, may become a content word")
	})
}

// Function words never carry a phrase alone (issue 29): a message built on
// "я", "मुझे" or "في" does not answer with the phrases that share only that
// word ("я тебя люблю" for "я заболел"). Each case's result list must hold
// no result whose matched phrase shares only function words with the query.
func TestFunctionWordsNeverCarryAPhrase(t *testing.T) {
	e := allLocales(t)
	for _, tc := range []struct{ locale, q, notMatch string }{
		{"ru", "я заболел", "я тебя люблю"},
		{"ru", "я замерзаю", "я тебя люблю"},
		{"ru", "пойдём играть в футбол", "в ресторан"},
		{"hi", "मुझे बुखार है", "मुझे छोड़ दिया"},
		{"hi", "मैं थक गया हूँ", "जल गया"},
		{"bn", "আমি খুব ক্লান্ত", "আমি তোমাকে ভালোবাসি"},
		{"ar", "في صحتك", "جسر في الليل"},
		{"es", "vamos a jugar al fútbol", "a por ello"},
		{"fr", "je suis malade", "je t'aime"},
		{"pt", "eu estou doente", "eu te amo"},
		{"id", "aku lapar", "aku cinta kamu"},
		{"tr", "ben çok yorgunum", "seni seviyorum"},
		{"zh", "我生病了", "我爱你"},
		{"en", "i am so sick", "i love you"},
	} {
		t.Run(tc.locale+" "+tc.q, func(t *testing.T) {
			out := e.Search(tc.q, Options{Limit: 24, Locale: tc.locale})
			for _, r := range out.Results {
				assert.NotEqual(t, Normalize(tc.notMatch, 0), r.Match, "%s answered through %q", r.Emoji, r.Match)
				assert.False(t, onlyStopShared(e, tc.q, r.Match, tc.locale), "%s answered through %q", r.Emoji, r.Match)
			}
		})
	}
}

// onlyStopShared reports a matched phrase whose words in common with the
// query are all function words of English or the locale.
func onlyStopShared(e *Engine, q, match, locale string) bool {
	words := RankingWords()
	stop := map[string]bool{}
	for _, loc := range []string{"en", locale} {
		for _, w := range words.Stop[loc] {
			stop[w] = true
		}
	}
	qw := map[string]bool{}
	for _, w := range strings.Fields(Normalize(q, 0)) {
		qw[w] = true
	}
	shared := false
	for _, w := range strings.Fields(match) {
		if qw[w] {
			if !stop[w] {
				return false
			}
			shared = true
		}
	}
	return shared
}

// Typo tolerance and shortened words apply to alphabets only: in other
// scripts a weak partial match is worse than none (the query then goes to
// the meaning tier).
func TestNoTyposOutsideAlphabets(t *testing.T) {
	e := allLocales(t)
	for _, tc := range []struct{ locale, q string }{
		{"hi", "शुक्रिया"}, // one edit from शुक्ल (lunar fortnight): moon phases
	} {
		for _, r := range e.Search(tc.q, Options{Limit: 24, Locale: tc.locale}).Results {
			assert.NotEqual(t, "typo", r.Field, "%s: %s %s", tc.q, r.Emoji, r.Match)
		}
	}
	// Latin and Cyrillic keep their typo tolerance.
	assert.Equal(t, "typo", e.Search("birthdya", Options{Limit: 3, Locale: "en"}).Results[0].Field)
	assert.NotEmpty(t, e.Search("кошкка", Options{Limit: 3, Locale: "ru"}).Results)
}

// A query that is a whole phrase, word for word, outranks every match of
// parts of it across phrases.
func TestExactPhraseFloor(t *testing.T) {
	e := allLocales(t)
	for _, tc := range []struct{ locale, q, want string }{
		{"en", "tears of joy", "😂"},
		{"en", "thumbs up", "👍"},
		{"en", "red heart", "❤"},
		{"en", "party popper", "🎉"},
	} {
		out := e.Search(tc.q, Options{Limit: 5, Locale: tc.locale})
		require.NotEmpty(t, out.Results, tc.q)
		assert.Equal(t, tc.want, textKey(out.Results[0].Emoji), tc.q)
		assert.Greater(t, out.Results[0].Score, 0.9, tc.q)
	}
}

func containsAny(got, want []string) bool {
	for _, g := range got {
		for _, w := range want {
			if strings.TrimSuffix(g, "\uFE0F") == strings.TrimSuffix(w, "\uFE0F") {
				return true
			}
		}
	}
	return false
}

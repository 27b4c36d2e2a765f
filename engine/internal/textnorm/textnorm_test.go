package textnorm

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNormalize(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"empty", "", ""},
		{"whitespace", " \t\n ", ""},
		{"shortcode", ":joy:", "joy"},
		{"case and punctuation", "Thumbs-Up!!", "thumbs up"},
		{"apostrophe joins", "don't", "dont"},
		{"latin accents", "Café Crème brûlée", "cafe creme brulee"},
		{"turkish dotted I", "İstanbul KIZ ılık", "istanbul kiz ilik"},
		{"german sharp s", "Straße", "strasse"},
		{"devanagari vowel signs kept", "नमस्ते दुनिया", "नमस्ते दुनिया"},
		{"devanagari nukta composed", "ज़", "ज़"},
		{"bengali vowel signs kept", "বাংলা ভাষা", "বাংলা ভাষা"},
		{"arabic tashkeel and tatweel", "مَرْحَبًا بـــك", "مرحبا بك"},
		{"arabic alef and ta marbuta", "أحمد إسلام مدرسة", "احمد اسلام مدرسه"},
		{"cyrillic yo folds", "Ёлка", "елка"},
		{"cyrillic short i kept", "чай", "чай"},
		{"chinese fullwidth punctuation", "笑哭了！", "笑哭了"},
		{"fullwidth latin", "ｆｕｌｌ", "full"},
		{"emoji only", "😂😂", ""},
		{"control characters", "a\x00b\x1fc", "a b c"},
		{"invalid utf8", "a\xffb", "a b"},
		{"lone surrogate bytes", "a\xed\xa0\x80b", "a b"},
		{"zwj removed", "a\u200db", "ab"},
	} {
		t.Run(tc.name, func(t *testing.T) { assert.Equal(t, tc.want, Normalize(tc.in, MaxQueryLength)) })
	}
}

func TestNormalizeCutsAtMaxLength(t *testing.T) {
	long := strings.Repeat("é", 10_000)
	assert.Equal(t, strings.Repeat("e", MaxQueryLength), Normalize(long, MaxQueryLength))
	assert.Equal(t, "ab", Normalize("abc", 2))
	assert.Equal(t, "abc", Normalize("abc", 0))
}

func TestTokenize(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     []string
	}{
		{"empty", "", nil},
		{"spaces", "face with tears", []string{"face", "with", "tears"}},
		{"script change", "ab型血", []string{"ab", "型血"}},
		{"han run stays whole", "笑哭了", []string{"笑哭了"}},
		{"mixed", "cat 猫 кот", []string{"cat", "猫", "кот"}},
	} {
		t.Run(tc.name, func(t *testing.T) { assert.Equal(t, tc.want, Tokenize(tc.in)) })
	}
}

func TestStem(t *testing.T) {
	for _, tc := range []struct{ a, b string }{
		{"cats", "cat"}, {"running", "run"}, {"dances", "dancing"}, {"berries", "berry"},
		{"kisses", "kiss"}, {"boxes", "box"}, {"кошки", "кошка"}, {"kediler", "kedi"},
		{"hating", "hate"}, {"hated", "hates"}, {"fired", "fire"}, {"smiling", "smile"}, {"writer", "write"},
		{"hopping", "hop"}, {"hoping", "hope"}, {"typing", "type"}, {"nubes", "nube"}, {"cooked", "cook"}, {"cooking", "cooks"},
		{"الكلب", "كلب"}, {"والقمر", "قمر"},
	} {
		t.Run(tc.a, func(t *testing.T) { assert.Equal(t, Stem(tc.b), Stem(tc.a)) })
	}
	// A silent e after a short stem tells words apart.
	for _, pair := range [][2]string{{"hate", "hat"}, {"fire", "fir"}, {"cute", "cut"}, {"plane", "plan"}, {"hope", "hop"}, {"hating", "hat"}} {
		assert.NotEqual(t, Stem(pair[0]), Stem(pair[1]), pair[0]+" / "+pair[1])
	}
	assert.Equal(t, "猫", Stem("猫"), "unspaced text is not stemmed")
	assert.Equal(t, "الم", Stem("الم"), "an article needs two letters after it")
	assert.Equal(t, "والد", Stem("والد"), "and-the needs two letters after it too (father)")
}

func TestBoundedEditDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b      string
		max, want int
	}{
		{"happy", "happy", 2, 0}, {"hapy", "happy", 2, 1}, {"hpapy", "happy", 2, 1},
		{"hppy", "happy", 1, 1}, {"sad", "happy", 2, 3}, {"", "ab", 5, 2}, {"ab", "", 1, 2},
		{"çay", "cay", 1, 1}, {"kitten", "sitting", 3, 3}, {"kitten", "sitting", 2, 3},
	} {
		t.Run(tc.a+"/"+tc.b, func(t *testing.T) { assert.Equal(t, tc.want, BoundedEditDistance(tc.a, tc.b, tc.max)) })
	}
}

// referenceOSA is the optimal-string-alignment distance by the full table,
// unbounded: what BoundedEditDistance must give, capped at max+1.
func referenceOSA(a, b string) int {
	ar, br := []rune(a), []rune(b)
	d := make([][]int, len(ar)+1)
	for i := range d {
		d[i] = make([]int, len(br)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ar); i++ {
		for j := 1; j <= len(br); j++ {
			cost := 1
			if ar[i-1] == br[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ar[i-1] == br[j-2] && ar[i-2] == br[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ar)][len(br)]
}

// FuzzBoundedEditDistance: the bounded distance (common prefix and suffix
// cut, early exit) is the full table's, capped at max+1.
func FuzzBoundedEditDistance(f *testing.F) {
	for _, c := range [][2]string{{"happy", "hpapy"}, {"aab", "aba"}, {"abab", "baba"}, {"caat", "ctaa"}, {"çay", "cay"}, {"ab", "ba"}, {"xaby", "xbay"}, {"", "ab"}} {
		f.Add(c[0], c[1], 2)
	}
	f.Fuzz(func(t *testing.T, a, b string, max int) {
		max = max&3 - 1 // -1..2, as the typo search asks (and the negative case)
		if len([]rune(a)) > 20 || len([]rune(b)) > 20 {
			return
		}
		want := 0
		if max >= 0 {
			want = min(referenceOSA(a, b), max+1)
		}
		require.Equal(t, want, BoundedEditDistance(a, b, max), "%q %q %d", a, b, max)
	})
}

func FuzzNormalize(f *testing.F) {
	for _, s := range []string{"", " ", ":joy:", "Café", "नमस्ते", "مَرْحَبًا", "笑哭了AB", "\xff\xed\xa0\x80", "😂👍🏽"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := Normalize(s, MaxQueryLength)
		// The cut limits input, not output (NFKD can lengthen text), so
		// the fixpoint property holds without it.
		assert.Equal(t, n, Normalize(n, 0), "idempotent")
		assert.False(t, strings.HasPrefix(n, " ") || strings.HasSuffix(n, " ") || strings.Contains(n, "  "))
		for _, tok := range Tokenize(n) {
			assert.NotEmpty(t, tok)
		}
		EmbeddingText(s)
		BoundedEditDistance(s, n, 2)
	})
}

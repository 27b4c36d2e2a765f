package textnorm

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Tokenize splits a normalized string into tokens: at spaces, and where
// unspaced text (Han, kana, Thai) meets other scripts ("ab型血" gives "ab",
// "型血"). Runs of unspaced text stay whole; the engine segments them.
func Tokenize(normalized string) []string {
	if ascii(normalized) {
		// No unspaced script: the fields, one allocation.
		if f := strings.Fields(normalized); len(f) > 0 {
			return f
		}
		return nil
	}
	var out []string
	for _, f := range strings.Fields(normalized) {
		start, prev := 0, -1
		for i, r := range f {
			u := 0
			if Unspaced(r) {
				u = 1
			}
			if prev >= 0 && u != prev {
				out = append(out, f[start:i])
				start = i
			}
			prev = u
		}
		out = append(out, f[start:])
	}
	return out
}

// Unspaced reports letters of scripts written without spaces between words.
func Unspaced(r rune) bool {
	return r >= 0x2E80 && (unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) ||
		unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Thai, r) || r == 0x30FC)
}

// IsUnspaced reports whether a token starts with an unspaced-script letter.
func IsUnspaced(tok string) bool {
	r, _ := utf8.DecodeRuneInString(tok)
	return Unspaced(r)
}

// Stem returns a light stem for matching inflected forms: plural and common
// verb endings for Latin-script words, noun and adjective endings for
// Cyrillic, plural endings for Turkish, the article for Arabic. Other tokens
// are returned as they are.
// Index and query use the same function, so only consistency matters.
func Stem(tok string) string {
	r, _ := utf8.DecodeRuneInString(tok)
	switch {
	case r < 0x250:
		return stemLatin(tok)
	case r >= 0x400 && r < 0x500:
		return stemSuffixes(tok, cyrillicEndings, 3)
	case r >= 0x600 && r < 0x700:
		return stemArabic(tok)
	}
	return tok
}

// arabicArticles are the definite article, alone and after "and" (و):
// "الكلب" is "كلب" (dog) with the article, and keywords mostly come
// without it. The JS client's stem has the same rule in one regular
// expression, kept that small for its size bar.
var arabicArticles = []string{"وال", "ال"}

// stemArabic strips a leading article when at least two letters remain
// (light stemming, as Arabic search engines do).
func stemArabic(tok string) string {
	for _, a := range arabicArticles {
		if rest, ok := strings.CutPrefix(tok, a); ok && utf8.RuneCountInString(rest) >= 2 {
			return rest
		}
	}
	return tok
}

var cyrillicEndings = []string{"ами", "ями", "ого", "его", "ому", "ему", "ыми", "ими", "ов", "ев", "ей", "ой", "ый", "ий", "ая", "яя", "ое", "ее", "ые", "ие", "ом", "ем", "ам", "ям", "ах", "ях", "а", "я", "ы", "и", "о", "е", "у", "ю", "ь"}

var turkishEndings = []string{"leri", "ları", "ler", "lar"}

func stemSuffixes(tok string, endings []string, minRunes int) string {
	for _, e := range endings {
		if strings.HasSuffix(tok, e) && utf8.RuneCountInString(tok)-utf8.RuneCountInString(e) >= minRunes {
			return tok[:len(tok)-len(e)]
		}
	}
	return tok
}

// shortCVC reports a stem whose only vowel is its last but one letter, after
// at least one consonant, and whose last letter is a consonant other than w,
// x or y ("hat", "smil", "writ"; not "cook" or "develop"): Porter's m=1 *o
// condition, where an English word ends in a silent e.
func shortCVC(w string) bool {
	n := len(w)
	return n >= 3 && strings.IndexAny(w, "aeiouy") == n-2 && strings.IndexByte("bcdfghjklmnpqrstvz", w[n-1]) >= 0
}

func stemLatin(w string) string {
	if len(w) < 4 {
		return w
	}
	w = stemSuffixes(w, turkishEndings, 3)
	switch {
	case strings.HasSuffix(w, "ies") && len(w) >= 5:
		w = w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"):
		w = w[:len(w)-2]
	case strings.HasSuffix(w, "shes"), strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "xes"), strings.HasSuffix(w, "zes"):
		w = w[:len(w)-2]
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		w = w[:len(w)-1]
	}
	cut := true // a verb or agent ending was cut ("hating", "writer")
	switch {
	case strings.HasSuffix(w, "ing") && len(w) >= 6:
		w = w[:len(w)-3]
	case strings.HasSuffix(w, "ed") && len(w) >= 5:
		w = w[:len(w)-2]
	case strings.HasSuffix(w, "er") && len(w) >= 6:
		w = w[:len(w)-2]
	default:
		cut = false
	}
	if strings.HasSuffix(w, "y") && len(w) >= 4 {
		w = w[:len(w)-1] + "i"
	}
	// A final e goes ("dance", "dancing": danc), except after a short
	// consonant-vowel-consonant stem, where it tells words apart: "hate" is
	// not "hat", "fire" not "fir"; "hating" and "fired" get their e back.
	if strings.HasSuffix(w, "e") && len(w) >= 4 && !shortCVC(w[:len(w)-1]) {
		w = w[:len(w)-1]
	}
	if n := len(w); n >= 4 && w[n-1] == w[n-2] && strings.IndexByte("bdgklmnprt", w[n-1]) >= 0 {
		w = w[:n-1]
	} else if cut && shortCVC(w) {
		w += "e"
	}
	return w
}

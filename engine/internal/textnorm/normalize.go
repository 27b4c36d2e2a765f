// Package textnorm holds the engine's text rules: normalisation of queries
// and phrases, tokenisation, light stemming and the bounded edit distance.
package textnorm

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// MaxQueryLength is the number of characters of a query that are searched.
const MaxQueryLength = 64

// Normalize lowercases s, folds compatibility forms (NFKC), strips accents
// from Latin letters, removes Arabic tashkeel and tatweel and folds alef/ya/
// ta marbuta variants, and turns punctuation, symbols, emoji and control
// characters into single spaces. Vowel signs of Indic scripts (Devanagari,
// Bengali) and other non-Latin marks are kept. Only the first maxLength
// characters of s are read (maxLength <= 0 means no cut); invalid UTF-8 and
// lone surrogates are dropped. The result has no leading, trailing or
// repeated spaces.
func Normalize(s string, maxLength int) string {
	if maxLength > 0 {
		s = Cut(s, maxLength)
	}
	if ascii(s) {
		return normalizeASCII(s)
	}
	s = strings.ToValidUTF8(s, " ")
	var b strings.Builder
	b.Grow(len(s))
	space := true // suppresses leading and repeated spaces
	prevLatin := false
	var prev rune
	emit := func(r rune) {
		if r == ' ' {
			if !space {
				b.WriteByte(' ')
				space = true
			}
			return
		}
		b.WriteRune(r)
		space = false
	}
	// NFKD splits accents off their letters; marks after a Latin letter are
	// dropped, the others are kept and recomposed by the final NFC pass.
	var it norm.Iter
	it.InitString(norm.NFKD, s)
	for !it.Done() {
		seg := it.Next()
		for len(seg) > 0 {
			r, n := utf8.DecodeRune(seg)
			seg = seg[n:]
			if unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Me, r) {
				if space || prevLatin || isArabicMark(r) || (r == 0x308 && (prev == 'е' || prev == 'і')) {
					continue // marks with no base, Latin accents, tashkeel, ё = е
				}
				b.WriteRune(r)
				continue
			}
			if r == '\'' || r == '’' || r == 'ʼ' || r == 0x640 || r == 0x200C || r == 0x200D || r == 0xFE0F || r == 0xFE0E {
				// Apostrophes join ("don't" = "dont"); tatweel, ZWJ/ZWNJ and
				// variation selectors vanish, as if never there.
				continue
			}
			prevLatin = false
			prev = unicode.ToLower(r)
			switch {
			case unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.Mc, r):
				r = unicode.ToLower(r)
				if f, ok := folds[r]; ok {
					for _, x := range f {
						emit(x)
					}
					prevLatin = true
					continue
				}
				prevLatin = unicode.Is(unicode.Latin, r)
				emit(foldRune(r))
			default:
				emit(' ')
			}
		}
	}
	out := strings.TrimSuffix(b.String(), " ")
	if ascii(out) {
		return out
	}
	return norm.NFC.String(out)
}

// folds are letters NFKD does not decompose but users type without their marks.
var folds = map[rune]string{
	'ß': "ss", 'æ': "ae", 'œ': "oe", 'ø': "o", 'đ': "d", 'ł': "l", 'þ': "th", 'ð': "d", 'ı': "i", 'ħ': "h",
}

func foldRune(r rune) rune {
	switch r {
	case 'ё':
		return 'е'
	case 0x622, 0x623, 0x625, 0x671: // آ أ إ ٱ
		return 0x627 // ا
	case 0x649, 0x6CC: // ى ی
		return 0x64A // ي
	case 0x629: // ة
		return 0x647 // ه
	case 0x6A9: // ک
		return 0x643 // ك
	}
	return r
}

// isArabicMark reports tashkeel and Quranic annotation marks.
func isArabicMark(r rune) bool {
	return (r >= 0x610 && r <= 0x61A) || (r >= 0x64B && r <= 0x65F) || r == 0x670 || (r >= 0x6D6 && r <= 0x6ED)
}

func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func normalizeASCII(s string) string {
	if normalASCII(s) {
		return s // most queries are typed so: no copy
	}
	b := make([]byte, 0, len(s))
	space := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'A' && c <= 'Z':
			c += 'a' - 'A'
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
		case c == '\'':
			continue
		default:
			if !space {
				b = append(b, ' ')
				space = true
			}
			continue
		}
		b = append(b, c)
		space = false
	}
	if len(b) > 0 && b[len(b)-1] == ' ' {
		b = b[:len(b)-1]
	}
	return string(b)
}

// normalASCII reports an ASCII string normalizeASCII leaves as it is:
// lowercase letters and digits in words joined by single spaces.
func normalASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
		case c == ' ' && i > 0 && i < len(s)-1 && s[i-1] != ' ':
		default:
			return false
		}
	}
	return true
}

// Cut returns the first n characters (code points) of s.
func Cut(s string, n int) string {
	i := 0
	for count := 0; i < len(s) && count < n; count++ {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return s[:i]
}

// EmbeddingText is the lighter form sent to the meaning tier: NFC, control
// characters removed, whitespace collapsed, cut to MaxQueryLength characters;
// case, accents, punctuation and emoji are kept.
func EmbeddingText(s string) string {
	s = Cut(strings.ToValidUTF8(s, ""), MaxQueryLength)
	s = norm.NFC.String(s)
	var b strings.Builder
	space := true
	for _, r := range s {
		switch {
		case unicode.IsSpace(r):
			if !space {
				b.WriteByte(' ')
				space = true
			}
		case unicode.IsControl(r) || r == utf8.RuneError:
		default:
			b.WriteRune(r)
			space = false
		}
	}
	return strings.TrimSuffix(b.String(), " ")
}

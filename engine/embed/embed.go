package embed

import (
	"math"
	"unicode/utf8"

	"github.com/emojisearch/emojisearch/engine/internal/textnorm"
)

// MaxInputRunes is how much of one text is read; the rest is ignored.
const MaxInputRunes = 2048

// maxSegmentRunes bounds a vocabulary match inside unspaced text.
const maxSegmentRunes = 8

// Normalize is the form of vocabulary words and of the text before
// tokenisation: the alias engine's normalisation (lowercase, NFKC, Latin
// accents stripped, punctuation and emoji turned into spaces).
func Normalize(s string) string { return textnorm.Normalize(s, MaxInputRunes) }

// Embed returns the unit-length sentence vector of text: the weighted mean
// of its words' vectors, minus the model's common component. Words are
// looked up whole, then by their light stem, then split into two known
// words ("shipit"), then by their longest known prefix (at least 4
// characters and 60% of the word); unspaced text (Han, kana, Thai) is cut by
// longest match against the vocabulary. A text with no known word gives the
// zero vector (cosine 0 against everything). Never panics, whatever the bytes.
func (m *Model) Embed(text string) []float32 {
	out := make([]float32, m.dims)
	if m.pool(out, text) == 0 {
		return out
	}
	var dot float32
	for i, u := range m.common {
		dot += out[i] * u
	}
	for i, u := range m.common {
		out[i] -= dot * u
	}
	normalize(out)
	return out
}

// EmbedAll embeds every text.
func (m *Model) EmbedAll(texts []string) [][]float32 {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = m.Embed(t)
	}
	return out
}

// Tokens returns the vocabulary words Embed uses for text, with their
// effective weights, for debugging and tests.
func (m *Model) Tokens(text string) (words []string, weights []float32) {
	m.each(text, func(i int, f float32) {
		words = append(words, m.word(i))
		weights = append(weights, m.weight(i)*f)
	})
	return words, weights
}

func (m *Model) pool(acc []float32, text string) float32 {
	var total float32
	m.each(text, func(i int, f float32) {
		w := m.weight(i) * f
		m.addRow(acc, i, w)
		total += w
	})
	return total
}

// each calls fn with every word of text found in the vocabulary and the
// factor its weight gets from the way it was found.
func (m *Model) each(text string, fn func(i int, f float32)) {
	for _, tok := range textnorm.Tokenize(Normalize(text)) {
		if textnorm.IsUnspaced(tok) {
			m.segment(tok, fn)
			continue
		}
		if i := m.find(tok); i >= 0 {
			fn(i, 1)
			continue
		}
		if s := textnorm.Stem(tok); s != tok {
			if i := m.find(s); i >= 0 {
				fn(i, 1)
				continue
			}
		}
		if a, b := m.split(tok); a >= 0 {
			fn(a, 0.8)
			fn(b, 0.8)
			continue
		}
		if i := m.prefix(tok); i >= 0 {
			fn(i, 0.5)
		}
	}
}

// segment cuts an unspaced run greedily into the longest known words;
// characters that start no known word are skipped.
func (m *Model) segment(tok string, fn func(i int, f float32)) {
	for tok != "" {
		end, n, found := 0, 0, -1
		for j := range tok {
			if j > 0 {
				if i := m.find(tok[:j]); i >= 0 {
					found, end = i, j
				}
			}
			if n++; n > maxSegmentRunes {
				break
			}
		}
		if n <= maxSegmentRunes {
			if i := m.find(tok); i >= 0 {
				found, end = i, len(tok)
			}
		}
		if found < 0 {
			_, size := utf8.DecodeRuneInString(tok)
			tok = tok[size:]
			continue
		}
		fn(found, 1)
		tok = tok[end:]
	}
}

// split finds two known words that make up tok, preferring the longest
// first part; the word has at least 6 characters, each part at least 2.
func (m *Model) split(tok string) (int, int) {
	n := utf8.RuneCountInString(tok)
	if n < 6 || n > 40 {
		return -1, -1
	}
	cuts := make([]int, 0, n)
	for j := range tok {
		cuts = append(cuts, j)
	}
	for k := n - 2; k >= 2; k-- {
		j := cuts[k]
		if a := m.find(tok[:j]); a >= 0 {
			if b := m.find(tok[j:]); b >= 0 {
				return a, b
			}
		}
	}
	return -1, -1
}

// prefix returns the longest known prefix of tok of at least 4 characters
// covering at least 60% of it.
func (m *Model) prefix(tok string) int {
	n := utf8.RuneCountInString(tok)
	if n < 5 || n > 40 {
		return -1
	}
	cuts := make([]int, 0, n)
	for j := range tok {
		cuts = append(cuts, j)
	}
	for k := n - 1; k >= 4 && float64(k) >= 0.6*float64(n); k-- {
		if i := m.find(tok[:cuts[k]]); i >= 0 {
			return i
		}
	}
	return -1
}

// normalize scales v to unit length in place (a zero vector stays zero).
func normalize(v []float32) {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	if s == 0 || math.IsNaN(s) || math.IsInf(s, 0) {
		clear(v)
		return
	}
	f := float32(1 / math.Sqrt(s))
	for i := range v {
		v[i] *= f
	}
}

// Tokenize returns the tokens Embed looks up for text, before vocabulary
// matching: normalized words, with runs of unspaced script kept whole. Model
// builders use it so that vocabulary and queries agree.
func Tokenize(text string) []string { return textnorm.Tokenize(Normalize(text)) }

// IsUnspaced reports whether a token is unspaced text (Han, kana, Thai) that
// Embed segments against the vocabulary.
func IsUnspaced(tok string) bool { return textnorm.IsUnspaced(tok) }

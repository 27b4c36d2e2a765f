package engine

import "github.com/emojisearch/emojisearch/engine/internal/textnorm"

// MaxQueryLength is MAX_QUERY_LENGTH: characters of a query that are searched.
const MaxQueryLength = textnorm.MaxQueryLength

// Normalize lowercases, strips Latin accents and punctuation, folds Arabic
// tashkeel/tatweel and keeps Indic vowel signs; see the pack format. Only the
// first maxLength characters are read (0: no cut).
//
//	Normalize("  Café :JOY: ", 64) == "cafe joy"
func Normalize(input string, maxLength int) string { return textnorm.Normalize(input, maxLength) }

// Cut returns the first n characters (code points) of s: how a query is
// cut to MaxQueryLength before anything reads it.
func Cut(s string, n int) string { return textnorm.Cut(s, n) }

// Tokenize splits a normalized string into tokens at spaces and script
// changes between spaced and unspaced (Han, kana, Thai) text.
func Tokenize(normalized string) []string { return textnorm.Tokenize(normalized) }

// EmbeddingText is the lighter form for the meaning tier: it keeps case,
// accents, punctuation and emoji; it only cleans whitespace and control
// characters and cuts to MaxQueryLength characters.
func EmbeddingText(input string) string { return textnorm.EmbeddingText(input) }

// BoundedEditDistance is the engine's typo distance (optimal string
// alignment, in characters); max+1 when the distance exceeds max.
func BoundedEditDistance(a, b string, max int) int { return textnorm.BoundedEditDistance(a, b, max) }

// Stem is the light stem of a spaced token, as the index's stem table keys
// it (the pack build's device indexes say which stem each term has).
func Stem(tok string) string { return textnorm.Stem(tok) }

// IsUnspaced reports a token of an unspaced script (Han, kana, Thai), which
// the index splits into characters and pairs instead of stemming.
func IsUnspaced(tok string) bool { return textnorm.IsUnspaced(tok) }

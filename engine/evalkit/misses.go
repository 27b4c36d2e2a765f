package evalkit

import (
	"unicode/utf8"

	"github.com/emojisearch/emojisearch/engine"
	"github.com/emojisearch/emojisearch/engine/packfmt"
)

// QueryClass is where a full query's gold stands (the error analysis of
// issue 29): placed by rank, or, when absent, by what answered instead.
type QueryClass int

// Query classes, best first. The absent classes read the first result's
// field: a typo match or a related word only means no phrase holds the
// word; a dictionary or editorial phrase means the word names other emoji.
const (
	GoldFirst        QueryClass = iota // the gold leads
	GoldTop3                           // at 2–3: order
	GoldTop10                          // at 4–10: order
	GoldTop24                          // at 11–24: ranked low
	NoResult                           // nothing answers
	AbsentTypo                         // a typo match leads: the word is unknown
	AbsentRelated                      // only related words answer
	AbsentDictionary                   // a dictionary phrase of the word names other emoji
	AbsentEditorial                    // an editorial phrase of the word names other emoji
	numQueryClasses
)

// TypingClass is where the first three characters of a query leave its
// gold (prefix on).
type TypingClass int

// Typing classes.
const (
	TypingHit          TypingClass = iota // the gold in the top 10
	TypingFullMiss                        // the full query misses it too: vocabulary, not ranking
	TypingBelow10                         // the gold completes, below place 10: completion order
	TypingNotCompleted                    // the gold is not among the first 200 completions
	numTypingClasses
)

// Limits of the error analysis: a full query is placed within the service's
// default limit, a prefix's gold is looked for among this many completions.
const (
	missLimit       = engine.DefaultLimit
	completionLimit = 200
	typedChars      = 3
)

// MissReport counts a set's queries per class.
type MissReport struct {
	N       int
	Query   [numQueryClasses]int
	TypingN int // queries of at least typedChars characters
	Typing  [numTypingClasses]int
}

// ClassifyQuery places the gold in a full query's results (limit
// missLimit, prefix off).
func ClassifyQuery(results []engine.Result, gold map[string]bool) QueryClass {
	switch r := rank(results, gold); {
	case r == 1:
		return GoldFirst
	case r >= 2 && r <= 3:
		return GoldTop3
	case r >= 4 && r <= 10:
		return GoldTop10
	case r > 10:
		return GoldTop24
	case len(results) == 0:
		return NoResult
	}
	switch results[0].Field {
	case packfmt.Fields[packfmt.FieldTypo]:
		return AbsentTypo
	case packfmt.Fields[packfmt.FieldLow]:
		return AbsentRelated
	case packfmt.Fields[packfmt.FieldEditorial], packfmt.Fields[packfmt.FieldEditorialMore]:
		return AbsentEditorial
	}
	return AbsentDictionary
}

// ClassifyTyping places the gold in the completions of a query's first
// characters (limit completionLimit, prefix on), given the full query's
// top 10 (prefix off).
func ClassifyTyping(completions, full []engine.Result, gold map[string]bool) TypingClass {
	r := rank(completions, gold)
	switch {
	case r >= 1 && r <= 10:
		return TypingHit
	case rank(full[:min(len(full), 10)], gold) == 0:
		return TypingFullMiss
	case r > 10:
		return TypingBelow10
	}
	return TypingNotCompleted
}

// Misses runs the error analysis of a set in one locale.
func Misses(eng *engine.Engine, rows []Row, locale string) MissReport {
	var m MissReport
	for _, row := range rows {
		gold := map[string]bool{}
		for _, g := range row.Gold {
			gold[key(g)] = true
		}
		full := eng.Search(row.Q, engine.Options{Limit: missLimit, Locale: locale}).Results
		m.N++
		m.Query[ClassifyQuery(full, gold)]++
		if utf8.RuneCountInString(row.Q) < typedChars {
			continue
		}
		prefix := Prefixes(row.Q, typedChars)[0]
		completions := eng.Search(prefix, engine.Options{Limit: completionLimit, Locale: locale, Prefix: true}).Results
		m.TypingN++
		m.Typing[ClassifyTyping(completions, full, gold)]++
	}
	return m
}

package engine

import (
	"slices"

	"github.com/emojisearch/emojisearch/engine/internal/index"
	"github.com/emojisearch/emojisearch/engine/packfmt"
	"sync"
	"unicode/utf8"
)

// The shortest queries are the dearest and the most repeated: while typing,
// every search starts with one or two characters, and a one-letter prefix
// completes into hundreds of words and thousands of phrases (in the typing
// trace of the dev sets, the queries of at most two characters are 29 % of
// the searches and 44 % of the search time, and five in six of them repeat
// an earlier one). An engine never changes once built, so the answer to a
// query depends only on the query and the options: the engine keeps the
// answers to queries of at most shortQueryRunes characters, bounded by
// shortCacheMax (emptied when full), and returns copies. A kept answer is
// its results slice (about 2.5 KB at the default limit of 24; the strings
// point into the index), so the cache stays under about 10 MB.
const (
	shortQueryRunes = 2
	shortCacheMax   = 4096
)

type shortKey struct {
	query, locale string
	limit         int
	prefix        bool
}

// shortCache is safe for concurrent use (the native service shares one
// engine between requests).
type shortCache struct {
	mu sync.Mutex
	m  map[shortKey]shortAnswer
}

// shortAnswer is a kept answer without its results, which are kept as
// shortHits: a kept Result holds six strings, and the collector scanned
// every pointer of every kept answer at each cycle (about 3,300 answers in
// the typing trace, 480,000 pointers), a cost each search's allocation
// paid in assists, most of all under js/wasm. The strings are read again
// from the index when the answer is given out (as search reads them).
type shortAnswer struct {
	out  Output // Results nil
	hits []shortHit
}

// shortHit is one result of a kept answer: its entry, score and field, and
// what it matched (a phrase of the index, or the emoji or emoticon written
// in the query).
type shortHit struct {
	score  float64
	entry  int32
	phrase int32 // kind shortPhrase: the phrase, in segment seg
	field  uint8
	seg    uint8
	kind   uint8
}

// What a kept result matched, so its Match is read again as search did.
const (
	shortPhrase = iota // index.Engine.HitText
	shortEmoji         // the emoji itself
	shortSymbol        // the emoticon key of the query
)

// shortKeyOf returns the cache key of a query, or false for a query too long
// to cache. The key is the raw query: emoji and symbols are read from it.
func shortKeyOf(query string, opts Options) (shortKey, bool) {
	if len(query) > shortQueryRunes*utf8.UTFMax || utf8.RuneCountInString(query) > shortQueryRunes {
		return shortKey{}, false
	}
	return shortKey{query, opts.Locale, opts.Limit, opts.Prefix}, true
}

// get returns a copy of a kept answer, its results built again into the
// engine's slab (a caller's copy).
func (e *Engine) shortGet(k shortKey) (Output, bool) {
	c := e.short
	c.mu.Lock()
	a, ok := c.m[k]
	c.mu.Unlock()
	if !ok {
		return Output{}, false
	}
	out := a.out
	out.Tokens = slices.Clone(out.Tokens)
	out.Results = e.slab.take(len(a.hits))
	loc := e.maskOf(Language(k.locale)).loc
	for _, h := range a.hits {
		ent := &e.ix.Entries[h.entry]
		var match string
		switch h.kind {
		case shortEmoji:
			match = ent.Emoji
		case shortSymbol:
			match = index.SymbolKey(k.query)
		default:
			match = e.ix.HitText(index.Hit{Phrase: h.phrase, Seg: h.seg})
		}
		out.Results = addResult(out.Results, ent, h.score, e.ix.ShownLabel(loc, h.entry), match, packfmt.Fields[h.field])
	}
	return out, true
}

// put keeps an answer (its Results described by hits, as search built them).
func (c *shortCache) put(k shortKey, out Output, hits []shortHit) {
	out.Tokens = slices.Clone(out.Tokens)
	out.Results = nil
	c.mu.Lock()
	if c.m == nil || len(c.m) >= shortCacheMax {
		c.m = make(map[shortKey]shortAnswer, 64)
	}
	c.m[k] = shortAnswer{out: out, hits: slices.Clone(hits)}
	c.mu.Unlock()
}

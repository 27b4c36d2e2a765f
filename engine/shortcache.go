package engine

import (
	"slices"
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
	m  map[shortKey]Output
}

// shortKeyOf returns the cache key of a query, or false for a query too long
// to cache. The key is the raw query: emoji and symbols are read from it.
func shortKeyOf(query string, opts Options) (shortKey, bool) {
	if len(query) > shortQueryRunes*utf8.UTFMax || utf8.RuneCountInString(query) > shortQueryRunes {
		return shortKey{}, false
	}
	return shortKey{query, opts.Locale, opts.Limit, opts.Prefix}, true
}

// get returns a copy of a kept answer, its results from the engine's slab
// (a caller's copy; the kept answers never live in the slab's blocks).
func (c *shortCache) get(k shortKey, slab *resultSlab) (Output, bool) {
	c.mu.Lock()
	out, ok := c.m[k]
	c.mu.Unlock()
	if !ok {
		return Output{}, false
	}
	out.Tokens = slices.Clone(out.Tokens)
	out.Results = append(slab.take(len(out.Results)), out.Results...)
	return out, true
}

func (c *shortCache) put(k shortKey, out Output) {
	c.mu.Lock()
	if c.m == nil || len(c.m) >= shortCacheMax {
		c.m = make(map[shortKey]Output, 64)
	}
	c.m[k] = out.clone()
	c.mu.Unlock()
}

// clone copies the slices of an output, so a caller may change its copy.
func (o Output) clone() Output {
	o.Tokens = slices.Clone(o.Tokens)
	o.Results = slices.Clone(o.Results)
	return o
}

package engine

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/emojisearch/emojisearch/engine/internal/index"
	"github.com/emojisearch/emojisearch/engine/internal/textnorm"
	"github.com/emojisearch/emojisearch/engine/packfmt"
)

// DefaultLimit is the number of results when Options.Limit is 0.
const DefaultLimit = 24

// Options of a search. Use DefaultOptions and change fields: the zero value
// has Prefix off.
type Options struct {
	Limit  int    // results; 0 means DefaultLimit
	Locale string // preferred language (BCP 47 tag or language); "" searches every loaded locale alike
	Prefix bool   // treat the last word as a prefix (while typing)
}

// DefaultOptions returns Limit 24, no locale, Prefix on.
func DefaultOptions() Options { return Options{Limit: DefaultLimit, Prefix: true} }

// Result is an AliasResult (spec 3).
type Result struct {
	Emoji  string  `json:"emoji"`
	ID     string  `json:"id"`
	Score  float64 `json:"score"`
	Source string  `json:"source"`
	Label  string  `json:"label"`
	Match  string  `json:"match"`
	Field  string  `json:"field"`
}

// Output is a CanonicalSearchOutput.
type Output struct {
	Query      string   `json:"query"`
	Tokens     []string `json:"tokens"`
	Results    []Result `json:"results"`
	Confidence float64  `json:"confidence"`
}

// relaxBelow: a search with fewer direct matches also runs the relaxed pass.
const relaxBelow = 1

// Search ranks emoji for a query: exact names and shortcodes first (":joy:"
// and "joy" give 😂), then strong keywords, with typo tolerance that never
// outranks an exact match and a popularity prior for near ties. Emoji in the
// query are returned first. It never panics and reads at most MaxQueryLength
// characters of the query.
func (e *Engine) Search(query string, opts Options) Output {
	if opts.Limit <= 0 {
		opts.Limit = DefaultLimit
	}
	key, short := shortKeyOf(query, opts)
	if short {
		if out, ok := e.shortGet(key); ok {
			return out
		}
		var keep []shortHit
		out := e.search(query, opts, &keep)
		e.short.put(key, out, keep)
		return out
	}
	return e.search(query, opts, nil)
}

// search is Search without the cache of short queries. With keep, it
// describes each result for the cache (shortHit; its score copied from the
// result, so the two never differ).
func (e *Engine) search(query string, opts Options, keep *[]shortHit) Output {
	q := textnorm.Normalize(query, MaxQueryLength)
	out := Output{Query: q, Tokens: textnorm.Tokenize(q), Results: []Result{}}
	m := e.maskOf(Language(opts.Locale))
	p := index.Params{Limit: opts.Limit, Prefix: opts.Prefix, Loc: m.loc, Mask: m.mask, MinCoverage: float32(e.cfg.minCoverage)}
	// The emoji and symbols of the query, answered first: a few at most, so a
	// slice (a map per search cost more, most of all under js/wasm). Both
	// match the whole raw query, so they score 1: fusion keeps them on top
	// ("<3" is ❤️ before the keycap the word "3" finds).
	var seen []int32
	for _, ei := range e.emojiIn(query) {
		if !slices.Contains(seen, ei) && len(out.Results) < opts.Limit {
			seen = append(seen, ei)
			ent := &e.ix.Entries[ei]
			out.Results = addResult(out.Results, ent, 1, e.ix.ShownLabel(p.Loc, ei), ent.Emoji, packfmt.Fields[packfmt.FieldName])
			if keep != nil {
				*keep = append(*keep, shortHit{score: out.Results[len(out.Results)-1].Score, entry: ei, field: packfmt.FieldName, kind: shortEmoji})
			}
		}
	}
	for _, sym := range e.ix.Symbols(query) {
		if p.Mask&(1<<sym.Loc) != 0 && !slices.Contains(seen, sym.Entry) && len(out.Results) < opts.Limit {
			seen = append(seen, sym.Entry)
			ent := &e.ix.Entries[sym.Entry]
			out.Results = addResult(out.Results, ent, 1, e.ix.ShownLabel(p.Loc, sym.Entry), index.SymbolKey(query), packfmt.Fields[sym.Field])
			if keep != nil {
				*keep = append(*keep, shortHit{score: out.Results[len(out.Results)-1].Score, entry: sym.Entry, field: sym.Field, kind: shortSymbol})
			}
		}
	}
	var ubuf [index.MaxUnits]index.Unit
	units := e.ix.Units(ubuf[:0], out.Tokens, opts.Prefix, p.Mask)
	var buf [2 * DefaultLimit]index.Hit // the hits of both passes, on the stack at the default limit
	hits := e.ix.Search(buf[:0], units, p)
	if len(hits) < relaxBelow && len(units) > 0 && len(out.Results) == 0 {
		// Few or no matches: add those of a relaxed pass (compounds split,
		// wider typos, shortened words, any coverage), ranked after them.
		p.Relaxed = true
		floor := float32(1)
		for _, h := range hits {
			floor = min(floor, h.Score)
		}
		n := len(hits)
		hits = e.ix.Search(hits, e.ix.Relax(units, p.Mask), p)
		kept := n
		for _, h := range hits[n:] {
			if !slices.ContainsFunc(hits[:kept], func(x index.Hit) bool { return x.Entry == h.Entry }) {
				h.Score = min(h.Score, floor*0.99)
				hits[kept] = h
				kept++
			}
		}
		hits = hits[:kept]
	}
	if n := len(out.Results) + min(len(hits), opts.Limit-len(out.Results)); n > 0 {
		out.Results = append(e.slab.take(n), out.Results...)
	}
	for _, h := range hits {
		if len(out.Results) >= opts.Limit || slices.Contains(seen, h.Entry) {
			continue
		}
		ent := &e.ix.Entries[h.Entry]
		out.Results = addResult(out.Results, ent, float64(min(h.Score, 1)), e.ix.ShownLabel(p.Loc, h.Entry), e.ix.HitText(h), packfmt.Fields[h.Field])
		if keep != nil {
			*keep = append(*keep, shortHit{score: out.Results[len(out.Results)-1].Score, entry: h.Entry, phrase: h.Phrase, field: h.Field, seg: h.Seg, kind: shortPhrase})
		}
	}
	if len(out.Results) > 0 {
		out.Confidence = out.Results[0].Score
	}
	return out
}

// addResult appends the result of an entry field by field: a Result
// literal (seven fields) is built on the stack and copied in with a typed
// memmove, which under js/wasm is a call, and a bulk write barrier
// whenever the collector is marking; up to 24 times per search.
func addResult(rs []Result, ent *index.Entry, score float64, label, match, field string) []Result {
	if len(rs) < cap(rs) {
		rs = rs[:len(rs)+1] // a zeroed slot of the slab (or of append's growth)
	} else {
		rs = append(rs, Result{})
	}
	r := &rs[len(rs)-1]
	r.Emoji, r.ID, r.Score, r.Source, r.Label, r.Match, r.Field = ent.Emoji, ent.ID, score, "alias", label, match, field
	return rs
}

// asciiText reports a text of ASCII characters only.
func asciiText(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// emojiIn finds known emoji written in the query (first MaxQueryLength characters).
func (e *Engine) emojiIn(query string) []int32 {
	if asciiText(query) {
		return nil // the loop below reads only characters from U+0080 up
	}
	var found []int32
	var run strings.Builder
	flush := func() {
		if run.Len() == 0 {
			return
		}
		s := run.String()
		run.Reset()
		if i, ok := e.ix.Lookup(s); ok {
			found = append(found, i)
			return
		}
		for _, r := range s {
			if i, ok := e.ix.Lookup(string(r)); ok {
				found = append(found, i)
			}
		}
	}
	n := 0
	for _, r := range query {
		if n++; n > MaxQueryLength {
			break
		}
		if r < 0x80 || unicode.IsLetter(r) || unicode.IsSpace(r) || unicode.IsNumber(r) && r < 0x2000 {
			flush()
			continue
		}
		run.WriteRune(r)
	}
	flush()
	return found
}

// Language maps a BCP 47 tag to its lowercase language subtag ("pt-BR" is "pt").
func Language(tag string) string {
	tag = strings.ToLower(strings.TrimSpace(tag))
	if i := strings.IndexAny(tag, "-_"); i >= 0 {
		tag = tag[:i]
	}
	return tag
}

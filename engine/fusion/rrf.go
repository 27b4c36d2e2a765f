package fusion

import (
	"math"
	"slices"

	"github.com/emojisearch/emojisearch/engine"
	"github.com/emojisearch/emojisearch/engine/embed"
)

// Options tune FuseResults (spec 3, fuseResults). A zero field takes its
// default, so Options{} is the spec's defaults.
type Options struct {
	// K is the reciprocal-rank constant: rank r (from 0) adds
	// weight / (K + r + 1). Default 60.
	K float64
	// PinScore: alias results scoring at least this keep their alias order
	// on top, so confident answers do not jump when semantic results
	// arrive. Default 0.9; a value above 1 pins nothing.
	PinScore float64
	// AliasFloor drops alias results scoring below it. Default off (0).
	AliasFloor float64
	// AliasWeight and SemanticWeight scale each list's contributions.
	// Default 1 each.
	AliasWeight, SemanticWeight float64
}

func (o Options) withDefaults() Options {
	o.K = positiveOr(o.K, 60)
	o.PinScore = positiveOr(o.PinScore, 0.9)
	o.AliasWeight = positiveOr(o.AliasWeight, 1)
	o.SemanticWeight = positiveOr(o.SemanticWeight, 1)
	if math.IsNaN(o.AliasFloor) {
		o.AliasFloor = 0
	}
	return o
}

// positiveOr returns f when it is a finite positive number, else def:
// a negative or NaN weight would invert or poison the ranking.
func positiveOr(f, def float64) float64 {
	if f > 0 && !math.IsInf(f, 1) {
		return f
	}
	return def
}

// FuseResults merges alias results and semantic hits with weighted
// reciprocal-rank fusion (spec 3, fuseResults) and returns every distinct
// emoji, best first: the pinned alias results in alias order, then the rest
// by fused score (ties keep alias-then-semantic list order).
//
// An emoji appears once: duplicates are matched by engine.BaseID of the id
// (of the emoji's hexcode when the id is empty), so skin-tone variants
// collapse onto one entry. The first occurrence in a list wins, and an emoji
// in both lists keeps its alias item (source "alias") and gets both
// contributions. Entries with neither id nor emoji are dropped.
func FuseResults(alias []engine.Result, semantic []Hit, opts Options) []Item {
	es := fuseEntries(alias, semantic, opts.withDefaults())
	out := make([]Item, len(es))
	for i, e := range es {
		out[i] = e.item
	}
	return out
}

// entry is one fused emoji with what the ordering rules of Fuse read.
type entry struct {
	item    Item
	key     string  // base id
	rank    float64 // fused reciprocal-rank score
	pinned  bool
	alias   bool    // in the dictionary results
	cosine  float64 // semantic entries only
	ordinal int     // first-seen order, for stable ties
}

// fuseEntries does the fusion of FuseResults on defaulted options.
func fuseEntries(alias []engine.Result, semantic []Hit, o Options) []entry {
	byKey := make(map[string]int, len(alias)+len(semantic))
	es := make([]entry, 0, len(alias)+len(semantic))
	rank := 0
	for _, r := range alias {
		k := key(r.ID, r.Emoji)
		if k == "" || (o.AliasFloor > 0 && !(r.Score >= o.AliasFloor)) {
			continue
		}
		if _, dup := byKey[k]; dup {
			continue
		}
		score := embed.Clamp01(r.Score)
		src := r.Source
		if src == "" {
			src = SourceAlias
		}
		e := entry{
			item:  Item{Emoji: r.Emoji, ID: r.ID, Score: score, Source: src, Label: r.Label, Match: r.Match, Field: r.Field},
			key:   k,
			alias: true, pinned: r.Score >= o.PinScore,
			ordinal: len(es),
		}
		if !e.pinned {
			e.rank = o.AliasWeight / (o.K + float64(rank) + 1)
		}
		rank++
		byKey[k] = len(es)
		es = append(es, e)
	}
	seen := make(map[string]bool, len(semantic))
	rank = 0
	for _, h := range semantic {
		k := key(h.ID, h.Emoji)
		if k == "" || seen[k] {
			continue
		}
		seen[k] = true
		c := o.SemanticWeight / (o.K + float64(rank) + 1)
		rank++
		if i, ok := byKey[k]; ok {
			if !es[i].pinned {
				es[i].rank += c
			}
			continue
		}
		byKey[k] = len(es)
		es = append(es, entry{
			item:    Item{Emoji: h.Emoji, ID: h.ID, Score: embed.Clamp01(h.Cosine), Source: SourceSemantic},
			key:     k,
			rank:    c,
			cosine:  h.Cosine,
			ordinal: len(es),
		})
	}
	slices.SortStableFunc(es, func(a, b entry) int {
		switch {
		case a.pinned != b.pinned:
			if a.pinned {
				return -1
			}
			return 1
		case a.pinned: // both pinned: alias order
			return a.ordinal - b.ordinal
		case a.rank > b.rank:
			return -1
		case a.rank < b.rank:
			return 1
		}
		return a.ordinal - b.ordinal
	})
	return es
}

// key is the dedupe key: the base id, from the emoji's hexcode when the id
// is missing.
func key(id, emoji string) string {
	if id == "" {
		if emoji == "" {
			return ""
		}
		id = engine.HexcodeOf(emoji)
	}
	return engine.BaseID(id)
}

package culture

import (
	"cmp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/emojisearch/emojisearch/engine"
)

// matches reports how a normalized query matches a trigger: 2 when equal,
// 1 when the trigger is a whole-word phrase of the query (for triggers in
// scripts written without spaces, such as Han, a substring of at least two
// characters: a one-character trigger matches only itself), 0 otherwise.
func matches(query, trigger string) int {
	if query == "" || trigger == "" {
		return 0
	}
	if query == trigger {
		return 2
	}
	if !strings.Contains(query, trigger) {
		return 0
	}
	if unspaced(trigger) {
		if utf8.RuneCountInString(trigger) >= 2 {
			return 1
		}
		return 0
	}
	q, t := engine.Tokenize(query), engine.Tokenize(trigger)
	for i := 0; i+len(t) <= len(q); i++ {
		if slices.Equal(q[i:i+len(t)], t) {
			return 1
		}
	}
	return 0
}

func unspaced(s string) bool {
	for _, r := range s {
		if unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Thai) {
			return true
		}
	}
	return false
}

func inScope(e Entry, region string) bool {
	return region != "" && slices.Contains(e.Regions, strings.ToUpper(region))
}

// eligible: active on day and, for regional entries, in scope of region.
func eligible(e Entry, day, region string) bool {
	if e.Kind == KindRegional && !inScope(e, region) {
		return false
	}
	return IsActiveOn(e, day)
}

func resultOf(e Entry, trigger string) Result {
	return Result{Emoji: e.Emoji, ID: e.Hexcode, Score: e.Weight, Source: Source, Match: trigger, Field: Field, Context: e.Context, CultureID: e.ID}
}

// MatchCulture returns the culture results of a query (spec 3 matchCulture):
// entries with a trigger equal to the normalized query or contained in it
// as a phrase, active on day, and, for regional entries, with region in
// their scope. One result per emoji, by weight (then exact matches, then
// id); Score is the entry weight.
func MatchCulture(c *File, query, day, region string) []Result {
	if c == nil {
		return nil
	}
	q := engine.Normalize(query, engine.MaxQueryLength)
	type hit struct {
		r     Result
		exact int
	}
	var hits []hit
	for _, e := range c.Entries {
		if !eligible(e, day, region) {
			continue
		}
		best, trig := 0, ""
		for _, t := range e.Triggers {
			if m := matches(q, t); m > best {
				best, trig = m, t
			}
		}
		if best > 0 {
			hits = append(hits, hit{resultOf(e, trig), best})
		}
	}
	slices.SortStableFunc(hits, func(a, b hit) int {
		return cmp.Or(cmp.Compare(b.r.Score, a.r.Score), cmp.Compare(b.exact, a.exact), cmp.Compare(a.r.CultureID, b.r.CultureID))
	})
	out := make([]Result, 0, len(hits))
	seen := map[string]bool{}
	for _, h := range hits {
		id := engine.BaseID(h.r.ID)
		if !seen[id] {
			seen[id] = true
			out = append(out, h.r)
		}
	}
	return out
}

// MatchRegionalLead applies the regional-lead rule (rule 3, spec 3
// matchRegionalLead): a regional entry active on day, whose scope contains
// region, for a query equal to one of its triggers, and above a canonical
// answer it names (topID is in the entry's Over), leads the list. It returns
// the culture result to put first, the canonical answer going second; false
// without region, with a region outside every scope, when no such entry
// names topID, or when the best such entry's emoji already is topID.
func MatchRegionalLead(c *File, query, topID, day, region string) (Result, bool) {
	if c == nil || region == "" || topID == "" {
		return Result{}, false
	}
	q := engine.Normalize(query, engine.MaxQueryLength)
	var best *Entry
	for i := range c.Entries {
		e := &c.Entries[i]
		if e.Kind != KindRegional || !eligible(*e, day, region) || !slices.Contains(e.Triggers, q) {
			continue
		}
		if !slices.ContainsFunc(e.Over, func(id string) bool { return sameID(id, topID) }) {
			continue
		}
		if best == nil || e.Weight > best.Weight {
			best = e
		}
	}
	if best == nil || sameID(best.Hexcode, topID) {
		return Result{}, false
	}
	return resultOf(*best, q), true
}

func sameID(a, b string) bool { return engine.BaseID(a) == engine.BaseID(b) }

// InsertCulture places culture results right after the top canonical result
// (rule 2, spec 3 insertCulture): custom results stay first, then the top
// canonical result, then at most MaxInserted culture results, then the other
// canonical results; the list is then cut to limit (<= 0: no cut). A culture
// result for the top result's emoji is dropped; a later canonical result for
// a culture result's emoji is dropped, the emoji keeping its culture place.
func InsertCulture(results, cultureResults []Result, limit int) []Result {
	return place(results, nil, cultureResults, limit)
}

// place is InsertCulture with an optional lead put before the top canonical
// result.
func place(results []Result, lead *Result, cultureResults []Result, limit int) []Result {
	var custom, canon []Result
	for _, r := range results {
		if r.Source == SourceCustom {
			custom = append(custom, r)
		} else {
			canon = append(canon, r)
		}
	}
	out := make([]Result, 0, len(results)+MaxInserted+1)
	out = append(out, custom...)
	used := map[string]bool{}
	n := 0 // culture results placed
	if lead != nil {
		out = append(out, *lead)
		used[engine.BaseID(lead.ID)] = true
		n++
	}
	if len(canon) > 0 && !used[engine.BaseID(canon[0].ID)] {
		out = append(out, canon[0])
		used[engine.BaseID(canon[0].ID)] = true
	}
	for _, r := range cultureResults {
		if n >= MaxInserted {
			break
		}
		id := engine.BaseID(r.ID)
		if used[id] {
			continue
		}
		used[id] = true
		out = append(out, r)
		n++
	}
	for _, r := range canon {
		if !used[engine.BaseID(r.ID)] {
			out = append(out, r)
		}
	}
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out
}

// ApplyCulture applies the culture rules of spec 1 to a canonical answer
// (spec 3 applyCulture): results are the canonical (fused) results, custom
// ones first, as the shared cache holds them (rule 5: culture is applied
// after the cache). A regional lead (MatchRegionalLead) goes first with the
// canonical answer second; other culture results follow the top canonical
// result, at most MaxInserted culture results in all, and the list is cut to
// opts.Limit. With a nil file the results are only cut.
func ApplyCulture(c *File, query string, results []Result, opts Options) []Result {
	if c == nil {
		return place(results, nil, nil, opts.Limit)
	}
	topID := ""
	for _, r := range results {
		if r.Source != SourceCustom {
			topID = r.ID
			break
		}
	}
	var lead *Result
	if r, ok := MatchRegionalLead(c, query, topID, opts.Day, opts.Region); ok {
		lead = &r
	}
	return place(results, lead, MatchCulture(c, query, opts.Day, opts.Region), opts.Limit)
}

// RelevantNow lists the featured entries active on day (spec 3 relevantNow):
// seasonal and event entries, and dated regional entries in scope of region,
// by weight then id, one per emoji, at most limit (<= 0: all).
func RelevantNow(c *File, day, region string, limit int) []Featured {
	if c == nil {
		return nil
	}
	var es []Entry
	for _, e := range c.Entries {
		if len(e.Windows) == 0 || !eligible(e, day, region) {
			continue
		}
		es = append(es, e)
	}
	slices.SortStableFunc(es, func(a, b Entry) int {
		return cmp.Or(cmp.Compare(b.Weight, a.Weight), cmp.Compare(a.ID, b.ID))
	})
	out := []Featured{}
	seen := map[string]bool{}
	for _, e := range es {
		if limit > 0 && len(out) >= limit {
			break
		}
		id := engine.BaseID(e.Hexcode)
		if seen[id] {
			continue
		}
		seen[id] = true
		out = append(out, Featured{Emoji: e.Emoji, Hexcode: e.Hexcode, Context: e.Context, CultureID: e.ID})
	}
	return out
}

package index

import (
	"math/bits"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/emojisearch/emojisearch/engine/internal/textnorm"
	"github.com/emojisearch/emojisearch/engine/packfmt"
)

// Match qualities of one query unit against one phrase token.
const (
	qExact   = 1.0
	qStem    = 0.82
	qPrefix  = 0.62 // plus up to 0.3 by the share of the term typed
	qBigram  = 0.75 // an unspaced two-character unit inside a longer word
	qUnigram = 0.5  // an unspaced character inside a word
)

// prefixFanout is the number of completions above which short prefixes only
// complete short words.
const prefixFanout = 256

func (ix *Index) matchUnit(s *scratch, ui int8, u Unit, last bool, p Params) {
	matched := false
	s.narrow = last && ui > 0 && len(u.Text) < narrowBelow && len(s.touchedP) > 0
	var counted, many uint64 // by main segment: completions counted, more than prefixFanout
	var ranges prefixRanges  // the last unit's completions in each segment, found once
	if last && strings.HasPrefix(u.Text, s.prevText) {
		// Typing on: the word's completions lie within those of the
		// previous keystroke's last word (or any earlier search's), and
		// are not many where those were not.
		ranges.within = &s.prevRanges
		counted = s.prevCounted &^ s.prevMany
	}
	stem := "" // the same in every segment: stemmed once
	if !u.Unspaced {
		stem = textnorm.Stem(u.Text)
	}
	for {
		for si, seg := range ix.segs {
			if p.Mask&(1<<si) == 0 {
				continue
			}
			// A short prefix of a long word says little: with many candidates
			// in the locale, only words at most four times the prefix's length
			// complete it.
			maxLen := 0
			if main := ix.locSegs[si][0]; last {
				if counted&(1<<main) == 0 {
					counted |= 1 << main
					if ix.manyCompletions(main, u.Text, &ranges) {
						many |= 1 << main
					}
				}
				if many&(1<<main) != 0 {
					maxLen = 4 * len(u.Text)
				}
			}
			matched = ix.matchSegment(s, si, seg, ui, u, stem, last, maxLen, &ranges, p) || matched
		}
		if matched || !s.narrow {
			break
		}
		s.narrow = false // no phrase matched so far goes on with it: it completes as a first word would
	}
	if last {
		ranges.within = nil
		s.prevRanges, s.prevText, s.prevCounted, s.prevMany = ranges, u.Text, counted, many
	}
	if matched || u.Unspaced || !alphabetic(u.Text) {
		return
	}
	// Typo tolerance only for a unit nothing else matched, so it never
	// outranks an exact match of the same word.
	n := utf8.RuneCountInString(u.Text)
	if n < 4 && !(p.Relaxed && n == 3) {
		return
	}
	maxD := 1
	if n >= 8 || (p.Relaxed && n >= 5) {
		maxD = 2
	}
	for si, seg := range ix.segs {
		if p.Mask&(1<<si) != 0 {
			matched = ix.matchTypos(s, si, seg, ui, u.Text, maxD, p) || matched
		}
	}
	if matched || !p.Relaxed {
		return
	}
	// Last resort: the longest shortened form (at least 3 bytes) that
	// starts some words ("academic" finds "academy").
	for cut := len(u.Text) - 1; cut >= 3 && !matched; cut-- {
		if !utf8.RuneStart(u.Text[cut]) {
			continue
		}
		for si := range ix.segs {
			if p.Mask&(1<<si) == 0 || ix.locSegs[si][0] != si {
				continue // once per locale, from its main segment
			}
			// The first 64 words of the locale with that start.
			var at [2]int
			cur := at[:0]
			for _, sj := range ix.locSegs[si] {
				lo, _ := ix.segs[sj].terms.prefixRange(u.Text[:cut])
				cur = append(cur, lo)
			}
			for range 64 {
				key, ok := ix.nextCompletion(si, u.Text[:cut], cur)
				if !ok {
					break
				}
				q := 0.7 * float32(cut) / float32(max(len(key), len(u.Text)))
				for j, sj := range ix.locSegs[si] {
					if terms := &ix.segs[sj].terms; cur[j] < terms.keys.len() && terms.keys.at(cur[j]) == key {
						matched = ix.addList(s, sj, terms, cur[j], ui, q, true, false, p) || matched
						cur[j]++
					}
				}
			}
		}
	}
}

// prefixRanges keeps the range of terms starting with one text in each
// segment, looked up on first use: the count of completions and the match
// of each segment need the same binary searches. within, when set, holds
// the ranges of a prefix of the text (a search looks only inside them).
type prefixRanges struct {
	known  uint64
	lo, hi [64]int32
	within *prefixRanges
}

func (r *prefixRanges) get(ix *Index, si int, t string) (int, int) {
	if r.known&(1<<si) == 0 {
		terms := &ix.segs[si].terms
		var lo, hi int
		if w := r.within; w != nil && w.known&(1<<si) != 0 {
			lo, hi = terms.prefixRangeIn(t, int(w.lo[si]), int(w.hi[si]))
		} else {
			lo, hi = terms.prefixRange(t)
		}
		r.known |= 1 << si
		r.lo[si], r.hi[si] = int32(lo), int32(hi)
	}
	return int(r.lo[si]), int(r.hi[si])
}

// manyCompletions reports whether more than prefixFanout distinct words of
// the locale of segment si (over all its segments) start with t.
func (ix *Index) manyCompletions(si int, t string, ranges *prefixRanges) bool {
	segs := ix.locSegs[si]
	n := 0
	for j, sj := range segs {
		if !ix.completes(sj, t) {
			continue
		}
		lo, hi := ranges.get(ix, sj, t)
		if n += hi - lo; j == 0 && n > prefixFanout {
			return true // the main segment alone has more: no need to count repeats
		}
	}
	if n <= prefixFanout || len(segs) == 1 {
		return n > prefixFanout
	}
	// Over the segments, a word may repeat: count each once.
	n = 0
	for j, sj := range segs {
		if !ix.completes(sj, t) {
			continue
		}
		terms := &ix.segs[sj].terms
		lo, hi := ranges.get(ix, sj, t)
		for k := lo; k < hi && n <= prefixFanout; k++ {
			key := terms.keys.at(k)
			if j == 0 || !slices.ContainsFunc(segs[:j], func(sk int) bool { _, ok := ix.segs[sk].terms.find(key); return ok && ix.completes(sk, t) }) {
				n++
			}
		}
	}
	return n > prefixFanout
}

// nextCompletion returns the smallest word starting with prefix at or after
// the cursors cur (one per segment of si's locale, into its sorted terms).
func (ix *Index) nextCompletion(si int, prefix string, cur []int) (string, bool) {
	key, ok := "", false
	for j, sj := range ix.locSegs[si] {
		terms := &ix.segs[sj].terms
		if cur[j] >= terms.keys.len() {
			continue
		}
		if k := terms.keys.at(cur[j]); strings.HasPrefix(k, prefix) && (!ok || k < key) {
			key, ok = k, true
		}
	}
	return key, ok
}

// matchSegment adds the exact, stem, prefix and n-gram matches of one unit
// in one segment; with maxLen > 0, prefixes only complete words of at most
// maxLen bytes. stem is the unit's stem (spaced units).
func (ix *Index) matchSegment(s *scratch, si int, seg *Segment, ui int8, u Unit, stem string, last bool, maxLen int, ranges *prefixRanges, p Params) bool {
	matched := false
	exact, hasExact := seg.terms.find(u.Text)
	nExact := -1
	if hasExact {
		lo, hi := seg.terms.list(exact)
		nExact = hi - lo
		matched = ix.addList(s, si, &seg.terms, exact, ui, qExact, false, false, p) || matched
	}
	if !u.Unspaced {
		// The stem's phrases hold every phrase of the word itself (each
		// phrase is listed once per key): with as many, they are the same
		// phrases, already added at a better quality.
		if st, ok := seg.stems.find(stem); ok {
			if lo, hi := seg.stems.list(st); hi-lo != nExact {
				matched = ix.addList(s, si, &seg.stems, st, ui, qStem, false, false, p) || matched
			}
		}
	}
	if last && ix.completes(si, u.Text) {
		lo, hi := ranges.get(ix, si, u.Text)
		if !hasExact {
			exact = -1
		}
		// The key offsets as a slice of their stored width: a short prefix
		// walks thousands of keys (the slowest queries of a typing trace).
		switch off := &seg.terms.keys.off; {
		case off.w16 != nil:
			matched = addCompletions(ix, s, si, off.w16, lo, hi, exact, ui, len(u.Text), maxLen, p) || matched
		case off.w32 != nil:
			matched = addCompletions(ix, s, si, off.w32, lo, hi, exact, ui, len(u.Text), maxLen, p) || matched
		default:
			matched = addCompletions(ix, s, si, off.w8, lo, hi, exact, ui, len(u.Text), maxLen, p) || matched
		}
	}
	if u.Unspaced {
		q := float32(0)
		switch utf8.RuneCountInString(u.Text) {
		case 1:
			q = qUnigram
		case 2:
			q = qBigram
		}
		if g, ok := seg.grams.find(u.Text); ok && q > 0 {
			matched = ix.addList(s, si, &seg.grams, g, ui, q, false, false, p) || matched
		}
	}
	return matched
}

// completes reports whether segment si completes a word t being typed: the
// related words not one letter (only low phrases there, which
// addCompletions leaves out of one letter's), the associations not a word
// shorter than assocMinPrefix. A segment that does not complete t does not
// count among its completions either (manyCompletions).
func (ix *Index) completes(si int, t string) bool {
	switch ix.Parts[si] {
	case packfmt.RelatedPart:
		return len(t) >= 2
	case packfmt.AssocPart:
		return len(t) >= assocMinPrefix
	}
	return true
}

// narrowBelow is the length, in bytes, below which the last unit, typed
// after others (a clock time's minutes too), only completes the phrases
// those matched, and not their related words: "flag co" lists the flags of
// Colombia and the Cook Islands rather than every emoji with a word in
// "co", which one or two letters cannot tell apart. Walking those postings
// made the slowest keystrokes of a typing trace, and typing quality rose a
// little without them (docs/benchmarks-history.md, "Issue 29, round 7"). A
// function word counts as a word ("i lo": the phrases holding "i", "i love
// you" among them). When the earlier units matched nothing, or the unit
// matches nothing that way, it completes as a first word would.
const narrowBelow = 3

// assocMinPrefix is the shortest word, in bytes, whose completions reach
// the associations (packfmt.AssocPart): one or two letters say too little
// to call up a loose word for an emoji, and walking that vocabulary cost a
// typing trace's short words a sixth of their time, for no answer found
// (docs/benchmarks-history.md, "Issue 29, round 7"). Bytes, as for the
// related words: a Cyrillic or Arabic letter is two, and a Han or
// Devanagari character, often a word by itself, three.
const assocMinPrefix = 3

// addCompletions adds the terms lo..hi-1 of segment si (off: the offsets of
// its term keys) but the exact one as prefix matches of a unit of n bytes;
// with maxLen > 0, only terms of at most maxLen bytes. The completions of a
// one-byte word ("palm d") do not reach related-word (low) phrases: a
// letter says too little to call up associations, and those thousands of
// phrases were the slowest searches of a typing trace.
func addCompletions[T uint8 | uint16 | uint32](ix *Index, s *scratch, si int, off []T, lo, hi, exact int, ui int8, n, maxLen int, p Params) bool {
	matched := false
	terms := &ix.segs[si].terms
	for t := lo; t < hi; t++ {
		tl := int(off[t+1] - off[t])
		if maxLen > 0 && tl > maxLen {
			continue
		}
		if t != exact {
			lo, hi := terms.list(t)
			var damp []float32
			if ui == 0 {
				damp = ix.dampOf(si, t, lo, hi) // the query's only word (fillDamp orders by a one-word score)
			}
			matched = ix.addRange(s, si, terms, lo, hi, damp, ui, qPrefix+0.3*float32(n)/float32(tl), false, n < 2 || s.narrow, s.narrow) || matched
		}
	}
	return matched
}

// matchTypos adds the terms of one segment within maxD edits of text.
func (ix *Index) matchTypos(s *scratch, si int, seg *Segment, ui int8, text string, maxD int, p Params) bool {
	matched := false
	_, size := utf8.DecodeRuneInString(text)
	lo, hi := seg.terms.prefixRange(text[:size])
	qs := sig(text)
	for t := lo; t < hi; t++ {
		if bits.OnesCount64(qs^seg.sigs[t]) > 2*maxD {
			continue
		}
		term := seg.terms.keys.at(t)
		if d := len(term) - len(text); d > maxD || -d > maxD {
			continue
		}
		if d := textnorm.BoundedEditDistance(text, term, maxD); d <= maxD {
			matched = ix.addList(s, si, &seg.terms, t, ui, qExact-0.15*float32(d-1), true, false, p) || matched
		}
	}
	return matched
}

// addList adds every phrase of key k of a table of segment si; a typo match
// or, with noLow, a completion of a one-byte word skips low phrases.
func (ix *Index) addList(s *scratch, si int, t *table, k int, ui int8, q float32, typo, noLow bool, p Params) bool {
	lo, hi := t.list(k)
	return ix.addRange(s, si, t, lo, hi, nil, ui, q, typo, noLow, false)
}

// addRange adds the postings lo..hi-1 of a table of segment si, each at q
// times its damp factor when damp is given (a completion, dampOf); with
// touched, only phrases this search has already matched (scratch.narrow).
func (ix *Index) addRange(s *scratch, si int, t *table, lo, hi int, damp []float32, ui int8, q float32, typo, noLow, touched bool) bool {
	if typo {
		q *= ix.Weights[packfmt.FieldTypo]
	}
	q *= s.uw[ui]
	// The posting list as a slice of its stored width: the loop below is
	// the hottest of a search, and a width switch and bounds check per
	// posting cost most under js/wasm.
	switch post := &t.post; {
	case post.w16 != nil:
		return addPostings(ix, s, si, post.w16[lo:hi], damp, ui, q, typo, noLow, touched)
	case post.w32 != nil:
		return addPostings(ix, s, si, post.w32[lo:hi], damp, ui, q, typo, noLow, touched)
	default:
		return addPostings(ix, s, si, post.w8[lo:hi], damp, ui, q, typo, noLow, touched)
	}
}

// addPostings adds the phrases of one posting list (local phrase numbers of
// segment si) for unit ui at quality q.
func addPostings[T uint8 | uint16 | uint32](ix *Index, s *scratch, si int, posts []T, damp []float32, ui int8, q float32, typo, noLow, touched bool) bool {
	skipLow := typo || noLow
	base := ix.base[si]
	w := s.segW[si]
	bit := uint8(1) << ui
	gen := s.gen
	added := false
	for i, pv := range posts {
		pid := uint32(pv)
		a := &s.phrases[base+pid]
		if a.stamp != gen {
			if touched {
				continue
			}
			if skipLow && a.field == packfmt.FieldLow {
				continue // a misspelt guess at an association is noise ("padlock" is not "paddock")
			}
			a.stamp, a.sum, a.cur, a.unit, a.units, a.typo = gen, 0, 0, ui, bit, false
			s.touchedP = append(s.touchedP, base+pid)
		} else if skipLow && a.field == packfmt.FieldLow {
			continue
		} else if a.unit != ui {
			s.flushUnit(ix, a, w) // the phrase's previous unit is done
			a.sum += a.cur
			a.cur = 0
			a.unit = ui
			a.units |= bit
		}
		added = true
		if typo {
			a.typo = true
		}
		if damp != nil {
			a.cur = maxf(a.cur, q*damp[i])
		} else {
			a.cur = maxf(a.cur, q)
		}
	}
	return added
}

// flushUnit raises the entry's best quality for the phrase's current unit
// to the phrase's (score does it for the last unit a phrase matched). Done
// once per phrase and unit, not per posting: the posting loop touches only
// the phrase accumulators. The same value as per posting: a positive
// factor keeps the order of qualities, so the product of the best is the
// best product. The entry is listed in touchedE by score, in the order its
// phrases were first touched, as when listed here.
func (s *scratch) flushUnit(ix *Index, a *phraseAcc, w float32) {
	e := &s.entries[a.entry]
	if e.stamp != s.gen {
		*e = entryAcc{stamp: s.gen, phrase: -1}
	}
	e.units[a.unit] = maxf(e.units[a.unit], a.cur*w*ix.Weights[a.field])
}

// segWeight is the factor of a segment's phrases: English phrases count a
// little less when another locale is preferred.
func (ix *Index) segWeight(si int, p Params) float32 {
	if p.Loc >= 0 && ix.english&(1<<si) != 0 && ix.english&(1<<p.Loc) == 0 {
		return ix.English
	}
	return 1
}

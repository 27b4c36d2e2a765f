package index

import (
	"math/bits"

	"github.com/emojisearch/emojisearch/engine/packfmt"
)

// score turns the accumulators into one score per entry: the best phrase
// (its field weight, the share of the query it covers and of itself that is
// covered), or, a little lower, the query units covered across the entry's
// phrases; plus a small popularity prior.
func (ix *Index) score(s *scratch, nunits int, p Params) {
	nu := s.uwSum
	// The coverage weight of each set of units, as the sum of the units'
	// weights in unit order (the order the phrase met them in).
	for m := 1; m < 1<<nunits; m++ {
		high := bits.Len(uint(m)) - 1
		s.covOf[m] = s.covOf[m&^(1<<high)] + s.cov[high]
	}
	// The loop's invariants in locals: the stores through e below may alias
	// the scratch as far as the compiler knows, so fields read in the loop
	// were loaded again for every phrase (each load bounds-checked under
	// js/wasm, where this loop is a fifth of a typical keystroke).
	gen, covSum, stopSet, flags, unspaced := s.gen, s.covSum, s.stopSet, s.flags, s.unspaced
	minCov, relaxed, multi := p.MinCoverage, p.Relaxed, nunits > 1
	weights, segW, covOf, phrases, entries := &ix.Weights, &s.segW, &s.covOf, s.phrases, s.entries
	for _, pid := range s.touchedP {
		a := &phrases[pid]
		field, ntok, entry, sw := a.field, a.ntok, a.entry, segW[a.seg]
		cnt, cw := uint8(bits.OnesCount8(a.units)), covOf[a.units]
		s.flushUnit(ix, a, sw)
		e := &entries[entry]
		if e.listed != gen {
			e.listed = gen
			s.touchedE = append(s.touchedE, entry)
		}
		if e.phrase < 0 {
			e.phrase = int32(pid) // the first phrase; see the pass below the loop
			e.field = field
		}
		if multi && cw/covSum < minCov && !relaxed {
			continue
		}
		if a.units&^stopSet == 0 {
			continue // function words alone never carry a phrase
		}
		flag := a.flag && !unspaced
		// A flag never answers one word of a longer query ("in love"): the
		// phrase must hold every word of the query (stop words aside).
		if flag && !flags && (1<<nunits-1)&^a.units&^stopSet != 0 {
			continue
		}
		pcov := minf(1, float32(cnt)/float32(max(ntok, 1)))
		w := weights[field]
		if multi && field == packfmt.FieldShortcode && ntok == 1 && ix.shortPhrase(int(a.seg), pid) {
			w *= shortCodeFactor // "in", "ok", "up": a code, not a word of the sentence
		}
		v := w * sw * (a.sum + a.cur) / nu * (0.6 + 0.4*pcov)
		if multi && int(cnt) == nunits && int(ntok) == nunits && !a.typo && field != packfmt.FieldLow && a.sum+a.cur >= nu*0.999 {
			// The query is this phrase, word for word: it outranks every
			// match of parts of the query over several phrases (at most 0.9).
			v *= exactBoost
		}
		if flag && !namesFlag(cnt, ntok, field) {
			v *= flagPartFactor
		}
		if v > e.best || (v == e.best && (field < e.field || field == e.field && ix.phraseBefore(s, pid, field, uint32(e.phrase), e.field))) {
			e.best, e.phrase, e.field, e.typo = v, int32(pid), field, a.typo
		}
	}
	fallbacks := 0
	for _, ei := range s.touchedE {
		e := &s.entries[ei]
		if ix.Entries[ei].Flag && !s.flags {
			continue
		}
		var sum, covered float32
		content := false
		for u := range nunits {
			if e.units[u] > 0 {
				sum += e.units[u]
				covered += s.cov[u]
				content = content || s.stopSet&(1<<u) == 0
			}
		}
		if nunits > 1 && content && (covered/s.covSum >= p.MinCoverage || p.Relaxed) {
			if v := 0.9 * sum / nu; v > e.best {
				if e.best == 0 {
					e.fallback = true
					fallbacks++
				}
				e.best = v
			}
		}
	}
	// An entry no phrase of which qualified, but the units across its
	// phrases did (above), reports its first phrase in phraseBefore order.
	// Found once no phrase can qualify any more, and only for such entries:
	// an entry left at 0 is never ranked, and a neighbour's score replaces
	// its phrase (related).
	for _, pid := range s.touchedP {
		if fallbacks == 0 {
			break
		}
		a := &s.phrases[pid]
		if e := &s.entries[a.entry]; e.fallback && int32(pid) != e.phrase && ix.phraseBefore(s, pid, a.field, uint32(e.phrase), e.field) {
			e.phrase, e.field = int32(pid), a.field
		}
	}
}

// namesFlag reports whether a phrase of a country flag, holding every word
// of the query, names the country: the query is the whole phrase ("india",
// "in"), or the flag's name less one word ("flag: India" for "india").
// Other flags ("cook" in 🇨🇰 "cook islands", "korea" in "flag: South
// Korea", a related word) are damped by flagPartFactor: they rank after
// the emoji that mean the word and still answer a query nothing else does.
func namesFlag(cnt, ntok, field uint8) bool {
	return field != packfmt.FieldLow && (cnt >= ntok || field == packfmt.FieldName && cnt+1 == ntok)
}

// flagPartFactor damps a flag whose phrase the query names only in part.
const flagPartFactor = 0.5

// exactBoost multiplies the score of a multi-word query matched word for
// word by a whole phrase of a direct field: at least 2 × 0.7 (alias), above
// every match of parts of the query (at most 1 × 0.9), while the field
// weights and the prior keep their order among such phrases. Reported
// scores are capped at 1.
const exactBoost = 2

// shortCodeFactor damps a one- or two-letter shortcode matched by one word
// of a longer query.
const shortCodeFactor = 0.5

// shortPhrase reports a phrase of at most two characters.
func (ix *Index) shortPhrase(si int, gp uint32) bool {
	return len(ix.segs[si].phText.at(int(gp-ix.base[si]))) <= 2
}

// phraseBefore orders two phrases of one entry, whatever the segments and
// the order their matches came in: the stronger field, then the locale
// loaded first, then the text (a locale holds a text once per entry).
// The segments come from the accumulators' static fields (finding them from
// the phrase ids walks the segment bases: a step per loaded segment for
// English).
func (ix *Index) phraseBefore(s *scratch, a uint32, fa uint8, b uint32, fb uint8) bool {
	if fa != fb {
		return fa < fb
	}
	sa, sb := int(s.phrases[a].seg), int(s.phrases[b].seg)
	if la, lb := ix.locSegs[sa][0], ix.locSegs[sb][0]; la != lb {
		return la < lb
	}
	ta := ix.segs[sa].phText.at(int(a - ix.base[sa]))
	tb := ix.segs[sb].phText.at(int(b - ix.base[sb]))
	if ta != tb {
		return ta < tb
	}
	return a < b
}

// Related emoji: emojibase orders each subgroup by meaning (the laughing
// faces sit together), so the neighbours of the best matches are offered
// after the direct matches, scored well below them.
const (
	relatedParents = 5
	relatedSpan    = 3
	relatedFactor  = 0.3
)

func (ix *Index) related(s *scratch, p Params) {
	var parents [relatedParents]int32
	n := 0
	// The best entries, ties by entry order (not by the order matches came in).
	above := func(a, b int32) bool {
		ea, eb := s.entries[a].best, s.entries[b].best
		return ea > eb || (ea == eb && a < b)
	}
	for _, ei := range s.touchedE {
		e := &s.entries[ei]
		if e.phrase < 0 || e.best <= 0 {
			continue
		}
		if n < relatedParents {
			n++
		} else if !above(ei, parents[n-1]) {
			continue
		}
		parents[n-1] = ei
		for i := n - 1; i > 0 && above(parents[i], parents[i-1]); i-- {
			parents[i], parents[i-1] = parents[i-1], parents[i]
		}
	}
	for _, pi := range parents[:n] {
		if ix.Entries[pi].Flag {
			continue // flags are ordered by name, not by meaning
		}
		pe := s.entries[pi]
		for _, step := range [2]int{-1, 1} {
			// Walk to the next relatedSpan families of the same subgroup
			// (gender variants of one family count once).
			fam, d := ix.Entries[pi].Family, 0
			for ni := int(pi) + step; ni >= 0 && ni < len(ix.Entries) && ix.Entries[ni].Subgroup == ix.Entries[pi].Subgroup; ni += step {
				if f := ix.Entries[ni].Family; f != fam {
					fam = f
					if d++; d > relatedSpan {
						break
					}
				}
				if d == 0 {
					continue
				}
				v := pe.best * relatedFactor * (1 - 0.1*float32(d))
				e := &s.entries[ni]
				if e.stamp != s.gen {
					*e = entryAcc{stamp: s.gen, phrase: -1}
					s.touchedE = append(s.touchedE, int32(ni))
				}
				if v > e.best {
					e.best, e.phrase, e.field, e.typo, e.related = v, pe.phrase, pe.field, pe.typo, true
				}
			}
		}
	}
}

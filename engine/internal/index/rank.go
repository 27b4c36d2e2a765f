package index

import (
	"strings"

	"github.com/emojisearch/emojisearch/engine/packfmt"
)

// familyBonus: one member represents a gender/direction family: the one
// most devices render (the oldest Emoji version; 👨‍🎓 is 4.0, 🧑‍🎓 12.1), then
// the neutral one, unless another member matches clearly better (the query
// names the gender: "woman technologist").
const familyBonus = 0.04

// rank appends to dst the best hits, one per family, each followed by its
// family's other gender members when the query named no gender (see expand).
func (ix *Index) rank(s *scratch, dst []Hit, limit int) []Hit {
	s.others = s.others[:0]
	for _, ei := range s.touchedE {
		e := &s.entries[ei]
		if e.phrase < 0 || e.best <= 0 {
			continue
		}
		ent := &ix.Entries[ei]
		h := Hit{Entry: ei, Score: e.best * (0.9 + 0.1*float32(ent.Prior)/100), Phrase: e.phrase, Field: e.field, Seg: s.phrases[e.phrase].seg}
		switch {
		case e.related:
			h.Field = packfmt.FieldLow
		case e.typo:
			h.Field = packfmt.FieldTypo
		}
		f := &s.fam[ent.Family]
		if f.stamp != s.gen {
			f.stamp, f.hit, f.head = s.gen, int32(len(s.hits)), 0
			s.hits = append(s.hits, h)
		} else if ix.represents(h, s.hits[f.hit]) {
			s.addOther(ix, s.hits[f.hit])
			s.hits[f.hit] = h
		} else {
			s.addOther(ix, h)
		}
		if ent.Family == ei {
			f.head = h.Score
		}
	}
	s.top = topK(s.top[:0], s.hits, limit)
	return append(dst, ix.expand(s, s.top, limit)...)
}

// expand follows each family's representative with the family's other
// matching gender members, best first ("cook": 🧑‍🍳 👨‍🍳 👩‍🍳), so that a
// picker offers every gender, as device keyboards do. It does so only for a
// direct match (not a typo, a weak phrase or a neighbour, which would crowd
// the list) and when the query named no gender: the neutral member
// represents the family or matched about as well (within familyBonus).
// Direction variants ("facing right") stay folded into their family. The
// list keeps at most limit hits; it is the scratch's (s.out).
func (ix *Index) expand(s *scratch, top []Hit, limit int) []Hit {
	if len(s.others) == 0 {
		return top
	}
	out := s.out[:0]
	var waiting [familyTop]int32 // families whose members wait for place familyTop
	nw := 0
	follow := func(fam int32) {
		for len(out) < limit {
			m, ok := s.nextMember(ix, fam)
			if !ok {
				break
			}
			out = append(out, m)
		}
	}
	flush := func() {
		for _, fam := range waiting[:nw] {
			follow(fam)
		}
		nw = 0
	}
	for _, h := range top {
		if len(out) >= familyTop {
			flush()
		}
		if len(out) >= limit {
			break
		}
		out = append(out, h)
		fam := ix.Entries[h.Entry].Family
		direct := h.Field != packfmt.FieldLow && h.Field != packfmt.FieldTypo
		noGender := fam == h.Entry || s.fam[fam].head*(1+familyBonus) >= h.Score
		switch {
		case !direct || !noGender:
		case s.gender || len(out) >= familyTop:
			// Past the first places, or with a named gender ("冥想女"),
			// the members follow at once, the one named first.
			flush()
			follow(fam)
		case nw < familyTop:
			// One member may follow at once: the gender-neutral one when
			// an older gendered member represents the family (👨‍🎓 🧑‍🎓).
			if fam != h.Entry && len(out) < limit {
				if m, ok := s.takeMember(fam); ok {
					out = append(out, m)
				}
			}
			waiting[nw] = fam
			nw++
		}
	}
	flush()
	s.out = out
	return out
}

// familyTop is the number of first places where a family shows one member
// (two when an older gendered member represents it: the neutral one
// follows it): its other gender members follow from there, so that one
// concept in three genders does not crowd the others out ("party" is 👯 🥳
// 🎉 … 👯‍♂️ 👯‍♀️).
const familyTop = 5

// addOther keeps a family member that does not represent its family, for
// expand; direction variants stay folded and are dropped.
func (s *scratch) addOther(ix *Index, h Hit) {
	if !ix.Entries[h.Entry].Directional {
		s.others = append(s.others, h)
	}
}

// takeMember takes entry e out of others.
func (s *scratch) takeMember(e int32) (Hit, bool) {
	for i, m := range s.others {
		if m.Entry == e {
			s.others[i] = s.others[len(s.others)-1]
			s.others = s.others[:len(s.others)-1]
			return m, true
		}
	}
	return Hit{}, false
}

// nextMember takes the best remaining member of family fam out of others.
func (s *scratch) nextMember(ix *Index, fam int32) (Hit, bool) {
	best := -1
	for i, m := range s.others {
		if ix.Entries[m.Entry].Family == fam && (best < 0 || better(m, s.others[best])) {
			best = i
		}
	}
	if best < 0 {
		return Hit{}, false
	}
	m := s.others[best]
	s.others[best] = s.others[len(s.others)-1]
	s.others = s.others[:len(s.others)-1]
	return m, true
}

// isDirectional reports a direction variant: a ZWJ sequence with ➡ (27A1),
// such as 🚶‍➡️ (1F6B6-200D-27A1-FE0F).
func isDirectional(id string) bool { return strings.Contains(id, "200D-27A1") }

// represents reports whether hit a rather than b (same family) is shown.
func (ix *Index) represents(a, b Hit) bool {
	ea, eb := &ix.Entries[a.Entry], &ix.Entries[b.Entry]
	sa, sb := a.Score, b.Score
	switch {
	case ea.Version < eb.Version:
		sa *= 1 + familyBonus
	case eb.Version < ea.Version:
		sb *= 1 + familyBonus
	case ea.Family == a.Entry:
		sa *= 1 + familyBonus
	case eb.Family == b.Entry:
		sb *= 1 + familyBonus
	}
	if sa != sb {
		return sa > sb
	}
	return a.Entry < b.Entry
}

// topK returns the best k hits in out (emptied), best first, keeping a
// sorted window of the best seen so far (one comparison per hit once the
// window is full; a hit that enters finds its place by binary search).
func topK(out, hits []Hit, k int) []Hit {
	for _, h := range hits {
		if len(out) == k && !better(h, out[k-1]) {
			continue
		}
		lo, hi := 0, len(out)
		for lo < hi {
			if m := int(uint(lo+hi) >> 1); better(out[m], h) {
				lo = m + 1
			} else {
				hi = m
			}
		}
		if len(out) < k {
			out = append(out, h)
		}
		copy(out[lo+1:], out[lo:len(out)-1])
		out[lo] = h
	}
	return out
}

func better(a, b Hit) bool {
	if a.Score != b.Score {
		return a.Score > b.Score
	}
	return a.Entry < b.Entry
}

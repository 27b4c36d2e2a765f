package index

import (
	"sync"
	"unicode/utf8"

	"github.com/emojisearch/emojisearch/engine/internal/textnorm"
	"github.com/emojisearch/emojisearch/packs/packfmt"
)

// Match qualities of one query unit against one phrase token.
const (
	qExact   = 1.0
	qStem    = 0.9
	qPrefix  = 0.62 // plus up to 0.3 by the share of the term typed
	qBigram  = 0.75 // an unspaced two-character unit inside a longer word
	qUnigram = 0.5  // an unspaced character inside a word
)

// Params are the per-search settings.
type Params struct {
	Limit       int
	Prefix      bool    // the last unit matches term prefixes
	Loc         int     // preferred locale index, -1 for none
	Mask        uint64  // locales searched (bit per locale index)
	MinCoverage float32 // share of a multi-unit query a phrase must cover
}

// Hit is one ranked emoji.
type Hit struct {
	Entry  int32
	Score  float32
	Phrase int32 // best matching phrase
	Field  uint8 // the phrase's field, or packfmt.FieldTypo
}

type phraseAcc struct {
	stamp uint32
	sum   float32 // finished units
	cur   float32 // best quality of the current unit
	unit  int8
	cnt   uint8
	typo  bool
}

type entryAcc struct {
	stamp  uint32
	units  [MaxUnits]float32 // best weighted quality per unit over the entry's phrases
	best   float32
	phrase int32
	typo   bool
}

type scratch struct {
	gen      uint32
	phrases  []phraseAcc
	entries  []entryAcc
	touchedP []uint32
	touchedE []int32
	fam      []famSlot
	hits     []Hit
}

type famSlot struct {
	stamp uint32
	hit   int32 // index into hits
}

var scratchPools sync.Map // *Index -> *sync.Pool

func (ix *Index) getScratch() *scratch {
	p, _ := scratchPools.LoadOrStore(ix, &sync.Pool{New: func() any {
		return &scratch{phrases: make([]phraseAcc, len(ix.Phrases)), entries: make([]entryAcc, len(ix.Entries)), fam: make([]famSlot, len(ix.Entries))}
	}})
	return p.(*sync.Pool).Get().(*scratch)
}

func (ix *Index) putScratch(s *scratch) {
	p, _ := scratchPools.Load(ix)
	p.(*sync.Pool).Put(s)
}

// Unit is one query word or unspaced segment.
type Unit struct {
	Text     string
	Unspaced bool
}

// Units turns tokens into query units: unspaced tokens are segmented into
// the index's words (fewest pieces; unknown characters stand alone), except a
// last token still being typed that is the prefix of a word.
func (ix *Index) Units(tokens []string, prefix bool) []Unit {
	var out []Unit
	for i, t := range tokens {
		if !textnorm.IsUnspaced(t) {
			out = append(out, Unit{Text: t})
			continue
		}
		if _, ok := ix.termID[t]; ok || (prefix && i == len(tokens)-1 && ix.hasPrefix(t)) {
			out = append(out, Unit{Text: t, Unspaced: true})
			continue
		}
		for _, seg := range ix.segment(t) {
			out = append(out, Unit{Text: seg, Unspaced: true})
		}
	}
	if len(out) > MaxUnits {
		out = out[:MaxUnits]
	}
	return out
}

func (ix *Index) hasPrefix(t string) bool {
	lo, hi := ix.prefixRange(t)
	return hi > lo
}

// segment splits unspaced text into index words by dynamic programming:
// a known word costs 2, an unknown character 3, so known words win.
func (ix *Index) segment(t string) []string {
	var offs [65]int
	n := 0
	for i := range t {
		if n == 64 {
			break
		}
		offs[n] = i
		n++
	}
	offs[n] = len(t)
	if n == 64 {
		t = t[:offs[n]]
	}
	var cost [65]int
	var from [65]int
	for i := 1; i <= n; i++ {
		cost[i], from[i] = cost[i-1]+3, i-1
		for j := max(0, i-ix.maxWord); j < i-1; j++ {
			if _, ok := ix.termID[t[offs[j]:offs[i]]]; ok && cost[j]+2 < cost[i] {
				cost[i], from[i] = cost[j]+2, j
			}
		}
		if _, ok := ix.termID[t[offs[i-1]:offs[i]]]; ok && cost[i-1]+2 < cost[i] {
			cost[i], from[i] = cost[i-1]+2, i-1
		}
	}
	var segs []string
	for i := n; i > 0; i = from[i] {
		segs = append(segs, t[offs[from[i]]:offs[i]])
	}
	for l, r := 0, len(segs)-1; l < r; l, r = l+1, r-1 {
		segs[l], segs[r] = segs[r], segs[l]
	}
	return segs
}

// Search ranks entries for the query units. Hits are best first, one per
// family, at most p.Limit.
func (ix *Index) Search(units []Unit, p Params) []Hit {
	if len(units) == 0 || p.Limit <= 0 {
		return nil
	}
	s := ix.getScratch()
	defer ix.putScratch(s)
	s.gen++
	if s.gen == 0 { // wrapped: clear stamps
		clear(s.phrases)
		clear(s.entries)
		clear(s.fam)
		s.gen = 1
	}
	s.touchedP, s.touchedE, s.hits = s.touchedP[:0], s.touchedE[:0], s.hits[:0]
	for ui, u := range units {
		ix.matchUnit(s, int8(ui), u, p.Prefix && ui == len(units)-1, p)
	}
	ix.score(s, len(units), p)
	return ix.rank(s, p.Limit)
}

func (ix *Index) matchUnit(s *scratch, ui int8, u Unit, last bool, p Params) {
	matched := false
	add := func(list []uint32, q float32, typo bool) {
		for _, pid := range list {
			if ix.add(s, pid, ui, q, typo, p) {
				matched = true
			}
		}
	}
	exact, hasExact := ix.termID[u.Text]
	if hasExact {
		add(ix.postings(int(exact)), qExact, false)
	}
	if !u.Unspaced {
		add(ix.stems[textnorm.Stem(u.Text)], qStem, false)
	}
	if last {
		lo, hi := ix.prefixRange(u.Text)
		n := float32(len(u.Text))
		for t := lo; t < hi; t++ {
			if int32(t) != exact || !hasExact {
				add(ix.postings(t), qPrefix+0.3*n/float32(len(ix.terms[t])), false)
			}
		}
	}
	if u.Unspaced {
		switch utf8.RuneCountInString(u.Text) {
		case 1:
			add(ix.grams[u.Text], qUnigram, false)
		case 2:
			add(ix.grams[u.Text], qBigram, false)
		}
	}
	if matched || u.Unspaced {
		return
	}
	// Typo tolerance only for a unit nothing else matched, so it never
	// outranks an exact match of the same word.
	n := utf8.RuneCountInString(u.Text)
	if n < 4 {
		return
	}
	maxD := 1
	if n >= 8 {
		maxD = 2
	}
	r, size := utf8.DecodeRuneInString(u.Text)
	_ = r
	lo, hi := ix.prefixRange(u.Text[:size])
	for t := lo; t < hi; t++ {
		term := ix.terms[t]
		if d := len(term) - len(u.Text); d > maxD || -d > maxD {
			continue
		}
		if textnorm.BoundedEditDistance(u.Text, term, maxD) <= maxD {
			add(ix.postings(t), qExact, true)
		}
	}
}

// add records quality q of unit ui for phrase pid. It reports whether the
// phrase's locale is searched.
func (ix *Index) add(s *scratch, pid uint32, ui int8, q float32, typo bool, p Params) bool {
	ph := &ix.Phrases[pid]
	if p.Mask&(1<<ph.Loc) == 0 {
		return false
	}
	a := &s.phrases[pid]
	if a.stamp != s.gen {
		*a = phraseAcc{stamp: s.gen, unit: ui, cnt: 1}
		s.touchedP = append(s.touchedP, pid)
	} else if a.unit != ui {
		a.sum += a.cur
		a.cur = 0
		a.unit = ui
		a.cnt++
	}
	if typo {
		q *= ix.Weights[packfmt.FieldTypo]
		a.typo = true
	}
	a.cur = max(a.cur, q)
	e := &s.entries[ph.Entry]
	if e.stamp != s.gen {
		*e = entryAcc{stamp: s.gen, phrase: -1}
		s.touchedE = append(s.touchedE, ph.Entry)
	}
	e.units[ui] = max(e.units[ui], q*ix.fieldWeight(ph, p))
	return true
}

func (ix *Index) fieldWeight(ph *Phrase, p Params) float32 {
	w := ix.Weights[ph.Field]
	if p.Loc >= 0 && int(ph.Loc) != p.Loc && ix.Locales[ph.Loc] == "en" {
		w *= ix.English
	}
	return w
}

// score turns the accumulators into one score per entry: the best phrase
// (its field weight, the share of the query it covers and of itself that is
// covered), or, a little lower, the query units covered across the entry's
// phrases; plus a small popularity prior.
func (ix *Index) score(s *scratch, nunits int, p Params) {
	nu := float32(nunits)
	for _, pid := range s.touchedP {
		a := &s.phrases[pid]
		ph := &ix.Phrases[pid]
		e := &s.entries[ph.Entry]
		if e.phrase < 0 {
			e.phrase = int32(pid) // reported if only the units across phrases qualify
		}
		qcov := float32(a.cnt) / nu
		if nunits > 1 && qcov < p.MinCoverage {
			continue
		}
		pcov := min(1, float32(a.cnt)/float32(max(ph.NTok, 1)))
		v := ix.fieldWeight(ph, p) * (a.sum + a.cur) / nu * (0.6 + 0.4*pcov)
		if v > e.best || (v == e.best && ph.Field < ix.Phrases[e.phrase].Field) {
			e.best, e.phrase, e.typo = v, int32(pid), a.typo
		}
	}
	for _, ei := range s.touchedE {
		e := &s.entries[ei]
		var sum float32
		covered := 0
		for u := range nunits {
			if e.units[u] > 0 {
				sum += e.units[u]
				covered++
			}
		}
		if nunits > 1 && float32(covered)/nu >= p.MinCoverage {
			if v := 0.9 * sum / nu; v > e.best {
				e.best = v
			}
		}
	}
}

func (ix *Index) rank(s *scratch, limit int) []Hit {
	for _, ei := range s.touchedE {
		e := &s.entries[ei]
		if e.phrase < 0 || e.best <= 0 {
			continue
		}
		ent := &ix.Entries[ei]
		h := Hit{Entry: ei, Score: e.best * (0.9 + 0.1*float32(ent.Prior)/100), Phrase: e.phrase, Field: ix.Phrases[e.phrase].Field}
		if e.typo {
			h.Field = packfmt.FieldTypo
		}
		f := &s.fam[ent.Family]
		if f.stamp == s.gen {
			if better(h, s.hits[f.hit]) {
				s.hits[f.hit] = h
			}
			continue
		}
		f.stamp, f.hit = s.gen, int32(len(s.hits))
		s.hits = append(s.hits, h)
	}
	return topK(s.hits, limit)
}

// topK returns the best k hits, best first, keeping a sorted window of
// the best seen so far (one comparison per hit once the window is full).
func topK(hits []Hit, k int) []Hit {
	out := make([]Hit, 0, min(k, len(hits)))
	for _, h := range hits {
		if len(out) == k && !better(h, out[k-1]) {
			continue
		}
		if len(out) < k {
			out = append(out, h)
		} else {
			out[k-1] = h
		}
		for i := len(out) - 1; i > 0 && better(out[i], out[i-1]); i-- {
			out[i], out[i-1] = out[i-1], out[i]
		}
	}
	return out
}

func better(a, b Hit) bool {
	if a.Score != b.Score {
		return a.Score > b.Score
	}
	return a.Entry < b.Entry
}

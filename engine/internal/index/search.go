package index

import (
	"math/bits"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/emojisearch/emojisearch/engine/internal/textnorm"
	"github.com/emojisearch/emojisearch/packs/packfmt"
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

// Params are the per-search settings.
type Params struct {
	Limit       int
	Prefix      bool    // the last unit matches term prefixes
	Loc         int     // preferred locale index, -1 for none
	Mask        uint64  // locales searched (bit per locale index)
	MinCoverage float32 // share of a multi-unit query a phrase must cover
	Relaxed     bool    // fallback pass: wider typo distance and shortened words
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
	stamp   uint32
	units   [MaxUnits]float32 // best weighted quality per unit over the entry's phrases
	best    float32
	phrase  int32
	typo    bool
	related bool // only a neighbour of a strong match
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
		if h, m, ok := clockTime(tokens, i); ok {
			out = append(out, Unit{Text: h})
			if m != "" {
				out = append(out, Unit{Text: m})
			}
			continue
		}
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

// clockTime reads "1130", "2230" or an hour above 12 followed by minutes as
// a 12-hour clock time, the form clock emoji phrases use ("11 30", "10 00").
func clockTime(tokens []string, i int) (string, string, bool) {
	t := tokens[i]
	if !digits(t) {
		return "", "", false
	}
	var h, m string
	switch {
	case len(t) == 3 || len(t) == 4:
		h, m = t[:len(t)-2], t[len(t)-2:]
	case len(t) == 2 && t > "12" && t < "24" && i+1 < len(tokens) && len(tokens[i+1]) == 2 && digits(tokens[i+1]):
		return strconv.Itoa(int(t[0]-'0')*10 + int(t[1]-'0') - 12), "", true // "22 00": the minutes follow
	default:
		return "", "", false
	}
	hour := int(h[0] - '0')
	if len(h) == 2 {
		hour = hour*10 + int(h[1]-'0')
	}
	if hour > 23 || m[0] > '5' {
		return "", "", false
	}
	hour %= 12
	if hour == 0 {
		hour = 12
	}
	return strconv.Itoa(hour), m, true
}

func digits(t string) bool {
	for i := 0; i < len(t); i++ {
		if t[i] < '0' || t[i] > '9' {
			return false
		}
	}
	return t != ""
}

// Relax rewrites units for the fallback pass: an unknown spaced word is
// split into known words when it is a compound of them ("inlove").
func (ix *Index) Relax(units []Unit) []Unit {
	var out []Unit
	for _, u := range units {
		if _, ok := ix.termID[u.Text]; ok || u.Unspaced || len(u.Text) < 5 || ix.stems[textnorm.Stem(u.Text)] != nil {
			out = append(out, u)
			continue
		}
		segs := ix.segmentWords(u.Text, 16, false)
		if segs == nil {
			out = append(out, u)
			continue
		}
		for _, s := range segs {
			out = append(out, Unit{Text: s})
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

func (ix *Index) segment(t string) []string { return ix.segmentWords(t, ix.maxWord, true) }

// segmentWords splits text into index words by dynamic programming: a known
// word costs 2, an unknown character 3, so known words win. Without
// unknownOK it returns nil unless every piece is a known word of at least
// two characters.
func (ix *Index) segmentWords(t string, maxWord int, unknownOK bool) []string {
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
		for j := max(0, i-maxWord); j < i-1; j++ {
			if _, ok := ix.termID[t[offs[j]:offs[i]]]; ok && cost[j]+2 < cost[i] {
				cost[i], from[i] = cost[j]+2, j
			}
		}
		if _, ok := ix.termID[t[offs[i-1]:offs[i]]]; ok && unknownOK && cost[i-1]+2 < cost[i] {
			cost[i], from[i] = cost[i-1]+2, i-1
		}
	}
	var segs []string
	for i := n; i > 0; i = from[i] {
		if !unknownOK && i-from[i] < 2 {
			return nil
		}
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
	ix.related(s, p)
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
		// A short prefix of a long word says little: with many candidates,
		// only words at most four times the prefix's length complete it.
		maxLen := 0
		if hi-lo > prefixFanout {
			maxLen = 4 * len(u.Text)
		}
		for t := lo; t < hi; t++ {
			if maxLen > 0 && len(ix.terms[t]) > maxLen {
				continue
			}
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
	if n < 4 && !(p.Relaxed && n == 3) {
		return
	}
	maxD := 1
	if n >= 8 || (p.Relaxed && n >= 5) {
		maxD = 2
	}
	_, size := utf8.DecodeRuneInString(u.Text)
	lo, hi := ix.prefixRange(u.Text[:size])
	qs := sig(u.Text)
	for t := lo; t < hi; t++ {
		term := ix.terms[t]
		if d := len(term) - len(u.Text); d > maxD || -d > maxD || bits.OnesCount64(qs^ix.sigs[t]) > 2*maxD {
			continue
		}
		if d := textnorm.BoundedEditDistance(u.Text, term, maxD); d <= maxD {
			add(ix.postings(t), qExact-0.15*float32(d-1), true)
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
		lo, hi := ix.prefixRange(u.Text[:cut])
		for t := lo; t < hi && t < lo+64; t++ {
			add(ix.postings(t), 0.7*float32(cut)/float32(max(len(ix.terms[t]), len(u.Text))), true)
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
		if nunits > 1 && qcov < p.MinCoverage && !p.Relaxed {
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
		if nunits > 1 && (float32(covered)/nu >= p.MinCoverage || p.Relaxed) {
			if v := 0.9 * sum / nu; v > e.best {
				e.best = v
			}
		}
	}
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
	for _, ei := range s.touchedE {
		e := &s.entries[ei]
		if e.phrase < 0 || e.best <= 0 {
			continue
		}
		if n < relatedParents {
			n++
		} else if e.best <= s.entries[parents[n-1]].best {
			continue
		}
		parents[n-1] = ei
		for i := n - 1; i > 0 && s.entries[parents[i]].best > s.entries[parents[i-1]].best; i-- {
			parents[i], parents[i-1] = parents[i-1], parents[i]
		}
	}
	for _, pi := range parents[:n] {
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
					e.best, e.phrase, e.typo, e.related = v, pe.phrase, pe.typo, true
				}
			}
		}
	}
}

const familyMemberPenalty = 0

func (ix *Index) rank(s *scratch, limit int) []Hit {
	for _, ei := range s.touchedE {
		e := &s.entries[ei]
		if e.phrase < 0 || e.best <= 0 {
			continue
		}
		ent := &ix.Entries[ei]
		h := Hit{Entry: ei, Score: e.best * (0.9 + 0.1*float32(ent.Prior)/100), Phrase: e.phrase, Field: ix.Phrases[e.phrase].Field}
		if ent.Family != ei {
			h.Score -= familyMemberPenalty // the neutral form wins near ties
		}
		switch {
		case e.related:
			h.Field = packfmt.FieldLow
		case e.typo:
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

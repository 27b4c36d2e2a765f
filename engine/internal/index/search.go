package index

import (
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"sync"
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
	seg   uint8
	sum   float32 // finished units
	cur   float32 // best quality of the current unit
	cw    float32 // coverage weight of the units matched (s.cov)
	unit  int8
	cnt   uint8
	typo  bool
}

type entryAcc struct {
	stamp   uint32
	units   [MaxUnits]float32 // best weighted quality per unit over the entry's phrases
	best    float32
	phrase  int32
	field   uint8 // field of phrase
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
	others   []Hit             // family members that do not represent their family
	uw       [MaxUnits]float32 // weight of each query unit (mean 1), see unitWeights
	uwSum    float32           // sum of uw over the query's units
	multi    bool              // the units come from several query words
	unspaced bool              // one unspaced word (Han): its units are pieces of one word
	gender   bool              // a unit names a gender
	flags    bool              // flags may answer parts of the query: one word, or "flag" named
	stopCov  float32           // coverage weight of the stop words
	cov      [MaxUnits]float32 // share of each unit in coverage: 1, stopUnitWeight for a stop word
	covSum   float32
}

type famSlot struct {
	stamp uint32
	hit   int32   // index into hits
	head  float32 // score of the family's neutral member, 0 when it did not match
}

var scratchPools sync.Map // *Index -> *sync.Pool

func (ix *Index) getScratch() *scratch {
	p, _ := scratchPools.LoadOrStore(ix, &sync.Pool{New: func() any {
		return &scratch{phrases: make([]phraseAcc, ix.nPhrases), entries: make([]entryAcc, len(ix.Entries)), fam: make([]famSlot, len(ix.Entries))}
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
	Tok      uint8 // index of the query token it comes from
}

// Units turns tokens into query units: unspaced tokens are segmented into
// the words of the locales in mask (fewest pieces; unknown characters stand
// alone), except a last token still being typed that is the prefix of a word.
func (ix *Index) Units(tokens []string, prefix bool, mask uint64) []Unit {
	var out []Unit
	for i, t := range tokens {
		if h, m, ok := clockTime(tokens, i); ok {
			out = append(out, Unit{Text: h, Tok: uint8(i)})
			if m != "" {
				out = append(out, Unit{Text: m, Tok: uint8(i)})
			}
			continue
		}
		if !textnorm.IsUnspaced(t) {
			out = append(out, Unit{Text: t, Tok: uint8(i)})
			continue
		}
		if ix.known(t, mask) || (prefix && i == len(tokens)-1 && ix.hasPrefix(t, mask)) {
			out = append(out, Unit{Text: t, Unspaced: true, Tok: uint8(i)})
			continue
		}
		for _, seg := range ix.segmentWords(t, ix.maxWord(mask), true, mask) {
			out = append(out, Unit{Text: seg, Unspaced: true, Tok: uint8(i)})
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
func (ix *Index) Relax(units []Unit, mask uint64) []Unit {
	var out []Unit
	for _, u := range units {
		if u.Unspaced || len(u.Text) < 5 || ix.known(u.Text, mask) || ix.knownStem(textnorm.Stem(u.Text), mask) {
			out = append(out, u)
			continue
		}
		segs := ix.segmentWords(u.Text, 16, false, mask)
		if len(segs) != 2 {
			out = append(out, u)
			continue
		}
		for _, s := range segs {
			out = append(out, Unit{Text: s, Tok: u.Tok})
		}
	}
	if len(out) > MaxUnits {
		out = out[:MaxUnits]
	}
	return out
}

// known reports a term of a locale in mask.
func (ix *Index) known(t string, mask uint64) bool {
	return ix.any(mask, func(s *Segment) bool { _, ok := s.terms.find(t); return ok })
}

func (ix *Index) knownStem(t string, mask uint64) bool {
	return ix.any(mask, func(s *Segment) bool { _, ok := s.stems.find(t); return ok })
}

func (ix *Index) hasPrefix(t string, mask uint64) bool {
	return ix.any(mask, func(s *Segment) bool { lo, hi := s.terms.prefixRange(t); return hi > lo })
}

// any reports whether f holds for a segment of a locale in mask.
func (ix *Index) any(mask uint64, f func(*Segment) bool) bool {
	for si, s := range ix.segs {
		if mask&(1<<si) != 0 && f(s) {
			return true
		}
	}
	return false
}

// maxWord is the longest unspaced term of the locales in mask, in characters.
func (ix *Index) maxWord(mask uint64) int {
	n := 0
	for si, s := range ix.segs {
		if mask&(1<<si) != 0 {
			n = max(n, s.maxWord)
		}
	}
	return n
}

// segmentWords splits text into index words by dynamic programming: a known
// word costs 2, an unknown character 3, so known words win. Without
// unknownOK it returns nil unless every piece is a known word of at least
// two characters.
func (ix *Index) segmentWords(t string, maxWord int, unknownOK bool, mask uint64) []string {
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
			if cost[j]+2 < cost[i] && ix.known(t[offs[j]:offs[i]], mask) {
				cost[i], from[i] = cost[j]+2, j
			}
		}
		if unknownOK && cost[i-1]+2 < cost[i] && ix.known(t[offs[i-1]:offs[i]], mask) {
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
	ix.unitWeights(s, units, p)
	s.multi, s.gender, s.flags = false, false, false
	for _, u := range units {
		s.multi = s.multi || u.Tok != units[0].Tok
		s.gender = s.gender || namesGender(u.Text)
		s.flags = s.flags || flagWords[u.Text]
	}
	s.flags = s.flags || !s.multi
	s.unspaced = units[0].Unspaced && !s.multi
	for ui, u := range units {
		ix.matchUnit(s, int8(ui), u, p.Prefix && ui == len(units)-1, p)
	}
	ix.score(s, len(units), p)
	ix.related(s, p)
	return ix.rank(s, p.Limit)
}

// unitWeights sets s.uw: in a query of several words, a word found in
// many phrases ("face") says less than a rare one ("unicorn"). Each unit
// gets its inverse phrase frequency over the searched segments, damped by a
// square root and scaled so the known units' mean is 1: a one-word query
// and a query of equally common words score as before. A unit with no
// exact, stem or n-gram match (typed on, misspelt) gets weight 1.
func (ix *Index) unitWeights(s *scratch, units []Unit, p Params) {
	for i := range s.uw {
		s.uw[i] = 1
	}
	s.uwSum = float32(len(units))
	s.covSum, s.stopCov = s.uwSum, 0
	for i := range s.cov {
		s.cov[i] = 1
	}
	if len(units) < 2 {
		return
	}
	defer ix.stopWeights(s, units, p)
	n := 0 // phrases searched
	for si, seg := range ix.segs {
		if p.Mask&(1<<si) != 0 {
			n += seg.phText.len()
		}
	}
	var idf [MaxUnits]float64
	sum, known := 0.0, 0
	for ui, u := range units {
		df := ix.strongDF(p.Mask, u.Text, func(seg *Segment) *table { return &seg.terms })
		switch {
		case df > 0:
		case u.Unspaced:
			df = ix.strongDF(p.Mask, u.Text, func(seg *Segment) *table { return &seg.grams })
		default:
			df = ix.strongDF(p.Mask, textnorm.Stem(u.Text), func(seg *Segment) *table { return &seg.stems })
		}
		if df > 0 {
			idf[ui] = math.Sqrt(math.Log(1 + float64(n)/float64(df)))
			sum += idf[ui]
			known++
		}
	}
	if known == 0 {
		return
	}
	mean := sum / float64(known)
	for ui := range units {
		if idf[ui] > 0 {
			s.uw[ui] = float32(idf[ui] / mean)
		}
	}
}

// stopWeights gives the function words of a query that also holds a
// content word stopUnitWeight, so a phrase matching only them ranks below
// one matching a content word, and coverage counts the content words. A
// last unit still being typed keeps its weight ("the" may become
// "theatre").
func (ix *Index) stopWeights(s *scratch, units []Unit, p Params) {
	var stop [MaxUnits]bool
	content := false
	for ui, u := range units {
		typing := p.Prefix && ui == len(units)-1
		stop[ui] = !typing && ix.isStop(u.Text, p.Mask, p.Loc)
		content = content || !stop[ui]
	}
	s.uwSum, s.covSum, s.stopCov = 0, 0, 0
	for ui := range units {
		if content && stop[ui] {
			s.uw[ui], s.cov[ui] = stopUnitWeight, stopUnitWeight
		}
		s.uwSum += s.uw[ui]
		s.covSum += s.cov[ui]
		if content && stop[ui] {
			s.stopCov += s.cov[ui]
		}
	}
}

// strongDF counts the phrases listed under key in the table pick chooses,
// over the segments in mask, outside the weak field. Counts are summed
// over segments, so the weight does not depend on how a locale's phrases
// are split into segments; the related part holds weak phrases only (and
// walking its long lists would cost every multi-word query), and related
// words and subgroup labels would make every common word look frequent.
func (ix *Index) strongDF(mask uint64, key string, pick func(*Segment) *table) int {
	df := 0
	for si, seg := range ix.segs {
		if mask&(1<<si) == 0 || ix.Parts[si] == packfmt.RelatedPart { // weak phrases only
			continue
		}
		t := pick(seg)
		k, ok := t.find(key)
		if !ok {
			continue
		}
		lo, hi := t.list(k)
		for j := lo; j < hi; j++ {
			if seg.phField.at(int(t.post.at(j))) != packfmt.FieldLow {
				df++
			}
		}
	}
	return df
}

// UnitWeights returns the weights unitWeights gives the units, for tests
// and debugging.
func (ix *Index) UnitWeights(units []Unit, p Params) []float32 {
	var s scratch
	ix.unitWeights(&s, units, p)
	return s.uw[:len(units)]
}

func (ix *Index) matchUnit(s *scratch, ui int8, u Unit, last bool, p Params) {
	matched := false
	var counted, many uint64 // by main segment: completions counted, more than prefixFanout
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
				if ix.manyCompletions(main, u.Text) {
					many |= 1 << main
				}
			}
			if many&(1<<main) != 0 {
				maxLen = 4 * len(u.Text)
			}
		}
		matched = ix.matchSegment(s, si, seg, ui, u, last, maxLen, p) || matched
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
						matched = ix.addList(s, sj, terms, cur[j], ui, q, true, p) || matched
						cur[j]++
					}
				}
			}
		}
	}
}

// manyCompletions reports whether more than prefixFanout distinct words of
// the locale of segment si (over all its segments) start with t.
func (ix *Index) manyCompletions(si int, t string) bool {
	segs := ix.locSegs[si]
	n := 0
	for j, sj := range segs {
		lo, hi := ix.segs[sj].terms.prefixRange(t)
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
		terms := &ix.segs[sj].terms
		lo, hi := terms.prefixRange(t)
		for k := lo; k < hi && n <= prefixFanout; k++ {
			key := terms.keys.at(k)
			if j == 0 || !slices.ContainsFunc(segs[:j], func(sk int) bool { _, ok := ix.segs[sk].terms.find(key); return ok }) {
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
// maxLen bytes.
func (ix *Index) matchSegment(s *scratch, si int, seg *Segment, ui int8, u Unit, last bool, maxLen int, p Params) bool {
	matched := false
	exact, hasExact := seg.terms.find(u.Text)
	if hasExact {
		matched = ix.addList(s, si, &seg.terms, exact, ui, qExact, false, p) || matched
	}
	if !u.Unspaced {
		if st, ok := seg.stems.find(textnorm.Stem(u.Text)); ok {
			matched = ix.addList(s, si, &seg.stems, st, ui, qStem, false, p) || matched
		}
	}
	if last {
		lo, hi := seg.terms.prefixRange(u.Text)
		n := float32(len(u.Text))
		for t := lo; t < hi; t++ {
			tl := len(seg.terms.keys.at(t))
			if maxLen > 0 && tl > maxLen {
				continue
			}
			if t != exact || !hasExact {
				matched = ix.addList(s, si, &seg.terms, t, ui, qPrefix+0.3*n/float32(tl), false, p) || matched
			}
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
			matched = ix.addList(s, si, &seg.grams, g, ui, q, false, p) || matched
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
			matched = ix.addList(s, si, &seg.terms, t, ui, qExact-0.15*float32(d-1), true, p) || matched
		}
	}
	return matched
}

// addList adds every phrase of key k of a table of segment si.
func (ix *Index) addList(s *scratch, si int, t *table, k int, ui int8, q float32, typo bool, p Params) bool {
	lo, hi := t.list(k)
	seg := ix.segs[si]
	base := ix.base[si]
	if typo {
		q *= ix.Weights[packfmt.FieldTypo]
	}
	q *= s.uw[ui]
	w := ix.segWeight(si, p)
	added := false
	for j := lo; j < hi; j++ {
		pid := t.post.at(j)
		field := seg.phField.at(int(pid))
		if typo && field == packfmt.FieldLow {
			continue // a misspelt guess at an association is noise ("padlock" is not "paddock")
		}
		added = true
		gp := base + pid
		a := &s.phrases[gp]
		if a.stamp != s.gen {
			*a = phraseAcc{stamp: s.gen, seg: uint8(si), unit: ui, cnt: 1, cw: s.cov[ui]}
			s.touchedP = append(s.touchedP, gp)
		} else if a.unit != ui {
			a.sum += a.cur
			a.cur = 0
			a.unit = ui
			a.cnt++
			a.cw += s.cov[ui]
		}
		if typo {
			a.typo = true
		}
		a.cur = max(a.cur, q)
		ei := seg.phEntry.at(int(pid))
		e := &s.entries[ei]
		if e.stamp != s.gen {
			*e = entryAcc{stamp: s.gen, phrase: -1}
			s.touchedE = append(s.touchedE, int32(ei))
		}
		e.units[ui] = max(e.units[ui], q*w*ix.Weights[field])
	}
	return added
}

// segWeight is the factor of a segment's phrases: English phrases count a
// little less when another locale is preferred.
func (ix *Index) segWeight(si int, p Params) float32 {
	if p.Loc >= 0 && ix.Locales[si] == "en" && ix.Locales[p.Loc] != "en" {
		return ix.English
	}
	return 1
}

// phraseInfo returns the field, token count and entry of a global phrase.
func (ix *Index) phraseInfo(si int, gp uint32) (field uint8, ntok uint8, entry int32) {
	seg := ix.segs[si]
	l := int(gp - ix.base[si])
	return uint8(seg.phField.at(l)), uint8(seg.phNTok.at(l)), int32(seg.phEntry.at(l))
}

func (ix *Index) phraseField(gp int32) uint8 {
	f, _, _ := ix.phraseInfo(ix.segOf(uint32(gp)), uint32(gp))
	return f
}

// score turns the accumulators into one score per entry: the best phrase
// (its field weight, the share of the query it covers and of itself that is
// covered), or, a little lower, the query units covered across the entry's
// phrases; plus a small popularity prior.
func (ix *Index) score(s *scratch, nunits int, p Params) {
	nu := s.uwSum
	for _, pid := range s.touchedP {
		a := &s.phrases[pid]
		field, ntok, entry := ix.phraseInfo(int(a.seg), pid)
		e := &s.entries[entry]
		if e.phrase < 0 || (e.best == 0 && ix.phraseBefore(pid, field, uint32(e.phrase), e.field)) {
			e.phrase = int32(pid) // reported if only the units across phrases qualify
			e.field = field
		}
		qcov := a.cw / s.covSum
		if nunits > 1 && qcov < p.MinCoverage && !p.Relaxed {
			continue
		}
		// The phrase holds every word of the query (stop words aside).
		whole := int(a.cnt) == nunits || a.cw+s.stopCov >= s.covSum*0.999
		pcov := min(1, float32(a.cnt)/float32(max(ntok, 1)))
		flag := ix.Entries[entry].Flag && !s.unspaced
		if flag && !s.flags && !whole {
			continue // a flag never answers one word of a longer query ("in love")
		}
		w := ix.Weights[field]
		if nunits > 1 && field == packfmt.FieldShortcode && ntok == 1 && ix.shortPhrase(int(a.seg), pid) {
			w *= shortCodeFactor // "in", "ok", "up": a code, not a word of the sentence
		}
		v := w * ix.segWeight(int(a.seg), p) * (a.sum + a.cur) / nu * (0.6 + 0.4*pcov)
		if nunits > 1 && int(a.cnt) == nunits && int(ntok) == nunits && !a.typo && field != packfmt.FieldLow && a.sum+a.cur >= nu*0.999 {
			// The query is this phrase, word for word: it outranks every
			// match of parts of the query over several phrases (at most 0.9).
			v *= exactBoost
		}
		if flag && !namesFlag(a.cnt, ntok, field) {
			v *= flagPartFactor
		}
		if v > e.best || (v == e.best && (field < e.field || field == e.field && ix.phraseBefore(pid, field, uint32(e.phrase), e.field))) {
			e.best, e.phrase, e.field, e.typo = v, int32(pid), field, a.typo
		}
	}
	for _, ei := range s.touchedE {
		e := &s.entries[ei]
		if ix.Entries[ei].Flag && !s.flags {
			continue
		}
		var sum, covered float32
		for u := range nunits {
			if e.units[u] > 0 {
				sum += e.units[u]
				covered += s.cov[u]
			}
		}
		if nunits > 1 && (covered/s.covSum >= p.MinCoverage || p.Relaxed) {
			if v := 0.9 * sum / nu; v > e.best {
				e.best = v
			}
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
func (ix *Index) phraseBefore(a uint32, fa uint8, b uint32, fb uint8) bool {
	if fa != fb {
		return fa < fb
	}
	sa, sb := ix.segOf(a), ix.segOf(b)
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

// familyBonus: one member represents a gender/direction family: the one
// most devices render (the oldest Emoji version; 👨‍🎓 is 4.0, 🧑‍🎓 12.1), then
// the neutral one, unless another member matches clearly better (the query
// names the gender: "woman technologist").
const familyBonus = 0.04

// rank returns the best hits, one per family, each followed by its family's
// other gender members when the query named no gender (see expand).
func (ix *Index) rank(s *scratch, limit int) []Hit {
	s.others = s.others[:0]
	for _, ei := range s.touchedE {
		e := &s.entries[ei]
		if e.phrase < 0 || e.best <= 0 {
			continue
		}
		ent := &ix.Entries[ei]
		h := Hit{Entry: ei, Score: e.best * (0.9 + 0.1*float32(ent.Prior)/100), Phrase: e.phrase, Field: e.field}
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
	return ix.expand(s, topK(s.hits, limit), limit)
}

// expand follows each family's representative with the family's other
// matching gender members, best first ("cook": 🧑‍🍳 👨‍🍳 👩‍🍳), so that a
// picker offers every gender, as device keyboards do. It does so only for a
// direct match (not a typo, a weak phrase or a neighbour, which would crowd
// the list) and when the query named no gender: the neutral member
// represents the family or matched about as well (within familyBonus).
// Direction variants ("facing right") stay folded into their family. The
// list keeps at most limit hits.
func (ix *Index) expand(s *scratch, top []Hit, limit int) []Hit {
	if len(s.others) == 0 {
		return top
	}
	out := make([]Hit, 0, limit)
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
	if !isDirectional(ix.Entries[h.Entry].ID) {
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

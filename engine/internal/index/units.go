package index

import (
	"math"
	"strconv"

	"github.com/emojisearch/emojisearch/engine/internal/textnorm"
	"github.com/emojisearch/emojisearch/engine/packfmt"
)

// Unit is one query word or unspaced segment.
type Unit struct {
	Text     string
	Unspaced bool
	Tok      uint8 // index of the query token it comes from
}

// Units turns tokens into query units: unspaced tokens are segmented into
// the words of the locales in mask (fewest pieces; unknown characters stand
// alone), except a last token still being typed that is the prefix of a word.
// The units are written into dst's storage (the caller's, so a search need not
// allocate them). Digits are read as a clock time (clockTime), except three
// that are a word of the dictionary (not only a related word): "100" is 💯
// and "911" 🚓, not one o'clock and 9:11, while "400" is 4:00; four digits
// stay a time ("1000" is 🕙, though "1000 yen" holds the word).
func (ix *Index) Units(dst []Unit, tokens []string, prefix bool, mask uint64) []Unit {
	out := dst[:0]
	for i, t := range tokens {
		if h, m, ok := clockTime(tokens, i); ok && (len(t) != 3 || !ix.knownDirect(t, mask)) {
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

// knownDirect is known outside the related words (packfmt.RelatedPart),
// which the JS client does not load.
func (ix *Index) knownDirect(t string, mask uint64) bool {
	return ix.any(mask, func(s *Segment) bool {
		_, ok := s.terms.find(t)
		return ok && s.part != packfmt.RelatedPart
	})
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
	s.covSum, s.stopSet = s.uwSum, 0
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
	s.dfPrev, s.dfCur = s.dfCur, s.dfPrev[:0]
	for ui, u := range units {
		if df := ix.unitDF(s, p.Mask, u); df > 0 {
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
// content word stopUnitWeight, so coverage counts the content words, and
// lists them in s.stopSet: a phrase (or an entry across its phrases) that
// only they match is no match at all ("я заболел" is not "я тебя люблю"). A
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
	s.uwSum, s.covSum = 0, 0
	for ui := range units {
		if content && stop[ui] {
			s.uw[ui], s.cov[ui] = stopUnitWeight, stopUnitWeight
		}
		s.uwSum += s.uw[ui]
		s.covSum += s.cov[ui]
		if content && stop[ui] {
			s.stopSet |= 1 << ui
		}
	}
}

// dfMemo is the count unitDF found for a unit's text in a mask.
type dfMemo struct {
	text     string
	unspaced bool
	mask     uint64
	df       int
}

// unitDF is the strongDF of a unit's word, else of its n-gram (unspaced)
// or its stem. While typing, the words before the last are those of the
// previous keystroke: their counts are taken from its search (s.dfPrev)
// rather than counted again over a common word's long lists.
func (ix *Index) unitDF(s *scratch, mask uint64, u Unit) int {
	for _, m := range s.dfPrev {
		if m.text == u.Text && m.unspaced == u.Unspaced && m.mask == mask {
			s.dfCur = append(s.dfCur, m)
			return m.df
		}
	}
	df := ix.strongDF(mask, u.Text, func(seg *Segment) *table { return &seg.terms })
	switch {
	case df > 0:
	case u.Unspaced:
		df = ix.strongDF(mask, u.Text, func(seg *Segment) *table { return &seg.grams })
	default:
		df = ix.strongDF(mask, textnorm.Stem(u.Text), func(seg *Segment) *table { return &seg.stems })
	}
	s.dfCur = append(s.dfCur, dfMemo{text: u.Text, unspaced: u.Unspaced, mask: mask, df: df})
	return df
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

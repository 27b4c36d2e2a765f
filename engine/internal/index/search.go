package index

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
	Seg    uint8 // the phrase's segment (HitText)
}

// phraseAcc accumulates one phrase's matches. Its entry, field, token count
// and segment never change: they are filled in when the scratch is made
// (newPhraseAccs), so the first touch of a phrase in a search reads one
// cache line, not three width-switched arrays of the segment besides.
type phraseAcc struct {
	stamp uint32
	entry int32 // static: the phrase's entry, field, token count and segment
	field uint8
	ntok  uint8
	seg   uint8
	flag  bool    // static: the entry is a country flag
	sum   float32 // finished units
	cur   float32 // best quality of the current unit
	unit  int8
	units uint8 // bit per unit matched: their count and coverage weight (covOf)
	typo  bool
}

type entryAcc struct {
	stamp   uint32
	listed  uint32            // stamp: the entry is in touchedE
	units   [MaxUnits]float32 // best weighted quality per unit over the entry's phrases
	best    float32
	phrase  int32
	field   uint8 // field of phrase
	typo    bool
	related bool // only a neighbour of a strong match
	// fallback: no phrase qualified, the units across the phrases did (score)
	fallback bool
}

type scratch struct {
	gen      uint32
	phrases  []phraseAcc
	entries  []entryAcc
	touchedP []uint32
	touchedE []int32
	fam      []famSlot
	hits     []Hit
	top, out []Hit                  // rank's best hits and expand's list, copied into Search's dst
	others   []Hit                  // family members that do not represent their family
	uw       [MaxUnits]float32      // weight of each query unit (mean 1), see unitWeights
	uwSum    float32                // sum of uw over the query's units
	multi    bool                   // the units come from several query words
	unspaced bool                   // one unspaced word (Han): its units are pieces of one word
	gender   bool                   // a unit names a gender
	flags    bool                   // flags may answer parts of the query: one word, or "flag" named
	stopSet  uint8                  // bit per stop unit of a query that also holds a content word
	cov      [MaxUnits]float32      // share of each unit in coverage: 1, stopUnitWeight for a stop word
	covOf    [1 << MaxUnits]float32 // coverage weight of a set of units, summed in unit order (score)
	covSum   float32
	segW     [64]float32 // segWeight of each segment for this search
	// The last unit's term ranges in the previous search of this scratch:
	// while typing, the next keystroke's ranges lie within them.
	prevText              string
	prevRanges            prefixRanges
	prevCounted, prevMany uint64   // by main segment: completions counted, more than prefixFanout
	dfPrev, dfCur         []dfMemo // unitDF's counts of the previous multi-unit search and this one
	narrow                bool     // the last unit completes only phrases earlier units matched (narrowBelow)
}

type famSlot struct {
	stamp uint32
	hit   int32   // index into hits
	head  float32 // score of the family's neutral member, 0 when it did not match
}

// getScratch takes a scratch from the index's own pool: a field, not a
// process-wide map keyed by index, which cost a map lookup (and a new pool
// value) per search, about 6 µs under js/wasm.
func (ix *Index) getScratch() *scratch { return ix.scratch.Get().(*scratch) }

func (ix *Index) putScratch(s *scratch) { ix.scratch.Put(s) }

// newPhraseAccs returns the accumulators of every phrase of the index with
// their static fields filled in.
func (ix *Index) newPhraseAccs() []phraseAcc {
	accs := make([]phraseAcc, ix.nPhrases)
	for si, seg := range ix.segs {
		base := ix.base[si]
		for l := range seg.phText.len() {
			a := &accs[base+uint32(l)]
			a.entry, a.field, a.ntok, a.seg = int32(seg.phEntry.at(l)), uint8(seg.phField.at(l)), uint8(seg.phNTok.at(l)), uint8(si)
			a.flag = ix.Entries[a.entry].Flag
		}
	}
	return accs
}

// Search ranks entries for the query units and appends the hits to dst:
// best first, one per family, at most p.Limit. The caller owns dst, so a
// search allocates nothing when it fits (each allocation costs most under
// js/wasm, and the collector with it).
func (ix *Index) Search(dst []Hit, units []Unit, p Params) []Hit {
	if len(units) == 0 || p.Limit <= 0 {
		return dst
	}
	s := ix.getScratch()
	defer ix.putScratch(s)
	s.gen++
	if s.gen == 0 { // wrapped: clear stamps (the static fields stay)
		for i := range s.phrases {
			s.phrases[i].stamp = 0
		}
		clear(s.entries)
		clear(s.fam)
		s.gen = 1
	}
	s.touchedP, s.touchedE, s.hits = s.touchedP[:0], s.touchedE[:0], s.hits[:0]
	ix.unitWeights(s, units, p)
	for si := range ix.segs {
		s.segW[si] = ix.segWeight(si, p)
	}
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
	return ix.rank(s, dst, p.Limit)
}

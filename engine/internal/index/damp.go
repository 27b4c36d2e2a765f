package index

import (
	"cmp"
	"slices"
	"sync"
)

// completionDamp is how much each further emoji family a completed word
// names counts while the query's one word is being typed: the word's
// families, best phrase first (fillDamp), count 1, 0.9, 0.81..., so the
// first letters offer the best emoji of several words they may become
// ("bir": 🐦 bird, 🖊️ biro, 🎂 birthday) rather than every emoji of the
// shortest one. Measured on the dev sets' typing traces
// (docs/benchmarks-history.md, issue 29 round 5). A word typed in full is
// not damped, nor a longer query's last word (its phrases' order depends
// on the other words).
const completionDamp = 0.9

// dampFloor bounds the damping ("face" names hundreds of families): it
// stops once the factor is this small (it already ranks last), as float32
// arithmetic on subnormal numbers is many times slower.
const dampFloor = 1e-3

// dampTables holds, per segment, the damping factor of each posting of the
// terms table, filled on a term's first use as a completion (a locale's
// segments together) and then only read. Computed lazily, not at load:
// the cold start stays a view of the file.
type dampTables struct {
	mu     sync.Mutex   // serialises filling
	factor [][]float32  // per segment, per posting of terms; allocated on first use
	done   [][]doneWord // per segment, a bit per term: factors written
}

func newDampTables(segs []*Segment) *dampTables {
	return &dampTables{factor: make([][]float32, len(segs)), done: make([][]doneWord, len(segs))}
}

// dampOf returns the factors of the postings lo..hi-1 of term k of
// segment si, filling them on first use.
func (ix *Index) dampOf(si, k, lo, hi int) []float32 {
	if !ix.damp.ready(si, k) {
		ix.fillDamp(si, k)
	}
	return ix.damp.factor[si][lo:hi]
}

// ready reports whether term k of segment si has its factors. Inlined: it
// runs for every completion of a one-word query.
func (d *dampTables) ready(si, k int) bool {
	done := d.done[si]
	return k>>6 < len(done) && done[k>>6].Load()&(1<<(k&63)) != 0
}

// dampPosting is one posting of a word across a locale's segments.
type dampPosting struct {
	seg, at int
	family  int32
	v       float32
}

// fillDamp writes the factors of term k of segment si and of the same word
// in the other segments of its locale (the answers do not depend on how a
// locale's phrases are split over files). Each family counts once, at its
// strongest phrase by what a one-word query's score holds besides the
// match: the field's weight and the share of the phrase the word is (a
// keyword "happy" before the editorial "happy for you", wordStrength);
// equal ones go by family. A search that finds them filled by another
// while it waited for the lock writes nothing.
func (ix *Index) fillDamp(si, k int) {
	d := ix.damp
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.ready(si, k) {
		return
	}
	key := ix.segs[si].terms.keys.at(k)
	var ps []dampPosting
	type list struct{ seg, term int }
	var lists []list
	for _, sj := range ix.locSegs[si] {
		seg := ix.segs[sj]
		kj, ok := k, sj == si
		if !ok {
			if kj, ok = seg.terms.find(key); !ok {
				continue
			}
		}
		if d.done[sj] == nil {
			d.factor[sj] = make([]float32, seg.terms.post.len())
			d.done[sj] = make([]doneWord, (seg.terms.keys.len()+63)/64)
		}
		lists = append(lists, list{sj, kj})
		lo, hi := seg.terms.list(kj)
		for at := lo; at < hi; at++ {
			l := int(seg.terms.post.at(at))
			ps = append(ps, dampPosting{sj, at, ix.Entries[seg.phEntry.at(l)].Family, ix.wordStrength(seg, l)})
		}
	}
	// Ties go by family, not by posting: the order must not depend on
	// which file a phrase came from.
	slices.SortFunc(ps, func(a, b dampPosting) int { return cmp.Or(cmp.Compare(b.v, a.v), cmp.Compare(a.family, b.family)) })
	rank := map[int32]float32{}
	f := float32(1)
	for _, p := range ps {
		r, ok := rank[p.family]
		if !ok {
			r = f
			rank[p.family] = r
			if f > dampFloor {
				f *= completionDamp
			}
		}
		d.factor[p.seg][p.at] = r
	}
	for _, l := range lists {
		w := &d.done[l.seg][l.term>>6]
		w.Store(w.Load() | 1<<(l.term&63))
	}
}

// wordStrength is what a one-word query's score of phrase l of seg holds
// besides the match: its field's weight and the share of the phrase one
// word is (score: 0.6 + 0.4 x coverage).
func (ix *Index) wordStrength(seg *Segment, l int) float32 {
	return ix.Weights[seg.phField.at(l)] * (0.6 + 0.4/float32(max(1, seg.phNTok.at(l))))
}

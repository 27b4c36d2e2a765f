package vectors

import "slices"

// Match is one search result: an emoji id and its cosine with the query.
type Match struct {
	ID    string
	Score float32
}

// SearchVectors returns the k rows nearest the query by cosine, best first;
// equal scores keep file order. A query of another length than the index's
// rows, a zero query or k <= 0 gives no matches.
func SearchVectors(idx *Index, query []float32, k int) []Match {
	return SearchVectorSets([]*Index{idx}, query, k)
}

// SearchVectorSets searches several vector files (the shared English vectors
// and a locale's own) and keeps each emoji's best row: the k best emoji by
// their best cosine, best first; ties go to the earlier file and row. Files
// whose dims differ from the query's are skipped.
func SearchVectorSets(indexes []*Index, query []float32, k int) []Match {
	if k <= 0 {
		return nil
	}
	q := L2Normalize(query)
	if isZero(q) {
		return nil
	}
	top := make([]scored, 0, k) // best k distinct ids, unordered
	worst := 0                  // position of the lowest entry of a full top
	for f, idx := range indexes {
		if idx == nil || idx.dims != len(q) {
			continue
		}
		for i, id := range idx.ids {
			sc := idx.dot(i, q)
			full := len(top) == k
			if full && !better(sc, f<<32|i, top[worst]) {
				continue
			}
			if j := slices.IndexFunc(top, func(e scored) bool { return e.id == id }); j >= 0 {
				if sc > top[j].score {
					top[j].score = sc
				}
			} else if full {
				top[worst] = scored{id: id, score: sc, order: f<<32 | i}
			} else {
				top = append(top, scored{id: id, score: sc, order: f<<32 | i})
			}
			if len(top) == k {
				worst = 0
				for j := range top {
					if better(top[worst].score, top[worst].order, top[j]) {
						worst = j
					}
				}
			}
		}
	}
	slices.SortFunc(top, func(a, b scored) int {
		if better(a.score, a.order, b) {
			return -1
		}
		return 1
	})
	out := make([]Match, len(top))
	for i, s := range top {
		out[i] = Match{ID: s.id, Score: s.score}
	}
	return out
}

// better reports whether a score at a position ranks above e: a higher
// score, or the same score earlier in the files.
func better(score float32, order int, e scored) bool {
	return score > e.score || (score == e.score && order < e.order)
}

type scored struct {
	id    string
	score float32
	order int
}

// dot is the cosine of unit query q with row i (four lanes, so the
// compiler drops bounds checks and the adds pipeline).
func (x *Index) dot(i int, q []float32) float32 {
	row := x.unit[i*x.dims : (i+1)*x.dims]
	q = q[:len(row)]
	var s0, s1, s2, s3 float32
	d := 0
	for ; d+4 <= len(row); d += 4 {
		r, v := row[d:d+4:d+4], q[d:d+4:d+4]
		s0 += r[0] * v[0]
		s1 += r[1] * v[1]
		s2 += r[2] * v[2]
		s3 += r[3] * v[3]
	}
	for ; d < len(row); d++ {
		s0 += row[d] * q[d]
	}
	return s0 + s1 + s2 + s3
}

func isZero(v []float32) bool {
	for _, x := range v {
		if x != 0 {
			return false
		}
	}
	return true
}

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
		var block [4]float32
		for i, id := range idx.ids {
			// Rows are scored four at a time (dot4 shares each query load
			// among them); a row's own arithmetic is dot's, so scores and
			// ties do not depend on the blocking.
			if i%4 == 0 {
				if i+4 <= len(idx.ids) {
					block = idx.dot4(i, q)
				} else {
					for j := i; j < len(idx.ids); j++ {
						block[j-i] = idx.dot(j, q)
					}
				}
			}
			sc := block[i%4]
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

// dot4 is dot of rows i..i+3 with q, each row summed exactly as dot sums
// it (the same four lanes, added in the same order), in one pass over q:
// the query element is loaded once for four rows, which is what the scan
// spends its time on in js/wasm (no SIMD there).
func (x *Index) dot4(i int, q []float32) [4]float32 {
	d := x.dims
	r0 := x.unit[i*d : (i+1)*d]
	r1 := x.unit[(i+1)*d : (i+2)*d]
	r2 := x.unit[(i+2)*d : (i+3)*d]
	r3 := x.unit[(i+3)*d : (i+4)*d]
	q = q[:len(r0)]
	r1, r2, r3 = r1[:len(r0)], r2[:len(r0)], r3[:len(r0)]
	// Lanes a0..a3 of row 0, b of row 1, c of row 2, e of row 3: scalars,
	// which the wasm compiler keeps in locals (an array lives in memory).
	var a0, a1, a2, a3, b0, b1, b2, b3, c0, c1, c2, c3, e0, e1, e2, e3 float32
	j := 0
	for ; j+4 <= len(r0); j += 4 {
		v := q[j : j+4 : j+4]
		w0, w1, w2, w3 := r0[j:j+4:j+4], r1[j:j+4:j+4], r2[j:j+4:j+4], r3[j:j+4:j+4]
		a0 += w0[0] * v[0]
		a1 += w0[1] * v[1]
		a2 += w0[2] * v[2]
		a3 += w0[3] * v[3]
		b0 += w1[0] * v[0]
		b1 += w1[1] * v[1]
		b2 += w1[2] * v[2]
		b3 += w1[3] * v[3]
		c0 += w2[0] * v[0]
		c1 += w2[1] * v[1]
		c2 += w2[2] * v[2]
		c3 += w2[3] * v[3]
		e0 += w3[0] * v[0]
		e1 += w3[1] * v[1]
		e2 += w3[2] * v[2]
		e3 += w3[3] * v[3]
	}
	for ; j < len(r0); j++ {
		a0 += r0[j] * q[j]
		b0 += r1[j] * q[j]
		c0 += r2[j] * q[j]
		e0 += r3[j] * q[j]
	}
	return [4]float32{a0 + a1 + a2 + a3, b0 + b1 + b2 + b3, c0 + c1 + c2 + c3, e0 + e1 + e2 + e3}
}

// Dot is the cosine of a unit query with row i, without copying the row
// (the reaction route asks it for each emoji of its vocabulary).
func (x *Index) Dot(i int, q []float32) float32 {
	if i < 0 || i >= len(x.ids) || len(q) != x.dims {
		return 0
	}
	return x.dot(i, q)
}

func isZero(v []float32) bool {
	for _, x := range v {
		if x != 0 {
			return false
		}
	}
	return true
}

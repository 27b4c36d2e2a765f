package textnorm

import "unicode/utf8"

// BoundedEditDistance returns the optimal-string-alignment distance between
// a and b (insertions, deletions, substitutions and adjacent transpositions,
// counted in characters) when it is at most max, and max+1 otherwise. It
// stops as soon as the bound is exceeded, so far-apart words cost little.
//
// A character both words start (or end) with is aligned with itself in
// some optimal alignment, so the common prefix and suffix are cut first:
// typo candidates share their first letter with the word, and most share
// more (the typo search's hottest call).
func BoundedEditDistance(a, b string, max int) int {
	if max < 0 {
		return 0
	}
	for len(a) > 0 && len(b) > 0 {
		ra, na := utf8.DecodeRuneInString(a)
		rb, nb := utf8.DecodeRuneInString(b)
		if ra != rb || na != nb {
			break
		}
		a, b = a[na:], b[nb:]
	}
	for len(a) > 0 && len(b) > 0 {
		ra, na := utf8.DecodeLastRuneInString(a)
		rb, nb := utf8.DecodeLastRuneInString(b)
		if ra != rb || na != nb {
			break
		}
		a, b = a[:len(a)-na], b[:len(b)-nb]
	}
	var abuf, bbuf [64]rune
	ar, br := runes(a, abuf[:0]), runes(b, bbuf[:0])
	if d := len(ar) - len(br); d > max || -d > max {
		return max + 1
	}
	if len(ar) == 0 || len(br) == 0 {
		return min(max+1, len(ar)+len(br))
	}
	// Only the cells within max of the diagonal can stay within max: the
	// rows are computed on that band, the cells beside it held at max+1.
	inf, m := max+1, len(br)
	var buf [3 * 65]int
	var prev2, prev, cur []int
	if 3*(m+1) <= len(buf) {
		prev2, prev, cur = buf[0:m+1], buf[m+1:2*(m+1)], buf[2*(m+1):3*(m+1)]
	} else {
		prev2, prev, cur = make([]int, m+1), make([]int, m+1), make([]int, m+1)
	}
	for j := range prev {
		prev[j] = min(j, inf)
	}
	for i := 1; i <= len(ar); i++ {
		lo, hi := 1, m
		if i-max > lo {
			lo = i - max
		}
		if i+max < hi {
			hi = i + max
		}
		cur[0] = min(i, inf)
		if lo > 1 {
			cur[lo-1] = inf
		}
		rowMin := inf
		if lo == 1 {
			rowMin = cur[0]
		}
		for j := lo; j <= hi; j++ {
			cost := 1
			if ar[i-1] == br[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost, inf)
			if i > 1 && j > 1 && ar[i-1] == br[j-2] && ar[i-2] == br[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
			rowMin = min(rowMin, v)
		}
		if hi < m {
			cur[hi+1] = inf // the next row reads one cell past this band
		}
		if rowMin > max {
			return inf
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return min(prev[m], inf)
}

func runes(s string, buf []rune) []rune {
	for len(s) > 0 {
		r, n := utf8.DecodeRuneInString(s)
		buf = append(buf, r)
		s = s[n:]
	}
	return buf
}

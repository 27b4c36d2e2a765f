package textnorm

import "unicode/utf8"

// BoundedEditDistance returns the optimal-string-alignment distance between
// a and b (insertions, deletions, substitutions and adjacent transpositions,
// counted in characters) when it is at most max, and max+1 otherwise. It
// stops as soon as the bound is exceeded, so far-apart words cost little.
func BoundedEditDistance(a, b string, max int) int {
	if max < 0 {
		return 0
	}
	var abuf, bbuf [64]rune
	ar, br := runes(a, abuf[:0]), runes(b, bbuf[:0])
	if d := len(ar) - len(br); d > max || -d > max {
		return max + 1
	}
	if len(ar) == 0 || len(br) == 0 {
		return min(max+1, len(ar)+len(br))
	}
	var buf [3 * 65]int
	var prev2, prev, cur []int
	if 3*(len(br)+1) <= len(buf) {
		prev2, prev, cur = buf[0:len(br)+1], buf[len(br)+1:2*(len(br)+1)], buf[2*(len(br)+1):3*(len(br)+1)]
	} else {
		prev2, prev, cur = make([]int, len(br)+1), make([]int, len(br)+1), make([]int, len(br)+1)
	}
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ar); i++ {
		cur[0] = i
		rowMin := i
		for j := 1; j <= len(br); j++ {
			cost := 1
			if ar[i-1] == br[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ar[i-1] == br[j-2] && ar[i-2] == br[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
			rowMin = min(rowMin, v)
		}
		if rowMin > max {
			return max + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return min(prev[len(br)], max+1)
}

func runes(s string, buf []rune) []rune {
	for len(s) > 0 {
		r, n := utf8.DecodeRuneInString(s)
		buf = append(buf, r)
		s = s[n:]
	}
	return buf
}

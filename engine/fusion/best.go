package fusion

import (
	"cmp"
	"slices"
)

// Ranked is a candidate with its score and its order of arrival.
type Ranked[T any] struct {
	Item  T
	Score float64
	Order int
}

// Best returns the items of the limit highest scores, best first; equal
// scores keep their order of arrival. It sorts rs.
func Best[T any](rs []Ranked[T], limit int) []T {
	slices.SortFunc(rs, func(a, b Ranked[T]) int {
		if a.Score != b.Score {
			return cmp.Compare(b.Score, a.Score)
		}
		return cmp.Compare(a.Order, b.Order)
	})
	out := make([]T, 0, min(max(limit, 0), len(rs)))
	for _, r := range rs[:cap(out)] {
		out = append(out, r.Item)
	}
	return out
}

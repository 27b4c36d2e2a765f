package search

import (
	"context"
	"errors"
	"net/url"
	"strconv"
)

// ErrNotPublishable: the answer was degraded or incomplete (the embedding
// backend or a pack failed), so it must not be published.
var ErrNotPublishable = errors.New("search: answer degraded or incomplete")

// Precompute answers query in locale exactly as an anonymous hybrid
// GET /v1/search with limit does (shared cache included), for the nightly
// shard build (service/shards): the shard files then hold the service's own
// answers. It counts nothing.
func (s *Service) Precompute(ctx context.Context, locale, query string, limit int) ([]Item, error) {
	p, err := ParseParams(url.Values{"q": {query}, "locale": {locale}, "mode": {string(Hybrid)}, "limit": {strconv.Itoa(limit)}})
	if err != nil {
		return nil, err
	}
	a, _ := s.search(ctx, p, false)
	if a.Degraded || a.cacheControl == ccNoStore {
		return nil, ErrNotPublishable
	}
	return a.Results, nil
}

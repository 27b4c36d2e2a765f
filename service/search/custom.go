package search

import (
	"context"
	"net/http"

	"github.com/emojisearch/emojisearch/service/access"
	"github.com/emojisearch/emojisearch/service/customemoji"
)

// Custom is the part of service/customemoji the search route uses. Its
// query is already normalised (engine.Normalize): the search route passes
// its answer's query, which the engine normalised.
type Custom interface {
	MatchNormalized(ctx context.Context, appID, tenant, q string, limit int) ([]customemoji.Match, bool, error)
}

// mergeCustom puts the keyed caller's matching custom emoji first, within
// limit (spec 1, custom emoji rules), after the shared cache: custom
// results never enter it, and an app with custom emoji gets private
// answers. A custom store that cannot be read leaves them out and makes
// the answer no-store, so a later request shows them.
func (s *Service) mergeCustom(r *http.Request, caller access.Caller, p Params, a *answer) {
	if s.cfg.Custom == nil || caller.Anonymous || caller.AppID == "" {
		return
	}
	// a.Query is the normalised query (the engine's, or the cached
	// answer's, which the engine normalised from the same text).
	ms, has, err := s.cfg.Custom.MatchNormalized(r.Context(), caller.AppID, p.Tenant, a.Query, p.Limit)
	switch {
	case err != nil:
		a.cacheControl = ccNoStore
		return
	case !has:
		return
	case a.cacheControl == "":
		a.cacheControl = ccPrivate
	}
	if len(ms) == 0 {
		return
	}
	scheme := r.URL.Scheme // the Worker sees absolute URLs
	if scheme == "" {
		scheme = "https"
	}
	base := scheme + "://" + r.Host
	out := make([]Item, 0, p.Limit)
	for _, m := range ms {
		out = append(out, Item{Emoji: ":" + m.Shortcode + ":", ID: "C-" + m.ID, Score: m.Score, Source: "custom",
			ImageURL: base + "/v1/custom/" + caller.AppID + "/" + m.ID, Shortcode: m.Shortcode})
	}
	for _, it := range a.Results {
		if len(out) == p.Limit {
			break
		}
		out = append(out, it)
	}
	a.Results = out
}

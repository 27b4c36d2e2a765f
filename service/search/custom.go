package search

import (
	"context"
	"net/http"

	"github.com/emojisearch/emojisearch/service/access"
	"github.com/emojisearch/emojisearch/service/customemoji"
)

// Custom is the part of service/customemoji the search route uses.
type Custom interface {
	Match(ctx context.Context, appID, tenant, query string, limit int) ([]customemoji.Match, bool, error)
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
	ms, has, err := s.cfg.Custom.Match(r.Context(), caller.AppID, p.Tenant, p.Query, p.Limit)
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

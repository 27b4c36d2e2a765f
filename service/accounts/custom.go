package accounts

import (
	"context"
	"encoding/json"

	"github.com/emojisearch/emojisearch/service/store"
)

// CustomEmoji is a stored custom emoji as search needs it.
type CustomEmoji struct {
	ID        string
	Shortcode string
	Aliases   []string
	// TenantExternalID is "" for an app-wide emoji.
	TenantExternalID string
}

// CustomEmojiOf lists every custom emoji of an app (app-wide and of every
// tenant), newest first.
func (r *Repo) CustomEmojiOf(ctx context.Context, appID string) ([]CustomEmoji, error) {
	res, err := r.db.All(ctx, store.Q(`SELECT e.id, e.shortcode, e.aliases, coalesce(t.external_id, '') AS tenant
		FROM custom_emoji e LEFT JOIN tenants t ON t.id = e.tenant_id
		WHERE e.app_id = ? ORDER BY e.created_at DESC, e.id`, appID))
	if err != nil {
		return nil, err
	}
	out := make([]CustomEmoji, 0, len(res.Rows))
	for _, row := range res.Rows {
		var v struct {
			ID        string `json:"id"`
			Shortcode string `json:"shortcode"`
			Aliases   string `json:"aliases"`
			Tenant    string `json:"tenant"`
		}
		if err := store.Decode(row, &v); err != nil {
			return nil, err
		}
		e := CustomEmoji{ID: v.ID, Shortcode: v.Shortcode, TenantExternalID: v.Tenant}
		if err := json.Unmarshal([]byte(v.Aliases), &e.Aliases); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}

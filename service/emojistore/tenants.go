package emojistore

import (
	"context"
	"encoding/base64"
	"errors"
	"net/http"
	"net/url"
	"strconv"

	"github.com/emojisearch/emojisearch/service/accounts"
	"github.com/emojisearch/emojisearch/service/events"
	"github.com/emojisearch/emojisearch/service/store"
)

// Tenant is one customer of an app (spec 1 Tenant).
type Tenant struct {
	ID         string `json:"id"`
	AppID      string `json:"-"`
	ExternalID string `json:"externalId"`
	Name       string `json:"name"`
	CreatedAt  int64  `json:"createdAt"`
	EmojiCount int64  `json:"emojiCount"`
}

// eventData is the data of tenant.created (tenant.deleted adds
// emojiDeleted).
func (t Tenant) eventData() map[string]any {
	return map[string]any{"id": t.ID, "externalId": t.ExternalID, "name": t.Name, "createdAt": t.CreatedAt}
}

const tenantCols = `t.id, t.external_id AS externalId, t.name, t.created_at AS createdAt,
	(SELECT count(*) FROM custom_emoji e WHERE e.tenant_id = t.id) AS emojiCount`

func (s *Store) tenant(ctx context.Context, q store.Stmt) (Tenant, error) {
	row, err := s.db.First(ctx, q)
	if err != nil {
		return Tenant{}, err
	}
	if row == nil {
		return Tenant{}, ErrTenantNotFound
	}
	var t Tenant
	err = store.Decode(row, &t)
	return t, err
}

// Tenant returns an app's tenant by id; ErrTenantNotFound.
func (s *Store) Tenant(ctx context.Context, appID, id string) (Tenant, error) {
	t, err := s.tenant(ctx, store.Q(`SELECT `+tenantCols+` FROM tenants t WHERE t.id = ? AND t.app_id = ?`, id, appID))
	t.AppID = appID
	return t, err
}

// TenantByExternalID returns an app's tenant by externalId.
func (s *Store) TenantByExternalID(ctx context.Context, appID, externalID string) (Tenant, error) {
	t, err := s.tenant(ctx, store.Q(`SELECT `+tenantCols+` FROM tenants t WHERE t.app_id = ? AND t.external_id = ?`, appID, externalID))
	t.AppID = appID
	return t, err
}

// ListTenants returns up to limit tenants ordered by externalId, after
// the externalId `after` ("" from the start), and whether more follow.
func (s *Store) ListTenants(ctx context.Context, appID, after string, limit int) ([]Tenant, bool, error) {
	res, err := s.db.All(ctx, store.Q(`SELECT `+tenantCols+` FROM tenants t WHERE t.app_id = ? AND t.external_id > ?
		ORDER BY t.external_id LIMIT ?`, appID, after, limit+1))
	if err != nil {
		return nil, false, err
	}
	list, err := store.DecodeAll[Tenant](res.Rows)
	if err != nil {
		return nil, false, err
	}
	more := len(list) > limit
	if more {
		list = list[:limit]
	}
	return list, more, nil
}

// CreateTenant creates a tenant and its tenant.created event in one batch.
// When the externalId exists it returns that tenant unchanged and
// created false (its name is not changed, and no event is written).
func (s *Store) CreateTenant(ctx context.Context, appID, externalID, name string) (Tenant, bool, error) {
	t := Tenant{ID: accounts.NewID("ten"), AppID: appID, ExternalID: externalID, Name: name, CreatedAt: s.now().UnixMilli()}
	ev, err := events.New(events.TenantCreated, appID, t.CreatedAt, t.eventData())
	if err != nil {
		return Tenant{}, false, err
	}
	_, err = s.db.Batch(ctx, []store.Stmt{
		store.Q(`INSERT INTO tenants (id, app_id, external_id, name, created_at) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (app_id, external_id) DO NOTHING`, t.ID, appID, externalID, name, t.CreatedAt),
		eventIf(ev, "SELECT 1 FROM tenants WHERE id = ?", t.ID),
	})
	if err != nil {
		return Tenant{}, false, err
	}
	got, err := s.TenantByExternalID(ctx, appID, externalID)
	if err != nil {
		return Tenant{}, false, err
	}
	return got, got.ID == t.ID, nil
}

// DeleteTenant deletes a tenant with its emoji: their images first
// (ErrStorage: nothing deleted), then the rows and the tenant.deleted
// event (data with emojiDeleted, counted inside the batch) at once. It
// returns the tenant and how many emoji were deleted.
func (s *Store) DeleteTenant(ctx context.Context, t Tenant) (int64, error) {
	if s.objects == nil {
		return 0, ErrStorage
	}
	keys, err := s.tenantImages(ctx, t.ID)
	if err != nil {
		return 0, err
	}
	if len(keys) > 0 {
		if err := s.objects.Delete(ctx, keys); err != nil {
			s.logf("emojistore: tenant images delete failed: %T", err)
			return 0, ErrStorage
		}
	}
	ev, err := events.New(events.TenantDeleted, t.AppID, s.now().UnixMilli(), t.eventData())
	if err != nil {
		return 0, err
	}
	res, err := s.db.Batch(ctx, []store.Stmt{
		store.Q(`INSERT INTO events (id, app_id, type, data, created_at)
			SELECT ?1, ?2, ?3, json_set(?4, '$.emojiDeleted', (SELECT count(*) FROM custom_emoji WHERE tenant_id = ?6)), ?5
			WHERE EXISTS (SELECT 1 FROM tenants WHERE id = ?6 AND app_id = ?2)`,
			ev.ID, ev.AppID, ev.Type, string(ev.Data), ev.CreatedAt, t.ID),
		store.Q("DELETE FROM custom_emoji WHERE tenant_id = ? AND app_id = ? RETURNING image_key", t.ID, t.AppID),
		store.Q("DELETE FROM tenants WHERE id = ? AND app_id = ?", t.ID, t.AppID),
	})
	if err != nil {
		return 0, err
	}
	if res[2].Meta.Changes == 0 {
		return 0, ErrTenantNotFound
	}
	s.notify(t.AppID)
	// An upload that landed between the image delete and the batch left an
	// image whose row is now gone: delete it too.
	known := make(map[string]bool, len(keys))
	for _, k := range keys {
		known[k] = true
	}
	var late []string
	for _, row := range res[1].Rows {
		if k, _ := row.String("image_key"); k != "" && !known[k] {
			late = append(late, k)
		}
	}
	if len(late) > 0 {
		if err := s.objects.Delete(context.WithoutCancel(ctx), late); err != nil {
			s.logf("emojistore: %d orphan images after a tenant delete: %T", len(late), err)
		}
	}
	return int64(len(res[1].Rows)), nil
}

func (s *Store) tenantImages(ctx context.Context, tenantID string) ([]string, error) {
	res, err := s.db.All(ctx, store.Q("SELECT image_key FROM custom_emoji WHERE tenant_id = ?", tenantID))
	if err != nil {
		return nil, err
	}
	return res.Strings("image_key")
}

// IsNotFound reports the store's two not-found errors.
func IsNotFound(err error) bool {
	return errors.Is(err, ErrNotFound) || errors.Is(err, ErrTenantNotFound)
}

// Page is a parsed tenants page request.
type Page struct {
	Limit int
	After string // externalId the page starts after
}

// Page sizes of both specs.
const (
	DefaultPage = 100
	MaxPage     = 500
)

// ParsePage reads ?limit= (1 to 500, default 100) and ?cursor= (a
// nextCursor of an earlier page).
func ParsePage(q url.Values) (Page, error) {
	p := Page{Limit: DefaultPage}
	if q.Has("limit") {
		n, err := strconv.Atoi(q.Get("limit"))
		if err != nil || n < 1 || n > MaxPage {
			return Page{}, &FieldError{"limit", "limit is an integer from 1 to 500."}
		}
		p.Limit = n
	}
	if c := q.Get("cursor"); c != "" {
		b, err := base64.RawURLEncoding.DecodeString(c)
		if err != nil || !ValidExternalID(string(b)) {
			return Page{}, &FieldError{"cursor", "cursor is the nextCursor of an earlier page."}
		}
		p.After = string(b)
	}
	return p, nil
}

// TenantPage returns one page and its nextCursor (nil on the last page):
// the last externalId, base64url-encoded so clients treat it as opaque.
func (s *Store) TenantPage(ctx context.Context, appID string, p Page) ([]Tenant, *string, error) {
	list, more, err := s.ListTenants(ctx, appID, p.After, p.Limit)
	if err != nil || !more {
		return list, nil, err
	}
	next := base64.RawURLEncoding.EncodeToString([]byte(list[len(list)-1].ExternalID))
	return list, &next, nil
}

// BaseURL is the search service's base URL as the request reached it
// (spec 1 {base_url}; the Worker sees absolute URLs, tests may not).
func BaseURL(r *http.Request) string {
	scheme := r.URL.Scheme
	if scheme == "" {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// Package emojistore is the one writer of custom emoji and tenants (spec 1
// tenants API, spec 2 custom emoji rules and tenant routes): dashboard
// uploads, the tenants API and chat imports all store through it, so the
// rules below hold whoever writes.
//
//   - The image goes to the image store (R2) first, under
//     custom/<appId>/<tenantId or _>/<id>.<ext> with its content type and
//     xxhash64; then the row is inserted. An insert that fails or is
//     refused deletes the image again, so the store holds one object per
//     row.
//   - The plan limit is part of the INSERT … SELECT: the row is written
//     only while the account's emoji over all its apps number fewer than
//     the limit. D1 runs statements one at a time, so parallel uploads can
//     never store more than the allowance.
//   - Every create and delete of an emoji or a tenant writes its webhook
//     event (service/events) in the same batch as the change, guarded by
//     the same condition, so an event exists exactly when the change does.
//   - Deletes remove the image first: a store failure deletes nothing
//     (ErrStorage), and a retry finishes the job.
package emojistore

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/emojisearch/emojisearch/service/accounts"
	"github.com/emojisearch/emojisearch/service/events"
	"github.com/emojisearch/emojisearch/service/imageintake"
	"github.com/emojisearch/emojisearch/service/store"
)

// Objects is the image store (R2). Deleting a missing key is no error.
type Objects interface {
	Put(ctx context.Context, key string, body []byte, contentType string, meta map[string]string) error
	Delete(ctx context.Context, keys []string) error
}

// Sources of a custom emoji (spec 1 CustomEmoji.source).
const (
	SourceUpload  = "upload"
	SourceSlack   = "slack"
	SourceDiscord = "discord"
	SourceAPI     = "api"
)

// Emoji is one stored custom emoji.
type Emoji struct {
	ID               string   `json:"id"`
	AppID            string   `json:"app_id"`
	TenantID         string   `json:"tenant_id"`          // "" app-wide
	TenantExternalID string   `json:"tenant_external_id"` // "" app-wide
	Shortcode        string   `json:"shortcode"`
	Aliases          []string `json:"-"`
	AliasesJSON      string   `json:"aliases"`
	ImageKey         string   `json:"image_key"`
	ContentType      string   `json:"content_type"`
	Source           string   `json:"source"`
	Bytes            int64    `json:"bytes"`
	CreatedAt        int64    `json:"created_at"`
}

// ImageURL is the emoji's address on the search service at base (spec 1:
// {base_url}/v1/custom/<appId>/<emoji_id>).
func (e Emoji) ImageURL(base string) string { return base + "/v1/custom/" + e.AppID + "/" + e.ID }

// View is the CustomEmoji resource. withExternal adds tenantExternalId
// (null for app-wide), which only the tenants API and webhooks carry.
func (e Emoji) View(base string, withExternal bool) map[string]any {
	m := map[string]any{
		"id": e.ID, "shortcode": e.Shortcode, "aliases": e.Aliases, "imageUrl": e.ImageURL(base),
		"tenantId": nullable(e.TenantID), "source": e.Source, "bytes": e.Bytes, "createdAt": e.CreatedAt,
	}
	if withExternal {
		m["tenantExternalId"] = nullable(e.TenantExternalID)
	}
	return m
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// Store writes and reads custom emoji and tenants.
type Store struct {
	db      store.DB
	objects Objects // nil: writes that need images answer ErrStorage
	now     func() time.Time
	logf    func(format string, args ...any)
	changed func(appID string) // told after every committed change (may be nil)
}

// Config is the store's option set (RATIONALE, "One configuration style").
type Config struct {
	db      store.DB
	objects Objects
	now     func() time.Time
	logf    func(format string, args ...any)
	changed func(appID string)
}

// NewConfig is the defaults over db: no image bucket, time.Now, no log,
// no change hook.
func NewConfig(db store.DB) Config {
	return Config{db: db, now: time.Now, logf: func(string, ...any) {}}
}

// WithObjects sets the image bucket; nil is a missing binding.
func (c Config) WithObjects(o Objects) Config { c.objects = o; return c }

// WithClock sets the clock.
func (c Config) WithClock(now func() time.Time) Config { c.now = now; return c }

// WithLog sets the log of failures that leave orphan images.
func (c Config) WithLog(logf func(format string, args ...any)) Config { c.logf = logf; return c }

// WithChanged calls fn with the app's id after every committed change of
// its emoji or tenants (the search index of this instance forgets its
// copy).
func (c Config) WithChanged(fn func(appID string)) Config { c.changed = fn; return c }

func (s *Store) notify(appID string) {
	if s.changed != nil {
		s.changed(appID)
	}
}

// New returns the store.
func New(c Config) *Store {
	if c.now == nil {
		c.now = time.Now
	}
	if c.logf == nil {
		c.logf = func(string, ...any) {}
	}
	return &Store{db: c.db, objects: c.objects, now: c.now, logf: c.logf, changed: c.changed}
}

const emojiCols = `e.id, e.app_id, coalesce(e.tenant_id, '') AS tenant_id, coalesce(t.external_id, '') AS tenant_external_id,
	e.shortcode, e.aliases, e.image_key, e.content_type, e.source, e.bytes, e.created_at`

const emojiFrom = ` FROM custom_emoji e LEFT JOIN tenants t ON t.id = e.tenant_id `

func decodeEmoji(rows []store.Row) ([]Emoji, error) {
	out, err := store.DecodeAll[Emoji](rows)
	if err != nil {
		return nil, err
	}
	for i := range out {
		if err := json.Unmarshal([]byte(out[i].AliasesJSON), &out[i].Aliases); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// List returns an app's emoji, newest first: all of them when tenantID is
// nil, else that tenant's ("" for app-wide ones only).
func (s *Store) List(ctx context.Context, appID string, tenantID *string) ([]Emoji, error) {
	q := store.Q(`SELECT `+emojiCols+emojiFrom+`WHERE e.app_id = ? ORDER BY e.created_at DESC, e.id`, appID)
	if tenantID != nil {
		q = store.Q(`SELECT `+emojiCols+emojiFrom+`WHERE e.app_id = ? AND e.scope = ? ORDER BY e.created_at DESC, e.id`, appID, *tenantID)
	}
	res, err := s.db.All(ctx, q)
	if err != nil {
		return nil, err
	}
	return decodeEmoji(res.Rows)
}

// Get returns one emoji of an app.
func (s *Store) Get(ctx context.Context, appID, id string) (Emoji, error) {
	return s.one(ctx, store.Q(`SELECT `+emojiCols+emojiFrom+`WHERE e.id = ? AND e.app_id = ?`, id, appID))
}

// ByShortcode returns the emoji of a scope (tenantID "" app-wide) with a
// shortcode.
func (s *Store) ByShortcode(ctx context.Context, appID, tenantID, shortcode string) (Emoji, error) {
	return s.one(ctx, store.Q(`SELECT `+emojiCols+emojiFrom+`WHERE e.app_id = ? AND e.scope = ? AND e.shortcode = ?`,
		appID, tenantID, shortcode))
}

func (s *Store) one(ctx context.Context, q store.Stmt) (Emoji, error) {
	row, err := s.db.First(ctx, q)
	if err != nil {
		return Emoji{}, err
	}
	if row == nil {
		return Emoji{}, ErrNotFound
	}
	out, err := decodeEmoji([]store.Row{row})
	if err != nil {
		return Emoji{}, err
	}
	return out[0], nil
}

// accountEmoji counts the emoji of every app of the account owning the
// app bound as ?2.
const accountEmoji = `(SELECT count(*) FROM custom_emoji WHERE app_id IN
	(SELECT id FROM apps WHERE account_id = (SELECT account_id FROM apps WHERE id = ?2)))`

// Used counts the custom emoji of every app of an account (spec 2: `used`
// counts every emoji of every app of the owning account, tenants included).
func (s *Store) Used(ctx context.Context, accountID string) (int64, error) {
	row, err := s.db.First(ctx, store.Q(`SELECT count(*) AS n FROM custom_emoji
		WHERE app_id IN (SELECT id FROM apps WHERE account_id = ?)`, accountID))
	if err != nil {
		return 0, err
	}
	return row.Int("n")
}

// NewEmoji is what Create stores.
type NewEmoji struct {
	AppID     string
	TenantID  string // "" app-wide
	Shortcode string // normalized (NormalizeShortcode)
	Aliases   []string
	Source    string
	Image     []byte
	Checked   imageintake.Image // Check's answer for Image
	// Limit is the account plan's custom_emoji limit (plans.Unlimited: none).
	Limit int64
	// Base is the search service's base URL, for the event's imageUrl.
	Base string
}

// Create stores an emoji: image first, then the row and its
// custom_emoji.created event in one batch, the limit and the tenant's
// existence checked inside the insert. Errors: ErrShortcodeTaken,
// *LimitError, ErrTenantNotFound, ErrStorage; the image is deleted again
// on every failure after it was written.
func (s *Store) Create(ctx context.Context, n NewEmoji) (Emoji, error) {
	if s.objects == nil {
		return Emoji{}, ErrStorage
	}
	aliases := n.Aliases
	if aliases == nil {
		aliases = []string{}
	}
	aj, err := json.Marshal(aliases)
	if err != nil {
		return Emoji{}, err
	}
	e := Emoji{ID: accounts.NewID("emo"), AppID: n.AppID, TenantID: n.TenantID, Shortcode: n.Shortcode,
		Aliases: aliases, AliasesJSON: string(aj), ContentType: n.Checked.ContentType, Source: n.Source,
		Bytes: int64(len(n.Image)), CreatedAt: s.now().UnixMilli()}
	if e.TenantID != "" {
		t, err := s.Tenant(ctx, n.AppID, e.TenantID)
		if err != nil {
			return Emoji{}, err
		}
		e.TenantExternalID = t.ExternalID
	}
	// Cheap refusals first, so a refused upload never touches the image
	// store; the insert checks both again.
	if _, err := s.ByShortcode(ctx, n.AppID, n.TenantID, n.Shortcode); err == nil {
		return Emoji{}, ErrShortcodeTaken
	} else if !errors.Is(err, ErrNotFound) {
		return Emoji{}, err
	}
	if err := s.checkLimit(ctx, n.AppID, n.Limit); err != nil {
		return Emoji{}, err
	}
	scopeDir := e.TenantID
	if scopeDir == "" {
		scopeDir = "_"
	}
	e.ImageKey = "custom/" + n.AppID + "/" + scopeDir + "/" + e.ID + "." + n.Checked.Ext
	if err := s.objects.Put(ctx, e.ImageKey, n.Image, e.ContentType, map[string]string{"xxhash64": n.Checked.Hash}); err != nil {
		s.logf("emojistore: image put failed: %T", err)
		return Emoji{}, ErrStorage
	}
	ev, err := events.New(events.CustomEmojiCreated, n.AppID, e.CreatedAt, e.View(n.Base, true))
	if err != nil {
		s.dropImage(ctx, e.ImageKey)
		return Emoji{}, err
	}
	res, err := s.db.Batch(ctx, []store.Stmt{
		store.Q(`INSERT INTO custom_emoji (id, app_id, tenant_id, scope, shortcode, aliases, image_key, content_type, source, bytes, created_at)
			SELECT ?1, ?2, ?3, coalesce(?3, ''), ?4, ?5, ?6, ?7, ?8, ?9, ?10
			WHERE (?11 < 0 OR `+accountEmoji+` < ?11)
			  AND (?3 IS NULL OR EXISTS (SELECT 1 FROM tenants WHERE id = ?3 AND app_id = ?2))`,
			e.ID, e.AppID, nullable(e.TenantID), e.Shortcode, e.AliasesJSON, e.ImageKey, e.ContentType, e.Source,
			e.Bytes, e.CreatedAt, n.Limit),
		eventIf(ev, "SELECT 1 FROM custom_emoji WHERE id = ?", e.ID),
	})
	if err == nil && res[0].Meta.Changes == 1 {
		s.notify(e.AppID)
		return e, nil
	}
	s.dropImage(ctx, e.ImageKey)
	switch {
	case errors.Is(err, store.ErrUnique):
		return Emoji{}, ErrShortcodeTaken
	case err != nil:
		return Emoji{}, err
	}
	// Refused by the insert's condition: the tenant went away, or the
	// limit was reached meanwhile.
	if e.TenantID != "" {
		if _, err := s.Tenant(ctx, n.AppID, e.TenantID); err != nil {
			return Emoji{}, err
		}
	}
	if err := s.checkLimit(ctx, n.AppID, n.Limit); err != nil {
		return Emoji{}, err
	}
	return Emoji{}, &LimitError{Used: n.Limit, Limit: n.Limit}
}

// checkLimit answers *LimitError when the account owning appID has
// reached limit.
func (s *Store) checkLimit(ctx context.Context, appID string, limit int64) error {
	if limit < 0 {
		return nil
	}
	row, err := s.db.First(ctx, store.Q(`SELECT `+accountEmoji+` AS n FROM apps WHERE id = ?2`, nil, appID))
	if err != nil {
		return err
	}
	used, err := row.Int("n")
	if err != nil {
		return err
	}
	if used >= limit {
		return &LimitError{Used: used, Limit: limit}
	}
	return nil
}

// dropImage deletes an image that lost its row; it survives a cancelled
// request, and a failure is logged (the object is then an orphan).
func (s *Store) dropImage(ctx context.Context, key string) {
	if err := s.objects.Delete(context.WithoutCancel(ctx), []string{key}); err != nil {
		s.logf("emojistore: orphan image left after a refused insert: %T", err)
	}
}

// eventIf records ev only when cond (a SELECT) finds a row, evaluated in
// the same batch after the change, so the event exists exactly when the
// change happened.
func eventIf(ev events.Event, cond string, args ...any) store.Stmt {
	return store.Q(`INSERT INTO events (id, app_id, type, data, created_at) SELECT ?, ?, ?, ?, ? WHERE EXISTS (`+cond+`)`,
		append([]any{ev.ID, ev.AppID, ev.Type, string(ev.Data), ev.CreatedAt}, args...)...)
}

// Patch holds what a rename changes; nil leaves a field as it is.
type Patch struct {
	Shortcode *string
	Aliases   *[]string
}

// Rename changes an emoji's shortcode and aliases; its id and image stay
// (spec 2: no event). ErrNotFound, ErrShortcodeTaken.
func (s *Store) Rename(ctx context.Context, appID, id string, p Patch) (Emoji, error) {
	var aliases any
	if p.Aliases != nil {
		b, err := json.Marshal(*p.Aliases)
		if err != nil {
			return Emoji{}, err
		}
		aliases = string(b)
	}
	var sc any
	if p.Shortcode != nil {
		sc = *p.Shortcode
	}
	_, err := s.db.Run(ctx, store.Q(`UPDATE custom_emoji SET shortcode = coalesce(?, shortcode), aliases = coalesce(?, aliases)
		WHERE id = ? AND app_id = ?`, sc, aliases, id, appID))
	if errors.Is(err, store.ErrUnique) {
		return Emoji{}, ErrShortcodeTaken
	}
	if err != nil {
		return Emoji{}, err
	}
	s.notify(appID)
	return s.Get(ctx, appID, id)
}

// Delete removes an emoji: the image first (ErrStorage: nothing deleted),
// then the row with its custom_emoji.deleted event. It returns the
// deleted emoji; ErrNotFound when there is none (also when a parallel
// delete won).
func (s *Store) Delete(ctx context.Context, e Emoji, base string) (Emoji, error) {
	if s.objects == nil {
		return Emoji{}, ErrStorage
	}
	if err := s.objects.Delete(ctx, []string{e.ImageKey}); err != nil {
		s.logf("emojistore: image delete failed: %T", err)
		return Emoji{}, ErrStorage
	}
	ev, err := events.New(events.CustomEmojiDeleted, e.AppID, s.now().UnixMilli(), e.View(base, true))
	if err != nil {
		return Emoji{}, err
	}
	res, err := s.db.Batch(ctx, []store.Stmt{
		eventIf(ev, "SELECT 1 FROM custom_emoji WHERE id = ? AND app_id = ?", e.ID, e.AppID),
		store.Q("DELETE FROM custom_emoji WHERE id = ? AND app_id = ?", e.ID, e.AppID),
	})
	if err != nil {
		return Emoji{}, err
	}
	if res[1].Meta.Changes == 0 {
		return Emoji{}, ErrNotFound
	}
	s.notify(e.AppID)
	return e, nil
}

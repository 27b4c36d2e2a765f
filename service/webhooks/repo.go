package webhooks

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/emojisearch/emojisearch/service/accounts"
	"github.com/emojisearch/emojisearch/service/store"
)

// Webhook is the API shape of a webhook (the secret is never in it).
type Webhook struct {
	ID           string        `json:"id"`
	AppID        string        `json:"appId"`
	URL          string        `json:"url"`
	Events       []string      `json:"events"`
	Enabled      bool          `json:"enabled"`
	CreatedAt    int64         `json:"createdAt"`
	DisabledAt   *int64        `json:"disabledAt"`
	LastDelivery *LastDelivery `json:"lastDelivery"`
}

// LastDelivery summarises the latest attempt.
type LastDelivery struct {
	Status    *int  `json:"status"`
	OK        bool  `json:"ok"`
	CreatedAt int64 `json:"createdAt"`
}

// Delivery is the API shape of one recorded attempt.
type Delivery struct {
	ID         string `json:"id"`
	EventID    string `json:"eventId"`
	Event      string `json:"event"`
	Attempt    int    `json:"attempt"`
	Status     *int   `json:"status"`
	OK         bool   `json:"ok"`
	DurationMs int64  `json:"durationMs"`
	CreatedAt  int64  `json:"createdAt"`
}

// row is a webhooks row as D1 returns it.
type row struct {
	ID                 string `json:"id"`
	AppID              string `json:"app_id"`
	URL                string `json:"url"`
	Events             string `json:"events"`
	Secret             string `json:"secret"`
	Enabled            int    `json:"enabled"`
	CreatedAt          int64  `json:"created_at"`
	DisabledAt         *int64 `json:"disabled_at"`
	LastDeliveryAt     *int64 `json:"last_delivery_at"`
	LastDeliveryStatus *int   `json:"last_delivery_status"`
	LastDeliveryOK     *int   `json:"last_delivery_ok"`
}

const rowCols = `id, app_id, url, events, secret, enabled, created_at, disabled_at,
	last_delivery_at, last_delivery_status, last_delivery_ok`

func (r row) api() Webhook {
	w := Webhook{ID: r.ID, AppID: r.AppID, URL: r.URL, Enabled: r.Enabled == 1, CreatedAt: r.CreatedAt,
		DisabledAt: r.DisabledAt, Events: []string{}}
	_ = json.Unmarshal([]byte(r.Events), &w.Events)
	if r.LastDeliveryAt != nil {
		w.LastDelivery = &LastDelivery{Status: r.LastDeliveryStatus, OK: r.LastDeliveryOK != nil && *r.LastDeliveryOK == 1,
			CreatedAt: *r.LastDeliveryAt}
	}
	return w
}

var errLimit = errors.New("webhooks: the app has 10 webhooks")

func (s *Service) list(ctx context.Context, appID string) ([]Webhook, error) {
	res, err := s.cfg.db.All(ctx, store.Q(`SELECT `+rowCols+` FROM webhooks WHERE app_id = ? ORDER BY created_at, id`, appID))
	if err != nil {
		return nil, err
	}
	rows, err := store.DecodeAll[row](res.Rows)
	if err != nil {
		return nil, err
	}
	out := make([]Webhook, len(rows))
	for i, r := range rows {
		out[i] = r.api()
	}
	return out, nil
}

func (s *Service) get(ctx context.Context, id string) (row, error) {
	rw, err := s.cfg.db.First(ctx, store.Q(`SELECT `+rowCols+` FROM webhooks WHERE id = ?`, id))
	if err != nil {
		return row{}, err
	}
	if rw == nil {
		return row{}, accounts.ErrNotFound
	}
	var r row
	return r, store.Decode(rw, &r)
}

// create inserts a webhook unless the app has MaxPerApp already: the
// count is part of the INSERT, so parallel creations cannot pass it.
func (s *Service) create(ctx context.Context, appID, url string, types []string) (row, error) {
	ev, _ := json.Marshal(types)
	r := row{ID: accounts.NewID("whk"), AppID: appID, URL: url, Events: string(ev), Secret: NewSecret(),
		Enabled: 1, CreatedAt: s.nowMs()}
	m, err := s.cfg.db.Run(ctx, store.Q(`INSERT INTO webhooks (id, app_id, url, events, secret, enabled, created_at)
		SELECT ?, ?, ?, ?, ?, 1, ? WHERE (SELECT count(*) FROM webhooks WHERE app_id = ?) < ?`,
		r.ID, appID, url, r.Events, r.Secret, r.CreatedAt, appID, MaxPerApp))
	if err != nil {
		return row{}, err
	}
	if m.Changes == 0 {
		return row{}, errLimit
	}
	return r, nil
}

// update writes the changed fields; disabling also deletes queued
// attempts in the same batch, so pending retries stop.
func (s *Service) update(ctx context.Context, r row, url *string, types []string, enabled *bool) (row, error) {
	stmts := []store.Stmt{}
	if url != nil {
		r.URL = *url
	}
	if types != nil {
		ev, _ := json.Marshal(types)
		r.Events = string(ev)
	}
	if enabled != nil {
		switch {
		case *enabled && r.Enabled == 0:
			r.Enabled, r.DisabledAt = 1, nil
		case !*enabled && r.Enabled == 1:
			now := s.nowMs()
			r.Enabled, r.DisabledAt = 0, &now
		}
	}
	var disabledAt any
	if r.DisabledAt != nil {
		disabledAt = *r.DisabledAt
	}
	stmts = append(stmts, store.Q(`UPDATE webhooks SET url = ?, events = ?, enabled = ?, disabled_at = ? WHERE id = ?`,
		r.URL, r.Events, r.Enabled, disabledAt, r.ID))
	if r.Enabled == 0 {
		stmts = append(stmts, store.Q(`DELETE FROM webhook_queue WHERE webhook_id = ?`, r.ID))
	}
	_, err := s.cfg.db.Batch(ctx, stmts)
	return r, err
}

// remove deletes a webhook with its deliveries and queued attempts.
func (s *Service) remove(ctx context.Context, id string) error {
	_, err := s.cfg.db.Batch(ctx, []store.Stmt{
		store.Q(`DELETE FROM webhook_queue WHERE webhook_id = ?`, id),
		store.Q(`DELETE FROM webhook_deliveries WHERE webhook_id = ?`, id),
		store.Q(`DELETE FROM webhooks WHERE id = ?`, id),
	})
	return err
}

// deliveries returns the last KeptDeliveries attempts, newest first.
func (s *Service) deliveries(ctx context.Context, webhookID string) ([]Delivery, error) {
	res, err := s.cfg.db.All(ctx, store.Q(`SELECT id, event_id, event, attempt, status, ok, duration_ms, created_at
		FROM webhook_deliveries WHERE webhook_id = ? ORDER BY created_at DESC, rowid DESC LIMIT ?`, webhookID, KeptDeliveries))
	if err != nil {
		return nil, err
	}
	type drow struct {
		ID         string `json:"id"`
		EventID    string `json:"event_id"`
		Event      string `json:"event"`
		Attempt    int    `json:"attempt"`
		Status     *int   `json:"status"`
		OK         int    `json:"ok"`
		DurationMs int64  `json:"duration_ms"`
		CreatedAt  int64  `json:"created_at"`
	}
	rows, err := store.DecodeAll[drow](res.Rows)
	if err != nil {
		return nil, err
	}
	out := make([]Delivery, len(rows))
	for i, d := range rows {
		out[i] = Delivery{ID: d.ID, EventID: d.EventID, Event: d.Event, Attempt: d.Attempt, Status: d.Status,
			OK: d.OK == 1, DurationMs: d.DurationMs, CreatedAt: d.CreatedAt}
	}
	return out, nil
}

// recordStmts records an attempt: the delivery row (only while the
// webhook exists: a webhook deleted mid-attempt gets no row and the batch
// still succeeds), the webhook's last delivery, and the trim to the last
// KeptDeliveries.
func recordStmts(webhookID string, d Delivery) []store.Stmt {
	ok := 0
	if d.OK {
		ok = 1
	}
	var status any
	if d.Status != nil {
		status = *d.Status
	}
	return []store.Stmt{
		store.Q(`INSERT INTO webhook_deliveries (id, webhook_id, event_id, event, attempt, status, ok, duration_ms, created_at)
			SELECT ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM webhooks WHERE id = ?)`,
			d.ID, webhookID, d.EventID, d.Event, d.Attempt, status, ok, d.DurationMs, d.CreatedAt, webhookID),
		store.Q(`UPDATE webhooks SET last_delivery_at = ?, last_delivery_status = ?, last_delivery_ok = ? WHERE id = ?`,
			d.CreatedAt, status, ok, webhookID),
		store.Q(`DELETE FROM webhook_deliveries WHERE webhook_id = ?1 AND rowid NOT IN
			(SELECT rowid FROM webhook_deliveries WHERE webhook_id = ?1 ORDER BY created_at DESC, rowid DESC LIMIT ?2)`,
			webhookID, KeptDeliveries),
	}
}

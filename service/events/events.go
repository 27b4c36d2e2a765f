// Package events is the webhook event outbox's one shape (spec 2 Events):
// the envelope every webhook receives and the statement that records an
// event in the `events` table. Writers put that statement in the same D1
// batch as the change it reports, so an acknowledged change never loses its
// event; delivery reads the table and never writes events itself.
package events

import (
	"encoding/json"

	"github.com/emojisearch/emojisearch/service/accounts"
	"github.com/emojisearch/emojisearch/service/store"
)

// Event types of spec 2. TypeWebhookTest is sent by the test route only
// and is never stored or subscribable.
const (
	TenantCreated      = "tenant.created"
	TenantDeleted      = "tenant.deleted"
	CustomEmojiCreated = "custom_emoji.created"
	CustomEmojiDeleted = "custom_emoji.deleted"
	UsageThreshold     = "usage.threshold"
	TypeWebhookTest    = "webhook.test"
)

// Subscribable lists the types a webhook may subscribe to, in spec order;
// a webhook created without `events` gets all of them.
var Subscribable = []string{TenantCreated, TenantDeleted, CustomEmojiCreated, CustomEmojiDeleted, UsageThreshold}

// Event is the envelope sent to webhooks: `id` (evt_…), `type`,
// `createdAt` (epoch ms), `appId` and `data`.
type Event struct {
	ID        string          `json:"id"`
	Type      string          `json:"type"`
	CreatedAt int64           `json:"createdAt"`
	AppID     string          `json:"appId"`
	Data      json.RawMessage `json:"data"`
}

// New builds an event with a fresh id; data is marshalled once here.
func New(typ, appID string, createdAt int64, data any) (Event, error) {
	raw, err := json.Marshal(data)
	if err != nil {
		return Event{}, err
	}
	return Event{ID: accounts.NewID("evt"), Type: typ, CreatedAt: createdAt, AppID: appID, Data: raw}, nil
}

// Insert is the statement that records ev in the outbox; put it in the
// same batch as the change ev reports.
func (ev Event) Insert() store.Stmt {
	return store.Q("INSERT INTO events (id, app_id, type, data, created_at) VALUES (?, ?, ?, ?, ?)",
		ev.ID, ev.AppID, ev.Type, string(ev.Data), ev.CreatedAt)
}

// Body is the JSON body a webhook receives; it is the same on every retry.
func (ev Event) Body() ([]byte, error) { return json.Marshal(ev) }

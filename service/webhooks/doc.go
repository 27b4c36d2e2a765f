// Package webhooks sends the events of spec 2 to the webhooks of an app:
// the dashboard routes that manage webhooks, signing, delivery with its
// retries, and the usage.threshold events of the meter.
//
// # Routes (spec 2 Endpoints; the shapes the spec leaves to us)
//
//	GET    /api/apps/:id/webhooks       (Scale; viewer+)    {webhooks: Webhook[]}, oldest first
//	POST   /api/apps/:id/webhooks       (Scale; developer+) {url, events?} → 201 {webhook, secret}
//	PATCH  /api/webhooks/:id            (Scale; developer+) {url?, events?, enabled?} → {webhook}
//	DELETE /api/webhooks/:id            (Scale; developer+) → {ok: true}
//	POST   /api/webhooks/:id/test       (Scale; developer+) → {delivery}
//	GET    /api/webhooks/:id/deliveries (Scale; viewer+)    {deliveries: Delivery[]}, newest first, at most 50
//
//	Webhook  {id, appId, url, events, enabled, createdAt, disabledAt, lastDelivery: {status, ok, createdAt} | null}
//	Delivery {id, eventId, event, attempt, status (null: network error, timeout, refused URL), ok, durationMs, createdAt}
//
// The role is checked first (404 not_found without access, 403
// forbidden_role), then the owner's plan (402 plan_required, plan scale).
// url follows the URL rules (service/webhookurl; 400 invalid_request field
// url) and is stored in its canonical form; events is a non-empty list of
// subscribable types (400 invalid_request field events), all of them when
// omitted at creation. The tenth webhook is the last: the count is part of
// the INSERT, so parallel creations cannot pass it (409 webhook_limit).
// The secret is whsec_ and 32 random bytes in hex, answered once.
// Disabling deletes the webhook's queued attempts (pending retries stop);
// deleting removes its deliveries and queued attempts in the same batch.
//
// # Delivery
//
// Writers put events into the outbox (table events, service/events) in the
// same D1 batch as their change. Delivery turns them into queue rows
// (migration 0006: webhook_queue, one row per webhook and event, with the
// next attempt's number and due time) and marks them in webhook_fanouts,
// both in one batch, for every enabled webhook of a Scale account that
// subscribes to the type and existed when the event was written.
//
// A pump claims due rows with a 30 s lease (lease_until, lease_id), then
// for each row: re-reads the webhook (gone, disabled or no longer Scale:
// the row is dropped and nothing is sent), rechecks its URL, sends one
// attempt with a fresh t and signature over the unchanged body, and
// records it (a delivery row, the webhook's lastDelivery, the last 50
// kept) in the same batch that advances or deletes the queue row. A 2xx
// within 10 s succeeds; anything else, a redirect included (never
// followed), is retried: attempt 2 is due 10 s after attempt 1, attempt 3
// 60 s after attempt 2. A pump that can still make the next attempt before
// its own deadline keeps the lease and sleeps until it is due; otherwise
// it releases the row for whoever pumps next.
//
// Two pumps run: one in the waitUntil of every successful dashboard or
// tenants-API write (Middleware: attempts 1 and 2 within about 20 s, well
// inside the ~30 s Workers give background work), and the every-minute cron
// sweep (Sweep), which claims rows due within the next minute and waits
// until each is due, so attempt 3 runs on time and any attempt a pump left
// behind is made. Sleeping uses the injected Sleep (a JS timer in the
// Worker: Go timers are shared between requests there).
//
// # When an instance dies mid-retry
//
// Nothing is lost: the event row was committed with the change, the
// fan-out is one batch (all queue rows and the mark, or none), and a queue
// row is only deleted in the batch that records its last attempt. An
// instance that dies while it holds a lease leaves the row leased for at
// most 30 s after its due time; the next sweep (within a minute) claims it
// and makes the attempt. If the instance died after the receiver got the
// attempt but before the batch that records it, that attempt is sent again:
// duplicates are allowed (spec 2 Delivery 4; receivers drop them by event
// id). An instance that dies between fan-out and its first attempt leaves
// attempt 1 due; the sweep makes it up to a minute late.
//
// Limits worth knowing: each attempt costs two D1 calls, so a pump with
// many due rows can reach the Free plan's 50 D1 queries per invocation
// (Paid: 1,000); claims take at most 50 rows and send at most 6 at once (the
// Workers limit on simultaneous connections). Events older than 7 days
// that were never fanned out are not delivered; the sweep deletes events
// and fan-out marks after 7 days.
//
// # usage.threshold
//
// ThresholdStore wraps the meter's UsageStore: after the meter's counts
// are written it reads the account totals it touched and, for each of
// semantic_calls and image_classifications at 80 % or 100 % of the owner
// plan's monthly limit, inserts the usage_thresholds row with INSERT OR
// IGNORE and, in the same batch, one event per app of the account with one
// event id, guarded by that row carrying this event id, so exactly one
// writer fires per account, month, metric, threshold and limit, across
// instances. A plan change within the month is a new limit and fires again.
package webhooks

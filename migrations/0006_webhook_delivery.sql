-- Webhook delivery progress (spec 2 Delivery; service/webhooks). The
-- events table (0003) is the outbox writers fill in the same batch as
-- their change; delivery never writes it and keeps its own progress here.

-- Events already turned into queue rows. A fan-out inserts the queue rows
-- of every not yet fanned-out event and marks the events here in ONE
-- batch, so an event is fanned out exactly once even when instances race
-- (the queue's primary key makes a repeated fan-out a no-op anyway).
CREATE TABLE webhook_fanouts (
  event_id  TEXT    NOT NULL,
  app_id    TEXT    NOT NULL,
  fanned_at INTEGER NOT NULL,
  PRIMARY KEY (event_id, app_id)
) WITHOUT ROWID;
-- Retention deletes old marks with their events.
CREATE INDEX webhook_fanouts_by_time ON webhook_fanouts (fanned_at);

-- One row per (webhook, event) still to be attempted. attempt is the
-- number of the NEXT attempt (1..3); due_at when it may run; a worker
-- claims a row by setting lease_until (now + 30 s) and lease_id, so a
-- worker that dies mid-attempt leaves a row another worker picks up once
-- the lease ends (the attempt may then run twice: duplicates are allowed,
-- receivers drop them by event id). Deleting or disabling a webhook
-- deletes its rows, which stops pending retries.
CREATE TABLE webhook_queue (
  webhook_id  TEXT    NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  event_id    TEXT    NOT NULL,
  app_id      TEXT    NOT NULL,
  attempt     INTEGER NOT NULL DEFAULT 1,
  due_at      INTEGER NOT NULL,
  lease_until INTEGER NOT NULL DEFAULT 0,
  lease_id    TEXT,
  created_at  INTEGER NOT NULL,
  PRIMARY KEY (webhook_id, event_id)
) WITHOUT ROWID;
-- The pump and the cron sweep claim due rows in due order.
CREATE INDEX webhook_queue_by_due ON webhook_queue (due_at);

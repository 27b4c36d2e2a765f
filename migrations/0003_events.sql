-- Webhook event outbox (spec 2 Events). A change that emits an event
-- writes its rows here in the same D1 batch as the change itself, so an
-- acknowledged change never loses its event when an instance dies.
-- Delivery (webhooks) only reads this table and keeps its own progress.
CREATE TABLE events (
  id         TEXT    NOT NULL,                  -- evt_...; usage.threshold shares one id across the account's apps
  app_id     TEXT    NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
  type       TEXT    NOT NULL,                  -- tenant.created, custom_emoji.deleted, ...
  data       TEXT    NOT NULL CHECK (json_valid(data)), -- the envelope's data, serialized once
  created_at INTEGER NOT NULL,                  -- epoch ms, the envelope's createdAt
  PRIMARY KEY (id, app_id)
) WITHOUT ROWID;
-- Delivery reads new events in order; retention deletes old ones.
CREATE INDEX events_by_time ON events (created_at);

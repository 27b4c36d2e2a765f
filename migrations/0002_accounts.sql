-- Accounts and everything an account owns (spec 2), plus the tables later
-- features write (tenants, custom emoji, webhooks, thresholds, analytics).
--
-- Conventions:
--   * ids are TEXT with a kind prefix (acc_, app_, key_, ...), generated in
--     Go from crypto/rand: JS binds numbers as REAL, text ids never round;
--   * times are INTEGER epoch milliseconds (a REAL bound from JS is stored
--     as INTEGER by column affinity when it has no fraction);
--   * D1 enforces foreign keys, so every child row names its parent with
--     ON DELETE CASCADE as a safety net; account deletion still deletes
--     every table explicitly, in one batch (service/accounts);
--   * JSON lists are TEXT checked with json_valid (allow-listed in D1);
--   * every lookup path has an index; comments name the query it serves.

CREATE TABLE accounts (
  id          TEXT    PRIMARY KEY,
  idp_user_id TEXT    NOT NULL UNIQUE,          -- token sub; find-or-create
  email       TEXT,                             -- verified email, as the IdP sent it
  name        TEXT    NOT NULL DEFAULT '',
  plan        TEXT    NOT NULL DEFAULT 'free'
              CHECK (plan IN ('free', 'solo', 'pro', 'scale')),
  created_at  INTEGER NOT NULL
);
-- Invites and the waitlist match accounts by email, case-insensitively.
CREATE INDEX accounts_by_email ON accounts (lower(email));

CREATE TABLE apps (
  id          TEXT    PRIMARY KEY,
  account_id  TEXT    NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  name        TEXT    NOT NULL,
  environment TEXT    NOT NULL CHECK (environment IN ('development', 'production')),
  emoji_set   TEXT    NOT NULL DEFAULT 'native'
              CHECK (emoji_set IN ('native', 'twemoji', 'openmoji', 'noto')),
  created_at  INTEGER NOT NULL
);
-- App list of an account (oldest first), the maxApps count, account totals.
CREATE INDEX apps_by_account ON apps (account_id, created_at);

CREATE TABLE api_keys (
  id              TEXT    PRIMARY KEY,
  app_id          TEXT    NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
  kind            TEXT    NOT NULL CHECK (kind IN ('publishable', 'secret')),
  hash            TEXT    NOT NULL UNIQUE,       -- SHA-256 hex; the search service's lookup
  hint            TEXT    NOT NULL,              -- prefix + 4 characters, shown in lists
  allowed_origins TEXT    NOT NULL DEFAULT '[]' CHECK (json_valid(allowed_origins)),
  created_at      INTEGER NOT NULL,
  revoked_at      INTEGER                        -- NULL while active
);
-- Keys of an app, oldest first.
CREATE INDEX api_keys_by_app ON api_keys (app_id, created_at);

-- Monthly counts per app; an account's total sums its apps' rows.
CREATE TABLE usage_monthly (
  app_id TEXT    NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
  period TEXT    NOT NULL,                       -- 'YYYY-MM', UTC
  metric TEXT    NOT NULL,                       -- semantic_calls, image_classifications
  count  INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (app_id, period, metric)
) WITHOUT ROWID;

CREATE TABLE team_members (
  id         TEXT    PRIMARY KEY,
  owner_id   TEXT    NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  member_id  TEXT    NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  role       TEXT    NOT NULL CHECK (role IN ('admin', 'developer', 'viewer')),
  created_at INTEGER NOT NULL,
  UNIQUE (owner_id, member_id),                  -- one membership per team; the team list
  CHECK (owner_id <> member_id)
);
-- Teams a caller belongs to (app list, /api/me teams, role checks).
CREATE INDEX team_members_by_member ON team_members (member_id);

CREATE TABLE invites (
  id           TEXT    PRIMARY KEY,
  owner_id     TEXT    NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  created_by   TEXT    REFERENCES accounts (id) ON DELETE SET NULL, -- owner or an admin
  token_hash   TEXT    NOT NULL UNIQUE,         -- SHA-256 hex of the link token; accept looks it up
  role         TEXT    NOT NULL CHECK (role IN ('admin', 'developer', 'viewer')),
  email        TEXT,                            -- NULL: anyone with the link
  created_at   INTEGER NOT NULL,
  used_at      INTEGER,
  used_by      TEXT    REFERENCES accounts (id) ON DELETE SET NULL,
  withdrawn_at INTEGER
);
-- Open invites of a team, newest first.
CREATE INDEX invites_by_owner ON invites (owner_id, created_at);

-- One row per email (lower case, trimmed). account_id links an upgrade
-- request to its account so deletion finds it even under another email.
CREATE TABLE waitlist (
  email      TEXT    PRIMARY KEY,
  plan       TEXT    NOT NULL CHECK (plan IN ('solo', 'pro', 'scale')),
  source     TEXT    NOT NULL,                  -- 'website' (public form) or 'upgrade'
  account_id TEXT,                              -- no FK: the row may outlive nothing, deletion removes it
  created_at INTEGER NOT NULL,                  -- first sign-up; retention is 12 months from it
  updated_at INTEGER NOT NULL
);
CREATE INDEX waitlist_by_account ON waitlist (account_id);
CREATE INDEX waitlist_by_created ON waitlist (created_at);

-- Identity-provider users deleted in the last 10 minutes: their still
-- valid session tokens get 401 instead of a fresh empty account.
CREATE TABLE deleted_users (
  idp_user_id TEXT    PRIMARY KEY,
  deleted_at  INTEGER NOT NULL
);
CREATE INDEX deleted_users_by_time ON deleted_users (deleted_at);

CREATE TABLE tenants (
  id          TEXT    PRIMARY KEY,
  app_id      TEXT    NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
  external_id TEXT    NOT NULL,
  name        TEXT    NOT NULL DEFAULT '',
  created_at  INTEGER NOT NULL,
  UNIQUE (app_id, external_id)                  -- lookup by externalId; list ordered by it with a cursor
);

-- scope is '' for app-wide emoji and the tenant id otherwise, so the
-- shortcode is unique per scope (a NULL tenant would not collide in UNIQUE).
CREATE TABLE custom_emoji (
  id           TEXT    PRIMARY KEY,
  app_id       TEXT    NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
  tenant_id    TEXT    REFERENCES tenants (id) ON DELETE CASCADE,
  scope        TEXT    NOT NULL DEFAULT '',
  shortcode    TEXT    NOT NULL,
  aliases      TEXT    NOT NULL DEFAULT '[]' CHECK (json_valid(aliases)),
  image_key    TEXT    NOT NULL,                -- R2 key custom/<appId>/<tenantId or _>/<id>.<ext>
  content_type TEXT    NOT NULL,
  source       TEXT    NOT NULL CHECK (source IN ('upload', 'slack', 'discord', 'api')),
  bytes        INTEGER NOT NULL,
  created_at   INTEGER NOT NULL,
  CHECK (scope = coalesce(tenant_id, '')),
  UNIQUE (app_id, scope, shortcode)             -- shortcode_taken; tenant API lookup by shortcode
);
-- Lists newest first, the per-instance copy, account counts.
CREATE INDEX custom_emoji_by_app ON custom_emoji (app_id, created_at);
-- Tenant deletion and the tenant filter.
CREATE INDEX custom_emoji_by_tenant ON custom_emoji (tenant_id);

CREATE TABLE webhooks (
  id                   TEXT    PRIMARY KEY,
  app_id               TEXT    NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
  url                  TEXT    NOT NULL,
  events               TEXT    NOT NULL DEFAULT '[]' CHECK (json_valid(events)),
  secret               TEXT    NOT NULL,        -- whsec_...; kept to sign, shown once
  enabled              INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
  created_at           INTEGER NOT NULL,
  disabled_at          INTEGER,
  last_delivery_at     INTEGER,
  last_delivery_status INTEGER,                 -- NULL: network error, timeout or refused URL
  last_delivery_ok     INTEGER CHECK (last_delivery_ok IN (0, 1))
);
-- Webhooks of an app (list, the 10-per-app limit, event fan-out).
CREATE INDEX webhooks_by_app ON webhooks (app_id, created_at);

CREATE TABLE webhook_deliveries (
  id          TEXT    PRIMARY KEY,
  webhook_id  TEXT    NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  event_id    TEXT    NOT NULL,                 -- evt_..., the same on every retry
  event       TEXT    NOT NULL,
  attempt     INTEGER NOT NULL DEFAULT 1,
  status      INTEGER,                          -- NULL: network error, timeout or refused URL
  ok          INTEGER NOT NULL CHECK (ok IN (0, 1)),
  duration_ms INTEGER NOT NULL,
  created_at  INTEGER NOT NULL
);
-- Last 50 per webhook, newest first, and trimming past 50.
CREATE INDEX webhook_deliveries_by_webhook ON webhook_deliveries (webhook_id, created_at);

-- usage.threshold fires once per account, month, metric, threshold and
-- limit: INSERT OR IGNORE decides who fires (changes = 1), and a plan
-- change within the month (a new limit) can fire again.
CREATE TABLE usage_thresholds (
  account_id  TEXT    NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  period      TEXT    NOT NULL,                 -- 'YYYY-MM'
  metric      TEXT    NOT NULL,
  threshold   INTEGER NOT NULL,                 -- percent: 80 or 100
  limit_value INTEGER NOT NULL,
  event_id    TEXT    NOT NULL,                 -- one id for every app's webhooks
  fired_at    INTEGER NOT NULL,
  PRIMARY KEY (account_id, period, metric, threshold, limit_value)
) WITHOUT ROWID;

-- Search analytics per app and UTC day. Day totals sum every row of the
-- day; queries are named in answers only past the naming threshold.
CREATE TABLE query_daily (
  app_id   TEXT    NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
  day      TEXT    NOT NULL,                    -- 'YYYY-MM-DD', UTC
  query    TEXT    NOT NULL,                    -- normalized query
  searches INTEGER NOT NULL DEFAULT 0,
  misses   INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (app_id, day, query)              -- upsert of flushed counts; the app's window
) WITHOUT ROWID;
-- The daily retention job and the nightly shard build read by day.
CREATE INDEX query_daily_by_day ON query_daily (day, query);

-- Sessions of the earlier cookie sign-in; nothing writes them now, account
-- deletion still removes them.
CREATE TABLE sessions (
  id         TEXT    PRIMARY KEY,
  account_id TEXT    NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  token_hash TEXT    NOT NULL UNIQUE,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX sessions_by_account ON sessions (account_id);

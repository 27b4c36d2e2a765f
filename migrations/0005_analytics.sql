-- Search analytics rows keyed by a hash of the query (issue 12). The table
-- of 0002 keyed rows by the query text; nothing wrote it yet, so it is
-- rebuilt rather than altered (SQLite cannot change a primary key).
--
-- qkey is xxhash64(locale, NUL, normalized query) as 16 lowercase hex
-- digits: a fixed-width key keeps the primary key index small whatever the
-- query's length. The row with qkey 'overflow' (query '') holds the counts
-- of an app's day past its cap of distinct queries, so day totals stay
-- exact while storage per app and day stays bounded. personal keeps the
-- privacy verdict on the query as typed (normalizing drops the @, dots and
-- plus signs the rules look for), so the shard build never publishes it.
DROP TABLE query_daily;
CREATE TABLE query_daily (
  app_id   TEXT    NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
  day      TEXT    NOT NULL,                    -- 'YYYY-MM-DD', UTC
  qkey     TEXT    NOT NULL,                    -- 16 hex digits, or 'overflow'
  locale   TEXT    NOT NULL DEFAULT '',
  query    TEXT    NOT NULL DEFAULT '',         -- normalized query ('' in overflow rows)
  searches INTEGER NOT NULL DEFAULT 0,
  misses   INTEGER NOT NULL DEFAULT 0,
  personal INTEGER NOT NULL DEFAULT 0,          -- 1: some search of it looked like personal data (service/privacy)
  PRIMARY KEY (app_id, day, qkey)
) WITHOUT ROWID;
-- The daily retention job and the nightly shard build read by day.
CREATE INDEX query_daily_by_day ON query_daily (day, qkey);

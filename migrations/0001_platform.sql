-- Platform bookkeeping: one row per cron run, written by the scheduled
-- handler so operators (and tests) can see that triggers reach the Worker.
CREATE TABLE cron_runs (
  id            INTEGER PRIMARY KEY AUTOINCREMENT,
  cron          TEXT    NOT NULL,
  scheduled_at  INTEGER NOT NULL, -- epoch ms of the trigger
  finished_at   INTEGER NOT NULL, -- epoch ms when the job returned
  ok            INTEGER NOT NULL, -- 1 success, 0 failure
  detail        TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX cron_runs_by_cron ON cron_runs (cron, scheduled_at);

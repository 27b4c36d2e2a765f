//go:build !js

package sqlitedb

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/service/store"
)

var bg = context.Background()

func open(t *testing.T) *DB {
	t.Helper()
	db, err := Open(bg, ":memory:", RepoMigrations())
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	return db
}

func TestMigrationsAppliedInOrderOnce(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644))
	}
	write("0010_b.sql", "ALTER TABLE t ADD COLUMN b TEXT;")
	write("0002_a.sql", "CREATE TABLE t (a INTEGER);")
	write("notes.txt", "not sql")
	path := filepath.Join(t.TempDir(), "db.sqlite")
	db, err := Open(bg, path, dir)
	require.NoError(t, err)
	rows, err := db.All(bg, store.Q("SELECT name FROM d1_migrations ORDER BY id"))
	require.NoError(t, err)
	var names []string
	for _, r := range rows.Rows {
		n, err := r.String("name")
		require.NoError(t, err)
		names = append(names, n)
	}
	assert.Equal(t, []string{"0002_a.sql", "0010_b.sql"}, names)
	require.NoError(t, db.Close())

	// Reopening applies nothing again (the ALTER would fail twice).
	db, err = Open(bg, path, dir)
	require.NoError(t, err)
	require.NoError(t, db.Close())

	write("0011_bad.sql", "CREATE TABLE u (x); INSERT INTO nowhere VALUES (1);")
	_, err = Open(bg, path, dir)
	require.ErrorContains(t, err, "0011_bad.sql")
	db, err = Open(bg, path, "")
	require.NoError(t, err)
	_, err = db.All(bg, store.Q("SELECT * FROM u"))
	assert.Error(t, err, "a failed migration is rolled back")
	require.NoError(t, db.Close())
}

func TestRepoMigrations(t *testing.T) {
	db := open(t)
	r, err := db.All(bg, store.Q("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"))
	require.NoError(t, err)
	var tables []string
	for _, row := range r.Rows {
		n, _ := row.String("name")
		tables = append(tables, n)
	}
	for _, want := range []string{"accounts", "apps", "api_keys", "usage_monthly", "team_members",
		"invites", "waitlist", "deleted_users", "tenants", "custom_emoji", "webhooks",
		"webhook_deliveries", "usage_thresholds", "query_daily", "sessions", "cron_runs"} {
		assert.Contains(t, tables, want)
	}
}

func TestValuesAsD1HandsThemOver(t *testing.T) {
	db := open(t)
	_, err := db.Run(bg, store.Q("CREATE TABLE v (i INTEGER, r REAL, t TEXT, n TEXT, b BLOB)"))
	require.NoError(t, err)
	m, err := db.Run(bg, store.Q("INSERT INTO v VALUES (?, ?, ?, ?, ?)", 7, 2.5, "x'; DROP TABLE v; --", nil, []byte{1, 2}))
	require.NoError(t, err)
	assert.Equal(t, int64(1), m.Changes)
	assert.Equal(t, int64(1), m.LastRowID)

	row, err := db.First(bg, store.Q("SELECT i, r, t, n, b, typeof(i) AS ti, ? AS bound, typeof(?) AS tb FROM v", 3, true))
	require.NoError(t, err)
	assert.JSONEq(t, "7", string(row["i"]), "an integer bound as REAL is stored as INTEGER by affinity")
	assert.Equal(t, `"integer"`, string(row["ti"]))
	assert.Equal(t, "2.5", string(row["r"]))
	assert.Equal(t, `"x'; DROP TABLE v; --"`, string(row["t"]))
	assert.Equal(t, "null", string(row["n"]))
	assert.Equal(t, "[1,2]", string(row["b"]))
	assert.Equal(t, "3", string(row["bound"]))
	assert.Equal(t, `"real"`, string(row["tb"]), "JS numbers and booleans bind as REAL")

	i, err := row.Int("i")
	require.NoError(t, err)
	assert.Equal(t, int64(7), i)
	_, err = row.Int("r")
	assert.Error(t, err, "2.5 is no integer")
	n, err := row.String("n")
	require.NoError(t, err)
	assert.Empty(t, n)

	none, err := db.First(bg, store.Q("SELECT * FROM v WHERE i = ?", 8))
	require.NoError(t, err)
	assert.Nil(t, none)

	_, err = db.Run(bg, store.Q("SELECT ?", int64(1)<<60))
	assert.ErrorIs(t, err, store.ErrBind)
	_, err = db.Run(bg, store.Q("SELECT ?", struct{}{}))
	assert.ErrorIs(t, err, store.ErrBind)

	type rowT struct {
		I int64   `json:"i"`
		R float64 `json:"r"`
		T string  `json:"t"`
		N *string `json:"n"`
	}
	all, err := db.All(bg, store.Q("SELECT i, r, t, n FROM v"))
	require.NoError(t, err)
	got, err := store.DecodeAll[rowT](all.Rows)
	require.NoError(t, err)
	assert.Equal(t, []rowT{{I: 7, R: 2.5, T: "x'; DROP TABLE v; --"}}, got)
}

func TestBatchIsAtomic(t *testing.T) {
	db := open(t)
	_, err := db.Run(bg, store.Q("CREATE TABLE k (id TEXT PRIMARY KEY, n INTEGER NOT NULL)"))
	require.NoError(t, err)
	res, err := db.Batch(bg, []store.Stmt{
		store.Q("INSERT INTO k VALUES ('a', 1)"),
		store.Q("INSERT INTO k VALUES ('b', 2) RETURNING id"),
		store.Q("SELECT count(*) AS c FROM k"),
	})
	require.NoError(t, err)
	require.Len(t, res, 3)
	assert.Equal(t, int64(1), res[1].Meta.Changes)
	assert.Equal(t, `"b"`, string(res[1].Rows[0]["id"]))
	assert.Equal(t, "2", string(res[2].Rows[0]["c"]))

	_, err = db.Batch(bg, []store.Stmt{
		store.Q("DELETE FROM k WHERE id = 'a'"),
		store.Q("INSERT INTO k VALUES ('b', 3)"),
	})
	assert.ErrorIs(t, err, store.ErrUnique)
	assert.ErrorIs(t, err, store.ErrConstraint)
	row, err := db.First(bg, store.Q("SELECT count(*) AS c FROM k"))
	require.NoError(t, err)
	assert.Equal(t, "2", string(row["c"]), "the failed batch deleted nothing")

	_, err = db.Run(bg, store.Q("INSERT INTO k VALUES ('c', NULL)"))
	assert.ErrorIs(t, err, store.ErrConstraint)
	assert.NotErrorIs(t, err, store.ErrUnique)
}

func TestForeignKeysEnforced(t *testing.T) {
	db := open(t)
	_, err := db.Run(bg, store.Q("INSERT INTO apps (id, account_id, name, environment, created_at) VALUES ('app_x', 'acc_missing', 'n', 'development', 1)"))
	assert.ErrorIs(t, err, store.ErrConstraint)
}

func TestConcurrentRequestsAreSerialized(t *testing.T) {
	db := open(t)
	_, err := db.Run(bg, store.Q("CREATE TABLE c (n INTEGER)"))
	require.NoError(t, err)
	_, err = db.Run(bg, store.Q("INSERT INTO c VALUES (0)"))
	require.NoError(t, err)
	var wg sync.WaitGroup
	for range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := db.Batch(bg, []store.Stmt{store.Q("UPDATE c SET n = n + 1"), store.Q("UPDATE c SET n = n + 1")})
			assert.NoError(t, err)
		}()
	}
	wg.Wait()
	row, err := db.First(bg, store.Q("SELECT n FROM c"))
	require.NoError(t, err)
	assert.Equal(t, "100", string(row["n"]))
}

func TestParamCountLikeD1(t *testing.T) {
	cases := []struct {
		sql  string
		want int
	}{
		{"SELECT 1", 0},
		{"SELECT ?, ?", 2},
		{"SELECT ?1, ?1, ?2", 2},
		{"SELECT ?3", 3},
		{"SELECT ?2, ?", 3},
		{"SELECT '?', \"?\", `?`, [?] -- ?\n, ? /* ? */", 1},
		{"SELECT 'it''s ?', ?", 1},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, paramCount(c.sql), c.sql)
	}
	db := open(t)
	_, err := db.Run(bg, store.Q("SELECT ?1", 1, 2))
	assert.ErrorIs(t, err, store.ErrBind, "D1 refuses extra bindings")
	_, err = db.Run(bg, store.Q("SELECT ?, ?", 1))
	assert.ErrorIs(t, err, store.ErrBind)
}

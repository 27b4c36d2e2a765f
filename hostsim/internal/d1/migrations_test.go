package d1

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/internal/d1migrate"
)

func writeMigrations(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(dir, 0o755))
	for name, body := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644))
	}
}

func TestApplyMigrations(t *testing.T) {
	db := openDB(t)
	dir := filepath.Join(t.TempDir(), "migrations")
	writeMigrations(t, dir, map[string]string{
		"0001_init.sql": `-- Migration number: 0001
CREATE TABLE emoji (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
CREATE INDEX emoji_name ON emoji(name);
-- a trailing comment`,
		"0002_seed.sql":   "INSERT INTO emoji (name) VALUES ('cat'); INSERT INTO emoji (name) VALUES ('dog');",
		"0010_tags.sql":   "ALTER TABLE emoji ADD COLUMN tags TEXT;",
		"3_trigger.sql":   "CREATE TRIGGER emoji_tags AFTER INSERT ON emoji begin UPDATE emoji SET tags = '[]' WHERE id = new.id; end;",
		"notes.sql":       "SELECT 1;",
		"README.md":       "not a migration",
		"0005_empty.sql":  "",
		"0004_pragma.sql": "PRAGMA defer_foreign_keys = true;\nCREATE TABLE IF NOT EXISTS kw (emoji_id INTEGER REFERENCES emoji(id), word TEXT);",
	})

	applied, err := ApplyMigrations(bg, db, dir, "")
	require.NoError(t, err)
	assert.Equal(t, []string{"0001_init.sql", "0002_seed.sql", "3_trigger.sql", "0004_pragma.sql", "0005_empty.sql", "0010_tags.sql", "notes.sql"}, applied)

	r := mustRun(t, db, "SELECT id, name, typeof(applied_at) FROM d1_migrations ORDER BY id")
	assert.Equal(t, [][]any{
		{int64(1), "0001_init.sql", "text"}, {int64(2), "0002_seed.sql", "text"}, {int64(3), "3_trigger.sql", "text"},
		{int64(4), "0004_pragma.sql", "text"}, {int64(5), "0005_empty.sql", "text"}, {int64(6), "0010_tags.sql", "text"},
		{int64(7), "notes.sql", "text"},
	}, values(r))
	assert.Equal(t, [][]any{{int64(2)}}, values(mustRun(t, db, "SELECT count(*) FROM emoji")))

	again, err := ApplyMigrations(bg, db, dir, "")
	require.NoError(t, err)
	assert.Empty(t, again, "idempotent")

	writeMigrations(t, dir, map[string]string{"0011_more.sql": "INSERT INTO emoji (name) VALUES ('fox');"})
	more, err := ApplyMigrations(bg, db, dir, "")
	require.NoError(t, err)
	assert.Equal(t, []string{"0011_more.sql"}, more)
	assert.Equal(t, [][]any{{"[]"}}, values(mustRun(t, db, "SELECT tags FROM emoji WHERE name = 'fox'")), "the trigger from 3_trigger.sql runs")
}

func TestFailingMigration(t *testing.T) {
	db := openDB(t)
	dir := filepath.Join(t.TempDir(), "migrations")
	writeMigrations(t, dir, map[string]string{
		"0001_ok.sql":   "CREATE TABLE a (x INTEGER);",
		"0002_bad.sql":  "CREATE TABLE b (x INTEGER);\nINSERT INTO missing VALUES (1);",
		"0003_next.sql": "CREATE TABLE c (x INTEGER);",
	})
	applied, err := ApplyMigrations(bg, db, dir, "")
	assert.Equal(t, []string{"0001_ok.sql"}, applied)
	var me *d1migrate.Error
	require.ErrorAs(t, err, &me)
	assert.Equal(t, "0002_bad.sql", me.Name)
	var e *Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, "D1_ERROR: no such table: missing: SQLITE_ERROR", e.Message)
	assert.ErrorIs(t, err, ErrD1)

	tables := values(mustRun(t, db, "SELECT name FROM sqlite_schema WHERE type = 'table' AND name IN ('a', 'b', 'c') ORDER BY name"))
	assert.Equal(t, [][]any{{"a"}}, tables, "the failed migration was rolled back and the next not run")
	assert.Equal(t, [][]any{{"0001_ok.sql"}}, values(mustRun(t, db, "SELECT name FROM d1_migrations")))

	writeMigrations(t, dir, map[string]string{"0002_bad.sql": "CREATE TABLE b (x INTEGER);"})
	applied, err = ApplyMigrations(bg, db, dir, "")
	require.NoError(t, err)
	assert.Equal(t, []string{"0002_bad.sql", "0003_next.sql"}, applied)
}

func TestMigrationRules(t *testing.T) {
	cases := []struct {
		name, body, want string
	}{
		{"transaction statements are refused", "BEGIN TRANSACTION;\nCREATE TABLE t (x);\nCOMMIT;", msgTransaction},
		{"parameters are refused", "CREATE TABLE p (x);\nINSERT INTO p VALUES (?);", msgWrongParamCount},
		{"functions outside the allow-list are refused", "CREATE TABLE v AS SELECT sqlite_version() AS v;", "not authorized to use function: sqlite_version"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			db := openDB(t)
			dir := t.TempDir()
			writeMigrations(t, dir, map[string]string{"0001_x.sql": tc.body})
			applied, err := ApplyMigrations(bg, db, dir, "")
			assert.Empty(t, applied)
			assert.ErrorContains(t, err, tc.want)
		})
	}
}

func TestMigrationsTableAndDir(t *testing.T) {
	db := openDB(t)
	dir := t.TempDir()
	writeMigrations(t, dir, map[string]string{"0001_x.sql": "CREATE TABLE x (a);", "0002_it's.sql": "CREATE TABLE y (a);"})
	applied, err := ApplyMigrations(bg, db, dir, "schema_history")
	require.NoError(t, err)
	assert.Equal(t, []string{"0001_x.sql", "0002_it's.sql"}, applied)
	assert.Equal(t, [][]any{{int64(2)}}, values(mustRun(t, db, "SELECT count(*) FROM schema_history")))
	_, err = db.Run(bg, Statement{SQL: "SELECT * FROM d1_migrations"})
	assert.Error(t, err, "the default table was not created")

	_, err = ApplyMigrations(bg, db, dir, "bad name; DROP TABLE x")
	assert.ErrorContains(t, err, "plain SQL identifier")

	_, err = ApplyMigrations(bg, db, filepath.Join(dir, "missing"), "")
	assert.ErrorIs(t, err, fs.ErrNotExist)
	assert.ErrorContains(t, err, "no migrations present at")
}

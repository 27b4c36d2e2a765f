package d1migrate_test

import (
	"context"
	"database/sql"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	_ "modernc.org/sqlite"

	"github.com/emojisearch/emojisearch/internal/d1migrate"
)

var bg = context.Background()

// openDB is a real SQLite database (no fake) behind d1migrate.SQL.
func openDB(t *testing.T) d1migrate.DB {
	t.Helper()
	db, err := sql.Open("sqlite", ":memory:")
	require.NoError(t, err)
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	return d1migrate.SQL(db)
}

func write(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(dir, 0o755))
	for name, body := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644))
	}
}

func strings(t *testing.T, db d1migrate.DB, q string) []string {
	t.Helper()
	out, err := db.Strings(bg, q)
	require.NoError(t, err)
	return out
}

func TestNumber(t *testing.T) {
	cases := []struct {
		name string
		n    int64
		ok   bool
	}{
		{"0001_init.sql", 1, true},
		{"12_x.sql", 12, true},
		{"7abc_x.sql", 7, true},
		{"-3_x.sql", -3, true},
		{"+4_x.sql", 4, true},
		{" 5_x.sql", 5, true},
		{"0042.sql", 42, true},
		{"init.sql", 0, false},
		{"_x.sql", 0, false},
		{"-_x.sql", 0, false},
	}
	for _, tc := range cases {
		n, ok := d1migrate.Number(tc.name)
		assert.Equal(t, tc.ok, ok, tc.name)
		assert.Equal(t, tc.n, n, tc.name)
	}
}

func TestSort(t *testing.T) {
	cases := []struct {
		name     string
		in, want []string
	}{
		{"by number, not by text", []string{"0010_b.sql", "0002_a.sql", "3_c.sql"}, []string{"0002_a.sql", "3_c.sql", "0010_b.sql"}},
		{"files without a number last", []string{"notes.sql", "0001_a.sql", "alpha.sql"}, []string{"0001_a.sql", "alpha.sql", "notes.sql"}},
		{"ties by name", []string{"0002_b.sql", "2_a.sql", "0002_a.sql"}, []string{"0002_a.sql", "0002_b.sql", "2_a.sql"}},
		{"negative numbers first", []string{"0001_a.sql", "-1_z.sql"}, []string{"-1_z.sql", "0001_a.sql"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := append([]string(nil), tc.in...)
			d1migrate.Sort(got)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestFiles(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{"0002_b.sql": "", "0001_a.sql": "", "README.md": "", "0003_c.sql.bak": ""})
	require.NoError(t, os.Mkdir(filepath.Join(dir, "0004_dir.sql"), 0o755))
	files, err := d1migrate.Files(dir)
	require.NoError(t, err)
	assert.Equal(t, []string{"0001_a.sql", "0002_b.sql"}, files, "only *.sql files, not folders")

	_, err = d1migrate.Files(filepath.Join(dir, "missing"))
	assert.ErrorIs(t, err, fs.ErrNotExist)
	assert.ErrorContains(t, err, "no migrations present at")
}

// TestApply runs each case's rounds in order against one database: every
// round adds files, applies, and checks what was applied, what the table
// records, which tables exist, and which file failed.
func TestApply(t *testing.T) {
	type round struct {
		add      map[string]string
		applied  []string
		recorded []string
		tables   []string // the user tables that exist afterwards
		failed   string   // the *Error's file, "" for none
	}
	cases := []struct {
		name   string
		table  string
		rounds []round
	}{
		{"in wrangler's order, each once", "", []round{
			{add: map[string]string{"0010_b.sql": "ALTER TABLE t ADD COLUMN b TEXT;", "0002_a.sql": "CREATE TABLE t (a INTEGER);", "notes.txt": "not sql"},
				applied: []string{"0002_a.sql", "0010_b.sql"}, recorded: []string{"0002_a.sql", "0010_b.sql"}, tables: []string{"t"}},
			// Applying again runs nothing (the ALTER would fail twice).
			{applied: nil, recorded: []string{"0002_a.sql", "0010_b.sql"}, tables: []string{"t"}},
			{add: map[string]string{"0011_c.sql": "CREATE TABLE u (x);"},
				applied: []string{"0011_c.sql"}, recorded: []string{"0002_a.sql", "0010_b.sql", "0011_c.sql"}, tables: []string{"t", "u"}},
		}},
		{"a failed file is rolled back, unrecorded, and stops the run", "", []round{
			{add: map[string]string{"0001_ok.sql": "CREATE TABLE a (x);", "0002_bad.sql": "CREATE TABLE b (x);\nINSERT INTO missing VALUES (1);", "0003_next.sql": "CREATE TABLE c (x);"},
				applied: []string{"0001_ok.sql"}, recorded: []string{"0001_ok.sql"}, tables: []string{"a"}, failed: "0002_bad.sql"},
			// Fixed, it applies with the ones after it.
			{add: map[string]string{"0002_bad.sql": "CREATE TABLE b (x);"},
				applied: []string{"0002_bad.sql", "0003_next.sql"}, recorded: []string{"0001_ok.sql", "0002_bad.sql", "0003_next.sql"}, tables: []string{"a", "b", "c"}},
		}},
		{"a file ending in a comment, an empty file, a quote in a name", "", []round{
			{add: map[string]string{"0001_a.sql": "CREATE TABLE a (x);\n-- no newline after this", "0002_empty.sql": "", "0003_it's.sql": "CREATE TABLE q (x);"},
				applied: []string{"0001_a.sql", "0002_empty.sql", "0003_it's.sql"}, recorded: []string{"0001_a.sql", "0002_empty.sql", "0003_it's.sql"}, tables: []string{"a", "q"}},
		}},
		{"a named migrations table", "schema_history", []round{
			{add: map[string]string{"0001_a.sql": "CREATE TABLE a (x);"},
				applied: []string{"0001_a.sql"}, recorded: []string{"0001_a.sql"}, tables: []string{"a"}},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			db := openDB(t)
			dir := t.TempDir()
			table := tc.table
			if table == "" {
				table = d1migrate.DefaultTable
			}
			for i, r := range tc.rounds {
				write(t, dir, r.add)
				applied, err := d1migrate.Apply(bg, db, dir, tc.table)
				if r.failed != "" {
					var me *d1migrate.Error
					require.ErrorAs(t, err, &me, "round %d", i)
					assert.Equal(t, r.failed, me.Name, "round %d", i)
				} else {
					require.NoError(t, err, "round %d", i)
				}
				assert.Equal(t, r.applied, applied, "round %d applied", i)
				assert.Equal(t, r.recorded, strings(t, db, "SELECT name FROM "+table+" ORDER BY id"), "round %d recorded", i)
				assert.Equal(t, r.tables, strings(t, db, "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> '"+table+"' ORDER BY name"), "round %d tables", i)
			}
		})
	}
}

func TestTable(t *testing.T) {
	db := openDB(t)
	dir := t.TempDir()
	write(t, dir, map[string]string{"0001_a.sql": "CREATE TABLE a (x);"})
	_, err := d1migrate.Apply(bg, db, dir, "")
	require.NoError(t, err)
	// wrangler's shape: id, name (unique), applied_at (set by default).
	cols := strings(t, db, "SELECT name || ' ' || type || ' ' || \"notnull\" || ' ' || pk FROM pragma_table_info('d1_migrations') ORDER BY cid")
	assert.Equal(t, []string{"id INTEGER 0 1", "name TEXT 0 0", "applied_at TIMESTAMP 1 0"}, cols)
	assert.Equal(t, []string{"1"}, strings(t, db, "SELECT count(*) FROM d1_migrations WHERE applied_at IS NOT NULL"))
	assert.Error(t, db.Exec(bg, d1migrate.Record("d1_migrations", "0001_a.sql")), "a name is recorded once")

	for _, bad := range []string{"bad name; DROP TABLE a", "1table", "t-1"} {
		_, err := d1migrate.Apply(bg, db, dir, bad)
		assert.ErrorContains(t, err, "plain SQL identifier", bad)
	}
	_, err = d1migrate.Apply(bg, db, filepath.Join(dir, "missing"), "")
	assert.ErrorIs(t, err, fs.ErrNotExist)
}

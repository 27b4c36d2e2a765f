package d1

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func openDB(t *testing.T, cfg ...Config) *DB {
	t.Helper()
	c := NewConfig()
	if len(cfg) > 0 {
		c = cfg[0]
	}
	db, err := OpenWithConfig(filepath.Join(t.TempDir(), "db.sqlite"), c)
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	return db
}

var bg = context.Background()

func mustRun(t *testing.T, db *DB, sql string, params ...any) *Result {
	t.Helper()
	r, err := db.Run(bg, Statement{SQL: sql, Params: params})
	require.NoError(t, err, sql)
	return r
}

func values(r *Result) [][]any {
	out := [][]any{}
	for _, row := range r.Results {
		out = append(out, row.Values)
	}
	return out
}

func TestStatementKinds(t *testing.T) {
	db := openDB(t)
	cases := []struct {
		name    string
		sql     string
		params  []any
		columns []string
		rows    [][]any
		changes int64
	}{
		{"create", "CREATE TABLE emoji (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, score REAL, tags TEXT)", nil, []string{}, [][]any{}, 0},
		{"insert", "INSERT INTO emoji (name, score, tags) VALUES (?, ?, ?)", []any{"grinning", 0.5, `["happy","smile"]`}, []string{}, [][]any{}, 1},
		{"insert returning", "INSERT INTO emoji (name, score) VALUES ('cat', 2) RETURNING id, name", nil, []string{"id", "name"}, [][]any{{int64(2), "cat"}}, 1},
		{"select", "SELECT id, name, score FROM emoji ORDER BY id", nil, []string{"id", "name", "score"}, [][]any{{int64(1), "grinning", 0.5}, {int64(2), "cat", 2.0}}, 0},
		{"update", "UPDATE emoji SET score = score + 1", nil, []string{}, [][]any{}, 2},
		{"delete", "DELETE FROM emoji WHERE name = ?", []any{"cat"}, []string{}, [][]any{}, 1},
		{"several statements: the last one's rows", "INSERT INTO emoji (name) VALUES ('dog'); INSERT INTO emoji (name) VALUES ('fox'); SELECT count(*) AS n FROM emoji", nil, []string{"n"}, [][]any{{int64(3)}}, 2},
		{"json", "SELECT json_extract(tags, '$[1]') AS t, tags ->> '$[0]' AS f FROM emoji WHERE id = 1", nil, []string{"t", "f"}, [][]any{{"smile", "happy"}}, 0},
		{"cte and window", "WITH s(x) AS (VALUES (3),(1),(2)) SELECT x, row_number() OVER (ORDER BY x) AS r FROM s ORDER BY x", nil, []string{"x", "r"}, [][]any{{int64(1), int64(1)}, {int64(2), int64(2)}, {int64(3), int64(3)}}, 0},
		{"recursive cte", "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM c WHERE n < 4) SELECT sum(n) AS s FROM c", nil, []string{"s"}, [][]any{{int64(10)}}, 0},
		{"alter table", "ALTER TABLE emoji ADD COLUMN hex TEXT", nil, []string{}, [][]any{}, 0},
		{"create index", "CREATE INDEX emoji_score ON emoji(score)", nil, []string{}, [][]any{}, 0},
		{"fts5", "CREATE VIRTUAL TABLE search USING fts5(name, keywords)", nil, []string{}, [][]any{}, -1},
		{"fts5 insert (changes count shadow tables too)", "INSERT INTO search (name, keywords) VALUES ('cat', 'animal pet'), ('dog', 'animal loyal')", nil, []string{}, [][]any{}, -1},
		{"fts5 match", "SELECT name FROM search WHERE search MATCH 'pet' ORDER BY bm25(search)", nil, []string{"name"}, [][]any{{"cat"}}, 0},
		{"allowed pragma", "PRAGMA table_info(emoji)", nil, []string{"cid", "name", "type", "notnull", "dflt_value", "pk"}, nil, 0},
		{"date functions", "SELECT date('2026-01-31', '+1 day') AS d, unixepoch('1970-01-02') AS u", nil, []string{"d", "u"}, [][]any{{"2026-02-01", int64(86400)}}, 0},
		{"drop", "DROP TABLE search", nil, []string{}, [][]any{}, -1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := mustRun(t, db, tc.sql, tc.params...)
			assert.True(t, r.Success)
			assert.Equal(t, tc.columns, r.Columns)
			if tc.rows != nil {
				assert.Equal(t, tc.rows, values(r))
			}
			if tc.changes >= 0 {
				assert.Equal(t, tc.changes, r.Meta.Changes)
			}
			assert.NotNil(t, r.Results)
		})
	}
}

func TestParamsAndValues(t *testing.T) {
	db := openDB(t)
	mustRun(t, db, "CREATE TABLE v (x)") // no affinity: values keep their type
	cases := []struct {
		name  string
		param any
		want  any
		typ   string
	}{
		{"null", nil, nil, "null"},
		{"int64", int64(42), int64(42), "integer"},
		{"max int64", int64(math.MaxInt64), int64(math.MaxInt64), "integer"},
		{"negative int64", int64(-7), int64(-7), "integer"},
		{"float64", 1.25, 1.25, "real"},
		{"whole float64 stays real (JS numbers bind as REAL)", 3.0, 3.0, "real"},
		{"string", "héllo 😀", "héllo 😀", "text"},
		{"string with NUL", "a\x00b", "a\x00b", "text"},
		{"empty string", "", "", "text"},
		{"bytes", []byte{0, 1, 254, 255}, []byte{0, 1, 254, 255}, "blob"},
		{"empty bytes", []byte{}, []byte{}, "blob"},
		{"true binds as 1", true, 1.0, "real"},
		{"false binds as 0", false, 0.0, "real"},
		{"go int", 7, int64(7), "integer"},
		{"go uint8", uint8(200), int64(200), "integer"},
		{"go float32", float32(0.5), 0.5, "real"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := mustRun(t, db, "SELECT ?1 AS v, typeof(?1) AS t", tc.param)
			assert.Equal(t, [][]any{{tc.want, tc.typ}}, values(r))

			ins := mustRun(t, db, "INSERT INTO v (x) VALUES (?) RETURNING x, typeof(x)", tc.param)
			assert.Equal(t, [][]any{{tc.want, tc.typ}}, values(ins))
			back := mustRun(t, db, "SELECT x FROM v WHERE rowid = ?", ins.Meta.LastRowID)
			assert.Equal(t, [][]any{{tc.want}}, values(back))
		})
	}

	_, err := db.Run(bg, Statement{SQL: "SELECT ?", Params: []any{struct{}{}}})
	var e *Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, "D1_TYPE_ERROR: Type 'struct {}' not supported for value '{}'", e.Message)

	params := []any{true}
	mustRun(t, db, "SELECT ?", params...)
	assert.Equal(t, []any{true}, params, "the caller's params are not changed")
}

func TestMeta(t *testing.T) {
	tick := time.Unix(0, 0)
	db := openDB(t, NewConfig().WithClock(func() time.Time { tick = tick.Add(1500 * time.Microsecond); return tick }))
	r := mustRun(t, db, "CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)")
	assert.Equal(t, "miniflare.db", r.Meta.ServedBy)
	assert.Equal(t, 1.5, r.Meta.Duration, "measured with the injected clock")
	assert.True(t, r.Meta.ChangedDB, "the file grew")
	assert.Positive(t, r.Meta.SizeAfter)

	r = mustRun(t, db, "INSERT INTO t (v) VALUES ('a'), ('b'), ('c')")
	assert.Equal(t, Meta{ServedBy: "miniflare.db", ServedByPrimary: true, TotalAttempts: 1, SQLDuration: 1.5, Duration: 1.5,
		Changes: 3, LastRowID: 3, ChangedDB: true, SizeAfter: r.Meta.SizeAfter, RowsRead: 0, RowsWritten: 3}, r.Meta)

	r = mustRun(t, db, "SELECT * FROM t")
	assert.Equal(t, int64(0), r.Meta.Changes)
	assert.Equal(t, int64(3), r.Meta.LastRowID, "last_row_id is the connection's, as in D1")
	assert.False(t, r.Meta.ChangedDB)
	assert.Equal(t, int64(3), r.Meta.RowsRead)
	assert.Equal(t, int64(0), r.Meta.RowsWritten)

	r = mustRun(t, db, "SELECT count(*) FROM t WHERE v > 'a'")
	assert.Equal(t, int64(3), r.Meta.RowsRead, "a full scan reads every row")

	r = mustRun(t, db, "UPDATE t SET v = 'z' WHERE id = 2")
	assert.Equal(t, int64(1), r.Meta.Changes)
	assert.Equal(t, int64(1), r.Meta.RowsRead, "UPDATE reads what it changes")
	assert.Equal(t, int64(1), r.Meta.RowsWritten)
	assert.True(t, r.Meta.ChangedDB)

	// rows_read as local D1 reported it for the same statements, in order.
	for _, tc := range []struct {
		sql  string
		want int64
	}{
		{"SELECT * FROM t WHERE id = 2", 1},
		{"SELECT 1; SELECT 2", 0},
		{"SELECT v FROM t WHERE v > 'a'", 3},
		{"DELETE FROM t WHERE id = 3", 1},
		{"INSERT INTO t (v) VALUES ('d')", 0},
	} {
		assert.Equal(t, tc.want, mustRun(t, db, tc.sql).Meta.RowsRead, tc.sql)
	}

	other := openDB(t, NewConfig().WithServedBy("v3-prod"))
	assert.Equal(t, "v3-prod", mustRun(t, other, "SELECT 1").Meta.ServedBy)
}

func TestRefusals(t *testing.T) {
	db := openDB(t)
	mustRun(t, db, "CREATE TABLE t (x)")
	txn := "D1_ERROR: " + msgTransaction
	cases := []struct {
		sql, message, code string
	}{
		{"BEGIN", txn, ""},
		{"BEGIN TRANSACTION", txn, ""},
		{"begin immediate", txn, ""},
		{"COMMIT", txn, ""},
		{"END", txn, ""},
		{"ROLLBACK", txn, ""},
		{"SAVEPOINT sp", txn, ""},
		{"RELEASE sp", txn, ""},
		{"INSERT INTO t VALUES (1); BEGIN", txn, ""},
		{"SELECT sqlite_version()", "D1_ERROR: not authorized to use function: sqlite_version at offset 7: SQLITE_ERROR", "SQLITE_ERROR"},
		{"SELECT sqlite_source_id()", "D1_ERROR: not authorized to use function: sqlite_source_id at offset 7: SQLITE_ERROR", "SQLITE_ERROR"},
		{"SELECT SQLITE_VERSION()", "D1_ERROR: not authorized to use function: SQLITE_VERSION at offset 7: SQLITE_ERROR", "SQLITE_ERROR"},
		{"SELECT sqlite_compileoption_get(0)", "D1_ERROR: not authorized to use function: sqlite_compileoption_get at offset 7: SQLITE_ERROR", "SQLITE_ERROR"},
		{"PRAGMA journal_mode", "D1_ERROR: not authorized: SQLITE_AUTH", "SQLITE_AUTH"},
		{"PRAGMA journal_mode = DELETE", "D1_ERROR: not authorized: SQLITE_AUTH", "SQLITE_AUTH"},
		{"PRAGMA data_version = 3", "D1_ERROR: not authorized: SQLITE_AUTH", "SQLITE_AUTH"},
		{"PRAGMA page_size = 8192", "D1_ERROR: not authorized: SQLITE_AUTH", "SQLITE_AUTH"},
		{"PRAGMA page_count", "D1_ERROR: not authorized: SQLITE_AUTH", "SQLITE_AUTH"},
		{"PRAGMA foreign_keys = maybe", "D1_ERROR: not authorized: SQLITE_AUTH", "SQLITE_AUTH"},
		{"ATTACH DATABASE 'other.db' AS other", "D1_ERROR: not authorized: SQLITE_AUTH", "SQLITE_AUTH"},
		{"CREATE TEMP TABLE tmp (x)", "D1_ERROR: not authorized: SQLITE_AUTH", "SQLITE_AUTH"},
		{"CREATE TABLE _cf_secret (x)", "D1_ERROR: not authorized: SQLITE_AUTH", "SQLITE_AUTH"},
		{"CREATE VIRTUAL TABLE g USING geopoly(a)", "D1_ERROR: not authorized: SQLITE_AUTH", "SQLITE_AUTH"},
	}
	for _, tc := range cases {
		t.Run(tc.sql, func(t *testing.T) {
			_, err := db.Run(bg, Statement{SQL: tc.sql})
			var e *Error
			require.ErrorAs(t, err, &e)
			assert.Equal(t, tc.message, e.Message)
			assert.Equal(t, tc.message[len("D1_ERROR: "):], e.Cause)
			assert.Equal(t, tc.code, e.Code)
			assert.True(t, errors.Is(err, ErrD1))
		})
	}
	r := mustRun(t, db, "SELECT count(*) FROM t")
	assert.Equal(t, [][]any{{int64(0)}}, values(r), "the refused multi-statement request left nothing behind")
	for _, ok := range []string{"PRAGMA foreign_keys", "PRAGMA foreign_keys = off", "PRAGMA defer_foreign_keys = true", "PRAGMA optimize", "PRAGMA table_list", "PRAGMA index_list(t)", "PRAGMA quick_check", "PRAGMA TABLE_INFO(t)", "SELECT jsonb('{}'), CURRENT_TIMESTAMP, Upper('x')", "CREATE VIRTUAL TABLE r USING rtree(id, a, b)", "CREATE VIRTUAL TABLE r32 USING rtree_i32(id, a, b)", "PRAGMA page_size"} {
		mustRun(t, db, ok)
	}
}

func TestForeignKeysAlwaysOn(t *testing.T) {
	db := openDB(t)
	mustRun(t, db, "CREATE TABLE parent (id INTEGER PRIMARY KEY)")
	mustRun(t, db, "CREATE TABLE child (id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES parent(id))")
	_, err := db.Run(bg, Statement{SQL: "PRAGMA foreign_keys = off; INSERT INTO child (parent_id) VALUES (9)"})
	require.Error(t, err)
	assert.Equal(t, "D1_ERROR: FOREIGN KEY constraint failed: SQLITE_CONSTRAINT (extended: SQLITE_CONSTRAINT_FOREIGNKEY)", err.Error())
	mustRun(t, db, "PRAGMA defer_foreign_keys = on; INSERT INTO child (parent_id) VALUES (9); INSERT INTO parent (id) VALUES (9)")
}

func TestErrorMessages(t *testing.T) {
	db := openDB(t)
	mustRun(t, db, "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT UNIQUE NOT NULL, n INTEGER CHECK (n > 0))")
	mustRun(t, db, "INSERT INTO t (id, name, n) VALUES (1, 'a', 1)")
	cases := []struct {
		name, sql string
		params    []any
		message   string
	}{
		{"syntax", "SELEC 1", nil, `D1_ERROR: near "SELEC": syntax error at offset 0: SQLITE_ERROR`},
		{"no such column", "SELECT nope FROM t", nil, "D1_ERROR: no such column: nope at offset 7: SQLITE_ERROR"},
		{"no such table", "SELECT * FROM missing", nil, "D1_ERROR: no such table: missing: SQLITE_ERROR"},
		{"unique", "INSERT INTO t (id, name, n) VALUES (2, 'a', 1)", nil, "D1_ERROR: UNIQUE constraint failed: t.name: SQLITE_CONSTRAINT (extended: SQLITE_CONSTRAINT_UNIQUE)"},
		{"primary key", "INSERT INTO t (id, name, n) VALUES (1, 'b', 1)", nil, "D1_ERROR: UNIQUE constraint failed: t.id: SQLITE_CONSTRAINT (extended: SQLITE_CONSTRAINT_PRIMARYKEY)"},
		{"not null", "INSERT INTO t (id, n) VALUES (3, 1)", nil, "D1_ERROR: NOT NULL constraint failed: t.name: SQLITE_CONSTRAINT (extended: SQLITE_CONSTRAINT_NOTNULL)"},
		{"check", "INSERT INTO t (id, name, n) VALUES (4, 'c', 0)", nil, "D1_ERROR: CHECK constraint failed: n > 0: SQLITE_CONSTRAINT (extended: SQLITE_CONSTRAINT_CHECK)"},
		{"too few params", "SELECT ?, ?", []any{int64(1)}, "D1_ERROR: Wrong number of parameter bindings for SQL query."},
		{"too many params", "SELECT 1", []any{int64(1)}, "D1_ERROR: Wrong number of parameter bindings for SQL query."},
		{"params before the last statement", "SELECT ?; SELECT 1", []any{int64(1)}, "D1_ERROR: " + msgMultiParams},
		{"trailing comment is an empty statement", "SELECT 1; -- done", nil, "D1_ERROR: SQL code did not contain a statement."},
		{"empty", "", nil, "D1_ERROR: No SQL statements detected."},
		{"only an indented comment", "\n  -- nothing", nil, "D1_ERROR: No SQL statements detected."},
		{"only a comment at column 0", "-- nothing", nil, "D1_ERROR: No SQL statements detected."},
		{"too many variables", "SELECT " + placeholders(101), make([]any, 101), "D1_ERROR: too many SQL variables at offset 307: SQLITE_ERROR"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := db.Run(bg, Statement{SQL: tc.sql, Params: tc.params})
			require.Error(t, err)
			assert.Equal(t, tc.message, err.Error())
		})
	}
}

func placeholders(n int) string {
	s := "?"
	for i := 1; i < n; i++ {
		s += ", ?"
	}
	return s
}

func TestBatch(t *testing.T) {
	db := openDB(t)
	mustRun(t, db, "CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT UNIQUE)")

	results, err := db.Batch(bg, []Statement{
		{SQL: "INSERT INTO t (v) VALUES (?)", Params: []any{"a"}},
		{SQL: "   -- dropped, as local D1 does"},
		{SQL: "INSERT INTO t (v) VALUES (?)", Params: []any{"b"}},
		{SQL: "SELECT v FROM t ORDER BY id"},
	})
	require.NoError(t, err)
	require.Len(t, results, 3)
	assert.Equal(t, int64(1), results[0].Meta.LastRowID)
	assert.Equal(t, int64(2), results[1].Meta.LastRowID)
	assert.Equal(t, [][]any{{"a"}, {"b"}}, values(results[2]))

	_, err = db.Batch(bg, []Statement{
		{SQL: "INSERT INTO t (v) VALUES ('c')"},
		{SQL: "UPDATE t SET v = 'changed' WHERE v = 'a'"},
		{SQL: "INSERT INTO t (v) VALUES ('b')"}, // duplicate: the whole batch rolls back
	})
	require.Error(t, err)
	assert.Equal(t, "D1_ERROR: UNIQUE constraint failed: t.v: SQLITE_CONSTRAINT (extended: SQLITE_CONSTRAINT_UNIQUE)", err.Error())
	r := mustRun(t, db, "SELECT v FROM t ORDER BY id")
	assert.Equal(t, [][]any{{"a"}, {"b"}}, values(r), "nothing of the failed batch remains")

	_, err = db.Batch(bg, nil)
	assert.EqualError(t, err, "D1_ERROR: No SQL statements detected.")
	_, err = db.Batch(bg, []Statement{{SQL: "SELECT 1"}, {SQL: "SELECT ?", Params: []any{map[string]int{}}}})
	assert.ErrorContains(t, err, "D1_TYPE_ERROR")
}

func TestExec(t *testing.T) {
	db := openDB(t)
	res, err := db.Exec(bg, "\n  CREATE TABLE t (x INTEGER);\nINSERT INTO t VALUES (1); INSERT INTO t VALUES (2);\n\n    -- indented comment\nINSERT INTO t VALUES (3)\n")
	require.NoError(t, err)
	assert.Equal(t, 3, res.Count)
	assert.GreaterOrEqual(t, res.Duration, 0.0)
	assert.Equal(t, [][]any{{int64(6)}}, values(mustRun(t, db, "SELECT sum(x) FROM t")))

	_, err = db.Exec(bg, "INSERT INTO t VALUES (10);\nINSERT INTO missing VALUES (1);\nINSERT INTO t VALUES (11);")
	var e *Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, "D1_EXEC_ERROR: Error in line 1: INSERT INTO t VALUES (10);: no such table: missing: SQLITE_ERROR", e.Message)
	assert.Equal(t, "Error in line 1: INSERT INTO t VALUES (10);: no such table: missing: SQLITE_ERROR", e.Cause)
	assert.Equal(t, 2, e.Line, "the line that really failed")
	assert.Equal(t, [][]any{{int64(6)}}, values(mustRun(t, db, "SELECT sum(x) FROM t")), "exec is atomic locally")

	_, err = db.Exec(bg, "CREATE TABLE u (\n  x INTEGER\n)")
	assert.ErrorContains(t, err, "Error in line 1: CREATE TABLE u (: incomplete input: SQLITE_ERROR", "exec splits at line breaks")

	_, err = db.Exec(bg, "   ")
	assert.EqualError(t, err, "D1_EXEC_ERROR: Error in line 1: : No SQL statements detected.")

	_, err = db.Exec(bg, "BEGIN TRANSACTION;")
	assert.EqualError(t, err, "D1_EXEC_ERROR: Error in line 1: BEGIN TRANSACTION;: "+msgTransaction)
}

func TestRawAndFirst(t *testing.T) {
	db := openDB(t)
	mustRun(t, db, "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, data BLOB)")
	mustRun(t, db, "INSERT INTO t (name, data) VALUES ('a', x'0102'), ('b', NULL)")

	rows, cols, err := db.Raw(bg, Statement{SQL: "SELECT id, name, data FROM t ORDER BY id"}, false)
	require.NoError(t, err)
	assert.Equal(t, []string{"id", "name", "data"}, cols)
	assert.Equal(t, [][]any{{int64(1), "a", []byte{1, 2}}, {int64(2), "b", nil}}, rows)

	rows, _, err = db.Raw(bg, Statement{SQL: "SELECT id FROM t WHERE id > 5"}, true)
	require.NoError(t, err)
	assert.Equal(t, [][]any{{"id"}}, rows, "column names even without rows")

	v, err := db.First(bg, Statement{SQL: "SELECT name FROM t WHERE id = ?", Params: []any{int64(2)}}, "name")
	require.NoError(t, err)
	assert.Equal(t, "b", v)

	v, err = db.First(bg, Statement{SQL: "SELECT name FROM t WHERE id = 99"}, "name")
	require.NoError(t, err)
	assert.Nil(t, v, "no row is null")

	_, err = db.First(bg, Statement{SQL: "SELECT name FROM t"}, "nope")
	assert.EqualError(t, err, "D1_COLUMN_NOTFOUND: Column not found (nope)")

	row, err := db.FirstRow(bg, Statement{SQL: "SELECT 1 AS a, 2 AS b, 3 AS a"})
	require.NoError(t, err)
	got, ok := row.Get("a")
	assert.True(t, ok)
	assert.Equal(t, int64(3), got, "a duplicate name holds its last value, as in a JS object")
	assert.Equal(t, []Pair{{"a", int64(3)}, {"b", int64(2)}}, row.Pairs())
	_, ok = row.Get("c")
	assert.False(t, ok)

	row, err = db.FirstRow(bg, Statement{SQL: "SELECT 1 WHERE 0"})
	require.NoError(t, err)
	assert.Nil(t, row)
}

func TestPersistence(t *testing.T) {
	path := filepath.Join(t.TempDir(), "persist.sqlite")
	db, err := Open(path)
	require.NoError(t, err)
	assert.Equal(t, path, db.Path())
	mustRun(t, db, "CREATE TABLE t (v TEXT)")
	mustRun(t, db, "INSERT INTO t VALUES ('kept')")
	require.NoError(t, db.Close())
	require.NoError(t, db.Close(), "closing twice is fine")
	_, err = db.Run(bg, Statement{SQL: "SELECT 1"})
	assert.ErrorIs(t, err, ErrClosed)

	db, err = Open(path)
	require.NoError(t, err)
	defer db.Close()
	assert.Equal(t, [][]any{{"kept"}}, values(mustRun(t, db, "SELECT v FROM t")))
}

func TestOpenReportsEveryProblem(t *testing.T) {
	_, err := OpenWithConfig("", NewConfig().WithClock(nil).WithBusyTimeout(-time.Second))
	require.Error(t, err)
	for _, want := range []string{"empty path", "nil clock", "busy timeout"} {
		assert.Contains(t, err.Error(), want)
	}
	_, err = Open(filepath.Join(t.TempDir(), "no", "such", "dir", "x.sqlite"))
	assert.ErrorContains(t, err, "unable to open database file")
}

func TestContext(t *testing.T) {
	db := openDB(t)
	ctx, cancel := context.WithCancel(bg)
	cancel()
	_, err := db.Run(ctx, Statement{SQL: "SELECT 1"})
	assert.ErrorIs(t, err, context.Canceled)

	ctx, cancel = context.WithTimeout(bg, 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = db.Run(ctx, Statement{SQL: "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM c) SELECT count(*) FROM c"})
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Less(t, time.Since(start), 5*time.Second, "the running query was interrupted")
	assert.Equal(t, [][]any{{int64(1)}}, values(mustRun(t, db, "SELECT 1")), "the database still works")
}

// A damaged database file is refused at open with ErrCorrupt and a message
// that says what to do (PRAGMA quick_check; issue 31), whether the damage
// is in a table's pages or in the file header.
func TestOpenRefusesACorruptFile(t *testing.T) {
	damage := map[string]func(b []byte){
		"table pages": func(b []byte) {
			for i := 2 * 4096; i < 4*4096; i++ {
				b[i] = byte(i * 7)
			}
		},
		"file header": func(b []byte) { copy(b, "this is not a database file....") },
	}
	for name, hurt := range damage {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "hurt.sqlite")
			db, err := Open(path)
			require.NoError(t, err)
			mustRun(t, db, "CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)")
			mustRun(t, db, "CREATE INDEX t_v ON t (v)")
			mustRun(t, db, "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 2000) INSERT INTO t (v) SELECT printf('row %05d', i) FROM c")
			require.NoError(t, db.Close())
			b, err := os.ReadFile(path)
			require.NoError(t, err)
			require.Greater(t, len(b), 4*4096)
			hurt(b)
			require.NoError(t, os.WriteFile(path, b, 0o644))

			_, err = Open(path)
			require.ErrorIs(t, err, ErrCorrupt)
			assert.ErrorContains(t, err, path)
			assert.ErrorContains(t, err, "move it away")
		})
	}
}

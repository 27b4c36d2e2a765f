// Package d1 is a D1 database for hostsim: real SQLite in a file, behaving
// as local D1 does under `wrangler dev` (miniflare's D1DatabaseObject on
// workerd's SQLite, and workerd's D1 binding in front of it).
//
// What it copies:
//   - each request (Run, All, Raw, First, Batch, Exec) is one transaction;
//     a failure anywhere rolls all of it back;
//   - a statement string may hold several statements; all but the last run
//     first and may not have parameters, the last one's rows are returned;
//   - BEGIN, COMMIT, ROLLBACK, SAVEPOINT and RELEASE are refused with D1's
//     message, as are SQL functions outside workerd's allow-list
//     (sqlite_version() among them), pragmas outside its list, ATTACH,
//     temporary objects, virtual tables other than FTS5, and names starting
//     with "_cf_";
//   - foreign keys are enforced; workerd's SQLite limits apply (100 bound
//     parameters, 100 columns, 100,000-byte statements...);
//   - errors read "D1_ERROR: <sqlite message>[ at offset N]: SQLITE_X
//     [(extended: SQLITE_X_Y)]" (see Error);
//   - meta is miniflare's: served_by "miniflare.db", duration, changes,
//     last_row_id, changed_db, size_after, rows_read, rows_written.
//
// rows_read and rows_written come from libSQL counters in workerd that stock
// SQLite lacks. Here rows_written is the number of rows changed (as
// total_changes counts them: not index entries, which D1 counts too, but FTS5
// shadow rows) and rows_read, per statement that reads a table, the largest
// of the rows returned, the rows a full table scan visited and, for UPDATE
// and DELETE, the rows changed; a statement that reads no table reads 0 rows.
// That matches local D1 for scans, point lookups and range scans, and is low
// for filtered index scans and schema changes. duration is measured with the
// injected clock (workerd's clocks stand still while code runs, so local D1
// often reports 0).
//
// Checked against local D1 in wrangler 4.164 (`wrangler dev`, `wrangler d1
// execute --local`, `wrangler d1 migrations apply --local`): error texts,
// refusals and what is allowed (JSONB, R*Tree, PRAGMA page_size, pragma and
// function names in any case), the comment-only and trailing-comment rules,
// exec's messages and atomicity, bool and number binding, meta, rows_read of
// common statements, and migration order. SQLite's messages are those of the
// SQLite modernc.org/sqlite bundles (3.54).
//
// Values come back as int64 (INTEGER), float64 (REAL), string (TEXT),
// []byte (BLOB; the Worker gets an array of numbers) and nil (NULL).
// Parameters may be nil, int64, float64, string, []byte or bool; D1 turns a
// JavaScript number into a REAL and a boolean into the number 0 or 1, so the
// JS adapter should pass float64 for every JS number, and bool binds as REAL.
//
// A DB serializes its requests, as D1 runs one query at a time, and is safe
// for concurrent use; several DBs (or processes) on one file take turns
// through SQLite's locks, waiting up to the busy timeout.
package d1

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"time"
)

// Statement is one prepared statement with its bound parameters.
type Statement struct {
	SQL    string
	Params []any
}

// Meta is a result's meta object, as local D1 reports it:
//
//	{served_by, served_by_primary, total_attempts, timings: {sql_duration_ms},
//	 duration, changes, last_row_id, changed_db, size_after, rows_read, rows_written}
type Meta struct {
	ServedBy        string // "miniflare.db"
	ServedByPrimary bool   // always true locally
	TotalAttempts   int64  // always 1 locally
	SQLDuration     float64
	Duration        float64 // milliseconds; timings.sql_duration_ms is the same
	Changes         int64
	LastRowID       int64
	ChangedDB       bool
	SizeAfter       int64 // bytes
	RowsRead        int64
	RowsWritten     int64
}

// Result is what run() and all() resolve to: {success, meta, results}.
type Result struct {
	Success bool
	Meta    Meta
	Columns []string // column names of the last statement, in order
	Results []Row    // its rows; empty, never nil, when it returns none
}

// Row is one result row. Columns is shared by all rows of a result.
type Row struct {
	Columns []string
	Values  []any
}

// Pair is one key and value of a row seen as a JavaScript object.
type Pair struct {
	Key   string
	Value any
}

// Get returns the value the row's JavaScript object has for name: with
// duplicate column names the last one wins, as in D1.
func (r Row) Get(name string) (any, bool) {
	for i := len(r.Columns) - 1; i >= 0; i-- {
		if r.Columns[i] == name {
			return r.Values[i], true
		}
	}
	return nil, false
}

// Pairs returns the row as the ordered key/values of a JavaScript object: a
// duplicate name keeps its first position and its last value. (The JS
// engine itself moves integer-like keys such as "1" to the front.)
func (r Row) Pairs() []Pair {
	out := make([]Pair, 0, len(r.Columns))
	at := make(map[string]int, len(r.Columns))
	for i, c := range r.Columns {
		if j, ok := at[c]; ok {
			out[j].Value = r.Values[i]
			continue
		}
		at[c] = len(out)
		out = append(out, Pair{Key: c, Value: r.Values[i]})
	}
	return out
}

// ExecResult is what exec() resolves to.
type ExecResult struct {
	Count    int     // statements (lines) run
	Duration float64 // milliseconds, summed
}

// DB is one D1 database.
type DB struct {
	path string
	opts Config
	sem  chan struct{} // one request at a time; a channel so waiting honours ctx
	c    *conn
}

// Config configures OpenWithConfig. It is an immutable value: start from
// NewConfig; every With… returns a changed copy.
type Config struct {
	busyTimeout time.Duration
	now         func() time.Time
	servedBy    string
}

// NewConfig is the default: a 10 s busy timeout, time.Now, and
// meta.served_by "miniflare.db".
func NewConfig() Config {
	return Config{busyTimeout: 10 * time.Second, now: time.Now, servedBy: ServedBy}
}

// WithBusyTimeout sets how long a request waits for another connection to
// the same file (another DB, another process) to release its lock.
func (c Config) WithBusyTimeout(d time.Duration) Config { c.busyTimeout = d; return c }

// WithClock sets the clock meta.duration is measured with.
func (c Config) WithClock(now func() time.Time) Config { c.now = now; return c }

// WithServedBy sets meta.served_by.
func (c Config) WithServedBy(s string) Config { c.servedBy = s; return c }

// ErrCorrupt reports a database file that is not a sound SQLite database:
// Open runs PRAGMA quick_check and refuses such a file, so damage shows at
// start instead of as failing writes later (issue 31).
var ErrCorrupt = errors.New("d1: the database file is corrupt")

// Open opens (creating if needed) the database file at path in WAL mode,
// with NewConfig, after PRAGMA quick_check.
func Open(path string) (*DB, error) { return OpenWithConfig(path, NewConfig()) }

// OpenWithConfig is Open with a Config. Problems with the Config are
// reported together.
func OpenWithConfig(path string, o Config) (*DB, error) {
	var problems []error
	if path == "" {
		problems = append(problems, errors.New("empty path"))
	}
	if o.busyTimeout < 0 || o.busyTimeout > time.Duration(1<<31-1)*time.Millisecond {
		problems = append(problems, fmt.Errorf("busy timeout %v out of range", o.busyTimeout))
	}
	if o.now == nil {
		problems = append(problems, errors.New("nil clock"))
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("d1: %w", errors.Join(problems...))
	}
	c, err := openConn(path)
	if err != nil {
		return nil, fmt.Errorf("d1: %w", err)
	}
	c.setBusyTimeout(int32(o.busyTimeout / time.Millisecond))
	err = c.exec("PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON;")
	var found []string
	if err == nil {
		found, err = c.quickCheck()
	}
	if err == nil && len(found) > 0 {
		err = errors.New(strings.Join(found, "; "))
	}
	if err != nil {
		c.close()
		return nil, fmt.Errorf("d1: %s: %w (PRAGMA quick_check: %v); restore the file from a copy, or move it away to start with an empty database", path, ErrCorrupt, err)
	}
	c.setDefensive()
	for _, l := range limits {
		c.setLimit(l.id, l.value)
	}
	registerAuthorizer(c)
	db := &DB{path: path, opts: o, sem: make(chan struct{}, 1), c: c}
	return db, nil
}

// Path returns the database file's path.
func (d *DB) Path() string { return d.path }

// Close waits for the request in progress and closes the file.
func (d *DB) Close() error {
	d.sem <- struct{}{}
	defer func() { <-d.sem }()
	if d.c == nil {
		return nil
	}
	err := d.c.close()
	d.c = nil
	return err
}

// request runs fn as one D1 request: alone on the connection, inside one
// transaction that fn's failure rolls back, stoppable through ctx.
func (d *DB) request(ctx context.Context, fn func(*conn) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	select {
	case d.sem <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-d.sem }()
	c := d.c
	if c == nil {
		return ErrClosed
	}
	stop := context.AfterFunc(ctx, c.interrupt)
	defer stop()
	if err := c.exec("BEGIN IMMEDIATE"); err != nil {
		return ctxOr(ctx, queryError(err))
	}
	if err := fn(c); err != nil {
		c.exec("ROLLBACK")
		return ctxOr(ctx, err)
	}
	if err := c.exec("COMMIT"); err != nil {
		c.exec("ROLLBACK")
		return ctxOr(ctx, queryError(err))
	}
	return nil
}

// ctxOr prefers the context's error: an interrupted query says "interrupted".
func ctxOr(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

// Run executes a statement: D1's run(). In D1 it resolves to the same
// {success, meta, results} as all().
func (d *DB) Run(ctx context.Context, s Statement) (*Result, error) { return d.All(ctx, s) }

// All executes a statement and returns its rows: D1's all().
func (d *DB) All(ctx context.Context, s Statement) (*Result, error) {
	results, err := d.Batch(ctx, []Statement{s})
	if err != nil {
		return nil, err
	}
	return results[0], nil
}

// Raw returns the rows as arrays: D1's raw(). With columnNames the first
// row holds the column names (as strings), as raw({columnNames: true}) does.
func (d *DB) Raw(ctx context.Context, s Statement, columnNames bool) ([][]any, []string, error) {
	r, err := d.All(ctx, s)
	if err != nil {
		return nil, nil, err
	}
	rows := make([][]any, 0, len(r.Results)+1)
	if columnNames {
		names := make([]any, len(r.Columns))
		for i, c := range r.Columns {
			names[i] = c
		}
		rows = append(rows, names)
	}
	for _, row := range r.Results {
		rows = append(rows, row.Values)
	}
	return rows, r.Columns, nil
}

// FirstRow returns the first row, or nil when there is none: D1's first().
func (d *DB) FirstRow(ctx context.Context, s Statement) (*Row, error) {
	r, err := d.All(ctx, s)
	if err != nil || len(r.Results) == 0 {
		return nil, err
	}
	return &r.Results[0], nil
}

// First returns one column of the first row, or nil when there is no row:
// D1's first(column). A missing column is D1_COLUMN_NOTFOUND.
func (d *DB) First(ctx context.Context, s Statement, column string) (any, error) {
	row, err := d.FirstRow(ctx, s)
	if err != nil || row == nil {
		return nil, err
	}
	v, ok := row.Get(column)
	if !ok {
		return nil, &Error{Message: fmt.Sprintf("D1_COLUMN_NOTFOUND: Column not found (%s)", column), Cause: "Column not found"}
	}
	return v, nil
}

// commentOnly matches what miniflare strips before deciding a statement is
// empty: whole comment lines.
var commentOnly = regexp.MustCompile(`(?m)^\s*--.*`)

func blank(sql string) bool {
	return strings.TrimSpace(commentOnly.ReplaceAllString(sql, "")) == ""
}

// Batch runs statements in one transaction: D1's batch(). If one fails none
// of them takes effect. Statements that are empty or only comments are
// dropped first, so they get no result, as in local D1.
func (d *DB) Batch(ctx context.Context, stmts []Statement) ([]*Result, error) {
	var kept []Statement
	for _, s := range stmts {
		params, err := normalizeParams(s.Params)
		if err != nil {
			return nil, err
		}
		if !blank(s.SQL) {
			kept = append(kept, Statement{SQL: s.SQL, Params: params})
		}
	}
	if len(kept) == 0 {
		return nil, queryError(d1Error(msgNoStatements))
	}
	results := make([]*Result, 0, len(kept))
	err := d.request(ctx, func(c *conn) error {
		for _, s := range kept {
			if err := ctx.Err(); err != nil {
				return err
			}
			r, err := d.query(c, s)
			if err != nil {
				return queryError(err)
			}
			results = append(results, r)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return results, nil
}

// Exec runs SQL the way D1's exec() does: the text is trimmed and split at
// line breaks, each non-empty line is one request item (a line may itself
// hold several statements, none with parameters), and all lines run in one
// transaction, as local D1 does.
func (d *DB) Exec(ctx context.Context, sql string) (ExecResult, error) {
	lines := strings.Split(strings.TrimSpace(sql), "\n")
	type item struct {
		line int
		sql  string
	}
	var items []item
	for i, l := range lines {
		if !blank(l) {
			items = append(items, item{i + 1, l})
		}
	}
	if len(items) == 0 {
		return ExecResult{}, execError(d1Error(msgNoStatements), lines[0], 1)
	}
	var out ExecResult
	err := d.request(ctx, func(c *conn) error {
		for _, it := range items {
			if err := ctx.Err(); err != nil {
				return err
			}
			r, err := d.query(c, Statement{SQL: it.sql})
			if err != nil {
				return execError(err, lines[0], it.line)
			}
			out.Count++
			out.Duration += r.Meta.Duration
		}
		return nil
	})
	if err != nil {
		return ExecResult{}, err
	}
	return out, nil
}

// normalizeParams copies the parameters as SQLite values, refusing what
// D1's bind() refuses with D1_TYPE_ERROR.
func normalizeParams(params []any) ([]any, error) {
	out := make([]any, len(params))
	for i, p := range params {
		v, ok := normalizeParam(p)
		if !ok {
			return nil, typeError(p)
		}
		out[i] = v
	}
	return out, nil
}

// normalizeParam maps Go values onto the five SQLite types.
func normalizeParam(p any) (any, bool) {
	switch v := p.(type) {
	case nil, int64, float64, string, []byte:
		return v, true
	case bool:
		if v {
			return 1.0, true
		}
		return 0.0, true
	}
	switch rv := reflect.ValueOf(p); rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return rv.Int(), true
	case reflect.Uint8, reflect.Uint16, reflect.Uint32:
		return int64(rv.Uint()), true
	case reflect.Float32, reflect.Float64:
		return rv.Float(), true
	case reflect.String:
		return rv.String(), true
	}
	return nil, false
}

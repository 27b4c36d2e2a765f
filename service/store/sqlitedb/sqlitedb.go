//go:build !js

// Package sqlitedb is store.DB on SQLite (modernc.org/sqlite, pure Go), for
// unit tests and native runs. It behaves as D1 does where the service can
// tell: one request at a time, each request (and each batch) one
// transaction, foreign keys enforced, numbers bound as REAL, rows handed
// over as JSON, and migrations applied the way `wrangler d1 migrations
// apply` does. It does not check D1's SQL function allow-list; the hostsim
// e2e suite runs the same SQL under the faithful emulator.
//
// The !js build tag is needed because modernc.org/sqlite does not build for
// js/wasm, where the service packages' other tests also run.
package sqlitedb

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"modernc.org/sqlite"

	"github.com/emojisearch/emojisearch/internal/d1migrate"
	"github.com/emojisearch/emojisearch/service/store"
)

// DB is a SQLite database behind store.DB.
type DB struct{ db *sql.DB }

var _ store.DB = (*DB)(nil)

// Open opens (or creates) the database at path (":memory:" for a private
// in-memory one) and applies the migrations in dir that it lacks.
func Open(ctx context.Context, path, migrationsDir string) (*DB, error) {
	db, err := sql.Open("sqlite", path)
	if err != nil {
		return nil, err
	}
	// One connection: D1 serializes requests, and an in-memory database
	// lives only as long as its connection.
	db.SetMaxOpenConns(1)
	db.SetConnMaxLifetime(0)
	db.SetConnMaxIdleTime(0)
	if _, err := db.ExecContext(ctx, "PRAGMA foreign_keys = ON"); err != nil {
		db.Close()
		return nil, err
	}
	d := &DB{db: db}
	if migrationsDir != "" {
		if err := d.migrate(ctx, migrationsDir); err != nil {
			db.Close()
			return nil, err
		}
	}
	return d, nil
}

// Close closes the database.
func (d *DB) Close() error { return d.db.Close() }

// RepoMigrations is the repository's migrations/ folder, found from this
// source file, for tests that want the real schema.
func RepoMigrations() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "migrations")
}

// migrate applies the *.sql files of dir not yet recorded in d1_migrations,
// by wrangler's rules (internal/d1migrate, the same code hostsim's D1
// applies them with), each file with its record in one transaction.
func (d *DB) migrate(ctx context.Context, dir string) error {
	if _, err := d1migrate.Apply(ctx, d1migrate.SQL(d.db), dir, ""); err != nil {
		return fmt.Errorf("sqlitedb: %w", mapError(err))
	}
	return nil
}

// All implements store.DB.
func (d *DB) All(ctx context.Context, s store.Stmt) (store.Result, error) {
	var res []store.Result
	err := d.inTx(ctx, func(tx *sql.Tx) error {
		var err error
		res, err = run(ctx, tx, []store.Stmt{s})
		return err
	})
	if err != nil {
		return store.Result{}, err
	}
	return res[0], nil
}

// First implements store.DB.
func (d *DB) First(ctx context.Context, s store.Stmt) (store.Row, error) {
	r, err := d.All(ctx, s)
	if err != nil || len(r.Rows) == 0 {
		return nil, err
	}
	return r.Rows[0], nil
}

// Run implements store.DB.
func (d *DB) Run(ctx context.Context, s store.Stmt) (store.Meta, error) {
	r, err := d.All(ctx, s)
	return r.Meta, err
}

// Batch implements store.DB.
func (d *DB) Batch(ctx context.Context, stmts []store.Stmt) ([]store.Result, error) {
	var res []store.Result
	err := d.inTx(ctx, func(tx *sql.Tx) error {
		var err error
		res, err = run(ctx, tx, stmts)
		return err
	})
	return res, err
}

func (d *DB) inTx(ctx context.Context, fn func(*sql.Tx) error) error {
	tx, err := d.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return mapError(err)
	}
	return mapError(tx.Commit())
}

func run(ctx context.Context, tx *sql.Tx, stmts []store.Stmt) ([]store.Result, error) {
	out := make([]store.Result, 0, len(stmts))
	for i, s := range stmts {
		args, err := store.Normalize(s.Args)
		if err != nil {
			return nil, err
		}
		if n := paramCount(s.SQL); n != len(args) {
			// D1 refuses a mismatch; database/sql would ignore extra ones.
			return nil, fmt.Errorf("%w: wrong number of parameter bindings: the SQL has %d, got %d", store.ErrBind, n, len(args))
		}
		var before int64
		if err := tx.QueryRowContext(ctx, "SELECT total_changes()").Scan(&before); err != nil {
			return nil, err
		}
		rows, err := query(ctx, tx, s.SQL, args)
		if err != nil {
			if len(stmts) > 1 {
				return nil, fmt.Errorf("statement %d: %w", i+1, err)
			}
			return nil, err
		}
		var after, last int64
		if err := tx.QueryRowContext(ctx, "SELECT total_changes(), last_insert_rowid()").Scan(&after, &last); err != nil {
			return nil, err
		}
		out = append(out, store.Result{Rows: rows, Meta: store.Meta{Changes: after - before, LastRowID: last}})
	}
	return out, nil
}

func query(ctx context.Context, tx *sql.Tx, q string, args []any) ([]store.Row, error) {
	rows, err := tx.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	var out []store.Row
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		row := make(store.Row, len(cols))
		for i, c := range cols {
			raw, err := jsonValue(vals[i])
			if err != nil {
				return nil, err
			}
			row[c] = raw
		}
		out = append(out, row)
	}
	return out, rows.Err()
}

// jsonValue is a SQLite value as D1 hands it to JavaScript: numbers, text,
// null, and a BLOB as an array of byte values.
func jsonValue(v any) (json.RawMessage, error) {
	switch x := v.(type) {
	case nil:
		return json.RawMessage("null"), nil
	case []byte:
		n := make([]int, len(x))
		for i, b := range x {
			n[i] = int(b)
		}
		return json.Marshal(n)
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return json.RawMessage("null"), nil
		}
	case time.Time:
		// modernc parses columns declared DATE/TIMESTAMP; D1 returns the text.
		return json.Marshal(x.UTC().Format("2006-01-02 15:04:05"))
	}
	return json.Marshal(v)
}

// mapError wraps constraint failures in store.ConstraintError.
func mapError(err error) error {
	if err == nil {
		return nil
	}
	var se *sqlite.Error
	if errors.As(err, &se) && se.Code()&0xff == 19 { // SQLITE_CONSTRAINT
		// 2067 SQLITE_CONSTRAINT_UNIQUE, 1555 SQLITE_CONSTRAINT_PRIMARYKEY.
		unique := se.Code() == 2067 || se.Code() == 1555
		return &store.ConstraintError{Unique: unique, Err: err}
	}
	return err
}

// paramCount is what sqlite3_bind_parameter_count reports: the largest
// parameter index, where a bare ? takes the next index and ?N sets N. It
// skips string literals, quoted names and comments.
func paramCount(q string) int {
	max := 0
	for i := 0; i < len(q); i++ {
		switch c := q[i]; c {
		case '\'', '"', '`':
			if j := strings.IndexByte(q[i+1:], c); j >= 0 {
				i += j + 1
			} else {
				i = len(q)
			}
		case '[':
			if j := strings.IndexByte(q[i+1:], ']'); j >= 0 {
				i += j + 1
			}
		case '-':
			if strings.HasPrefix(q[i:], "--") {
				if j := strings.IndexByte(q[i:], '\n'); j >= 0 {
					i += j
				} else {
					i = len(q)
				}
			}
		case '/':
			if strings.HasPrefix(q[i:], "/*") {
				if j := strings.Index(q[i+2:], "*/"); j >= 0 {
					i += j + 3
				} else {
					i = len(q)
				}
			}
		case '?':
			j := i + 1
			for j < len(q) && q[j] >= '0' && q[j] <= '9' {
				j++
			}
			if j == i+1 {
				max++
			} else if n, err := strconv.Atoi(q[i+1 : j]); err == nil && n > max {
				max = n
			}
			i = j - 1
		}
	}
	return max
}

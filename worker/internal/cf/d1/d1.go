//go:build js && wasm

// Package d1 wraps a D1 database binding with Go types. It talks to the
// binding directly (prepare/bind/all/run/batch/exec) rather than through
// database/sql: D1 has no transactions, and batch is how atomic
// multi-statement work is done.
package d1

import (
	"context"
	"encoding/json"
	"syscall/js"

	"github.com/emojisearch/emojisearch/worker/internal/jsutil"
)

// DB is one D1 binding.
type DB struct{ v js.Value }

// Open returns the database bound as name, or jsutil.ErrUnbound.
func Open(name string) (*DB, error) {
	return jsutil.OpenBinding(name, func(v js.Value) *DB { return &DB{v: v} })
}

// Statement is SQL with its positional parameters (nil, bool, numbers,
// strings, []byte).
type Statement struct {
	SQL    string
	Params []any
}

// Meta is D1's result metadata.
type Meta struct {
	Duration    float64 `json:"duration"`
	Changes     int64   `json:"changes"`
	LastRowID   int64   `json:"last_row_id"`
	ChangedDB   bool    `json:"changed_db"`
	SizeAfter   int64   `json:"size_after"`
	RowsRead    int64   `json:"rows_read"`
	RowsWritten int64   `json:"rows_written"`
}

// Result is what all() and run() resolve to.
type Result struct {
	Success bool                         `json:"success"`
	Meta    Meta                         `json:"meta"`
	Results []map[string]json.RawMessage `json:"results"`
}

func (db *DB) prepare(s Statement) (js.Value, error) {
	stmt, err := jsutil.Call(db.v, "prepare", s.SQL)
	if err != nil {
		return js.Undefined(), err
	}
	if len(s.Params) == 0 {
		return stmt, nil
	}
	args := make([]any, len(s.Params))
	for i, p := range s.Params {
		switch x := p.(type) {
		case []byte:
			args[i] = jsutil.NewBytes(x)
		case int64:
			args[i] = float64(x)
		default:
			args[i] = x
		}
	}
	return jsutil.Call(stmt, "bind", args...)
}

// All runs a statement and returns its rows.
func (db *DB) All(ctx context.Context, s Statement) (*Result, error) {
	return db.result(ctx, s, "all")
}

// Run runs a statement for its effect.
func (db *DB) Run(ctx context.Context, s Statement) (*Result, error) {
	return db.result(ctx, s, "run")
}

func (db *DB) result(ctx context.Context, s Statement, method string) (*Result, error) {
	stmt, err := db.prepare(s)
	if err != nil {
		return nil, err
	}
	res, err := jsutil.CallAwait(ctx, stmt, method)
	if err != nil {
		return nil, err
	}
	var out Result
	return &out, jsutil.ToJSON(res, &out)
}

// First returns the first row, or nil when there is none.
func (db *DB) First(ctx context.Context, s Statement) (map[string]json.RawMessage, error) {
	stmt, err := db.prepare(s)
	if err != nil {
		return nil, err
	}
	res, err := jsutil.CallAwait(ctx, stmt, "first")
	if err != nil || res.IsNull() {
		return nil, err
	}
	var row map[string]json.RawMessage
	return row, jsutil.ToJSON(res, &row)
}

// Raw returns rows as arrays, the column names first.
func (db *DB) Raw(ctx context.Context, s Statement) ([][]json.RawMessage, error) {
	stmt, err := db.prepare(s)
	if err != nil {
		return nil, err
	}
	opts := jsutil.NewObject()
	opts.Set("columnNames", true)
	res, err := jsutil.CallAwait(ctx, stmt, "raw", opts)
	if err != nil {
		return nil, err
	}
	var rows [][]json.RawMessage
	return rows, jsutil.ToJSON(res, &rows)
}

// Batch runs statements atomically: all or none.
func (db *DB) Batch(ctx context.Context, stmts []Statement) ([]Result, error) {
	list := jsutil.Array.New()
	for _, s := range stmts {
		st, err := db.prepare(s)
		if err != nil {
			return nil, err
		}
		list.Call("push", st)
	}
	res, err := jsutil.CallAwait(ctx, db.v, "batch", list)
	if err != nil {
		return nil, err
	}
	var out []Result
	return out, jsutil.ToJSON(res, &out)
}

// ExecResult is what exec() resolves to.
type ExecResult struct {
	Count    int     `json:"count"`
	Duration float64 `json:"duration"`
}

// Exec runs SQL text of one or more statements without parameters.
func (db *DB) Exec(ctx context.Context, sql string) (*ExecResult, error) {
	res, err := jsutil.CallAwait(ctx, db.v, "exec", sql)
	if err != nil {
		return nil, err
	}
	var out ExecResult
	return &out, jsutil.ToJSON(res, &out)
}

// Package store is the database interface the service packages use: a
// mirror of the D1 binding (all, first, run, batch) in Go types, so the same
// code runs on D1 in the Worker (worker/db_js.go) and on SQLite in tests
// (store/sqlitedb).
//
// It stays honest to D1's behaviour:
//   - there are no transactions; Batch is the only atomic multi-statement
//     unit (D1 runs a batch as one transaction);
//   - arguments cross a JavaScript boundary, so every number binds as a
//     REAL (float64) and integers beyond ±2^53 are refused (Normalize);
//   - rows come back as JSON objects: INTEGER and REAL are JSON numbers,
//     TEXT strings, NULL null (Row, Decode);
//   - only D1's allow-listed SQL functions may be used (see
//     hostsim/internal/d1/limits.go; sqlitedb does not check this, the
//     hostsim e2e suite does).
package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
)

// Stmt is one SQL statement with positional parameters (? or ?N).
type Stmt struct {
	SQL  string
	Args []any
}

// Q builds a Stmt.
func Q(sql string, args ...any) Stmt { return Stmt{SQL: sql, Args: args} }

// Meta is the part of D1's result meta the service reads.
type Meta struct {
	Changes   int64 `json:"changes"`
	LastRowID int64 `json:"last_row_id"`
}

// Result is one statement's rows and meta.
type Result struct {
	Rows []Row
	Meta Meta
}

// Row is one result row as D1 hands it over: column name to JSON value.
type Row map[string]json.RawMessage

// DB is a D1 database.
type DB interface {
	// All runs one statement and returns its rows and meta.
	All(ctx context.Context, s Stmt) (Result, error)
	// First returns the first row of a statement, or nil when it has none.
	First(ctx context.Context, s Stmt) (Row, error)
	// Run runs one statement for its effect.
	Run(ctx context.Context, s Stmt) (Meta, error)
	// Batch runs statements in order as one transaction: all or none.
	// It returns one Result per statement.
	Batch(ctx context.Context, stmts []Stmt) ([]Result, error)
}

// Errors implementations map their failures to, so callers can choose an
// answer by identity.
var (
	// ErrConstraint: a statement broke a constraint (UNIQUE, CHECK,
	// NOT NULL, FOREIGN KEY, PRIMARY KEY).
	ErrConstraint = errors.New("store: constraint failed")
	// ErrUnique: a UNIQUE or PRIMARY KEY constraint failed; it also
	// matches ErrConstraint.
	ErrUnique = errors.New("store: unique constraint failed")
	// ErrBind: an argument D1 cannot bind (a type other than nil, bool,
	// integers, floats, string and []byte, or an integer beyond ±2^53).
	ErrBind = errors.New("store: argument cannot be bound")
)

// ConstraintError wraps a database error that broke a constraint.
type ConstraintError struct {
	Unique bool
	Err    error
}

func (e *ConstraintError) Error() string { return "store: " + e.Err.Error() }

// Unwrap returns the database's own error.
func (e *ConstraintError) Unwrap() error { return e.Err }

// Is matches ErrConstraint, and ErrUnique for unique violations.
func (e *ConstraintError) Is(target error) bool {
	return target == ErrConstraint || (e.Unique && target == ErrUnique)
}

// maxSafe is the largest integer a JavaScript number holds exactly.
const maxSafe = 1<<53 - 1

// Normalize turns arguments into what D1 binds: nil, string, []byte, and
// float64 for every number and boolean (D1 binds JS numbers as REAL and
// booleans as 0 or 1). Implementations call it so both behave alike.
func Normalize(args []any) ([]any, error) {
	out := make([]any, len(args))
	for i, a := range args {
		v, err := normalize(a)
		if err != nil {
			return nil, fmt.Errorf("%w: argument %d: %v", ErrBind, i+1, err)
		}
		out[i] = v
	}
	return out, nil
}

func normalize(a any) (any, error) {
	switch x := a.(type) {
	case nil, string, []byte:
		return x, nil
	case bool:
		if x {
			return float64(1), nil
		}
		return float64(0), nil
	case float64:
		return x, nil
	case float32:
		return float64(x), nil
	case int:
		return safeInt(int64(x))
	case int32:
		return float64(x), nil
	case int64:
		return safeInt(x)
	case uint32:
		return float64(x), nil
	}
	return nil, fmt.Errorf("type %T", a)
}

func safeInt(n int64) (any, error) {
	if n > maxSafe || n < -maxSafe {
		return nil, fmt.Errorf("integer %d beyond 2^53", n)
	}
	return float64(n), nil
}

// Decode unmarshals a row into v (a pointer to a struct with json tags
// named after the columns).
func Decode(r Row, v any) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

// DecodeAll unmarshals every row into a T.
func DecodeAll[T any](rows []Row) ([]T, error) {
	out := make([]T, len(rows))
	for i, r := range rows {
		if err := Decode(r, &out[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Int reads an integer column; NULL and a missing column read as 0. A
// REAL with a fraction is an error: D1 has no other way to say "INTEGER".
func (r Row) Int(col string) (int64, error) {
	raw, ok := r[col]
	if !ok || string(raw) == "null" {
		return 0, nil
	}
	var f float64
	if err := json.Unmarshal(raw, &f); err != nil {
		return 0, fmt.Errorf("store: column %s: %w", col, err)
	}
	if f != math.Trunc(f) || math.Abs(f) > maxSafe {
		return 0, fmt.Errorf("store: column %s: %v is not an integer", col, f)
	}
	return int64(f), nil
}

// String reads a text column; NULL and a missing column read as "".
func (r Row) String(col string) (string, error) {
	raw, ok := r[col]
	if !ok || string(raw) == "null" {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", fmt.Errorf("store: column %s: %w", col, err)
	}
	return s, nil
}

// Strings reads one text column of every row, in row order.
func (r Result) Strings(col string) ([]string, error) {
	out := make([]string, 0, len(r.Rows))
	for _, row := range r.Rows {
		s, err := row.String(col)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

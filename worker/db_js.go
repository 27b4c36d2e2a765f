//go:build js && wasm

package main

import (
	"context"
	"errors"
	"strings"

	"github.com/emojisearch/emojisearch/service/store"
	"github.com/emojisearch/emojisearch/worker/internal/cf/d1"
	"github.com/emojisearch/emojisearch/worker/internal/jsutil"
)

// d1Store is store.DB over the D1 binding, so the service packages run on
// D1 in the Worker and on SQLite in their tests.
type d1Store struct{ db *d1.DB }

// openStore returns the D1 database bound as name as a store.DB.
func openStore(name string) (store.DB, error) {
	db, err := d1.Open(name)
	if err != nil {
		return nil, err
	}
	return d1Store{db: db}, nil
}

func (s d1Store) All(ctx context.Context, st store.Stmt) (store.Result, error) {
	ds, err := statement(st)
	if err != nil {
		return store.Result{}, err
	}
	r, err := s.db.All(ctx, ds)
	if err != nil {
		return store.Result{}, d1Error(err)
	}
	return result(r), nil
}

func (s d1Store) First(ctx context.Context, st store.Stmt) (store.Row, error) {
	ds, err := statement(st)
	if err != nil {
		return nil, err
	}
	row, err := s.db.First(ctx, ds)
	if err != nil {
		return nil, d1Error(err)
	}
	if row == nil {
		return nil, nil
	}
	return store.Row(row), nil
}

func (s d1Store) Run(ctx context.Context, st store.Stmt) (store.Meta, error) {
	ds, err := statement(st)
	if err != nil {
		return store.Meta{}, err
	}
	r, err := s.db.Run(ctx, ds)
	if err != nil {
		return store.Meta{}, d1Error(err)
	}
	return store.Meta{Changes: r.Meta.Changes, LastRowID: r.Meta.LastRowID}, nil
}

func (s d1Store) Batch(ctx context.Context, stmts []store.Stmt) ([]store.Result, error) {
	if len(stmts) == 0 {
		return nil, nil
	}
	list := make([]d1.Statement, len(stmts))
	for i, st := range stmts {
		ds, err := statement(st)
		if err != nil {
			return nil, err
		}
		list[i] = ds
	}
	rs, err := s.db.Batch(ctx, list)
	if err != nil {
		return nil, d1Error(err)
	}
	out := make([]store.Result, len(rs))
	for i := range rs {
		out[i] = result(&rs[i])
	}
	return out, nil
}

// statement binds what D1 binds: store.Normalize turns every number into
// float64, as JavaScript will anyway.
func statement(st store.Stmt) (d1.Statement, error) {
	args, err := store.Normalize(st.Args)
	if err != nil {
		return d1.Statement{}, err
	}
	return d1.Statement{SQL: st.SQL, Params: args}, nil
}

func result(r *d1.Result) store.Result {
	rows := make([]store.Row, len(r.Results))
	for i, row := range r.Results {
		rows[i] = store.Row(row)
	}
	return store.Result{Rows: rows, Meta: store.Meta{Changes: r.Meta.Changes, LastRowID: r.Meta.LastRowID}}
}

// d1Error maps a constraint failure to store.ConstraintError. Across the JS
// boundary D1 reports only a message ("D1_ERROR: UNIQUE constraint failed:
// t.c: SQLITE_CONSTRAINT ..."), so the message is all there is to read.
func d1Error(err error) error {
	var jsErr *jsutil.ErrJS
	if !errors.As(err, &jsErr) || !strings.Contains(jsErr.Message, "SQLITE_CONSTRAINT") {
		return err
	}
	unique := strings.Contains(jsErr.Message, "UNIQUE constraint failed") ||
		strings.Contains(jsErr.Message, "SQLITE_CONSTRAINT_PRIMARYKEY")
	return &store.ConstraintError{Unique: unique, Err: err}
}

package cf

import (
	"context"

	"github.com/emojisearch/emojisearch/hostsim/internal/d1"
	"github.com/emojisearch/emojisearch/hostsim/internal/jsrt"
)

// D1 returns a D1Database object over db: prepare (with bind, first, all,
// run, raw), batch and exec.
func (r Realm) D1(db *d1.DB) *jsrt.Object {
	obj := r.RT.NewHostObject(nil, "D1Database", db)
	r.RT.Method(obj, "prepare", func(_ jsrt.Value, args []jsrt.Value) (jsrt.Value, error) {
		sql, ok := jsrt.Arg(args, 0).(string)
		if !ok {
			return nil, r.RT.ThrowTypeError("D1_TYPE_ERROR: prepare() expects a SQL string")
		}
		return r.d1Statement(db, d1.Statement{SQL: sql}), nil
	})
	r.method(obj, "batch", func(args []jsrt.Value) (func(context.Context) (func() (jsrt.Value, error), error), error) {
		list, ok := jsrt.Arg(args, 0).(*jsrt.Object)
		if !ok || !list.IsArray() {
			return nil, r.RT.ThrowTypeError("D1_TYPE_ERROR: batch() expects an array of prepared statements")
		}
		stmts := make([]d1.Statement, 0, len(list.Elems()))
		for _, e := range list.Elems() {
			o, ok := e.(*jsrt.Object)
			st, isStmt := internalOf[d1.Statement](o, ok)
			if !isStmt {
				return nil, r.RT.ThrowTypeError("D1_TYPE_ERROR: batch() expects prepared statements")
			}
			stmts = append(stmts, st)
		}
		return func(ctx context.Context) (func() (jsrt.Value, error), error) {
			results, err := db.Batch(ctx, stmts)
			if err != nil {
				return nil, err
			}
			return func() (jsrt.Value, error) {
				out := make([]jsrt.Value, len(results))
				for i, res := range results {
					out[i] = r.d1Result(res)
				}
				return r.RT.NewArray(out...), nil
			}, nil
		}, nil
	})
	r.method(obj, "exec", func(args []jsrt.Value) (func(context.Context) (func() (jsrt.Value, error), error), error) {
		sql := jsrt.ToString(jsrt.Arg(args, 0))
		return func(ctx context.Context) (func() (jsrt.Value, error), error) {
			res, err := db.Exec(ctx, sql)
			if err != nil {
				return nil, err
			}
			return func() (jsrt.Value, error) {
				o := r.RT.NewObject()
				o.Define("count", float64(res.Count))
				o.Define("duration", res.Duration)
				return o, nil
			}, nil
		}, nil
	})
	return obj
}

// internalOf reads the Go state of a host object.
func internalOf[T any](o *jsrt.Object, ok bool) (T, bool) {
	var zero T
	if !ok || o == nil {
		return zero, false
	}
	v, isT := o.Internal.(T)
	return v, isT
}

// d1Statement is an immutable prepared statement: bind returns a new one.
func (r Realm) d1Statement(db *d1.DB, st d1.Statement) *jsrt.Object {
	obj := r.RT.NewHostObject(nil, "D1PreparedStatement", st)
	r.RT.Method(obj, "bind", func(_ jsrt.Value, args []jsrt.Value) (jsrt.Value, error) {
		params := make([]any, len(args))
		for i, a := range args {
			p, err := r.d1Param(a, i+1)
			if err != nil {
				return nil, err
			}
			params[i] = p
		}
		return r.d1Statement(db, d1.Statement{SQL: st.SQL, Params: params}), nil
	})
	query := func(name string, answer func(*d1.Result) jsrt.Value) {
		r.method(obj, name, func([]jsrt.Value) (func(context.Context) (func() (jsrt.Value, error), error), error) {
			return func(ctx context.Context) (func() (jsrt.Value, error), error) {
				res, err := db.All(ctx, st)
				if err != nil {
					return nil, err
				}
				return func() (jsrt.Value, error) { return answer(res), nil }, nil
			}, nil
		})
	}
	query("all", r.d1Result)
	query("run", r.d1Result)
	r.method(obj, "first", func(args []jsrt.Value) (func(context.Context) (func() (jsrt.Value, error), error), error) {
		column, byColumn := jsrt.Arg(args, 0).(string)
		return func(ctx context.Context) (func() (jsrt.Value, error), error) {
			row, err := db.FirstRow(ctx, st)
			if err != nil {
				return nil, err
			}
			return func() (jsrt.Value, error) {
				if row == nil {
					return jsrt.Null, nil
				}
				if !byColumn {
					return r.d1Row(*row), nil
				}
				v, ok := row.Get(column)
				if !ok {
					return nil, r.RT.ThrowError("D1_COLUMN_NOTFOUND: Column not found (%s)", column)
				}
				return r.d1Value(v), nil
			}, nil
		}, nil
	})
	r.method(obj, "raw", func(args []jsrt.Value) (func(context.Context) (func() (jsrt.Value, error), error), error) {
		withNames := jsrt.Truthy(option(jsrt.Arg(args, 0), "columnNames"))
		return func(ctx context.Context) (func() (jsrt.Value, error), error) {
			rows, _, err := db.Raw(ctx, st, withNames)
			if err != nil {
				return nil, err
			}
			return func() (jsrt.Value, error) {
				out := make([]jsrt.Value, 0, len(rows))
				for _, row := range rows {
					vals := make([]jsrt.Value, len(row))
					for i, v := range row {
						vals[i] = r.d1Value(v)
					}
					out = append(out, r.RT.NewArray(vals...))
				}
				return r.RT.NewArray(out...), nil
			}, nil
		}, nil
	})
	return obj
}

// d1Param converts a bound JS value as D1 does: numbers bind as REAL,
// booleans as 0/1, byte arrays as BLOB.
func (r Realm) d1Param(v jsrt.Value, pos int) (any, error) {
	switch x := v.(type) {
	case string:
		return x, nil
	case float64:
		return x, nil
	case bool:
		if x {
			return int64(1), nil
		}
		return int64(0), nil
	case *jsrt.Object:
		if b := x.Bytes(); b != nil {
			return append([]byte(nil), b...), nil
		}
	}
	if jsrt.IsNullish(v) {
		return nil, nil
	}
	return nil, r.RT.ThrowTypeError("D1_TYPE_ERROR: Type '%s' not supported for value '%s'", jsrt.TypeOf(v), jsrt.ToString(v))
}

func (r Realm) d1Value(v any) jsrt.Value {
	switch x := v.(type) {
	case int64:
		return float64(x)
	case []byte:
		nums := make([]jsrt.Value, len(x))
		for i, b := range x {
			nums[i] = float64(b)
		}
		return r.RT.NewArray(nums...)
	}
	return r.RT.FromGo(v)
}

func (r Realm) d1Row(row d1.Row) *jsrt.Object {
	o := r.RT.NewObject()
	for _, p := range row.Pairs() {
		o.Define(p.Key, r.d1Value(p.Value))
	}
	return o
}

func (r Realm) d1Result(res *d1.Result) jsrt.Value {
	rows := make([]jsrt.Value, len(res.Results))
	for i, row := range res.Results {
		rows[i] = r.d1Row(row)
	}
	m := res.Meta
	meta := r.RT.NewObject()
	meta.Define("served_by", m.ServedBy)
	meta.Define("served_by_primary", m.ServedByPrimary)
	timings := r.RT.NewObject()
	timings.Define("sql_duration_ms", m.SQLDuration)
	meta.Define("timings", timings)
	meta.Define("duration", m.Duration)
	meta.Define("changes", float64(m.Changes))
	meta.Define("last_row_id", float64(m.LastRowID))
	meta.Define("changed_db", m.ChangedDB)
	meta.Define("size_after", float64(m.SizeAfter))
	meta.Define("rows_read", float64(m.RowsRead))
	meta.Define("rows_written", float64(m.RowsWritten))
	meta.Define("total_attempts", float64(m.TotalAttempts))
	out := r.RT.NewObject()
	out.Define("success", res.Success)
	out.Define("meta", meta)
	out.Define("results", r.RT.NewArray(rows...))
	return out
}

package d1

import (
	sqlite3 "modernc.org/sqlite/lib"
)

// query runs one D1 query item inside the current transaction, as
// miniflare's D1DatabaseObject does for each item of a request, and measures
// its meta.
func (d *DB) query(c *conn, s Statement) (*Result, error) {
	start := d.opts.now()
	sizeBefore, err := d.size(c)
	if err != nil {
		return nil, err
	}
	changesBefore, rowidBefore := c.totalChanges(), c.lastInsertRowID()

	r := &Result{Success: true, Results: []Row{}}
	read, err := d.statements(c, s, r)
	if err != nil {
		return nil, err
	}

	sizeAfter, err := d.size(c)
	if err != nil {
		return nil, err
	}
	changes, rowid := c.totalChanges()-changesBefore, c.lastInsertRowID()
	duration := float64(d.opts.now().Sub(start)) / 1e6
	r.Meta = Meta{
		ServedBy:        d.opts.servedBy,
		ServedByPrimary: true,
		TotalAttempts:   1,
		SQLDuration:     duration,
		Duration:        duration,
		Changes:         changes,
		LastRowID:       rowid,
		ChangedDB:       changes != 0 || rowid != rowidBefore || sizeAfter != sizeBefore,
		SizeAfter:       sizeAfter,
		RowsRead:        read,
		RowsWritten:     changes,
	}
	return r, nil
}

// statements walks the SQL statement by statement the way workerd's
// prepareSql does in MULTI mode: every statement but the last runs at once
// (one step, rows discarded) and may not take parameters; the last one gets
// the parameters and its rows fill r. It returns the rows read.
func (d *DB) statements(c *conn, s Statement, r *Result) (int64, error) {
	var read int64
	rest := s.SQL
	for {
		st, tail, err := c.prepare(rest)
		if err != nil {
			return read, err
		}
		if st == 0 {
			return read, d1Error(msgNoStatement)
		}
		tail = trimLeadingSpace(tail)
		if tail != "" {
			if c.paramCount(st) != 0 {
				sqlite3.Xsqlite3_finalize(c.tls, st)
				return read, d1Error(msgMultiParams)
			}
			rc := sqlite3.Xsqlite3_step(c.tls, st)
			if rc != sqlite3.SQLITE_ROW && rc != sqlite3.SQLITE_DONE {
				err := c.lastError(rc)
				sqlite3.Xsqlite3_finalize(c.tls, st)
				return read, err
			}
			read += c.rowsRead(st, rowCount(rc))
			sqlite3.Xsqlite3_finalize(c.tls, st)
			rest = tail
			continue
		}
		n, err := d.last(c, st, s.Params, r)
		sqlite3.Xsqlite3_finalize(c.tls, st)
		return read + n, err
	}
}

func rowCount(rc int32) int64 {
	if rc == sqlite3.SQLITE_ROW {
		return 1
	}
	return 0
}

// last binds and runs the final statement, collecting its rows.
func (d *DB) last(c *conn, st uintptr, params []any, r *Result) (int64, error) {
	if c.paramCount(st) != len(params) {
		return 0, d1Error(msgWrongParamCount)
	}
	if err := c.bind(st, params); err != nil {
		return 0, err
	}
	r.Columns = c.columns(st)
	for {
		rc := sqlite3.Xsqlite3_step(c.tls, st)
		if rc == sqlite3.SQLITE_DONE {
			break
		}
		if rc != sqlite3.SQLITE_ROW {
			return 0, c.lastError(rc)
		}
		r.Results = append(r.Results, Row{Columns: r.Columns, Values: c.row(st, len(r.Columns))})
	}
	return c.rowsRead(st, int64(len(r.Results))), nil
}

// size is the database size in bytes, as the Durable Object reports it.
func (d *DB) size(c *conn) (int64, error) {
	pages, err := c.int("PRAGMA page_count")
	if err != nil {
		return 0, err
	}
	pageSize, err := c.int("PRAGMA page_size")
	if err != nil {
		return 0, err
	}
	return pages * pageSize, nil
}

// trimLeadingSpace skips what workerd skips between statements.
func trimLeadingSpace(s string) string {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r' || s[i] == '\v' || s[i] == '\f') {
		i++
	}
	return s[i:]
}

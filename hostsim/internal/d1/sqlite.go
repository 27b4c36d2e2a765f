package d1

import (
	"encoding/binary"
	"fmt"
	"sync"
	"unsafe"

	"modernc.org/libc"
	"modernc.org/libc/sys/types"
	sqlite3 "modernc.org/sqlite/lib"
)

// This file is a thin layer over SQLite's C API as modernc.org/sqlite/lib
// exposes it. database/sql would hide what D1 reports: the error offset and
// extended code in its messages, per-statement counters, and the
// statement-by-statement walk workerd does over a multi-statement string.
//
// A conn is used by one goroutine at a time (DB serializes requests); only
// interrupt may be called concurrently.

const ptrSize = unsafe.Sizeof(uintptr(0))

// sqliteError is a failed SQLite call, already formatted the way workerd
// words it: "<message>[ at offset N]: SQLITE_X[ (extended: SQLITE_X_Y)]".
type sqliteError struct {
	code int32 // extended result code
	msg  string
}

func (e *sqliteError) Error() string { return e.msg }

type conn struct {
	tls     *libc.TLS
	db      uintptr
	scratch uintptr // 2 pointers of C memory for out-parameters
	auth    *regulator

	imu sync.Mutex // guards db against interrupt racing close
}

func openConn(path string) (*conn, error) {
	c := &conn{tls: libc.NewTLS(), auth: &regulator{}}
	c.scratch = libc.Xmalloc(c.tls, types.Size_t(2*ptrSize))
	if c.scratch == 0 {
		c.tls.Close()
		return nil, fmt.Errorf("d1: out of memory")
	}
	cpath, err := libc.CString(path)
	if err != nil {
		c.release()
		return nil, err
	}
	defer libc.Xfree(c.tls, cpath)
	flags := int32(sqlite3.SQLITE_OPEN_READWRITE | sqlite3.SQLITE_OPEN_CREATE | sqlite3.SQLITE_OPEN_FULLMUTEX)
	rc := sqlite3.Xsqlite3_open_v2(c.tls, cpath, c.scratch, flags, 0)
	c.db = c.readPtr(c.scratch)
	if rc != sqlite3.SQLITE_OK {
		err := &sqliteError{code: rc, msg: "cannot open " + path + ": " + libc.GoString(sqlite3.Xsqlite3_errstr(c.tls, rc))}
		if c.db != 0 {
			err = c.lastError(rc)
			sqlite3.Xsqlite3_close_v2(c.tls, c.db)
			c.db = 0
		}
		c.release()
		return nil, err
	}
	sqlite3.Xsqlite3_extended_result_codes(c.tls, c.db, 1)
	return c, nil
}

func (c *conn) release() {
	if c.scratch != 0 {
		libc.Xfree(c.tls, c.scratch)
		c.scratch = 0
	}
	c.tls.Close()
}

func (c *conn) close() error {
	c.imu.Lock()
	db := c.db
	c.db = 0
	c.imu.Unlock()
	unregisterAuthorizer(db)
	var err error
	if rc := sqlite3.Xsqlite3_close_v2(c.tls, db); rc != sqlite3.SQLITE_OK {
		err = &sqliteError{code: rc, msg: libc.GoString(sqlite3.Xsqlite3_errstr(c.tls, rc))}
	}
	c.release()
	return err
}

// interrupt stops the statement running on the connection; safe to call
// from another goroutine and after close.
func (c *conn) interrupt() {
	c.imu.Lock()
	defer c.imu.Unlock()
	if c.db == 0 {
		return
	}
	tls := libc.NewTLS() // c.tls belongs to the goroutine running the query
	sqlite3.Xsqlite3_interrupt(tls, c.db)
	tls.Close()
}

// readPtr reads a pointer SQLite stored at p, without converting a uintptr
// back to a Go pointer.
func (c *conn) readPtr(p uintptr) uintptr {
	b := libc.GoBytes(p, int(ptrSize))
	if ptrSize == 8 {
		return uintptr(binary.NativeEndian.Uint64(b))
	}
	return uintptr(binary.NativeEndian.Uint32(b))
}

// lastError formats the connection's last error as workerd does.
func (c *conn) lastError(rc int32) *sqliteError {
	msg := libc.GoString(sqlite3.Xsqlite3_errmsg(c.tls, c.db))
	if off := sqlite3.Xsqlite3_error_offset(c.tls, c.db); off >= 0 {
		msg += fmt.Sprintf(" at offset %d", off)
	}
	return &sqliteError{code: rc, msg: msg + ": " + codeSuffix(rc)}
}

// exec runs trusted SQL of our own (pragmas, BEGIN/COMMIT) past the D1 rules.
func (c *conn) exec(sql string) error {
	c.auth.trusted = true
	defer func() { c.auth.trusted = false }()
	return c.script(sql)
}

// script runs every statement of sql in turn, stepping each to the end. None
// may take parameters; trailing comments are fine.
func (c *conn) script(sql string) error {
	rest := sql
	for {
		st, tail, err := c.prepare(rest)
		if err != nil || st == 0 {
			return err
		}
		if c.paramCount(st) != 0 {
			sqlite3.Xsqlite3_finalize(c.tls, st)
			return d1Error(msgWrongParamCount)
		}
		rc := sqlite3.Xsqlite3_step(c.tls, st)
		for rc == sqlite3.SQLITE_ROW {
			rc = sqlite3.Xsqlite3_step(c.tls, st)
		}
		if rc != sqlite3.SQLITE_DONE {
			err := c.lastError(rc)
			sqlite3.Xsqlite3_finalize(c.tls, st)
			return err
		}
		sqlite3.Xsqlite3_finalize(c.tls, st)
		rest = tail
	}
}

// int runs a trusted single-value query such as "PRAGMA page_count".
func (c *conn) int(sql string) (int64, error) {
	c.auth.trusted = true
	defer func() { c.auth.trusted = false }()
	st, _, err := c.prepare(sql)
	if err != nil {
		return 0, err
	}
	defer sqlite3.Xsqlite3_finalize(c.tls, st)
	if rc := sqlite3.Xsqlite3_step(c.tls, st); rc != sqlite3.SQLITE_ROW {
		return 0, c.lastError(rc)
	}
	return sqlite3.Xsqlite3_column_int64(c.tls, st, 0), nil
}

// quickCheck runs PRAGMA quick_check and returns its findings; none when
// the database is sound.
func (c *conn) quickCheck() ([]string, error) {
	c.auth.trusted = true
	defer func() { c.auth.trusted = false }()
	st, _, err := c.prepare("PRAGMA quick_check(10)")
	if err != nil {
		return nil, err
	}
	defer sqlite3.Xsqlite3_finalize(c.tls, st)
	var found []string
	for {
		rc := sqlite3.Xsqlite3_step(c.tls, st)
		if rc == sqlite3.SQLITE_DONE {
			return found, nil
		}
		if rc != sqlite3.SQLITE_ROW {
			return nil, c.lastError(rc)
		}
		if msg, _ := c.row(st, 1)[0].(string); msg != "ok" {
			found = append(found, msg)
		}
	}
}

// prepare compiles the first statement of sql and returns the text after
// it. The statement is 0 when sql holds only white space and comments.
func (c *conn) prepare(sql string) (uintptr, string, error) {
	c.auth.denied, c.auth.readTable, c.auth.modifies = "", false, false
	csql, err := libc.CString(sql)
	if err != nil {
		return 0, "", err
	}
	defer libc.Xfree(c.tls, csql)
	rc := sqlite3.Xsqlite3_prepare_v3(c.tls, c.db, csql, int32(len(sql)+1), 0, c.scratch, c.scratch+ptrSize)
	if rc != sqlite3.SQLITE_OK {
		if rc&0xff == sqlite3.SQLITE_AUTH && c.auth.denied != "" {
			return 0, "", &sqliteError{code: rc, msg: c.auth.denied}
		}
		return 0, "", c.lastError(rc)
	}
	st := c.readPtr(c.scratch)
	tail := c.readPtr(c.scratch + ptrSize)
	rest := ""
	if off := int(tail - csql); tail != 0 && off >= 0 && off < len(sql) {
		rest = sql[off:]
	}
	return st, rest, nil
}

func (c *conn) paramCount(st uintptr) int {
	return int(sqlite3.Xsqlite3_bind_parameter_count(c.tls, st))
}

// bind sets the statement's parameters from D1 values.
func (c *conn) bind(st uintptr, params []any) error {
	for i, p := range params {
		n := int32(i + 1)
		var rc int32
		switch v := p.(type) {
		case nil:
			rc = sqlite3.Xsqlite3_bind_null(c.tls, st, n)
		case int64:
			rc = sqlite3.Xsqlite3_bind_int64(c.tls, st, n, v)
		case float64:
			rc = sqlite3.Xsqlite3_bind_double(c.tls, st, n, v)
		case string:
			rc = c.bindBytes(st, n, v, false)
		case []byte:
			if len(v) == 0 {
				rc = sqlite3.Xsqlite3_bind_zeroblob(c.tls, st, n, 0)
			} else {
				rc = c.bindBytes(st, n, string(v), true)
			}
		default:
			return fmt.Errorf("d1: parameter %d: unsupported type %T", i+1, p)
		}
		if rc != sqlite3.SQLITE_OK {
			return c.lastError(rc)
		}
	}
	return nil
}

func (c *conn) bindBytes(st uintptr, n int32, s string, blob bool) int32 {
	p, err := libc.CString(s)
	if err != nil {
		return sqlite3.SQLITE_NOMEM
	}
	defer libc.Xfree(c.tls, p)
	if blob {
		return sqlite3.Xsqlite3_bind_blob(c.tls, st, n, p, int32(len(s)), sqlite3.SQLITE_TRANSIENT)
	}
	return sqlite3.Xsqlite3_bind_text(c.tls, st, n, p, int32(len(s)), sqlite3.SQLITE_TRANSIENT)
}

func (c *conn) columns(st uintptr) []string {
	n := int(sqlite3.Xsqlite3_column_count(c.tls, st))
	cols := make([]string, n)
	for i := range cols {
		cols[i] = libc.GoString(sqlite3.Xsqlite3_column_name(c.tls, st, int32(i)))
	}
	return cols
}

// row reads the current row: int64, float64, string, []byte or nil.
func (c *conn) row(st uintptr, n int) []any {
	vals := make([]any, n)
	for i := range vals {
		col := int32(i)
		switch sqlite3.Xsqlite3_column_type(c.tls, st, col) {
		case sqlite3.SQLITE_INTEGER:
			vals[i] = sqlite3.Xsqlite3_column_int64(c.tls, st, col)
		case sqlite3.SQLITE_FLOAT:
			vals[i] = sqlite3.Xsqlite3_column_double(c.tls, st, col)
		case sqlite3.SQLITE_TEXT:
			p := sqlite3.Xsqlite3_column_text(c.tls, st, col)
			vals[i] = string(libc.GoBytes(p, int(sqlite3.Xsqlite3_column_bytes(c.tls, st, col))))
		case sqlite3.SQLITE_BLOB:
			p := sqlite3.Xsqlite3_column_blob(c.tls, st, col)
			b := make([]byte, sqlite3.Xsqlite3_column_bytes(c.tls, st, col))
			if len(b) > 0 {
				copy(b, libc.GoBytes(p, len(b)))
			}
			vals[i] = b
		default:
			vals[i] = nil
		}
	}
	return vals
}

// rowsRead estimates meta.rows_read for a finished statement that returned
// the given number of rows (see the package comment).
func (c *conn) rowsRead(st uintptr, returned int64) int64 {
	var n int64
	if c.auth.readTable {
		n = max(returned, c.scanned(st))
	}
	if c.auth.modifies { // UPDATE and DELETE read the rows they change
		n = max(n, sqlite3.Xsqlite3_changes64(c.tls, c.db))
	}
	return n
}

// scanned estimates the rows a full table scan visited: SQLite counts the
// steps forward, which miss the first row.
func (c *conn) scanned(st uintptr) int64 {
	steps := int64(sqlite3.Xsqlite3_stmt_status(c.tls, st, sqlite3.SQLITE_STMTSTATUS_FULLSCAN_STEP, 0))
	if steps > 0 {
		steps++
	}
	return steps
}

func (c *conn) totalChanges() int64 { return sqlite3.Xsqlite3_total_changes64(c.tls, c.db) }
func (c *conn) lastInsertRowID() int64 {
	return sqlite3.Xsqlite3_last_insert_rowid(c.tls, c.db)
}

func (c *conn) setLimit(id, v int32) { sqlite3.Xsqlite3_limit(c.tls, c.db, id, v) }

func (c *conn) setBusyTimeout(ms int32) { sqlite3.Xsqlite3_busy_timeout(c.tls, c.db, ms) }

// setDefensive turns on SQLITE_DBCONFIG_DEFENSIVE, as workerd does.
func (c *conn) setDefensive() {
	va := libc.Xmalloc(c.tls, types.Size_t(16))
	if va == 0 {
		return
	}
	defer libc.Xfree(c.tls, va)
	sqlite3.Xsqlite3_db_config(c.tls, c.db, sqlite3.SQLITE_DBCONFIG_DEFENSIVE, libc.VaList(va, int32(1), uintptr(0)))
}

// codeSuffix names a result code as workerd does, adding the extended code
// when it says more than the primary one.
func codeSuffix(rc int32) string {
	primary := rc & 0xff
	name, ok := primaryCodes[primary]
	if !ok {
		name = fmt.Sprintf("SQLITE_UNKNOWN_ERROR_CODE(%d)", primary)
	}
	if rc != primary {
		if ext, ok := extendedCodes[rc]; ok {
			return name + " (extended: " + ext + ")"
		}
	}
	return name
}

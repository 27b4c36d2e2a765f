package d1

import (
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"modernc.org/libc"
	sqlite3 "modernc.org/sqlite/lib"
)

// regulator decides, statement by statement while SQLite compiles it, what
// user SQL may do: workerd's SqliteDatabase::isAuthorized with the Durable
// Object regulator that local D1 runs under.
type regulator struct {
	trusted bool   // our own SQL (BEGIN/COMMIT, pragmas) runs unchecked
	denied  string // D1's own message for the last refusal, "" to use SQLite's

	// What the statement being prepared touches, for meta.rows_read.
	readTable bool // reads a user table
	modifies  bool // updates or deletes rows of a user table
}

func (r *regulator) allowedName(name string) bool { return !strings.HasPrefix(name, reservedPrefix) }

func (r *regulator) authorize(action int32, arg1, arg2, dbName string) bool {
	if action == sqlite3.SQLITE_ALTER_TABLE || action == sqlite3.SQLITE_DETACH {
		// SQLite passes the database name first for these two.
		arg1, arg2, dbName = arg2, "", arg1
	}
	switch dbName {
	case "", "main":
	case "temp":
		return (action == sqlite3.SQLITE_READ || action == sqlite3.SQLITE_UPDATE) && r.allowedName(arg1)
	default:
		return false
	}
	if r.trusted {
		return true
	}
	if !strings.HasPrefix(arg1, "sqlite_") {
		switch action {
		case sqlite3.SQLITE_READ:
			r.readTable = true
		case sqlite3.SQLITE_UPDATE, sqlite3.SQLITE_DELETE:
			r.modifies = true
		}
	}
	switch action {
	case sqlite3.SQLITE_SELECT, sqlite3.SQLITE_ANALYZE, sqlite3.SQLITE_RECURSIVE:
		return true
	case sqlite3.SQLITE_CREATE_TABLE, sqlite3.SQLITE_DELETE, sqlite3.SQLITE_DROP_TABLE,
		sqlite3.SQLITE_INSERT, sqlite3.SQLITE_CREATE_VIEW, sqlite3.SQLITE_DROP_VIEW,
		sqlite3.SQLITE_REINDEX, sqlite3.SQLITE_ALTER_TABLE, sqlite3.SQLITE_READ, sqlite3.SQLITE_UPDATE:
		return r.allowedName(arg1)
	case sqlite3.SQLITE_CREATE_INDEX, sqlite3.SQLITE_DROP_INDEX,
		sqlite3.SQLITE_CREATE_TRIGGER, sqlite3.SQLITE_DROP_TRIGGER:
		return r.allowedName(arg1) && r.allowedName(arg2)
	case sqlite3.SQLITE_TRANSACTION, sqlite3.SQLITE_SAVEPOINT:
		r.denied = msgTransaction
		return false
	case sqlite3.SQLITE_PRAGMA:
		return r.pragma(arg1, arg2)
	case sqlite3.SQLITE_FUNCTION:
		return allowedFunctions[strings.ToLower(arg2)]
	case sqlite3.SQLITE_CREATE_VTABLE, sqlite3.SQLITE_DROP_VTABLE:
		return virtualTableModules[strings.ToLower(arg2)]
	}
	// ATTACH, DETACH, temporary objects and anything unknown.
	return false
}

func (r *regulator) pragma(name, arg string) bool {
	kind, ok := allowedPragmas[strings.ToLower(name)]
	if !ok {
		return false
	}
	switch kind {
	case pragmaAny:
		return true
	case pragmaNoArg:
		return arg == ""
	case pragmaTableInfo, pragmaObject:
		return arg != "" && r.allowedName(arg)
	case pragmaOptionalObject:
		return arg == "" || r.allowedName(arg)
	case pragmaNullOrNumber:
		_, err := strconv.ParseInt(arg, 10, 32)
		return arg == "" || err == nil
	case pragmaNumberOrObject:
		_, err := strconv.ParseUint(arg, 10, 32)
		return arg == "" || err == nil || r.allowedName(arg)
	case pragmaBoolean:
		if arg == "" {
			return true
		}
		if len(arg) >= 2 && (arg[0] == '\'' || arg[0] == '"') && arg[len(arg)-1] == arg[0] {
			arg = arg[1 : len(arg)-1]
		}
		v := strings.ToLower(arg)
		for _, word := range []string{"true", "false", "yes", "no", "on", "off", "1", "0"} {
			if strings.HasPrefix(v, word) { // workerd compares with strncasecmp
				return true
			}
		}
	}
	return false
}

// SQLite calls one C function for every connection; the connection's
// handle, passed as the callback argument, finds its regulator.
var regulators sync.Map // uintptr (sqlite3*) -> *regulator

func registerAuthorizer(c *conn) {
	regulators.Store(c.db, c.auth)
	fn := authorizerCallback
	sqlite3.Xsqlite3_set_authorizer(c.tls, c.db, *(*uintptr)(unsafe.Pointer(&fn)), c.db)
}

func unregisterAuthorizer(db uintptr) { regulators.Delete(db) }

func authorizerCallback(_ *libc.TLS, arg uintptr, action int32, z1, z2, zDB, _ uintptr) int32 {
	v, ok := regulators.Load(arg)
	if !ok {
		return sqlite3.SQLITE_DENY
	}
	if v.(*regulator).authorize(action, libc.GoString(z1), libc.GoString(z2), libc.GoString(zDB)) {
		return sqlite3.SQLITE_OK
	}
	return sqlite3.SQLITE_DENY
}

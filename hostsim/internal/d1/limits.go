package d1

import sqlite3 "modernc.org/sqlite/lib"

// What local D1 (workerd's SQLite, src/workerd/util/sqlite.c++, as miniflare
// runs it) allows and reports. Reviewed in one place on purpose.

// ServedBy is meta.served_by as miniflare reports it.
const ServedBy = "miniflare.db"

// Messages D1 gives in its own words (no SQLite code appended).
const (
	msgTransaction = "To execute a transaction, please use the state.storage.transaction() or " +
		"state.storage.transactionSync() APIs instead of the SQL BEGIN TRANSACTION or SAVEPOINT " +
		"statements. The JavaScript API is safer because it will automatically roll back on " +
		"exceptions, and because it interacts correctly with Durable Objects' automatic atomic " +
		"write coalescing."
	msgNoStatement     = "SQL code did not contain a statement."
	msgNoStatements    = "No SQL statements detected."
	msgWrongParamCount = "Wrong number of parameter bindings for SQL query."
	msgMultiParams     = "When executing multiple SQL statements in a single call, only the last " +
		"statement can have parameters."
)

// limits are the sqlite3_limit values workerd sets (setupSecurity).
var limits = []struct{ id, value int32 }{
	{sqlite3.SQLITE_LIMIT_LENGTH, 2200000},
	{sqlite3.SQLITE_LIMIT_SQL_LENGTH, 100000},
	{sqlite3.SQLITE_LIMIT_COLUMN, 100},
	{sqlite3.SQLITE_LIMIT_EXPR_DEPTH, 100},
	{sqlite3.SQLITE_LIMIT_COMPOUND_SELECT, 5},
	{sqlite3.SQLITE_LIMIT_VDBE_OP, 25000},
	{sqlite3.SQLITE_LIMIT_FUNCTION_ARG, 127},
	{sqlite3.SQLITE_LIMIT_ATTACHED, 0},
	{sqlite3.SQLITE_LIMIT_LIKE_PATTERN_LENGTH, 50},
	{sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER, 100},
	{sqlite3.SQLITE_LIMIT_TRIGGER_DEPTH, 10},
	{sqlite3.SQLITE_LIMIT_WORKER_THREADS, 0},
}

// allowedFunctions is workerd's ALLOWED_SQLITE_FUNCTIONS (as of late 2026,
// with the JSONB functions); anything else is refused with "not authorized to
// use function: <name>". SQLite reports a name as written, so it is compared
// in lower case, as workerd does.
var allowedFunctions = setOf(
	// core
	"abs", "changes", "char", "coalesce", "concat", "concat_ws", "format", "glob", "hex", "ifnull",
	"iif", "instr", "last_insert_rowid", "length", "like", "likelihood", "likely", "load_extension",
	"lower", "ltrim", "max_scalar", "min_scalar", "nullif", "octet_length", "printf", "quote",
	"random", "randomblob", "replace", "round", "rtrim", "sign", "soundex", "substr", "substring",
	"total_changes", "trim", "typeof", "unhex", "unicode", "unlikely", "upper", "zeroblob",
	// date and time
	"date", "time", "datetime", "julianday", "unixepoch", "strftime", "timediff",
	"current_date", "current_time", "current_timestamp",
	// aggregates
	"avg", "count", "group_concat", "max", "min", "string_agg", "sum", "total",
	// window functions
	"row_number", "rank", "dense_rank", "percent_rank", "cume_dist", "ntile", "lag", "lead",
	"first_value", "last_value", "nth_value",
	// math
	"acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "ceil", "cos", "cosh", "degrees",
	"exp", "floor", "ln", "log", "log2", "mod", "pi", "pow", "radians", "sin", "sinh", "sqrt",
	"tan", "tanh", "trunc",
	// JSON and JSONB
	"json", "jsonb", "json_array", "jsonb_array", "json_array_length", "json_extract",
	"jsonb_extract", "->", "->>", "json_insert", "jsonb_insert", "json_object", "jsonb_object",
	"json_patch", "jsonb_patch", "json_remove", "jsonb_remove", "json_replace", "jsonb_replace",
	"json_set", "jsonb_set", "json_type", "json_valid", "json_quote", "json_group_array",
	"jsonb_group_array", "json_group_object", "jsonb_group_object", "json_each", "json_tree",
	// FTS5, R*Tree
	"match", "highlight", "bm25", "snippet", "rtreecheck",
	// used by ALTER TABLE
	"sqlite_rename_column", "sqlite_rename_table", "sqlite_rename_test", "sqlite_drop_column",
	"sqlite_rename_quotefix",
)

// pragmaArg says what argument an allowed pragma takes.
type pragmaArg int

const (
	pragmaNoArg          pragmaArg = iota
	pragmaBoolean                  // optional on/off in any of SQLite's spellings
	pragmaObject                   // a table or index name, required
	pragmaOptionalObject           // a table or index name, optional
	pragmaNullOrNumber             // optional integer
	pragmaNumberOrObject           // optional integer or object name
	pragmaAny                      // table_list
	pragmaTableInfo                // table_info, table_xinfo: an allowed table
)

// allowedPragmas is workerd's ALLOWED_PRAGMAS plus the ones it special-cases.
// Names are compared in lower case, like function names (SQLite itself
// ignores the case of pragma names).
var allowedPragmas = map[string]pragmaArg{
	"data_version":              pragmaNoArg,
	"page_size":                 pragmaNoArg, // read only; R*Tree reads it (checked against workerd)
	"case_sensitive_like":       pragmaBoolean,
	"foreign_keys":              pragmaBoolean,
	"defer_foreign_keys":        pragmaBoolean,
	"ignore_check_constraints":  pragmaBoolean,
	"legacy_alter_table":        pragmaBoolean,
	"recursive_triggers":        pragmaBoolean,
	"reverse_unordered_selects": pragmaBoolean,
	"foreign_key_check":         pragmaOptionalObject,
	"foreign_key_list":          pragmaObject,
	"index_info":                pragmaObject,
	"index_list":                pragmaObject,
	"index_xinfo":               pragmaObject,
	"quick_check":               pragmaNumberOrObject,
	"optimize":                  pragmaNullOrNumber,
	"table_list":                pragmaAny,
	"table_info":                pragmaTableInfo,
	"table_xinfo":               pragmaTableInfo,
}

// virtualTableModules may back a CREATE VIRTUAL TABLE (the R*Tree ones
// checked against wrangler 4.164's workerd; geopoly is refused there).
var virtualTableModules = setOf("fts5", "fts5vocab", "rtree", "rtree_i32")

// reservedPrefix marks names user SQL may not touch (workerd's isAllowedName).
const reservedPrefix = "_cf_"

var primaryCodes = map[int32]string{
	0: "SQLITE_OK", 1: "SQLITE_ERROR", 2: "SQLITE_INTERNAL", 3: "SQLITE_PERM", 4: "SQLITE_ABORT",
	5: "SQLITE_BUSY", 6: "SQLITE_LOCKED", 7: "SQLITE_NOMEM", 8: "SQLITE_READONLY",
	9: "SQLITE_INTERRUPT", 10: "SQLITE_IOERR", 11: "SQLITE_CORRUPT", 12: "SQLITE_NOTFOUND",
	13: "SQLITE_FULL", 14: "SQLITE_CANTOPEN", 15: "SQLITE_PROTOCOL", 16: "SQLITE_EMPTY",
	17: "SQLITE_SCHEMA", 18: "SQLITE_TOOBIG", 19: "SQLITE_CONSTRAINT", 20: "SQLITE_MISMATCH",
	21: "SQLITE_MISUSE", 22: "SQLITE_NOLFS", 23: "SQLITE_AUTH", 24: "SQLITE_FORMAT",
	25: "SQLITE_RANGE", 26: "SQLITE_NOTADB", 27: "SQLITE_NOTICE", 28: "SQLITE_WARNING",
	100: "SQLITE_ROW", 101: "SQLITE_DONE",
}

var extendedCodes = map[int32]string{
	sqlite3.SQLITE_CONSTRAINT_CHECK:        "SQLITE_CONSTRAINT_CHECK",
	sqlite3.SQLITE_CONSTRAINT_COMMITHOOK:   "SQLITE_CONSTRAINT_COMMITHOOK",
	sqlite3.SQLITE_CONSTRAINT_DATATYPE:     "SQLITE_CONSTRAINT_DATATYPE",
	sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY:   "SQLITE_CONSTRAINT_FOREIGNKEY",
	sqlite3.SQLITE_CONSTRAINT_FUNCTION:     "SQLITE_CONSTRAINT_FUNCTION",
	sqlite3.SQLITE_CONSTRAINT_NOTNULL:      "SQLITE_CONSTRAINT_NOTNULL",
	sqlite3.SQLITE_CONSTRAINT_PINNED:       "SQLITE_CONSTRAINT_PINNED",
	sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:   "SQLITE_CONSTRAINT_PRIMARYKEY",
	sqlite3.SQLITE_CONSTRAINT_ROWID:        "SQLITE_CONSTRAINT_ROWID",
	sqlite3.SQLITE_CONSTRAINT_TRIGGER:      "SQLITE_CONSTRAINT_TRIGGER",
	sqlite3.SQLITE_CONSTRAINT_UNIQUE:       "SQLITE_CONSTRAINT_UNIQUE",
	sqlite3.SQLITE_CONSTRAINT_VTAB:         "SQLITE_CONSTRAINT_VTAB",
	sqlite3.SQLITE_BUSY_RECOVERY:           "SQLITE_BUSY_RECOVERY",
	sqlite3.SQLITE_BUSY_SNAPSHOT:           "SQLITE_BUSY_SNAPSHOT",
	sqlite3.SQLITE_BUSY_TIMEOUT:            "SQLITE_BUSY_TIMEOUT",
	sqlite3.SQLITE_LOCKED_SHAREDCACHE:      "SQLITE_LOCKED_SHAREDCACHE",
	sqlite3.SQLITE_READONLY_RECOVERY:       "SQLITE_READONLY_RECOVERY",
	sqlite3.SQLITE_READONLY_CANTLOCK:       "SQLITE_READONLY_CANTLOCK",
	sqlite3.SQLITE_READONLY_ROLLBACK:       "SQLITE_READONLY_ROLLBACK",
	sqlite3.SQLITE_READONLY_DBMOVED:        "SQLITE_READONLY_DBMOVED",
	sqlite3.SQLITE_ABORT_ROLLBACK:          "SQLITE_ABORT_ROLLBACK",
	sqlite3.SQLITE_CORRUPT_VTAB:            "SQLITE_CORRUPT_VTAB",
	sqlite3.SQLITE_CANTOPEN_NOTEMPDIR:      "SQLITE_CANTOPEN_NOTEMPDIR",
	sqlite3.SQLITE_CANTOPEN_ISDIR:          "SQLITE_CANTOPEN_ISDIR",
	sqlite3.SQLITE_CANTOPEN_FULLPATH:       "SQLITE_CANTOPEN_FULLPATH",
	sqlite3.SQLITE_IOERR_READ:              "SQLITE_IOERR_READ",
	sqlite3.SQLITE_IOERR_SHORT_READ:        "SQLITE_IOERR_SHORT_READ",
	sqlite3.SQLITE_IOERR_WRITE:             "SQLITE_IOERR_WRITE",
	sqlite3.SQLITE_IOERR_FSYNC:             "SQLITE_IOERR_FSYNC",
	sqlite3.SQLITE_IOERR_TRUNCATE:          "SQLITE_IOERR_TRUNCATE",
	sqlite3.SQLITE_IOERR_LOCK:              "SQLITE_IOERR_LOCK",
	sqlite3.SQLITE_IOERR_NOMEM:             "SQLITE_IOERR_NOMEM",
	sqlite3.SQLITE_AUTH_USER:               "SQLITE_AUTH_USER",
	sqlite3.SQLITE_NOTICE_RECOVER_WAL:      "SQLITE_NOTICE_RECOVER_WAL",
	sqlite3.SQLITE_NOTICE_RECOVER_ROLLBACK: "SQLITE_NOTICE_RECOVER_ROLLBACK",
	sqlite3.SQLITE_WARNING_AUTOINDEX:       "SQLITE_WARNING_AUTOINDEX",
}

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

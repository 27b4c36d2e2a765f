// Package d1migrate is wrangler's D1 migration rules, written once for the
// two databases that apply the repository's migrations/ folder: hostsim's D1
// emulator (hostsim/internal/d1, under D1's SQL rules) and the native SQLite
// store of the service's tests (service/store/sqlitedb). Both must agree
// with `wrangler d1 migrations apply` and with each other, or a schema that
// passes the unit tests could fail on hostsim or in production.
//
// The rules, as wrangler applies them:
//
//   - the migrations table (default d1_migrations, wrangler.toml's
//     migrations_table) is created if needed: id INTEGER PRIMARY KEY
//     AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP DEFAULT
//     CURRENT_TIMESTAMP NOT NULL;
//   - every *.sql file of the folder whose name is not in the table is
//     applied, in the order of the number before the first "_" (as
//     JavaScript's parseInt reads it; files without one last, ties by name);
//   - each file runs followed by "INSERT INTO <table> (name) values
//     ('<file>')" as one atomic unit, so a file is applied and recorded
//     once, or neither;
//   - the first failure stops the run with an *Error; that file is rolled
//     back and not recorded, the ones before it stay applied.
//
// How a script runs atomically is the database's business (DB.Script):
// hostsim runs it under D1's authorizer, sqlitedb in one transaction. It
// lives under the module's internal/ so that neither hostsim nor the
// service depends on the other's internals; it knows no route and no table
// of ours.
package d1migrate

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// DefaultTable is wrangler's migrations_table default.
const DefaultTable = "d1_migrations"

// DB is what applying migrations needs of a database.
type DB interface {
	// Exec runs one statement that returns no rows.
	Exec(ctx context.Context, sql string) error
	// Strings runs a query and returns its first column, row by row.
	Strings(ctx context.Context, query string) ([]string, error)
	// Script runs a script of several statements as one atomic unit: all
	// of it takes effect, or none of it.
	Script(ctx context.Context, script string) error
}

// Error says which migration failed; it was rolled back and not recorded,
// and the ones before it stay applied.
type Error struct {
	Name string // file name, e.g. "0002_add_tags.sql"
	Err  error  // the database's error
}

func (e *Error) Error() string {
	return fmt.Sprintf("d1migrate: migration %s failed: %v", e.Name, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// Apply applies the migrations of dir that table does not record, by the
// rules of the package doc, and returns the names it applied, in order.
// An empty table means DefaultTable. Running it again applies nothing new.
func Apply(ctx context.Context, db DB, dir, table string) ([]string, error) {
	if table == "" {
		table = DefaultTable
	}
	if !isIdentifier(table) {
		return nil, fmt.Errorf("d1migrate: migrations table %q: want a plain SQL identifier", table)
	}
	files, err := Files(dir)
	if err != nil {
		return nil, err
	}
	if err := db.Exec(ctx, CreateTable(table)); err != nil {
		return nil, fmt.Errorf("d1migrate: creating %s: %w", table, err)
	}
	names, err := db.Strings(ctx, "SELECT name FROM "+table+" ORDER BY id")
	if err != nil {
		return nil, fmt.Errorf("d1migrate: reading %s: %w", table, err)
	}
	done := make(map[string]bool, len(names))
	for _, n := range names {
		done[n] = true
	}
	var applied []string
	for _, name := range files {
		if done[name] {
			continue
		}
		body, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return applied, &Error{Name: name, Err: err}
		}
		if err := db.Script(ctx, string(body)+"\n"+Record(table, name)+"\n"); err != nil {
			return applied, &Error{Name: name, Err: err}
		}
		applied = append(applied, name)
	}
	return applied, nil
}

// CreateTable is the statement that creates the migrations table, as
// wrangler writes it.
func CreateTable(table string) string {
	return "CREATE TABLE IF NOT EXISTS " + table + " (\n" +
		"\tid         INTEGER PRIMARY KEY AUTOINCREMENT,\n" +
		"\tname       TEXT UNIQUE,\n" +
		"\tapplied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL\n)"
}

// Record is the statement that records name as applied, run in the same
// atomic unit as the file. The name is a literal (not a parameter) because
// the unit is a script, which takes no parameters.
func Record(table, name string) string {
	return "INSERT INTO " + table + " (name) values ('" + strings.ReplaceAll(name, "'", "''") + "');"
}

// Files lists dir's *.sql files in wrangler's order.
func Files(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("d1migrate: no migrations present at %s: %w", dir, err)
		}
		return nil, fmt.Errorf("d1migrate: %w", err)
	}
	var names []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".sql") && !e.IsDir() {
			names = append(names, e.Name())
		}
	}
	Sort(names)
	return names, nil
}

// Sort orders migration file names as wrangler does: by Number, files
// without a number last, ties by name.
func Sort(names []string) {
	sort.Strings(names)
	sort.SliceStable(names, func(i, j int) bool {
		a, aok := Number(names[i])
		b, bok := Number(names[j])
		if aok && bok {
			return a < b
		}
		return aok && !bok
	})
}

// Number is parseInt(name.split("_")[0]) as wrangler computes it: leading
// white space skipped, an optional sign, then the digits up to the first
// other character. ok is false where parseInt gives NaN.
func Number(name string) (n int64, ok bool) {
	prefix, _, _ := strings.Cut(name, "_")
	prefix = strings.TrimLeft(prefix, " \t\n\r")
	end := 0
	for end < len(prefix) && (prefix[end] >= '0' && prefix[end] <= '9' || end == 0 && (prefix[0] == '-' || prefix[0] == '+')) {
		end++
	}
	n, err := strconv.ParseInt(prefix[:end], 10, 64)
	return n, err == nil
}

// isIdentifier reports whether s is a plain SQL identifier, safe to write
// into a statement unquoted.
func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if !(c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

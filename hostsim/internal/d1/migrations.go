package d1

import (
	"context"
	"errors"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// DefaultMigrationsTable is wrangler's migrations_table default.
const DefaultMigrationsTable = "d1_migrations"

// MigrationError says which migration failed; it was rolled back and not
// recorded, and the ones before it stay applied.
type MigrationError struct {
	Name string // file name, e.g. "0002_add_tags.sql"
	Err  error  // usually a *Error
}

func (e *MigrationError) Error() string {
	return fmt.Sprintf("d1: migration %s failed: %v", e.Name, e.Err)
}

func (e *MigrationError) Unwrap() error { return e.Err }

// MigrationOption configures ApplyMigrations.
type MigrationOption func(*migrationOptions)

type migrationOptions struct{ table string }

// WithMigrationsTable names the table applied migrations are recorded in
// (wrangler.toml's migrations_table).
func WithMigrationsTable(name string) MigrationOption {
	return func(o *migrationOptions) { o.table = name }
}

var identifier = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// ApplyMigrations does what `wrangler d1 migrations apply --local` does and
// returns the names it applied, in order:
//
//   - it creates the migrations table if needed: id INTEGER PRIMARY KEY
//     AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP DEFAULT
//     CURRENT_TIMESTAMP NOT NULL;
//   - it takes every *.sql file in dir whose name is not in the table, in the
//     order of the number before the first "_" (files without one last,
//     ties by name);
//   - it runs each file followed by "INSERT INTO <table> (name) values
//     ('<file>')" as one atomic batch, under the same D1 rules as the Worker
//     (no BEGIN/COMMIT, allowed functions and pragmas only);
//   - it stops at the first failure, returning a *MigrationError; that file
//     is rolled back and not recorded.
//
// Running it again applies nothing new. wrangler cuts a file into statements
// with its own splitter; here SQLite's parser does it, which also accepts a
// trigger body written with a lower-case "begin" that wrangler's splitter
// would cut apart.
func ApplyMigrations(ctx context.Context, db *DB, dir string, opts ...MigrationOption) ([]string, error) {
	o := migrationOptions{table: DefaultMigrationsTable}
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	if !identifier.MatchString(o.table) {
		return nil, fmt.Errorf("d1: migrations table %q: want a plain SQL identifier", o.table)
	}
	files, err := migrationFiles(dir)
	if err != nil {
		return nil, err
	}
	create := "CREATE TABLE IF NOT EXISTS " + o.table + " (\n" +
		"\tid         INTEGER PRIMARY KEY AUTOINCREMENT,\n" +
		"\tname       TEXT UNIQUE,\n" +
		"\tapplied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL\n)"
	if _, err := db.Run(ctx, Statement{SQL: create}); err != nil {
		return nil, fmt.Errorf("d1: creating %s: %w", o.table, err)
	}
	r, err := db.All(ctx, Statement{SQL: "SELECT name FROM " + o.table + " ORDER BY id"})
	if err != nil {
		return nil, fmt.Errorf("d1: reading %s: %w", o.table, err)
	}
	done := map[string]bool{}
	for _, row := range r.Results {
		if name, ok := row.Values[0].(string); ok {
			done[name] = true
		}
	}
	var applied []string
	for _, name := range files {
		if done[name] {
			continue
		}
		body, err := os.ReadFile(dir + string(os.PathSeparator) + name)
		if err != nil {
			return applied, &MigrationError{Name: name, Err: err}
		}
		script := string(body) + "\nINSERT INTO " + o.table + " (name) values ('" + strings.ReplaceAll(name, "'", "''") + "');\n"
		err = db.request(ctx, func(c *conn) error {
			if err := c.script(script); err != nil {
				return queryError(err)
			}
			return nil
		})
		if err != nil {
			return applied, &MigrationError{Name: name, Err: err}
		}
		applied = append(applied, name)
	}
	return applied, nil
}

// migrationFiles lists dir's *.sql files in wrangler's order.
func migrationFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("d1: no migrations present at %s: %w", dir, err)
		}
		return nil, fmt.Errorf("d1: %w", err)
	}
	var names []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".sql") && !e.IsDir() {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	sort.SliceStable(names, func(i, j int) bool {
		a, aok := migrationNumber(names[i])
		b, bok := migrationNumber(names[j])
		switch {
		case aok && bok:
			return a < b
		default:
			return aok && !bok
		}
	})
	return names, nil
}

// migrationNumber is parseInt(name.split("_")[0]) as wrangler computes it.
func migrationNumber(name string) (int64, bool) {
	prefix, _, _ := strings.Cut(name, "_")
	prefix = strings.TrimLeft(prefix, " \t\n\r")
	end := 0
	for end < len(prefix) && (prefix[end] >= '0' && prefix[end] <= '9' || end == 0 && (prefix[0] == '-' || prefix[0] == '+')) {
		end++
	}
	n, err := strconv.ParseInt(prefix[:end], 10, 64)
	return n, err == nil
}

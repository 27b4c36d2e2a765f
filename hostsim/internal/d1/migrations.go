package d1

import (
	"context"

	"github.com/emojisearch/emojisearch/internal/d1migrate"
)

// DefaultMigrationsTable is wrangler's migrations_table default.
const DefaultMigrationsTable = d1migrate.DefaultTable

// ApplyMigrations does what `wrangler d1 migrations apply --local` does and
// returns the names it applied, in order. The rules (which files, in which
// order, the migrations table, applied once, a failed file rolled back and
// reported as a *d1migrate.Error) are internal/d1migrate's, shared with the
// native SQLite store; what this adds is D1's own SQL rules: each file and
// its record run as one atomic batch under the same authorizer as the
// Worker's queries (no BEGIN/COMMIT, allowed functions and pragmas only),
// failing with the *Error the Worker would see. An empty table means
// DefaultMigrationsTable.
//
// wrangler cuts a file into statements with its own splitter; here SQLite's
// parser does it, which also accepts a trigger body written with a
// lower-case "begin" that wrangler's splitter would cut apart.
func ApplyMigrations(ctx context.Context, db *DB, dir, table string) ([]string, error) {
	return d1migrate.Apply(ctx, migrationDB{db}, dir, table)
}

// migrationDB is a DB as d1migrate needs it.
type migrationDB struct{ db *DB }

func (m migrationDB) Exec(ctx context.Context, sql string) error {
	_, err := m.db.Run(ctx, Statement{SQL: sql})
	return err
}

func (m migrationDB) Strings(ctx context.Context, query string) ([]string, error) {
	r, err := m.db.All(ctx, Statement{SQL: query})
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(r.Results))
	for _, row := range r.Results {
		if s, ok := row.Values[0].(string); ok {
			out = append(out, s)
		}
	}
	return out, nil
}

func (m migrationDB) Script(ctx context.Context, script string) error {
	return m.db.request(ctx, func(c *conn) error {
		if err := c.script(script); err != nil {
			return queryError(err)
		}
		return nil
	})
}

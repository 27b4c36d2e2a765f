package d1migrate

import (
	"context"
	"database/sql"
)

// SQL is a database/sql database as Apply needs it, each script in one
// transaction: what service/store/sqlitedb applies migrations with. It
// takes one connection at a time, as D1 does (set MaxOpenConns to 1 for an
// in-memory database, which lives only as long as its connection).
func SQL(db *sql.DB) DB { return sqlDB{db} }

type sqlDB struct{ db *sql.DB }

func (s sqlDB) Exec(ctx context.Context, query string) error {
	_, err := s.db.ExecContext(ctx, query)
	return err
}

func (s sqlDB) Strings(ctx context.Context, query string) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, query)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

func (s sqlDB) Script(ctx context.Context, script string) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, script); err != nil {
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}

package d1_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/emojisearch/emojisearch/hostsim/internal/d1"
)

func Example() {
	dir, _ := os.MkdirTemp("", "d1")
	defer os.RemoveAll(dir)
	ctx := context.Background()

	db, err := d1.Open(filepath.Join(dir, "emoji.sqlite"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer db.Close()

	migrations := filepath.Join(dir, "migrations")
	_ = os.Mkdir(migrations, 0o755)
	_ = os.WriteFile(filepath.Join(migrations, "0001_init.sql"),
		[]byte("CREATE TABLE emoji (id INTEGER PRIMARY KEY, name TEXT NOT NULL);"), 0o644)
	applied, _ := d1.ApplyMigrations(ctx, db, migrations, "")
	fmt.Println("applied:", applied)

	r, _ := db.Run(ctx, d1.Statement{SQL: "INSERT INTO emoji (name) VALUES (?)", Params: []any{"cat"}})
	fmt.Println("changes:", r.Meta.Changes, "last_row_id:", r.Meta.LastRowID)

	name, _ := db.First(ctx, d1.Statement{SQL: "SELECT name FROM emoji WHERE id = ?", Params: []any{1.0}}, "name")
	fmt.Println("name:", name)

	_, err = db.Run(ctx, d1.Statement{SQL: "BEGIN TRANSACTION"})
	fmt.Println(err.Error()[:60])
	// Output:
	// applied: [0001_init.sql]
	// changes: 1 last_row_id: 1
	// name: cat
	// D1_ERROR: To execute a transaction, please use the state.sto
}

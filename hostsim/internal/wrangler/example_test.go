package wrangler_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/emojisearch/emojisearch/hostsim/internal/wrangler"
)

func ExampleLoad() {
	dir, _ := os.MkdirTemp("", "project")
	defer os.RemoveAll(dir)
	_ = os.WriteFile(filepath.Join(dir, "wrangler.toml"), []byte(`
name = "emojisearch"
main = "./build/worker.mjs"
compatibility_date = "2026-09-01"

[[d1_databases]]
binding = "DB"
database_name = "emoji"
database_id = "0000"

[[ratelimits]]
name = "LIMITER"
namespace_id = "1001"
simple = { limit = 100, period = 30 }
`), 0o644)

	cfg, err := wrangler.Load(filepath.Join(dir, "wrangler.toml"))
	if err != nil {
		fmt.Println(err)
		return
	}
	db := cfg.D1Databases[0]
	fmt.Println(db.Binding, filepath.Base(db.MigrationsDir), db.MigrationsTable)
	fmt.Println(cfg.Validate() != nil)
	// Output:
	// DB migrations d1_migrations
	// true
}

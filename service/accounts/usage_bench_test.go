//go:build !js

package accounts

import (
	"path/filepath"
	"testing"

	"github.com/emojisearch/emojisearch/service/auth"
	"github.com/emojisearch/emojisearch/service/plans"
	"github.com/emojisearch/emojisearch/service/store/sqlitedb"
)

// BenchmarkAddUsage is one metering write of the write-behind (issue 31
// made it every second instead of every 10 s): three apps' counts in one
// batch, on a SQLite file as hostsim's D1 keeps one.
func BenchmarkAddUsage(b *testing.B) {
	db, err := sqlitedb.Open(bg, filepath.Join(b.TempDir(), "d1.sqlite"), sqlitedb.RepoMigrations())
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	r := New(NewConfig(db))
	a, err := r.CreateAccount(bg, auth.Identity{Subject: "u", Email: "u@x.io", EmailVerified: true, Name: "N"})
	if err != nil {
		b.Fatal(err)
	}
	var deltas []Delta
	for range 3 {
		ap, err := r.CreateApp(bg, a.ID, "app", EnvProduction, 100)
		if err != nil {
			b.Fatal(err)
		}
		deltas = append(deltas, Delta{ap.ID, "2026-11", plans.SemanticCalls, 40})
	}
	for b.Loop() {
		if err := r.AddUsage(bg, deltas); err != nil {
			b.Fatal(err)
		}
	}
}

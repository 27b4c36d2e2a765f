//go:build linux

package bench

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"sort"
	"syscall"
	"testing"
	"time"

	"github.com/emojisearch/emojisearch/packs/dist"
	"github.com/emojisearch/emojisearch/service/shards"
)

// BenchmarkShardBuild times the nightly shard build in hostsim over logs
// of 25,000, 50,000 and 100,000 searches (Zipf over 3,000 distinct queries,
// 20 accounts, the 6 days of the window), and checks that the published
// queries are exactly the qualifying ones. No embedding backend is bound:
// answers are the alias tier (the model call adds one subrequest per
// published query in production). Run once:
//
//	go test ./bench/ -run '^$' -bench ShardBuild -benchtime 1x   # after ./build.sh
func BenchmarkShardBuild(b *testing.B) {
	sim := newSimOf(b, "worker-diag")
	const accounts = 20
	for i := range accounts {
		d1(b, sim, "INSERT INTO accounts (id, idp_user_id, created_at) VALUES (?, ?, 0)", fmt.Sprint("acct_b", i), fmt.Sprint("sub_b", i))
		d1(b, sim, "INSERT INTO apps (id, account_id, name, environment, created_at) VALUES (?, ?, 'b', 'production', 0)", fmt.Sprint("app_b", i), fmt.Sprint("acct_b", i))
	}
	queries := benchQueries(b, 3000)
	zipf := rand.NewZipf(rand.New(rand.NewPCG(1, 2)), 1.1, 1, uint64(len(queries)-1))
	now := time.Now().UTC()
	for _, n := range []int{25_000, 50_000, 100_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			d1(b, sim, "DELETE FROM query_daily")
			type key struct {
				app, day int
				q        string
			}
			counts := map[key]int{}
			for range n {
				counts[key{rand.IntN(accounts), 1 + rand.IntN(6), queries[zipf.Uint64()]}]++
			}
			// What qualifies, computed here independently of the service.
			perQuery := map[string]struct {
				n    int
				apps map[int]bool
			}{}
			var stmts []map[string]any
			flush := func() {
				if rec := serve(b, sim, "POST", "/__diag/d1/batch", stmts); rec.Code != 200 {
					b.Fatalf("batch: %d %s", rec.Code, rec.Body)
				}
				stmts = stmts[:0]
			}
			i := 0
			for k, c := range counts {
				i++
				p := perQuery[k.q]
				if p.apps == nil {
					p.apps = map[int]bool{}
				}
				p.n += c
				p.apps[k.app] = true
				perQuery[k.q] = p
				stmts = append(stmts, map[string]any{"sql": `INSERT INTO query_daily (app_id, day, qkey, locale, query, searches) VALUES (?, ?, ?, 'en', ?, ?)`,
					"params": []any{fmt.Sprint("app_b", k.app), now.AddDate(0, 0, -k.day).Format(time.DateOnly), fmt.Sprintf("%016x", i), k.q, c}})
				if len(stmts) == 500 {
					flush()
				}
			}
			if len(stmts) > 0 {
				flush()
			}
			var want []string
			for q, p := range perQuery {
				if p.n >= shards.MinSearches && len(p.apps) >= shards.MinAccounts {
					want = append(want, q)
				}
			}
			sort.Strings(want)

			var before, after syscall.Rusage
			_ = syscall.Getrusage(syscall.RUSAGE_SELF, &before)
			start := time.Now()
			if rec := serve(b, sim, "GET", "/__scheduled?cron=17+3+*+*+*", nil); rec.Code != 200 {
				b.Fatalf("nightly: %d %s", rec.Code, rec.Body)
			}
			wall := time.Since(start)
			_ = syscall.Getrusage(syscall.RUSAGE_SELF, &after)
			cpu := time.Duration(after.Utime.Nano()+after.Stime.Nano()-before.Utime.Nano()-before.Stime.Nano()) * time.Nanosecond
			run := d1(b, sim, "SELECT ok, detail FROM cron_runs ORDER BY rowid DESC LIMIT 1")
			if run[0]["ok"].(float64) != 1 {
				b.Fatalf("nightly failed: %v", run[0]["detail"])
			}

			var idx shards.Index
			base := "/p/" + dist.Version + "/"
			if err := json.Unmarshal(serve(b, sim, "GET", base+"index.json", nil).Body.Bytes(), &idx); err != nil {
				b.Fatal(err)
			}
			var got []string
			for _, k := range idx.Keys {
				var sh shards.Shard
				if err := json.Unmarshal(serve(b, sim, "GET", base+k+".json", nil).Body.Bytes(), &sh); err != nil {
					b.Fatal(err)
				}
				for q := range sh.Results {
					got = append(got, q)
				}
			}
			sort.Strings(got)
			b.Logf("%d searches, %d rows: %d published in %d shards; build %v wall, %v process CPU (%.2f ms CPU per published query)",
				n, len(counts), len(got), len(idx.Keys), wall.Round(time.Millisecond), cpu.Round(time.Millisecond), float64(cpu.Microseconds())/1000/float64(max(1, len(got))))
			b.ReportMetric(float64(cpu.Milliseconds()), "cpu-ms")
			b.ReportMetric(float64(len(got)), "published")
			if fmt.Sprint(got) != fmt.Sprint(want) {
				b.Fatalf("published %d queries, %d qualify", len(got), len(want))
			}
		})
	}
}

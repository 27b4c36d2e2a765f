//go:build linux

package bench

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emojisearch/emojisearch/hostsim"
	"github.com/emojisearch/emojisearch/packs/dist"
	"github.com/emojisearch/emojisearch/service/auth/authtest"
)

// d1 runs one statement through the diag build's D1 route.
func d1(b *testing.B, sim *hostsim.Simulator, sql string, params ...any) []map[string]any {
	if params == nil {
		params = []any{}
	}
	rec := serve(b, sim, "POST", "/__diag/d1/all", map[string]any{"sql": sql, "params": params})
	var out struct {
		Result struct {
			Results []map[string]any `json:"results"`
		} `json:"result"`
	}
	if rec.Code != 200 || json.Unmarshal(rec.Body.Bytes(), &out) != nil {
		b.Fatalf("d1 %q: %d %s", sql, rec.Code, rec.Body)
	}
	return out.Result.Results
}

// benchQueries are distinct search texts: the English pack's emoji names.
func benchQueries(b *testing.B, n int) []string {
	raw, err := os.ReadFile("../packs/dist/" + dist.Version + "/pack.en.json")
	if err != nil {
		b.Fatal(err)
	}
	var p struct {
		Rows [][]any `json:"rows"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		b.Fatal(err)
	}
	seen := map[string]bool{}
	var out []string
	for _, r := range p.Rows {
		name, _ := r[9].(string)
		if name != "" && !seen[name] && !strings.ContainsAny(name, "0123456789:") {
			seen[name] = true
			out = append(out, name)
		}
		if len(out) == n {
			break
		}
	}
	return out
}

// BenchmarkAnalyticsLoad is issue 12's bar: 20,000 keyed searches over 3
// apps of 2 accounts from 50 clients; after the write-behind's flush (within
// about 10 s of quiet, no further request) the day totals equal the
// searches made, and the nightly flush adds nothing. Run once:
//
//	go test ./bench/ -run '^$' -bench AnalyticsLoad -benchtime 1x   # after ./build.sh
//
// ANALYTICS_QUERIES sets the number of distinct queries (default 300;
// 3000 exercises the 1,000-queries-per-day cap and the overflow row).
func BenchmarkAnalyticsLoad(b *testing.B) {
	issuer, err := authtest.StartIssuer()
	if err != nil {
		b.Fatal(err)
	}
	sim := newSimOf(b, "worker-diag",
		"CLERK_JWT_KEY", issuer.PublicKeyPEM,
		"CLERK_ISSUER", issuer.Issuer,
		"CLERK_AUTHORIZED_PARTIES", issuer.AuthorizedParty)
	const origin = "https://app.bench.test"
	// Two accounts: the first owns two apps.
	first := issuer.Token(b, authtest.Claims{"sub": "bench_first"})
	second := issuer.Token(b, authtest.Claims{"sub": "bench_second"})
	keys := []string{keyForToken(b, sim, first, origin), keyForToken(b, sim, first, origin), keyForToken(b, sim, second, origin)}
	d1(b, sim, "UPDATE accounts SET plan = 'scale'") // no over-limit answers: every call has a model-free path anyway
	distinct := 300
	if v := os.Getenv("ANALYTICS_QUERIES"); v != "" {
		fmt.Sscan(v, &distinct)
	}
	queries := benchQueries(b, distinct)
	const total, clients = 20_000, 50
	var next atomic.Int64
	var failed atomic.Int64
	made := make([]atomic.Int64, len(keys))
	start := time.Now()
	var wg sync.WaitGroup
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1) - 1
				if i >= total {
					return
				}
				k := int(i) % len(keys)
				q := queries[int(i*7919)%len(queries)]
				rec := serve(b, sim, "GET", "/v1/search?limit=5&q="+url.QueryEscape(q)+"&key="+url.QueryEscape(keys[k]), nil, "Origin", origin)
				if rec.Code != http.StatusOK {
					failed.Add(1)
					continue
				}
				made[k].Add(1)
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	var madeAll int64
	for i := range made {
		madeAll += made[i].Load()
	}
	// The write-behind armed by the last searches writes within about 10 s
	// of quiet, with no further request; the nightly flush is not needed.
	var quiet time.Duration
	for {
		got := int64(d1(b, sim, "SELECT coalesce(sum(searches), 0) AS n FROM query_daily")[0]["n"].(float64))
		if got == madeAll || quiet > 30*time.Second {
			break
		}
		time.Sleep(500 * time.Millisecond)
		quiet += 500 * time.Millisecond
	}
	b.Logf("written by the write-behind %v after the last search", quiet)
	if rec := serve(b, sim, "GET", "/__scheduled?cron=17+3+*+*+*", nil); rec.Code != 200 {
		b.Fatalf("nightly: %d %s", rec.Code, rec.Body)
	}
	stored := d1(b, sim, `SELECT q.app_id AS app, sum(q.searches) AS searches, count(*) AS rows,
		sum(q.qkey = 'overflow') AS overflow FROM query_daily q GROUP BY q.app_id ORDER BY q.app_id`)
	var sum int64
	var per []string
	for _, r := range stored {
		n := int64(r["searches"].(float64))
		sum += n
		per = append(per, fmt.Sprintf("%d (%v rows, overflow %v)", n, r["rows"], r["overflow"]))
	}
	sort.Strings(per)
	b.Logf("%d searches (%d failed) in %v from %d clients, %d distinct queries; stored %d: %s",
		madeAll, failed.Load(), elapsed.Round(time.Millisecond), clients, len(queries), sum, strings.Join(per, ", "))
	b.ReportMetric(float64(madeAll-sum), "lost")
	b.ReportMetric(float64(madeAll)/elapsed.Seconds(), "searches/s")
	if sum != madeAll || failed.Load() != 0 {
		b.Fatalf("stored %d of %d searches", sum, madeAll)
	}
}

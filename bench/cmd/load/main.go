//go:build linux

// Command load sends concurrent GET /v1/health to hostsim and reports
// errors, throughput and latency:
//
//  1. burst: -c clients, each on its own connection, fire one request at the
//     same instant (all -c requests in flight together);
//  2. sustained: -c clients send -n requests in all (at most -duration),
//     run -rounds times, with hostsim's resident memory after each round so a
//     leak shows as steady growth.
//
// By default it starts `build/bin/hostsim serve` itself (fresh state);
// -url points it at a hostsim already running on 127.0.0.1 instead.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/emojisearch/emojisearch/bench/internal/benchkit"
)

func main() {
	base := flag.String("url", "", "hostsim to load (http://127.0.0.1:PORT); empty: start build/bin/hostsim")
	c := flag.Int("c", 500, "concurrent clients")
	n := flag.Int("n", 20000, "requests per sustained round")
	rounds := flag.Int("rounds", 3, "sustained rounds")
	limit := flag.Duration("duration", 60*time.Second, "upper bound of one sustained round")
	flag.Parse()
	if err := run(*base, *c, *n, *rounds, *limit); err != nil {
		fmt.Fprintln(os.Stderr, "load:", err)
		os.Exit(1)
	}
}

func run(base string, c, n, rounds int, limit time.Duration) error {
	pid := 0
	if base == "" {
		root, err := benchkit.Root()
		if err != nil {
			return err
		}
		state, err := os.MkdirTemp("", "bench-load")
		if err != nil {
			return err
		}
		defer os.RemoveAll(state)
		srv, err := benchkit.StartHostsim(root, filepath.Join(state, "hostsim"), "--rate-limit-scale", "1000")
		if err != nil {
			return err
		}
		defer srv.Stop()
		base, pid = srv.Base, srv.Pid
	}
	if err := benchkit.CheckLoopback(base); err != nil {
		return err
	}
	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{
		MaxIdleConns: c, MaxIdleConnsPerHost: c, IdleConnTimeout: time.Minute,
	}}
	defer client.CloseIdleConnections()
	url := base + "/v1/health"
	memory := func() string {
		if pid == 0 {
			return ""
		}
		rss, err := benchkit.RSS(pid)
		if err != nil {
			return ""
		}
		return fmt.Sprintf(", hostsim RSS %d MiB", rss>>20)
	}
	fmt.Printf("GET %s from %d concurrent clients%s\n", "/v1/health", c, memory())

	// Burst: every client holds its request at a barrier, then all go.
	res := newResults()
	var ready, wg sync.WaitGroup
	gate := make(chan struct{})
	ready.Add(c)
	wg.Add(c)
	for range c {
		go func() {
			defer wg.Done()
			ready.Done()
			<-gate
			res.do(context.Background(), client, url)
		}()
	}
	ready.Wait()
	start := time.Now()
	close(gate)
	wg.Wait()
	fmt.Printf("burst: %s%s\n", res.summary(time.Since(start)), memory())
	failed := res.failed()

	for r := 1; r <= rounds; r++ {
		res := newResults()
		ctx, cancel := context.WithTimeout(context.Background(), limit)
		var next atomic.Int64
		start := time.Now()
		var wg sync.WaitGroup
		for range c {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for next.Add(1) <= int64(n) && ctx.Err() == nil {
					res.do(ctx, client, url)
				}
			}()
		}
		wg.Wait()
		cancel()
		fmt.Printf("sustained %d: %s%s\n", r, res.summary(time.Since(start)), memory())
		failed = failed || res.failed()
	}
	if failed {
		return errors.New("some requests failed")
	}
	return nil
}

// results collects outcomes from many goroutines.
type results struct {
	mu     sync.Mutex
	lat    []time.Duration
	errs   map[string]int // error text or "status N" -> count
	passed int
}

func newResults() *results { return &results{errs: map[string]int{}} }

func (r *results) do(ctx context.Context, c *http.Client, url string) {
	start := time.Now()
	status, body, err := benchkit.Get(ctx, c, url)
	d := time.Since(start)
	r.mu.Lock()
	defer r.mu.Unlock()
	switch {
	case err != nil && ctx.Err() != nil:
		return // the round's time ran out: not the server's failure
	case err != nil:
		r.errs[err.Error()]++
	case status != http.StatusOK || !strings.Contains(string(body), `"ok":true`):
		r.errs[fmt.Sprintf("status %d: %.80s", status, body)]++
	default:
		r.passed++
		r.lat = append(r.lat, d)
	}
}

func (r *results) failed() bool { return len(r.errs) > 0 }

func (r *results) summary(wall time.Duration) string {
	failures := 0
	var kinds []string
	for k, v := range r.errs {
		failures += v
		kinds = append(kinds, fmt.Sprintf("%dx %s", v, k))
	}
	sort.Strings(kinds)
	s := fmt.Sprintf("%d ok, %d failed in %s (%.0f req/s), latency p50 %s p99 %s max %s ms",
		r.passed, failures, wall.Round(time.Millisecond), float64(r.passed)/wall.Seconds(),
		benchkit.Ms(benchkit.Quantile(r.lat, 0.5)), benchkit.Ms(benchkit.Quantile(r.lat, 0.99)),
		benchkit.Ms(benchkit.Quantile(r.lat, 1)))
	if len(kinds) > 0 {
		s += "\n  failures: " + strings.Join(kinds, "\n  failures: ")
	}
	return s
}

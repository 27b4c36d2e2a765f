//go:build linux

// Command search measures GET /v1/search (anonymous, mode=hybrid) on hostsim
// with the meaning tier bound to the local model (--ai-model) and the shared
// edge cache (Cache API):
//
//  1. miss: one client on one keep-alive connection sends -n requests per
//     locale in sequence (the locales taking turns), each a query of the dev
//     sets used once (so each is a cache miss; "cached":false is checked). Client latency, the
//     Server-Timing total and embed, and total minus embed (the figure the
//     latency bar holds: everything but the meaning tier's call) are reported.
//  2. hit: -hits requests per locale over -hot queries of step 1, after
//     each answered "cached":true once (the background put has finished).
//  3. load: -c clients for -duration, each request a hit (share -hit-share)
//     or a miss (a dev-set query at a limit step 1 never used, so its cache
//     key is new); every non-200 answer or transport error counts as an
//     error, and hostsim's RSS is read before and after.
//
// Queries come from the dev sets (-sets, *.jsonl, field "q"; the locale is
// the file name's first part), used here only to generate load. A locale
// with no dev set gets the English queries. Every locale is warmed up first
// (-warmup requests each, the first one reported apart: it loads the packs
// and vector files).
//
// By default it starts `build/bin/hostsim serve` itself (fresh state,
// --rate-limit-scale 1000 so the anonymous 30/min limit does not
// interfere); -url points it at a hostsim already running on 127.0.0.1.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"text/tabwriter"
	"time"

	"github.com/emojisearch/emojisearch/bench/internal/benchkit"
	"github.com/emojisearch/emojisearch/engine"
	"github.com/emojisearch/emojisearch/service/search"
)

type options struct {
	base, model, sets string
	locales           []string
	n, hot, hits      int
	warmup, limit     int
	c                 int
	duration          time.Duration
	hitShare          float64
	scale             int
	seed              uint64
}

func main() {
	var o options
	flag.StringVar(&o.base, "url", "", "hostsim to measure (http://127.0.0.1:PORT); empty: start build/bin/hostsim")
	flag.StringVar(&o.model, "ai-model", "packs/models/glove-cldr.100.embm", "local embedding model hostsim binds to [ai] (relative to the repository root)")
	flag.StringVar(&o.sets, "sets", "../shared/eval/search", "folder of the dev sets (*.jsonl; relative to the repository root)")
	locales := flag.String("locales", "en,zh,es", "locales to measure, comma-separated (one without a dev set gets the English queries)")
	flag.IntVar(&o.n, "n", 2000, "cache-miss requests per locale (step 1)")
	flag.IntVar(&o.hot, "hot", 500, "queries of step 1 repeated as cache hits, per locale")
	flag.IntVar(&o.hits, "hits", 1000, "cache-hit requests per locale (step 2)")
	flag.IntVar(&o.warmup, "warmup", 20, "unmeasured requests per locale first (distinct queries)")
	flag.IntVar(&o.limit, "limit", search.DefaultLimit, "limit of steps 1 and 2")
	flag.IntVar(&o.c, "c", 200, "concurrent clients of the load step (0 skips it)")
	flag.DurationVar(&o.duration, "duration", 30*time.Second, "length of the load step")
	flag.Float64Var(&o.hitShare, "hit-share", 0.5, "share of cache hits in the load step")
	flag.IntVar(&o.scale, "rate-limit-scale", 1000, "hostsim --rate-limit-scale (when it starts hostsim)")
	flag.Uint64Var(&o.seed, "seed", 1, "seed of the query order")
	flag.Parse()
	o.locales = strings.Split(*locales, ",")
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "search:", err)
		os.Exit(1)
	}
}

// query is one search request.
type query struct {
	locale, q string
	limit     int
}

// sample is one answered request.
type sample struct {
	client, total, embed time.Duration
	embedded             bool // Server-Timing carried embed (the meaning tier was called)
	cached, degraded     bool
}

// rest is the time outside the meaning tier's call: total minus embed.
func (s sample) rest() time.Duration { return s.total - s.embed }

// localeRun holds what steps 1 and 2 measured for one locale.
type localeRun struct {
	locale, source string
	pool           []string // distinct queries, shuffled
	first          sample   // the first request of the warm-up
	miss, hit      []sample
	hot            []query
	// Requests of step 1 that were not plain misses, and of step 2 that were
	// not hits; excluded from the figures.
	missCached, missNoEmbed, degraded, hitMissed int
}

func run(o options) error {
	root, err := benchkit.Root()
	if err != nil {
		return err
	}
	if !filepath.IsAbs(o.sets) {
		o.sets = filepath.Join(root, o.sets)
	}
	sets, err := loadSets(o.sets)
	if err != nil {
		return err
	}
	pid := 0
	if o.base == "" {
		state, err := os.MkdirTemp("", "bench-search")
		if err != nil {
			return err
		}
		defer os.RemoveAll(state)
		model := o.model
		if !filepath.IsAbs(model) {
			model = filepath.Join(root, model)
		}
		srv, err := benchkit.StartHostsim(root, filepath.Join(state, "hostsim"),
			"--rate-limit-scale", strconv.Itoa(o.scale), "--ai-model", model)
		if err != nil {
			return err
		}
		defer srv.Stop()
		o.base, pid = srv.Base, srv.Pid
	}
	if err := benchkit.CheckLoopback(o.base); err != nil {
		return err
	}
	rss := func() string {
		if pid == 0 {
			return "n/a"
		}
		b, err := benchkit.RSS(pid)
		if err != nil {
			return "n/a"
		}
		return fmt.Sprintf("%d MiB", b>>20)
	}
	fmt.Printf("GET /v1/search on %s (hybrid, anonymous, limit %d), hostsim RSS %s after start, load average %s\n",
		o.base, o.limit, rss(), loadAvg())
	defer func() { fmt.Printf("load average at the end: %s\n", loadAvg()) }()

	// One client, one keep-alive connection, for steps 1 and 2.
	seq := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 1}}
	defer seq.CloseIdleConnections()
	b := &bench{base: o.base}
	ctx := context.Background()

	var runs []*localeRun
	for i, loc := range o.locales {
		lr := &localeRun{locale: loc, source: loc}
		qs, ok := sets[loc]
		if !ok {
			qs, lr.source = sets["en"], "en (no "+loc+" dev set)"
		}
		lr.pool = distinct(qs)
		rand.New(rand.NewPCG(o.seed, uint64(i))).Shuffle(len(lr.pool), func(a, b int) {
			lr.pool[a], lr.pool[b] = lr.pool[b], lr.pool[a]
		})
		if len(lr.pool) < o.warmup+o.n {
			return fmt.Errorf("locale %s: %d distinct queries, -warmup %d + -n %d needs more", loc, len(lr.pool), o.warmup, o.n)
		}
		runs = append(runs, lr)
	}

	// Warm-up: every locale before any measurement (packs, vector files).
	for _, lr := range runs {
		for i, q := range lr.pool[:o.warmup] {
			s, err := b.get(ctx, seq, query{lr.locale, q, o.limit})
			if err != nil {
				return fmt.Errorf("warm-up %s %q: %w", lr.locale, q, err)
			}
			if i == 0 {
				lr.first = s
			}
		}
		fmt.Printf("warm-up %s: %d requests; the first (loads the pack and vector files) client %s ms, embed %s ms, total %s ms\n",
			lr.locale, o.warmup, benchkit.Ms(lr.first.client), benchkit.Ms(lr.first.embed), benchkit.Ms(lr.first.total))
	}

	// Step 1: misses, each query once; the locales take turns request by
	// request, so machine noise hits them alike.
	for i := range o.n {
		for _, lr := range runs {
			qr := query{lr.locale, lr.pool[o.warmup+i], o.limit}
			s, err := b.get(ctx, seq, qr)
			switch {
			case err != nil:
				return fmt.Errorf("miss %s %q: %w", lr.locale, qr.q, err)
			case s.cached:
				lr.missCached++
			case s.degraded:
				lr.degraded++
			case !s.embedded:
				lr.missNoEmbed++
			default:
				lr.miss = append(lr.miss, s)
				if len(lr.hot) < o.hot {
					lr.hot = append(lr.hot, qr)
				}
			}
		}
	}
	for _, lr := range runs {
		fmt.Printf("miss %s: %d measured (%d answered cached, %d without embed, %d degraded: excluded)\n",
			lr.locale, len(lr.miss), lr.missCached, lr.missNoEmbed, lr.degraded)
	}

	// Step 2: hits. Each hot query answers cached once first; then the
	// locales take turns again.
	var hot []query
	for _, lr := range runs {
		primed := lr.hot[:0]
		for _, qr := range lr.hot {
			ok, err := b.waitCached(ctx, seq, qr, 5*time.Second)
			if err != nil {
				return fmt.Errorf("hit %s %q: %w", lr.locale, qr.q, err)
			}
			if !ok && len(primed) == 0 {
				return fmt.Errorf("locale %s: %q never answered cached:true (is the answer cacheable?)", lr.locale, qr.q)
			}
			if ok {
				primed = append(primed, qr)
			}
		}
		lr.hot = primed
		hot = append(hot, primed...)
	}
	for i := range o.hits {
		for _, lr := range runs {
			qr := lr.hot[i%len(lr.hot)]
			s, err := b.get(ctx, seq, qr)
			switch {
			case err != nil:
				return fmt.Errorf("hit %s %q: %w", lr.locale, qr.q, err)
			case !s.cached:
				lr.hitMissed++
			default:
				lr.hit = append(lr.hit, s)
			}
		}
	}
	for _, lr := range runs {
		fmt.Printf("hit %s: %d measured over %d cached queries (%d answered uncached: excluded)\n",
			lr.locale, len(lr.hit), len(lr.hot), lr.hitMissed)
	}

	var ls *loadStats
	before, after := rss(), ""
	if o.c > 0 {
		ls = load(b, o, runs, hot)
		after = rss()
	}
	report(o, runs, ls, before, after)
	if ls != nil && ls.failures() > 0 {
		return errors.New("some requests of the load step failed")
	}
	return nil
}

// loadAvg is the machine's 1, 5 and 15 minute load average: the box is
// shared, and the figures move with it.
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) >= 3 {
		return strings.Join(f[:3], " ")
	}
	return "n/a"
}

// bench sends search requests to one base URL.
type bench struct{ base string }

// get sends one search and reads the whole answer; a non-200 answer is an
// error.
func (b *bench) get(ctx context.Context, c *http.Client, qr query) (sample, error) {
	v := url.Values{"q": {qr.q}, "locale": {qr.locale}, "limit": {strconv.Itoa(qr.limit)}, "mode": {"hybrid"}}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, b.base+"/v1/search?"+v.Encode(), nil)
	if err != nil {
		return sample{}, err
	}
	start := time.Now()
	res, err := c.Do(req)
	if err != nil {
		return sample{}, err
	}
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	s := sample{client: time.Since(start)}
	if err != nil {
		return s, err
	}
	if res.StatusCode != http.StatusOK {
		return s, fmt.Errorf("status %d: %.80s", res.StatusCode, body)
	}
	var r struct{ Cached, Degraded bool }
	if err := json.Unmarshal(body, &r); err != nil {
		return s, fmt.Errorf("answer is not JSON: %w", err)
	}
	s.cached, s.degraded = r.Cached, r.Degraded
	st := serverTiming(res.Header.Get("Server-Timing"))
	s.total = st["total"]
	s.embed, s.embedded = st["embed"]
	return s, nil
}

// waitCached repeats qr until it answers cached:true, for at most limit.
func (b *bench) waitCached(ctx context.Context, c *http.Client, qr query, limit time.Duration) (bool, error) {
	deadline := time.Now().Add(limit)
	for {
		s, err := b.get(ctx, c, qr)
		if err != nil || s.cached {
			return s.cached, err
		}
		if time.Now().After(deadline) {
			return false, nil
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// serverTiming reads the dur of each metric of a Server-Timing header.
func serverTiming(h string) map[string]time.Duration {
	out := map[string]time.Duration{}
	for part := range strings.SplitSeq(h, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		for p := range strings.SplitSeq(params, ";") {
			if v, ok := strings.CutPrefix(strings.TrimSpace(p), "dur="); ok {
				if f, err := strconv.ParseFloat(v, 64); err == nil {
					out[name] = time.Duration(f * float64(time.Millisecond))
				}
			}
		}
	}
	return out
}

// loadSets reads the "q" of every line of dir/*.jsonl, by locale (the file
// name's first part).
func loadSets(dir string) (map[string][]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no dev sets (*.jsonl) in %s", dir)
	}
	out := map[string][]string{}
	for _, f := range files {
		locale, _, _ := strings.Cut(filepath.Base(f), ".")
		fh, err := os.Open(f)
		if err != nil {
			return nil, err
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			var line struct{ Q string }
			if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
				fh.Close()
				return nil, fmt.Errorf("%s: %w", f, err)
			}
			out[locale] = append(out[locale], line.Q)
		}
		err = sc.Err()
		fh.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
	}
	return out, nil
}

// distinct keeps the queries whose cache text (the embedding text of the
// query cut to search.MaxQueryLength characters) no earlier query had, and
// drops blank ones (400).
func distinct(qs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, q := range qs {
		if r := []rune(q); len(r) > search.MaxQueryLength {
			q = string(r[:search.MaxQueryLength])
		}
		key := engine.EmbeddingText(q)
		if strings.TrimSpace(q) == "" || seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, q)
	}
	return out
}

// loadStats collects the outcomes of the load step from many goroutines.
type loadStats struct {
	mu           sync.Mutex
	all          []time.Duration
	hit, miss    []sample
	errs         map[string]int // error text or "status N: ..." -> count
	wall         time.Duration
	hitsUncached int // hit requests that answered cached:false
	missesCached int // miss requests that answered cached:true
	degraded     int
}

func (l *loadStats) failures() int {
	n := 0
	for _, v := range l.errs {
		n += v
	}
	return n
}

// load runs -c clients for -duration. Misses take the locales' queries in
// turn at limits steps 1 and 2 never used (10..40 but -limit), so every
// miss key is new until they run out; hits take the hot queries at random.
// Clients stop sending at the end but let their last request finish, so
// every error is the server's.
func load(b *bench, o options, runs []*localeRun, hot []query) *loadStats {
	var misses []query
	for i := 0; ; i++ {
		added := false
		for _, lr := range runs {
			if i < len(lr.pool) {
				misses = append(misses, query{lr.locale, lr.pool[i], 0})
				added = true
			}
		}
		if !added {
			break
		}
	}
	var limits []int
	for n := 10; n <= 40; n++ {
		if n != o.limit {
			limits = append(limits, n)
		}
	}
	client := &http.Client{Timeout: 60 * time.Second, Transport: &http.Transport{
		MaxIdleConns: o.c, MaxIdleConnsPerHost: o.c, IdleConnTimeout: time.Minute,
	}}
	defer client.CloseIdleConnections()
	ls := &loadStats{errs: map[string]int{}}
	var next atomic.Int64
	stop := time.Now().Add(o.duration)
	start := time.Now()
	var wg sync.WaitGroup
	for w := range o.c {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(o.seed, uint64(1000+w)))
			for time.Now().Before(stop) {
				var qr query
				isHit := rng.Float64() < o.hitShare
				if isHit {
					qr = hot[rng.IntN(len(hot))]
				} else {
					k := int(next.Add(1) - 1)
					qr = misses[k%len(misses)]
					qr.limit = limits[(k/len(misses))%len(limits)]
				}
				s, err := b.get(context.Background(), client, qr)
				ls.mu.Lock()
				switch {
				case err != nil:
					ls.errs[err.Error()]++
				default:
					ls.all = append(ls.all, s.client)
					if s.degraded {
						ls.degraded++
					}
					switch {
					case isHit && s.cached:
						ls.hit = append(ls.hit, s)
					case isHit:
						ls.hitsUncached++
					case s.cached:
						ls.missesCached++
					default:
						ls.miss = append(ls.miss, s)
					}
				}
				ls.mu.Unlock()
			}
		})
	}
	wg.Wait()
	ls.wall = time.Since(start)
	return ls
}

// pq formats the p50 and p99 of what f picks from ss, in ms.
func pq(ss []sample, f func(sample) time.Duration) string {
	return benchkit.Ms(quantile(ss, f, 0.5)) + " / " + benchkit.Ms(quantile(ss, f, 0.99))
}

// quantile is the q-quantile of what f picks from ss.
func quantile(ss []sample, f func(sample) time.Duration, q float64) time.Duration {
	ds := make([]time.Duration, len(ss))
	for i, s := range ss {
		ds[i] = f(s)
	}
	return benchkit.Quantile(ds, q)
}

var (
	client     = func(s sample) time.Duration { return s.client }
	total      = func(s sample) time.Duration { return s.total }
	embed      = func(s sample) time.Duration { return s.embed }
	rest       = sample.rest
	clientRest = func(s sample) time.Duration { return s.client - s.embed }
	overhead   = func(s sample) time.Duration { return s.client - s.total }
)

func report(o options, runs []*localeRun, ls *loadStats, before, after string) {
	fmt.Println()
	fmt.Println("p50 / p99 in ms. total, embed: Server-Timing; total-embed: the service outside the meaning tier's call;")
	fmt.Println("client-embed: client latency minus embed; client-total: hostsim and HTTP around the handler.")
	tw := tabwriter.NewWriter(os.Stdout, 2, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "locale\tqueries\tstep\tn\tclient\ttotal\tembed\ttotal-embed\tclient-embed\tclient-total")
	for _, lr := range runs {
		fmt.Fprintf(tw, "%s\t%s\tmiss\t%d\t%s\t%s\t%s\t%s\t%s\t%s\n", lr.locale, lr.source, len(lr.miss),
			pq(lr.miss, client), pq(lr.miss, total), pq(lr.miss, embed), pq(lr.miss, rest), pq(lr.miss, clientRest), pq(lr.miss, overhead))
		fmt.Fprintf(tw, "%s\t%s\thit\t%d\t%s\t%s\t-\t-\t-\t%s\n", lr.locale, lr.source, len(lr.hit),
			pq(lr.hit, client), pq(lr.hit, total), pq(lr.hit, overhead))
	}
	tw.Flush()

	fmt.Println()
	verdict := func(ok bool) string {
		if ok {
			return "met"
		}
		return "MISSED"
	}
	for _, lr := range runs {
		r50, r99 := quantile(lr.miss, rest, 0.5), quantile(lr.miss, rest, 0.99)
		c50, c99 := quantile(lr.miss, clientRest, 0.5), quantile(lr.miss, clientRest, 0.99)
		fmt.Printf("bar miss %s, excluding embedding, p50 <= 5 ms and p99 <= 20 ms: server %s / %s ms %s; client %s / %s ms %s (embed p50 %s ms)\n",
			lr.locale, benchkit.Ms(r50), benchkit.Ms(r99), verdict(r50 <= 5*time.Millisecond && r99 <= 20*time.Millisecond),
			benchkit.Ms(c50), benchkit.Ms(c99), verdict(c50 <= 5*time.Millisecond && c99 <= 20*time.Millisecond),
			benchkit.Ms(quantile(lr.miss, embed, 0.5)))
		h50, t50 := quantile(lr.hit, client, 0.5), quantile(lr.hit, total, 0.5)
		fmt.Printf("bar hit %s, p50 <= 2 ms: client %s ms %s; server total %s ms %s\n",
			lr.locale, benchkit.Ms(h50), verdict(h50 <= 2*time.Millisecond), benchkit.Ms(t50), verdict(t50 <= 2*time.Millisecond))
	}
	if ls == nil {
		return
	}
	fmt.Println()
	n := len(ls.all) + ls.failures()
	fmt.Printf("load: %d clients for %s (%.0f %% hits): %d requests, %d errors, %.0f req/s, latency p50 %s p99 %s max %s ms; hostsim RSS %s before, %s after\n",
		o.c, o.duration, 100*o.hitShare, n, ls.failures(), float64(n)/ls.wall.Seconds(),
		benchkit.Ms(benchkit.Quantile(ls.all, 0.5)), benchkit.Ms(benchkit.Quantile(ls.all, 0.99)),
		benchkit.Ms(benchkit.Quantile(ls.all, 1)), before, after)
	fmt.Printf("  misses %d: client %s ms, total %s, embed %s, total-embed %s\n",
		len(ls.miss), pq(ls.miss, client), pq(ls.miss, total), pq(ls.miss, embed), pq(ls.miss, rest))
	fmt.Printf("  hits %d: client %s ms, total %s\n", len(ls.hit), pq(ls.hit, client), pq(ls.hit, total))
	fmt.Printf("  not as planned: %d hit requests answered uncached, %d miss requests answered cached; %d degraded answers\n",
		ls.hitsUncached, ls.missesCached, ls.degraded)
	var kinds []string
	for k, v := range ls.errs {
		kinds = append(kinds, fmt.Sprintf("%dx %s", v, k))
	}
	sort.Strings(kinds)
	for _, k := range kinds {
		fmt.Println("  error:", k)
	}
	fmt.Printf("bar load, zero errors: %s\n", verdict(ls.failures() == 0))
}

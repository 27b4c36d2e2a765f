//go:build linux

// Command overhead measures the per-request overhead of GET /v1/health on a
// warm instance: CPU time per request and wall-clock latency, for
//
//	stock     syumai/workers' own entry (a new Go instance per request) in workerd
//	ours      our long-lived entry (build/worker) in workerd
//	ours-prj  the same, with the project's wrangler.toml (assets first, every binding)
//	jsonly    a JS-only Worker in workerd: the floor of `wrangler dev` itself
//	hostsim   our entry under `build/bin/hostsim serve`
//
// and stock-wd, ours-wd, jsonly-wd: the same three Workers on workerd run
// directly (no wrangler: no dev proxy, no inspector attached), which is
// closer to what a deployed Worker pays.
//
// Every target runs at once as its own process; batches of sequential
// requests go to each target in turn, so machine noise hits all of them
// alike. CPU per request of a batch is the growth of utime+stime of the
// target's workerd processes (or of hostsim) over the batch, divided by the
// batch size. Run it through bench/run.sh, which builds everything first.
package main

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/emojisearch/emojisearch/bench/internal/benchkit"
)

type target struct {
	srv    *benchkit.Server
	cpu    []time.Duration // CPU per request of the workerd processes (hostsim: its process), one per batch
	rt     []time.Duration // the same for workerd's runtime process alone (no proxy)
	lat    []time.Duration // every request's wall-clock latency
	total  time.Duration   // CPU of every measured batch
	tree   time.Duration   // the same for the whole process tree (wrangler's node too)
	reqs   int
	client *http.Client
}

func main() {
	n := flag.Int("n", 2000, "measured requests per target")
	batch := flag.Int("batch", 200, "requests per CPU sample")
	warm := flag.Int("warmup", 100, "unmeasured requests per target first")
	only := flag.String("targets", "stock,ours,ours-prj,jsonly,stock-wd,ours-wd,jsonly-wd,hostsim",
		"targets to measure, comma-separated")
	flag.Parse()
	if err := run(*n, *batch, *warm, strings.Split(*only, ",")); err != nil {
		fmt.Fprintln(os.Stderr, "overhead:", err)
		os.Exit(1)
	}
}

func run(n, batch, warm int, names []string) error {
	root, err := benchkit.Root()
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "bench-overhead")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	benchCfg := filepath.Join(root, "bench", "wrangler.toml")
	prjCfg := filepath.Join(root, "wrangler.toml")
	// The vars of bench/wrangler.toml, for the targets without wrangler.
	vars := map[string]string{"ENVIRONMENT": "production", "PACK_VERSION": "2026.11.0", "EMBED_MODEL": "bge-m3@1024"}
	starts := map[string]func(state string) (*benchkit.Server, error){
		"stock": func(s string) (*benchkit.Server, error) {
			return benchkit.StartWrangler(root, "stock", "build/bench/stock/worker.mjs", benchCfg, s)
		},
		"ours": func(s string) (*benchkit.Server, error) {
			return benchkit.StartWrangler(root, "ours", "build/worker/worker.mjs", benchCfg, s)
		},
		"ours-prj": func(s string) (*benchkit.Server, error) {
			return benchkit.StartWrangler(root, "ours-prj", "build/worker/worker.mjs", prjCfg, s)
		},
		"jsonly": func(s string) (*benchkit.Server, error) {
			return benchkit.StartWrangler(root, "jsonly", "bench/jsonly/worker.mjs", benchCfg, s)
		},
		"stock-wd": func(s string) (*benchkit.Server, error) {
			return benchkit.StartWorkerd(root, "stock-wd", []benchkit.Module{
				{Name: "worker.mjs", Path: "build/bench/stock/worker.mjs"},
				{Name: "runtime.mjs", Path: "build/bench/stock/runtime.mjs"},
				{Name: "wasm_exec.js", Path: "build/bench/stock/wasm_exec.js"},
				{Name: "app.wasm", Path: "build/bench/stock/app.wasm", Wasm: true},
			}, vars, s)
		},
		"ours-wd": func(s string) (*benchkit.Server, error) {
			return benchkit.StartWorkerd(root, "ours-wd", []benchkit.Module{
				{Name: "worker.mjs", Path: "build/worker/worker.mjs"},
				{Name: "wasm_exec.js", Path: "build/worker/wasm_exec.js"},
				{Name: "app.wasm", Path: "build/worker/app.wasm", Wasm: true},
			}, vars, s)
		},
		"jsonly-wd": func(s string) (*benchkit.Server, error) {
			return benchkit.StartWorkerd(root, "jsonly-wd", []benchkit.Module{
				{Name: "worker.mjs", Path: "bench/jsonly/worker.mjs"},
			}, vars, s)
		},
		"hostsim": func(s string) (*benchkit.Server, error) {
			return benchkit.StartHostsim(root, s)
		},
	}
	var targets []*target
	defer func() {
		for _, t := range targets {
			t.srv.Stop()
		}
	}()
	for _, name := range names {
		startFn, ok := starts[name]
		if !ok {
			return fmt.Errorf("unknown target %q", name)
		}
		fmt.Fprintf(os.Stderr, "overhead: starting %s\n", name)
		srv, err := startFn(filepath.Join(tmp, name))
		if err != nil {
			return err
		}
		// One keep-alive connection per target: requests are sequential.
		client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 1}}
		targets = append(targets, &target{srv: srv, client: client})
	}
	ctx := context.Background()
	for _, t := range targets {
		fmt.Fprintf(os.Stderr, "overhead: warming %s (%d requests)\n", t.srv.Name, warm)
		if _, err := t.requests(ctx, warm); err != nil {
			return fmt.Errorf("%s: warm-up: %w", t.srv.Name, err)
		}
	}
	for done := 0; done < n; done += batch {
		for _, t := range targets {
			if err := t.measure(ctx, batch); err != nil {
				return fmt.Errorf("%s: %w", t.srv.Name, err)
			}
		}
	}
	report(targets, n, batch)
	return nil
}

// requests sends count sequential GET /v1/health and returns their latencies.
func (t *target) requests(ctx context.Context, count int) ([]time.Duration, error) {
	lat := make([]time.Duration, 0, count)
	for range count {
		start := time.Now()
		status, body, err := benchkit.Get(ctx, t.client, t.srv.Base+"/v1/health")
		if err != nil {
			return nil, err
		}
		if status != http.StatusOK || !strings.Contains(string(body), `"ok":true`) {
			return nil, fmt.Errorf("GET /v1/health: %d %s", status, body)
		}
		lat = append(lat, time.Since(start))
	}
	return lat, nil
}

// measure runs one batch and records its CPU per request.
func (t *target) measure(ctx context.Context, count int) error {
	filters := []benchkit.Filter{t.srv.Match, nil}
	if t.srv.Match != nil {
		filters = append(filters, benchkit.WorkerdRuntime)
	}
	before, err := cpus(t.srv.Pid, filters)
	if err != nil {
		return err
	}
	lat, err := t.requests(ctx, count)
	if err != nil {
		return err
	}
	after, err := cpus(t.srv.Pid, filters)
	if err != nil {
		return err
	}
	per := time.Duration(count)
	t.cpu = append(t.cpu, (after[0]-before[0])/per)
	t.total += after[0] - before[0]
	t.tree += after[1] - before[1]
	if len(after) > 2 {
		t.rt = append(t.rt, (after[2]-before[2])/per)
	}
	t.lat = append(t.lat, lat...)
	t.reqs += count
	return nil
}

func cpus(pid int, filters []benchkit.Filter) ([]time.Duration, error) {
	out := make([]time.Duration, len(filters))
	for i, f := range filters {
		var err error
		if out[i], err = benchkit.TreeCPU(pid, f); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func report(targets []*target, n, batch int) {
	fmt.Printf("GET /v1/health, %d sequential requests per target in batches of %d, targets interleaved by batch\n", n, batch)
	fmt.Printf("ms per request. CPU = utime+stime of both workerd processes of `wrangler dev` (-wd: of workerd\n")
	fmt.Printf("run directly; hostsim: its process), median over batches (min-max); runtime = the workerd that\n")
	fmt.Printf("runs the Worker under wrangler, without its proxy; tree = mean of the whole process tree.\n\n")
	w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "target\tCPU median\t(min-max)\tCPU mean\truntime median\ttree mean\tp50\tp90\t")
	med := map[string]time.Duration{}
	rt := map[string]time.Duration{}
	for _, t := range targets {
		m := benchkit.Quantile(t.cpu, 0.5)
		med[t.srv.Name] = m
		rtMed := "-"
		if len(t.rt) > 0 {
			rt[t.srv.Name] = benchkit.Quantile(t.rt, 0.5)
			rtMed = benchkit.Ms(rt[t.srv.Name])
		}
		fmt.Fprintf(w, "%s\t%s\t(%s-%s)\t%s\t%s\t%s\t%s\t%s\t\n", t.srv.Name, benchkit.Ms(m),
			benchkit.Ms(slices.Min(t.cpu)), benchkit.Ms(slices.Max(t.cpu)),
			benchkit.Ms(t.total/time.Duration(t.reqs)), rtMed, benchkit.Ms(t.tree/time.Duration(t.reqs)),
			benchkit.Ms(benchkit.Quantile(t.lat, 0.5)), benchkit.Ms(benchkit.Quantile(t.lat, 0.9)))
	}
	_ = w.Flush()
	fmt.Println()
	ratio := func(label string, m map[string]time.Duration, a, b string) {
		x, okA := m[a]
		y, okB := m[b]
		if okA && okB && y > 0 {
			fmt.Printf("%-52s %5.1fx\n", label, float64(x)/float64(y))
		}
	}
	ratio("stock / ours, median CPU (wrangler dev):", med, "stock", "ours")
	ratio("stock / ours, median CPU (its runtime workerd):", rt, "stock", "ours")
	ratio("stock / ours-prj, median CPU (wrangler dev):", med, "stock", "ours-prj")
	ratio("stock-wd / ours-wd, median CPU (workerd direct):", med, "stock-wd", "ours-wd")
	ratio("stock-wd / hostsim, median CPU:", med, "stock-wd", "hostsim")
	// What each entry adds above the JS-only floor of the same runtime.
	net := map[string]time.Duration{}
	for _, sfx := range []string{"", "-wd"} {
		j, ok := med["jsonly"+sfx]
		if !ok {
			continue
		}
		for _, name := range []string{"stock", "ours", "ours-prj"} {
			if m, ok := med[name+sfx]; ok {
				net[name+sfx] = m - j
				fmt.Printf("%-52s %5s ms\n", name+sfx+" - jsonly"+sfx+", median CPU:", benchkit.Ms(m-j))
			}
		}
		ratio("stock"+sfx+" / ours"+sfx+", median CPU above the JS-only floor:", net, "stock"+sfx, "ours"+sfx)
	}
}

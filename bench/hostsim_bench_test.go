//go:build linux

package bench

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emojisearch/emojisearch/bench/internal/benchkit"
	"github.com/emojisearch/emojisearch/hostsim"
)

// newSim starts hostsim in-process on the built module (build/worker) with
// a fresh state folder and a warm Go instance.
func newSim(b *testing.B, vars ...string) *hostsim.Simulator {
	return newSimWith(b, "worker", nil, vars...)
}

// newSimOf is newSim on build/<variant> (worker-diag adds /__diag routes).
func newSimOf(b *testing.B, variant string, vars ...string) *hostsim.Simulator {
	return newSimWith(b, variant, nil, vars...)
}

// newSimWith is newSimOf with a change to hostsim's configuration (an AI
// binding, for instance).
func newSimWith(b testing.TB, variant string, with func(hostsim.Config) hostsim.Config, vars ...string) *hostsim.Simulator {
	root, err := benchkit.Root()
	if err != nil {
		b.Fatal(err)
	}
	wasm := filepath.Join(root, "build", variant, "app.wasm")
	if _, err := os.Stat(wasm); err != nil {
		b.Skip("build/worker/app.wasm is missing: run ./build.sh first")
	}
	// The Worker's console and hostsim's notices go to a file (shown on
	// failure) so they do not interleave with the benchmark lines.
	state := b.TempDir()
	console, err := os.Create(filepath.Join(state, "console.log"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		_ = console.Close()
		if out, _ := os.ReadFile(console.Name()); b.Failed() && len(out) > 0 {
			b.Logf("console:\n%s", out)
		}
	})
	cfg := hostsim.NewConfig(filepath.Join(root, "wrangler.toml")).
		WithWasm(wasm).
		WithStateDir(state).
		WithConsole(console, console).
		WithCompilationCache(filepath.Join(os.TempDir(), "bench-wazero-cache")).
		WithLog(nil).
		WithCrons(false).
		WithRateLimitScale(1_000_000)
	for i := 0; i+1 < len(vars); i += 2 {
		cfg = cfg.WithVar(vars[i], vars[i+1])
	}
	if with != nil {
		cfg = with(cfg)
	}
	sim, err := hostsim.New(context.Background(), cfg)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(sim.Close)
	if err := sim.Warm(context.Background()); err != nil {
		b.Fatal(err)
	}
	return sim
}

func health(b *testing.B, sim *hostsim.Simulator) {
	req := httptest.NewRequest(http.MethodGet, "http://localhost/v1/health", nil)
	rec := httptest.NewRecorder()
	sim.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		b.Fatalf("GET /v1/health: %d %s", rec.Code, rec.Body)
	}
}

// BenchmarkHealth is the in-process cost of one GET /v1/health on a warm
// instance: hostsim's entry, the Go instance and the handler, without HTTP.
// With BENCH_VARIANTS it runs once per build (sub-benchmarks named after
// them), so -count alternates a change and its parent in one run.
func BenchmarkHealth(b *testing.B) {
	eachVariant(b, func(b *testing.B, variant string) {
		sim := newSimOf(b, variant)
		for b.Loop() {
			health(b, sim)
		}
	})
}

// eachVariant runs bench on build/worker, or, with BENCH_VARIANTS="worker
// parent", on each named build as a sub-benchmark of that name.
func eachVariant(b *testing.B, bench func(b *testing.B, variant string)) {
	variants := strings.Fields(os.Getenv("BENCH_VARIANTS"))
	if len(variants) == 0 {
		bench(b, "worker")
		return
	}
	for _, v := range variants {
		b.Run(v, func(b *testing.B) { bench(b, v) })
	}
}

// BenchmarkHealthParallel is the same with GOMAXPROCS concurrent callers.
func BenchmarkHealthParallel(b *testing.B) {
	sim := newSim(b)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			health(b, sim)
		}
	})
}

//go:build linux

// Command coldstart measures a fresh Worker instance in workerd (`wrangler
// dev --local`, offline), paired with another build: the time from exec
// until GET /v1/health first answers 200 (workerd up, the module
// instantiated and Go started), then the first GET /v1/search of the
// instance (the English index loads, from the assets or built in), then
// the same search again, warm. Builds alternate run by run so machine load
// hits both alike.
//
//	go run ./bench/cmd/coldstart -other /tmp/parent -runs 3
//
//	go run ./bench/cmd/coldstart -other /tmp/parent -runs 5 -hostsim   the same under hostsim
//
// -other is a tree of another commit with its build/ made by its build.sh
// (and .tools beside it).
package main

import (
	"compress/gzip"
	"context"
	"flag"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/emojisearch/emojisearch/bench/internal/benchkit"
)

func main() {
	other := flag.String("other", "", "the tree of the build to pair with (its build/ made)")
	runs := flag.Int("runs", 3, "fresh instances per build")
	query := flag.String("q", "cat", "the search of the first request")
	onHostsim := flag.Bool("hostsim", false, "run hostsim serve instead of wrangler dev (its own compilation cache per run)")
	flag.Parse()
	hostsim = *onHostsim
	if err := run(*other, *runs, *query); err != nil {
		fmt.Fprintln(os.Stderr, "coldstart:", err)
		os.Exit(1)
	}
}

type figures struct{ ready, first, warm []time.Duration }

var hostsim bool

func run(other string, runs int, q string) error {
	root, err := benchkit.Root()
	if err != nil {
		return err
	}
	trees := []struct{ name, root string }{{"this", root}}
	if other != "" {
		trees = append(trees, struct{ name, root string }{"other", other})
	}
	res := map[string]*figures{}
	for i := 0; i < runs; i++ {
		for _, t := range trees {
			f := res[t.name]
			if f == nil {
				f = &figures{}
				res[t.name] = f
			}
			if err := once(t.root, t.name, q, f); err != nil {
				return err
			}
		}
	}
	for _, t := range trees {
		f := res[t.name]
		gz, _ := gzipSize(filepath.Join(t.root, "build", "worker", "app.wasm"))
		fmt.Printf("%-5s %s: app.wasm %d B (Go gzip -9); exec→health p50 %s ms (%v); first search p50 %s ms (%v); warm p50 %s ms\n",
			t.name, t.root, gz, benchkit.Ms(benchkit.Quantile(f.ready, 0.5)), ms(f.ready),
			benchkit.Ms(benchkit.Quantile(f.first, 0.5)), ms(f.first), benchkit.Ms(benchkit.Quantile(f.warm, 0.5)))
	}
	return nil
}

func once(root, name, q string, f *figures) error {
	state, err := os.MkdirTemp("", "coldstart")
	if err != nil {
		return err
	}
	defer os.RemoveAll(state)
	start := time.Now()
	var s *benchkit.Server
	if hostsim {
		s, err = benchkit.StartHostsim(root, state)
	} else {
		s, err = benchkit.StartWrangler(root, name, filepath.Join(root, "build", "worker", "worker.mjs"),
			filepath.Join(root, "wrangler.toml"), state)
	}
	if err != nil {
		return err
	}
	defer s.Stop()
	f.ready = append(f.ready, time.Since(start))
	for i, into := range []*[]time.Duration{&f.first, &f.warm} {
		t0 := time.Now()
		status, _, err := benchkit.Get(context.Background(), http.DefaultClient, s.Base+"/v1/search?q="+q+"&limit="+fmt.Sprint(10+i))
		if err != nil {
			return err
		}
		if status != 200 {
			return fmt.Errorf("%s: search answered %d", name, status)
		}
		*into = append(*into, time.Since(t0))
	}
	return nil
}

func ms(ds []time.Duration) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = benchkit.Ms(d)
	}
	return out
}

func gzipSize(path string) (int, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	var n countWriter
	w, _ := gzip.NewWriterLevel(&n, gzip.BestCompression)
	_, _ = w.Write(b)
	err = w.Close()
	return int(n), err
}

type countWriter int

func (c *countWriter) Write(p []byte) (int, error) { *c += countWriter(len(p)); return len(p), nil }

//go:build linux

package bench

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/emojisearch/emojisearch/bench/internal/benchkit"
	"github.com/emojisearch/emojisearch/hostsim"
	"github.com/emojisearch/emojisearch/localai/aimodel"
	"github.com/emojisearch/emojisearch/service/classify"
)

// timedAI is the AI binding of these benchmarks: the local embedding
// model, and for the vision model a label as the real model would write
// it (the benchmarks measure our side, not the model). It adds up the time
// spent inside the models so it can be taken out of the route's time.
type timedAI struct {
	embed *aimodel.Model
	spent atomic.Int64 // ns inside Run
}

func (a *timedAI) Run(ctx context.Context, model string, inputs any) (any, error) {
	begin := time.Now()
	defer func() { a.spent.Add(int64(time.Since(begin))) }()
	if model == classify.VisionModel {
		return map[string]any{"response": `{"caption":"A cat sleeping on a sofa","reaction":"So cozy!","keywords":["cat","sleep","sofa"],"emoji":["🐱","😴","🛋️"]}`}, nil
	}
	return a.embed.Run(ctx, model, inputs)
}

func simWithAI(b testing.TB) (*hostsim.Simulator, *timedAI) {
	return simWithAIOf(b, "worker")
}

// simWithAIOf is simWithAI on build/<variant>/app.wasm.
func simWithAIOf(b testing.TB, variant string) (*hostsim.Simulator, *timedAI) {
	root, err := benchkit.Root()
	if err != nil {
		b.Fatal(err)
	}
	m, err := aimodel.Open(filepath.Join(root, "packs", "models", "glove-cldr.100.embm"))
	if err != nil {
		b.Fatal(err)
	}
	ai := &timedAI{embed: m}
	return newSimWith(b, variant, func(c hostsim.Config) hostsim.Config { return c.WithAI(ai) }), ai
}

// webp254K is a 254 KB WebP upload: a VP8X header declaring 384 x 384 and
// its payload (the Worker reads only the header; the model gets the bytes).
var webp254K = func() []byte {
	b := make([]byte, 254<<10)
	copy(b, "RIFF")
	binary.LittleEndian.PutUint32(b[4:], uint32(len(b)-8))
	copy(b[8:], "WEBPVP8X")
	binary.LittleEndian.PutUint32(b[16:], 10)
	b[24], b[25], b[27], b[28] = 0x7F, 0x01, 0x7F, 0x01
	return b
}()

func suggest(tb testing.TB, h http.Handler, i int) int {
	body := fmt.Sprintf(`{"text":"got the job!! so happy %d","limit":6}`, i)
	req := httptest.NewRequest(http.MethodPost, "http://localhost/v1/suggest-reactions", bytes.NewReader([]byte(body)))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Code
}

func classifyWebP(tb testing.TB, h http.Handler) int {
	req := httptest.NewRequest(http.MethodPost, "http://localhost/v1/classify-image", bytes.NewReader(webp254K))
	req.Header.Set("Content-Type", "image/webp")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Code
}

// report prints p50 and p99 of the route with and without the time spent
// inside the models (median of per-request differences).
func report(b *testing.B, suffix string, total, model []time.Duration) {
	own := make([]time.Duration, len(total))
	for i := range total {
		own[i] = total[i] - model[i]
	}
	slices.Sort(total)
	slices.Sort(own)
	p := func(d []time.Duration, q float64) float64 {
		return float64(d[int(q*float64(len(d)-1))].Microseconds()) / 1000
	}
	b.ReportMetric(p(total, 0.5), "p50-ms"+suffix)
	b.ReportMetric(p(own, 0.5), "p50-ms-no-model"+suffix)
	b.ReportMetric(p(own, 0.99), "p99-ms-no-model"+suffix)
}

// BenchmarkSuggestReactions is one POST /v1/suggest-reactions in process
// on a warm instance, with the local embedding model bound. Besides the
// wall-clock percentiles it reports the process CPU per request
// (cpu-ms/op, the model's time included), which contention on a shared
// machine does not inflate the way it inflates wall time.
//
// With BENCH_VARIANTS="worker parent" it loads build/<variant>/app.wasm
// for each variant and alternates the requests between them in one loop,
// so a change and its parent build are measured in the same moments; the
// metrics then carry the variant's name.
func BenchmarkSuggestReactions(b *testing.B) {
	variants := strings.Fields(os.Getenv("BENCH_VARIANTS"))
	named := len(variants) > 0
	if !named {
		variants = []string{"worker"}
	}
	type run struct {
		sim          *hostsim.Simulator
		ai           *timedAI
		total, model []time.Duration
		cpu          time.Duration
	}
	runs := make([]*run, len(variants))
	for i, v := range variants {
		sim, ai := simWithAIOf(b, v)
		runs[i] = &run{sim: sim, ai: ai}
	}
	i := 0
	for b.Loop() {
		for j := range runs {
			r := runs[(i+j)%len(runs)] // alternate which variant goes first
			before, cpu := r.ai.spent.Load(), processCPU()
			begin := time.Now()
			if code := suggest(b, r.sim, i); code != 200 {
				b.Fatalf("status %d", code)
			}
			r.total = append(r.total, time.Since(begin))
			r.cpu += processCPU() - cpu
			r.model = append(r.model, time.Duration(r.ai.spent.Load()-before))
		}
		i++
	}
	for j, r := range runs {
		suffix := ""
		if named {
			suffix = "-" + variants[j]
		}
		report(b, suffix, r.total, r.model)
		b.ReportMetric(float64(r.cpu.Microseconds())/1000/float64(len(r.total)), "cpu-ms/op"+suffix)
	}
}

// processCPU is the user and system time of this process so far.
func processCPU() time.Duration {
	var u syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &u)
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

// BenchmarkClassifyImage is one POST /v1/classify-image of a 254 KB WebP
// (no hash: the model is called every time).
func BenchmarkClassifyImage(b *testing.B) {
	sim, ai := simWithAI(b)
	var total, model []time.Duration
	for b.Loop() {
		before := ai.spent.Load()
		begin := time.Now()
		if code := classifyWebP(b, sim); code != 200 {
			b.Fatalf("status %d", code)
		}
		total = append(total, time.Since(begin))
		model = append(model, time.Duration(ai.spent.Load()-before))
	}
	report(b, "", total, model)
}

// TestLoadReactionsAndImages: 100 concurrent clients over HTTP for
// LOAD_SECONDS (30 by default), half suggesting reactions, half
// classifying 254 KB WebP images; every answer must be 200. Opt-in
// (BENCH_LOAD=1): it occupies the machine.
func TestLoadReactionsAndImages(t *testing.T) {
	if os.Getenv("BENCH_LOAD") == "" {
		t.Skip("BENCH_LOAD=1 runs it")
	}
	secs := 30
	fmt.Sscan(os.Getenv("LOAD_SECONDS"), &secs)
	sim, _ := simWithAI(t)
	srv := httptest.NewServer(sim)
	defer srv.Close()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 100}}
	var ok, bad atomic.Int64
	deadline := time.Now().Add(time.Duration(secs) * time.Second)
	var wg sync.WaitGroup
	for c := 0; c < 100; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; time.Now().Before(deadline); i++ {
				var req *http.Request
				if (c+i)%2 == 0 {
					req, _ = http.NewRequest(http.MethodPost, srv.URL+"/v1/suggest-reactions", bytes.NewReader([]byte(`{"text":"thanks so much!"}`)))
					req.Header.Set("Content-Type", "application/json")
				} else {
					req, _ = http.NewRequest(http.MethodPost, srv.URL+"/v1/classify-image", bytes.NewReader(webp254K))
					req.Header.Set("Content-Type", "image/webp")
				}
				res, err := client.Do(req)
				if err != nil {
					bad.Add(1)
					continue
				}
				_, _ = bytes.NewBuffer(nil).ReadFrom(res.Body)
				res.Body.Close()
				if res.StatusCode == 200 {
					ok.Add(1)
				} else {
					bad.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	t.Logf("100 clients x %d s: %d answers 200, %d errors (%.0f req/s)", secs, ok.Load(), bad.Load(), float64(ok.Load())/float64(secs))
	if bad.Load() != 0 {
		t.Fatalf("%d errors", bad.Load())
	}
}

package evalkit

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/engine"
	"github.com/emojisearch/emojisearch/engine/packfmt"
)

const (
	packDir = "../../packs/dist/" + PackVersion
	evalDir = "../../../shared/eval/search"
)

// devTrace is the typing trace of every dev-set query (every prefix).
func devTrace(tb testing.TB) []TraceQuery {
	files, _ := filepath.Glob(filepath.Join(evalDir, "*.jsonl"))
	if len(files) == 0 {
		tb.Skip("no dev sets in " + evalDir)
	}
	var trace []TraceQuery
	for _, f := range files {
		rows, err := ReadSet(f)
		require.NoError(tb, err)
		trace = append(trace, TypingTrace(rows, strings.SplitN(filepath.Base(f), ".", 2)[0])...)
	}
	return trace
}

// BenchmarkTypingTrace: one engine with all 11 locales, every prefix of every
// dev-set query searched once per iteration; reports p50/p99 per query and q/s.
func BenchmarkTypingTrace(b *testing.B) {
	eng, err := LoadEngineLocales(packDir, packfmt.Locales...)
	require.NoError(b, err)
	trace := devTrace(b)
	RunTrace(eng, trace) // warm up
	b.ResetTimer()
	var st TraceStats
	for b.Loop() {
		st = RunTrace(eng, trace)
	}
	b.ReportMetric(float64(st.P50.Nanoseconds())/1e3, "p50-µs")
	b.ReportMetric(float64(st.P99.Nanoseconds())/1e3, "p99-µs")
	b.ReportMetric(st.QueriesPerS, "q/s")
	b.ReportMetric(float64(st.Queries), "queries")
}

// BenchmarkBuildEnTr: decoding the en and tr pack files (core and extension) and building the index.
func BenchmarkBuildEnTr(b *testing.B) {
	var files [][]byte
	for _, n := range []string{"pack.en.json", "pack.en.ext.json", "pack.tr.json", "pack.tr.ext.json"} {
		data, err := os.ReadFile(filepath.Join(packDir, n))
		require.NoError(b, err)
		files = append(files, data)
	}
	for b.Loop() {
		_, err := engine.Load(engine.NewConfig(), files...)
		require.NoError(b, err)
	}
}

// BenchmarkLoadIndexEnTr: the worker's cold start: the en and tr binary
// indexes (index.en.bin, index.tr.bin, as built by the pack build) read in
// place and assembled into an engine.
func BenchmarkLoadIndexEnTr(b *testing.B) {
	var files [][]byte
	for _, loc := range []string{"en", "tr"} {
		data, err := os.ReadFile(filepath.Join(packDir, "index."+loc+".bin"))
		require.NoError(b, err)
		files = append(files, data)
	}
	for b.Loop() {
		_, err := engine.Load(engine.NewConfig(), files...)
		require.NoError(b, err)
	}
}

// BenchmarkWithRelated: what a Worker instance does once the related words
// (index.en.related.bin) have loaded: add them to the built-in en+tr engine.
func BenchmarkWithRelated(b *testing.B) {
	var files [][]byte
	for _, n := range []string{"index.en.bin", "index.tr.bin", "index.en.related.bin"} {
		data, err := os.ReadFile(filepath.Join(packDir, n))
		require.NoError(b, err)
		files = append(files, data)
	}
	entr, err := engine.Load(engine.NewConfig(), files[:2]...)
	require.NoError(b, err)
	for b.Loop() {
		_, err := entr.With(files[2])
		require.NoError(b, err)
	}
}

// TestResidentMemory measures the heap held by an engine with all 11 locales.
func TestResidentMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("measurement")
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	eng, err := LoadEngineLocales(packDir, packfmt.Locales...)
	require.NoError(t, err)
	eng.Search("warm", DefaultSearchOptions()) // allocate one search scratch
	runtime.GC()
	runtime.ReadMemStats(&after)
	mib := float64(after.HeapAlloc-before.HeapAlloc) / (1 << 20)
	t.Logf("all 11 locales resident: %.1f MiB heap", mib)
	require.LessOrEqual(t, mib, 40.0)
	runtime.KeepAlive(eng)
}

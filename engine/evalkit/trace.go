package evalkit

import (
	"slices"
	"time"

	"github.com/emojisearch/emojisearch/engine"
)

// TraceQuery is one keystroke of the typing trace.
type TraceQuery struct {
	Q, Locale string
}

// TypingTrace lists every prefix (1 character and up) of every query, in order.
func TypingTrace(rows []Row, locale string) []TraceQuery {
	var out []TraceQuery
	for _, r := range rows {
		for _, p := range Prefixes(r.Q, 1) {
			out = append(out, TraceQuery{p, locale})
		}
	}
	return out
}

// TraceStats are per-query latencies of one run of a trace.
type TraceStats struct {
	Queries     int
	P50, P99    time.Duration
	Total       time.Duration
	QueriesPerS float64
}

// RunTrace searches every trace query once (limit 24, prefix on), timing each.
// It is a plain function so a wasm test binary can call it too.
func RunTrace(eng *engine.Engine, trace []TraceQuery) TraceStats {
	d := make([]time.Duration, len(trace))
	start := time.Now()
	for i, q := range trace {
		t0 := time.Now()
		eng.Search(q.Q, engine.Options{Limit: engine.DefaultLimit, Locale: q.Locale, Prefix: true})
		d[i] = time.Since(t0)
	}
	total := time.Since(start)
	slices.Sort(d)
	st := TraceStats{Queries: len(d), Total: total}
	if len(d) > 0 {
		st.P50, st.P99 = d[len(d)/2], d[len(d)*99/100]
		st.QueriesPerS = float64(len(d)) / total.Seconds()
	}
	return st
}

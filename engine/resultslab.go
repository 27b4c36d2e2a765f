package engine

import "sync"

// Every search returns a new results slice of up to 24 results of 104
// bytes, and that one allocation was the dearest step of a typical
// keystroke under js/wasm (about 10 µs of a 40 µs search in the typing
// trace under hostsim, 2.5–4 µs alone in a micro-benchmark, against
// 0.5–0.9 µs natively): a size class of three objects per span refills
// the allocator's cache every third search, and the collector's assists
// are paid by allocations. So the engine carves the results slices out of
// one larger block, slabResults results at a time. Each slice is
// capacity-limited (an append by the caller copies, never writes into
// a neighbour). The cost: a caller that keeps one answer keeps its block
// (about 26 KB) alive; the service and the Worker encode an answer and
// drop it, and the short cache keeps copies from blocks of its own.
const slabResults = 256

// resultSlab hands out results slices; safe for concurrent use (the native
// service shares one engine between requests).
type resultSlab struct {
	mu   sync.Mutex
	free []Result
}

// take returns an empty slice with room for n results (n > 0), or a
// non-nil empty slice for n == 0 (encoded as [], not null).
func (s *resultSlab) take(n int) []Result {
	if n <= 0 {
		return []Result{}
	}
	s.mu.Lock()
	if len(s.free) < n {
		s.free = make([]Result, max(slabResults, n))
	}
	r := s.free[:0:n]
	s.free = s.free[n:]
	s.mu.Unlock()
	return r
}

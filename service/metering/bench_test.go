package metering

import (
	"context"
	"testing"
	"time"

	"github.com/emojisearch/emojisearch/service/plans"
)

// BenchmarkCountCached is the hot path of a metered request: the account's
// total is cached and no flush is due.
func BenchmarkCountCached(b *testing.B) {
	store := newFakeStore()
	now := time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)
	m, err := New(NewConfig(store).WithClock(func() time.Time { return now }))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	run := func(ctx context.Context, fn func(context.Context)) { fn(ctx) }
	m.Count(app3, plans.SemanticCalls)
	m.MaybeFlush(ctx, run) // the first flush, at once
	m.Count(app3, plans.SemanticCalls)
	// The next write is armed by this request and waits in its waitUntil,
	// which this benchmark never runs: every later request finds it armed.
	m.MaybeFlush(ctx, func(context.Context, func(context.Context)) {})
	m.OverLimit(ctx, app3, plans.SemanticCalls)
	b.ReportAllocs()
	over := 0
	for b.Loop() {
		// Past the plan limit after a million rounds: the work is the same.
		if m.OverLimit(ctx, app3, plans.SemanticCalls) {
			over++
		}
		m.Count(app3, plans.SemanticCalls)
		m.MaybeFlush(ctx, run)
	}
	_ = over
	if r, _ := store.stats(); r != 1 {
		b.Fatalf("%d reads of the total, want 1", r)
	}
}

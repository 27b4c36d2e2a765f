package metering_test

import (
	"context"
	"fmt"
	"time"

	"github.com/emojisearch/emojisearch/service/access"
	"github.com/emojisearch/emojisearch/service/metering"
	"github.com/emojisearch/emojisearch/service/plans"
)

// memStore is a UsageStore in memory.
type memStore map[string]int64

func (s memStore) AddUsage(_ context.Context, ds []metering.Delta) error {
	for _, d := range ds {
		s[d.AccountID+"/"+d.Period+"/"+d.Metric] += d.Count
	}
	return nil
}

func (s memStore) AccountTotal(_ context.Context, account, period, metric string) (int64, error) {
	return s[account+"/"+period+"/"+metric], nil
}

// The order of calls in a metered search handler.
func Example() {
	store := memStore{}
	now := time.Date(2026, 3, 31, 23, 59, 59, 0, time.UTC)
	m, _ := metering.New(metering.NewConfig(store).WithClock(func() time.Time { return now }))
	// The worker passes a Runner that hands fn to ctx.waitUntil.
	inline := func(ctx context.Context, fn func(context.Context)) { fn(ctx) }

	ctx := context.Background()
	caller := access.Caller{KeyID: "k1", AppID: "app1", AccountID: "acct1", Plan: plans.Free}
	if !m.OverLimit(ctx, caller, plans.SemanticCalls) {
		// … answer with the model, then:
		m.Count(caller, plans.SemanticCalls)
	}
	m.MaybeFlush(ctx, inline)
	fmt.Println(store)
	// Output: map[acct1/2026-03/semantic_calls:1]
}

package search

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/service/access"
	"github.com/emojisearch/emojisearch/service/analytics"
	"github.com/emojisearch/emojisearch/service/writebehind"
)

// rowsWriter keeps what a flush writes.
type rowsWriter struct{ rows []analytics.Row }

func (w *rowsWriter) AddRows(_ context.Context, rows []analytics.Row) error {
	w.rows = append(w.rows, rows...)
	return nil
}

// Spec 2 Analytics rules: keyed calls count with their misses, cache hits,
// degraded and over-limit answers included; anonymous and development
// calls never.
func TestAnalyticsCounts(t *testing.T) {
	s, meter, _ := meteredService(t, meaning{})
	w := &rowsWriter{}
	// Writes at once (a timer that has always ended): this test is about
	// what is counted, service/analytics about when it is written.
	wb, err := writebehind.New(writebehind.NewConfig().WithTimer(func(time.Duration) func(context.Context) error {
		return func(context.Context) error { return nil }
	}))
	require.NoError(t, err)
	counter, err := analytics.New(analytics.Config{Writer: w, WriteBehind: wb})
	require.NoError(t, err)
	s.cfg.Analytics = counter
	dev := access.Caller{Dev: true, KeyID: "dev_1", Kind: "publishable"}

	getAs(t, s, &keyed, "q=tired")
	_, hit := getAs(t, s, &keyed, "q=tired")
	require.True(t, hit.Cached)
	meter.over = true
	getAs(t, s, &keyed, "q=Tired")          // over the limit, cached answer
	getAs(t, s, &keyed, "q=xqzxqzxqz")      // over the limit, no result
	getAs(t, s, nil, "q=tired")             // anonymous
	getAs(t, s, &dev, "q=tired")            // development key
	getAs(t, s, &keyed, "q=chat&locale=fr") // another locale
	require.NoError(t, counter.Flush(context.Background()))

	got := map[string]analytics.Row{}
	var total int64
	for _, r := range w.rows { // the first call flushed at once, the rest now
		g := got[r.Locale+"/"+r.Query]
		g.AppID, g.Searches, g.Misses = r.AppID, g.Searches+r.Searches, g.Misses+r.Misses
		got[r.Locale+"/"+r.Query] = g
		total += r.Searches
	}
	assert.Equal(t, int64(5), total)
	assert.Equal(t, int64(3), got["en/tired"].Searches, "normalized query; cache hit and over-limit counted")
	assert.Equal(t, int64(0), got["en/tired"].Misses)
	assert.Equal(t, int64(1), got["en/xqzxqzxqz"].Misses, "an answer without a result is a miss")
	assert.Equal(t, "app1", got["fr/chat"].AppID)
}

//go:build !js

package webhooks_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/service/accounts"
	"github.com/emojisearch/emojisearch/service/metering"
	"github.com/emojisearch/emojisearch/service/plans"
	"github.com/emojisearch/emojisearch/service/webhooks"
	"github.com/emojisearch/emojisearch/service/webhooks/webhookstest"
)

func TestUsageThreshold(t *testing.T) {
	e := newEnv(t, nil)
	c, acc, app1 := e.app("owner", "scale")
	a := e.call(c, "POST", "/api/apps", map[string]any{"name": "second"})
	require.Equal(t, 201, a.Code)
	app2 := a.Body["app"].(map[string]any)["id"].(string)
	for _, app := range []string{app1, app2} {
		h := e.call(c, "POST", "/api/apps/"+app+"/webhooks", map[string]any{"url": e.recv.At("/u/" + app), "events": []string{"usage.threshold"}})
		require.Equal(t, 201, h.Code)
		e.recv.SetSecret("/u/"+app, h.Body["secret"].(string))
	}
	pumps := 0
	var mu sync.Mutex
	ts := e.svc.Thresholds(accounts.New(accounts.NewConfig(e.db)).Usage(), func(context.Context) { mu.Lock(); pumps++; mu.Unlock() })
	const period = "2026-11"
	add := func(app, metric string, n int64) {
		require.NoError(t, ts.AddUsage(bg, []metering.Delta{{AppID: app, AccountID: acc, Period: period, Metric: metric, Count: n}}))
	}
	limit := int64(100_000) // Scale's image_classifications
	add(app1, plans.ImageClassifications, limit*79/100)
	require.Equal(t, 0, e.count("SELECT count(*) AS n FROM events"))
	// 80 % counts every app of the account.
	add(app2, plans.ImageClassifications, limit/100)
	rows := e.sql("SELECT id, app_id, data FROM events WHERE type = 'usage.threshold' ORDER BY app_id").Rows
	require.Len(t, rows, 2, "one event row per app")
	id1, _ := rows[0].String("id")
	id2, _ := rows[1].String("id")
	require.Equal(t, id1, id2, "one event id for every app")
	raw, _ := rows[0].String("data")
	require.JSONEq(t, `{"metric":"image_classifications","threshold":80,"period":"2026-11","used":80000,"limit":100000}`, raw)
	// More usage under 100 %: nothing new, also from another instance.
	add(app1, plans.ImageClassifications, 10)
	other := e.svc.Thresholds(accounts.New(accounts.NewConfig(e.db)).Usage(), nil)
	require.NoError(t, other.AddUsage(bg, []metering.Delta{{AppID: app1, AccountID: acc, Period: period, Metric: plans.ImageClassifications, Count: 1}}))
	require.Equal(t, 2, e.count("SELECT count(*) AS n FROM events"))

	// 100 % from two instances at once: exactly one fires.
	var wg sync.WaitGroup
	for _, s := range []*webhooks.ThresholdStore{ts, other} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			require.NoError(t, s.AddUsage(bg, []metering.Delta{{AppID: app2, AccountID: acc, Period: period, Metric: plans.ImageClassifications, Count: limit / 5}}))
		}()
	}
	wg.Wait()
	require.Equal(t, 1, e.count("SELECT count(DISTINCT id) AS n FROM events WHERE data LIKE '%\"threshold\":100%'"))
	require.Equal(t, 2, e.count("SELECT count(*) AS n FROM usage_thresholds WHERE account_id = ?", acc))

	// A plan change within the month sets new thresholds: Pro's limit is
	// 10,000 and the account is far past it, so 80 and 100 fire again.
	e.sql("UPDATE accounts SET plan = 'pro' WHERE id = ?", acc)
	add(app1, plans.ImageClassifications, 1)
	require.Equal(t, 4, e.count("SELECT count(*) AS n FROM usage_thresholds WHERE account_id = ?", acc))
	var data map[string]any
	raw, _ = e.sql("SELECT data FROM events ORDER BY created_at DESC, data DESC LIMIT 1").Rows[0].String("data")
	require.NoError(t, json.Unmarshal([]byte(raw), &data))
	require.EqualValues(t, 10_000, data["limit"])
	// semantic_calls is its own metric; custom_emoji never fires.
	add(app1, plans.CustomEmoji, 1_000_000)
	require.Equal(t, 4, e.count("SELECT count(*) AS n FROM usage_thresholds"))
	require.Positive(t, pumps)

	// Delivered: the same event id reaches both apps' webhooks (the
	// account is back on Scale for delivery).
	e.sql("UPDATE accounts SET plan = 'scale' WHERE id = ?", acc)
	e.svc.Sweep(bg)
	h1, h2 := e.recv.Got("/u/"+app1), e.recv.Got("/u/"+app2)
	require.Len(t, h1, 4)
	require.Len(t, h2, 4)
	ids := func(hs []webhookstest.Hit) map[string]bool {
		out := map[string]bool{}
		for _, h := range hs {
			out[h.Header.Get("Service-Event-Id")] = true
		}
		return out
	}
	require.Equal(t, ids(h1), ids(h2))
	require.Len(t, ids(h1), 4)
	require.Empty(t, e.recv.Bad())
}

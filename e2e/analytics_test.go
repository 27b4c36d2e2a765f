package e2e

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Spec 2 Analytics rules over HTTP: keyed searches (cache hits included,
// anonymous never) reach the app's analytics after a flush, with misses,
// the naming threshold, the window and the plan gate.
func TestAnalyticsFlushAndReport(t *testing.T) {
	t.Parallel() // waits for the ~10 s flush
	const origin = "https://app.analytics.test"
	u := signUp(t)
	appID, _, full := newAppWithKey(t, u, origin)
	path := "/api/apps/" + appID + "/analytics"

	r := u.api(t, "GET", path, nil)
	require.Equal(t, 402, r.Status, string(r.Body))
	assert.Equal(t, "plan_required", errorCode(t, r))
	sql(t, "UPDATE accounts SET plan = 'pro' WHERE idp_user_id = ?", u.sub)

	miss := strings.ToLower(unique("zqxj"))
	search := func(q string) {
		r := get(t, "/v1/search?q="+url.QueryEscape(q)+"&key="+url.QueryEscape(full), "Origin", origin)
		require.Equal(t, 200, r.Status, string(r.Body))
	}
	for range 6 {
		search("Cat") // normalized to "cat"; later calls are cache hits
	}
	for range 5 {
		search(miss)
	}
	search("dog")
	search("dog")
	get(t, "/v1/search?q=cat") // anonymous: never counted
	made := 13

	var body map[string]any
	eventually(t, 45*time.Second, func() bool {
		search("dog") // a later keyed call schedules the flush
		made++
		r := u.api(t, "GET", path+"?days=7", nil)
		require.Equal(t, 200, r.Status, string(r.Body))
		body = r.JSON(t)
		days := body["days"].([]any)
		today := days[len(days)-1].(map[string]any)
		return today["searches"].(float64) >= 13
	}, "analytics never showed the searches")

	days := body["days"].([]any)
	require.Len(t, days, 7)
	today := days[6].(map[string]any)
	assert.Equal(t, time.Now().UTC().Format(time.DateOnly), today["day"], "today last")
	assert.LessOrEqual(t, today["searches"].(float64), float64(made), "none counted twice")
	assert.Equal(t, 5.0, today["misses"])
	assert.Equal(t, 0.0, days[0].(map[string]any)["searches"], "zeros for quiet days")
	assert.Contains(t, body["topQueries"], map[string]any{"query": "cat", "searches": 6.0})
	assert.Equal(t, []any{map[string]any{"query": miss, "misses": 5.0}}, body["topMisses"])
	for _, q := range body["topQueries"].([]any) {
		if q.(map[string]any)["query"] == "dog" {
			assert.GreaterOrEqual(t, q.(map[string]any)["searches"].(float64), 5.0, "named only from 5 searches")
		}
	}

	r = u.api(t, "GET", path+"?days=90", nil)
	require.Equal(t, 200, r.Status)
	assert.Len(t, r.JSON(t)["days"], 30, "cut to Pro's 30 days")
	r = u.api(t, "GET", path+"?days=31", nil)
	assert.Equal(t, 400, r.Status)
	assert.Equal(t, "invalid_request", errorCode(t, r))
}

// The nightly job deletes query rows past each plan's retention (spec 2
// Limits: Free 7 days, Pro 30).
func TestAnalyticsRetention(t *testing.T) {
	pro, free := signUp(t), signUp(t)
	proApp, _, _ := newAppWithKey(t, pro, "https://pro.retention.test")
	freeApp, _, _ := newAppWithKey(t, free, "https://free.retention.test")
	sql(t, "UPDATE accounts SET plan = 'pro' WHERE idp_user_id = ?", pro.sub)
	day := func(back int) string { return time.Now().UTC().AddDate(0, 0, -back).Format(time.DateOnly) }
	rows := []struct {
		app  string
		back int
		kept bool
	}{
		{proApp, 29, true}, {proApp, 31, false}, {freeApp, 6, true}, {freeApp, 8, false},
	}
	for i, r := range rows {
		sql(t, "INSERT INTO query_daily (app_id, day, qkey, locale, query, searches) VALUES (?, ?, ?, 'en', 'q', 1)",
			r.app, day(r.back), strings.Repeat("0", 15)+string(rune('a'+i)))
	}
	require.Equal(t, 200, get(t, "/__scheduled?cron=17+3+*+*+*").Status)
	for _, r := range rows {
		n := countRows(t, "SELECT count(*) AS n FROM query_daily WHERE app_id = ? AND day = ?", r.app, day(r.back))
		assert.Equal(t, r.kept, n == 1, "%s %d days back", r.app, r.back)
	}
}

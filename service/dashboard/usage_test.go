//go:build !js

package dashboard

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/service/accounts"
	"github.com/emojisearch/emojisearch/service/analytics"
	"github.com/emojisearch/emojisearch/service/plans"
	"github.com/emojisearch/emojisearch/service/store"
)

func TestMetricUsage(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	i := func(v int64) *int64 { return &v }
	cases := []struct {
		used, limit int64
		want        metricJSON
	}{
		{0, 100, metricJSON{Used: 0, Limit: i(100), Percent: f(0), Status: StatusOK}},
		{79, 100, metricJSON{Used: 79, Limit: i(100), Percent: f(79), Status: StatusOK}},
		{80, 100, metricJSON{Used: 80, Limit: i(100), Percent: f(80), Status: StatusWarning}},
		{2, 3, metricJSON{Used: 2, Limit: i(3), Percent: f(66.6), Status: StatusOK}},
		{9999, 10000, metricJSON{Used: 9999, Limit: i(10000), Percent: f(99.9), Status: StatusWarning}},
		{100, 100, metricJSON{Used: 100, Limit: i(100), Percent: f(100), Status: StatusOver}},
		{150, 100, metricJSON{Used: 150, Limit: i(100), Percent: f(150), Status: StatusOver}},
		{0, 0, metricJSON{Used: 0, Limit: i(0), Percent: f(0), Status: StatusOK}},
		{3, 0, metricJSON{Used: 3, Limit: i(0), Percent: f(100), Status: StatusOver}},
		{5, plans.Unlimited, metricJSON{Used: 5, Status: StatusOK}},
	}
	for _, c := range cases {
		got := metricUsage(c.used, 1, c.limit)
		c.want.AppUsed = 1
		assert.Equal(t, c.want, got, "%d of %d", c.used, c.limit)
	}
}

func TestUsageRoute(t *testing.T) {
	e := newEnv(t)
	a := e.user("u", "u@x.io", plans.Free)
	app1 := e.createApp("u", "production")
	app2 := e.createApp("u", "development")
	free, _ := plans.Get(plans.Free)
	require.NoError(t, e.repo.AddUsage(bg, []accounts.Delta{
		{AppID: app1, Period: "2026-11", Metric: plans.SemanticCalls, Count: free.SemanticCalls * 6 / 10},
		{AppID: app2, Period: "2026-11", Metric: plans.SemanticCalls, Count: free.SemanticCalls * 3 / 10},
		{AppID: app2, Period: "2026-11", Metric: plans.ImageClassifications, Count: free.ImageClassifications},
		{AppID: app1, Period: "2026-10", Metric: plans.SemanticCalls, Count: 7},
	}))

	r := e.do(req{method: "GET", path: "/api/apps/" + app1 + "/usage", token: "u"})
	require.Equal(t, http.StatusOK, r.Code, r.Body.String())
	m := r.json()
	assert.Equal(t, "2026-11", m["period"], "the current UTC month by default")
	assert.Equal(t, app1, m["appId"])
	u := m["usage"].(map[string]any)
	assert.Equal(t, map[string]any{"used": float64(free.SemanticCalls * 9 / 10), "limit": float64(free.SemanticCalls),
		"percent": float64(90), "status": "warning", "appUsed": float64(free.SemanticCalls * 6 / 10)}, u["semantic_calls"])
	assert.Equal(t, map[string]any{"used": float64(free.ImageClassifications), "limit": float64(free.ImageClassifications),
		"percent": float64(100), "status": "over", "appUsed": float64(0)}, u["image_classifications"])
	assert.Equal(t, map[string]any{"used": float64(0), "limit": float64(0), "percent": float64(0), "status": "ok",
		"appUsed": float64(0)}, u["custom_emoji"])

	r = e.do(req{method: "GET", path: "/api/apps/" + app1 + "/usage?period=2026-10", token: "u"})
	assert.Equal(t, float64(7), r.json()["usage"].(map[string]any)["semantic_calls"].(map[string]any)["used"])

	for _, bad := range []string{"2026-13", "2026-1", "26-11", "2026-11-01", "x'%20OR%201=1"} {
		r = e.do(req{method: "GET", path: "/api/apps/" + app1 + "/usage?period=" + bad, token: "u"})
		assert.Equal(t, http.StatusBadRequest, r.Code, bad)
		assert.Equal(t, "period", r.errField("field"), bad)
	}
	r = e.do(req{method: "GET", path: "/api/apps/app_x/usage", token: "u"})
	assert.Equal(t, http.StatusNotFound, r.Code)

	// custom_emoji is what is stored now, in every period.
	_, err := e.db.Run(bg, store.Q(`INSERT INTO custom_emoji (id, app_id, scope, shortcode, image_key, content_type, source, bytes, created_at)
		VALUES ('emo_1', ?, '', 'x', 'custom/k', 'image/png', 'upload', 1, 1)`, app2))
	require.NoError(t, err)
	require.NoError(t, e.repo.SetPlan(bg, a.ID, plans.Solo))
	r = e.do(req{method: "GET", path: "/api/apps/" + app1 + "/usage?period=2020-01", token: "u"})
	ce := r.json()["usage"].(map[string]any)["custom_emoji"].(map[string]any)
	assert.Equal(t, float64(1), ce["used"])
	assert.Equal(t, float64(0), ce["appUsed"])
	assert.Equal(t, "solo", r.json()["plan"])
}

func TestBillingAndUpgrade(t *testing.T) {
	e := newEnv(t)
	a := e.user("u", "U@x.io", plans.Free)
	e.user("anon", "", plans.Free)
	app := e.createApp("u", "production")
	require.NoError(t, e.repo.AddUsage(bg, []accounts.Delta{{AppID: app, Period: "2026-11", Metric: plans.SemanticCalls, Count: 12}}))

	r := e.do(req{method: "GET", path: "/api/billing", token: "u"})
	require.Equal(t, http.StatusOK, r.Code, r.Body.String())
	free, _ := plans.Get(plans.Free)
	assert.Equal(t, map[string]any{
		"plan": "free", "period": "2026-11", "appCount": float64(1), "provider": nil, "waitlistPlan": nil,
		"usage": map[string]any{"semantic_calls": float64(12), "image_classifications": float64(0), "custom_emoji": float64(0)},
		"limits": map[string]any{"semantic_calls": float64(free.SemanticCalls), "image_classifications": float64(free.ImageClassifications),
			"custom_emoji": float64(0), "maxApps": float64(free.MaxApps)},
	}, r.json())

	cases := []struct {
		name, token string
		body        any
		status      int
		code, field string
	}{
		{"unknown plan", "u", map[string]any{"plan": "gold"}, http.StatusBadRequest, "invalid_request", "plan"},
		{"free is no upgrade", "u", map[string]any{"plan": "free"}, http.StatusConflict, "plan_not_higher", ""},
		{"bad email", "u", map[string]any{"plan": "pro", "email": "not an email"}, http.StatusBadRequest, "invalid_request", "email"},
		{"no email at all", "anon", map[string]any{"plan": "pro"}, http.StatusBadRequest, "invalid_request", "email"},
		{"pro", "u", map[string]any{"plan": "pro"}, http.StatusOK, "", ""},
		{"without email, one given", "anon", map[string]any{"plan": "scale", "email": "anon@x.io"}, http.StatusOK, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := e.do(req{method: "POST", path: "/api/billing/upgrade", token: c.token, body: c.body})
			require.Equal(t, c.status, r.Code, r.Body.String())
			if c.code != "" {
				assert.Equal(t, c.code, r.errCode())
				if c.field != "" {
					assert.Equal(t, c.field, r.errField("field"))
				}
				return
			}
			assert.Equal(t, map[string]any{"status": "waitlist", "plan": c.body.(map[string]any)["plan"]}, r.json())
		})
	}
	got, err := e.repo.Account(bg, a.ID)
	require.NoError(t, err)
	assert.Equal(t, plans.Free, got.Plan, "the upgrade never changes the plan")
	r = e.do(req{method: "GET", path: "/api/billing", token: "u"})
	assert.Equal(t, "pro", r.json()["waitlistPlan"])
	r = e.do(req{method: "GET", path: "/api/me", token: "u"})
	assert.Equal(t, "pro", r.json()["waitlistPlan"])
	assert.Equal(t, int64(1), e.count("SELECT count(*) AS n FROM waitlist WHERE email = 'u@x.io' AND source = 'upgrade' AND account_id = ?", a.ID))

	require.NoError(t, e.repo.SetPlan(bg, a.ID, plans.Pro))
	for _, p := range []string{"pro", "solo", "free"} {
		r = e.do(req{method: "POST", path: "/api/billing/upgrade", token: "u", body: map[string]any{"plan": p}})
		assert.Equal(t, http.StatusConflict, r.Code, p)
		assert.Equal(t, "plan_not_higher", r.errCode(), p)
	}
	r = e.do(req{method: "GET", path: "/api/billing?owner=acc_missing", token: "u"})
	assert.Equal(t, http.StatusNotFound, r.Code)
}

// The daily chart's figures: one entry per UTC day of the month up to
// today (2026-11-20 in the test clock), every day of a past month, from
// the search analytics' day totals, on every plan.
func TestUsageDays(t *testing.T) {
	e := newEnv(t)
	e.user("u", "u@x.io", plans.Free)
	app := e.createApp("u", "production")
	other := e.createApp("u", "production")
	require.NoError(t, analytics.NewStore(e.db).AddRows(bg, []analytics.Row{
		{AppID: app, Day: "2026-11-02", Key: analytics.QueryKey("en", "cat"), Locale: "en", Query: "cat", Searches: 3, Misses: 1},
		{AppID: app, Day: "2026-11-20", Key: analytics.QueryKey("en", "dog"), Locale: "en", Query: "dog", Searches: 4},
		{AppID: app, Day: "2026-11-20", Key: analytics.QueryKey("fr", "chat"), Locale: "fr", Query: "chat", Searches: 2},
		{AppID: app, Day: "2026-10-31", Key: analytics.QueryKey("en", "cat"), Locale: "en", Query: "cat", Searches: 9},
		{AppID: other, Day: "2026-11-20", Key: analytics.QueryKey("en", "cat"), Locale: "en", Query: "cat", Searches: 50},
	}))
	cases := []struct {
		name, query string
		n           int
		want        map[string][2]float64 // day → searches, misses
	}{
		{"this month up to today", "", 20, map[string][2]float64{"2026-11-01": {0, 0}, "2026-11-02": {3, 1}, "2026-11-20": {6, 0}}},
		{"a past month, every day", "?period=2026-10", 31, map[string][2]float64{"2026-10-01": {0, 0}, "2026-10-31": {9, 0}}},
		{"a future month is empty", "?period=2026-12", 0, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := e.do(req{method: "GET", path: "/api/apps/" + app + "/usage" + tc.query, token: "u"})
			require.Equal(t, http.StatusOK, r.Code, r.Body.String())
			days := r.json()["days"].([]any)
			require.Len(t, days, tc.n)
			got := map[string][2]float64{}
			for _, d := range days {
				m := d.(map[string]any)
				got[m["day"].(string)] = [2]float64{m["searches"].(float64), m["misses"].(float64)}
			}
			for day, want := range tc.want {
				assert.Equal(t, want, got[day], day)
			}
		})
	}
}

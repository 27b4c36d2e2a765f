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
)

// Spec 2 Analytics rules, through the route: the plan gate, roles, the
// window and its cut to retention.
func TestAnalyticsRoute(t *testing.T) {
	e := newEnv(t) // today is 2026-11-20
	owner := e.user("owner", "o@x.io", plans.Pro)
	viewer := e.user("viewer", "v@x.io", plans.Free)
	e.member(owner, viewer, accounts.RoleViewer)
	e.user("stranger", "s@x.io", plans.Pro)
	app := e.createApp("owner", "production")
	require.NoError(t, analytics.NewStore(e.db).AddRows(bg, []analytics.Row{
		{AppID: app, Day: "2026-11-20", Key: analytics.QueryKey("en", "cat"), Locale: "en", Query: "cat", Searches: 6, Misses: 2},
		{AppID: app, Day: "2026-09-01", Key: analytics.QueryKey("en", "old"), Locale: "en", Query: "old", Searches: 9},
	}))
	path := "/api/apps/" + app + "/analytics"

	cases := []struct {
		name, token, query string
		status             int
		code               string
		days               int
	}{
		{"default 30 days", "owner", "", 200, "", 30},
		{"7 days", "owner", "?days=7", 200, "", 7},
		{"90 cut to Pro's 30", "owner", "?days=90", 200, "", 30},
		{"viewer of the team", "viewer", "?days=7", 200, "", 7},
		{"bad days", "owner", "?days=14", 400, "invalid_request", 0},
		{"not a member", "stranger", "", 404, "not_found", 0},
		{"no token", "", "", 401, "", 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := e.do(req{method: "GET", path: path + tc.query, token: tc.token})
			require.Equal(t, tc.status, r.Code, r.Body.String())
			assert.Equal(t, "no-store", r.Header().Get("Cache-Control"))
			if tc.code != "" {
				assert.Equal(t, tc.code, r.errCode())
			}
			if tc.status != 200 {
				return
			}
			m := r.json()
			days := m["days"].([]any)
			require.Len(t, days, tc.days)
			assert.Equal(t, map[string]any{"day": "2026-11-20", "searches": 6.0, "misses": 2.0}, days[len(days)-1])
			assert.Equal(t, []any{map[string]any{"query": "cat", "searches": 6.0}}, m["topQueries"])
			assert.Equal(t, []any{map[string]any{"query": "cat", "misses": 2.0}}, m["topMisses"])
			assert.Equal(t, []any{map[string]any{"locale": "en", "searches": 6.0}}, m["locales"])
		})
	}

	require.NoError(t, e.repo.SetPlan(bg, owner.ID, plans.Scale))
	m := e.do(req{method: "GET", path: path + "?days=90", token: "owner"}).json()
	assert.Len(t, m["days"], 90, "Scale keeps 365 days: 90 stays 90")
	assert.Equal(t, "old", m["topQueries"].([]any)[0].(map[string]any)["query"])

	for _, plan := range []string{plans.Free, plans.Solo} {
		require.NoError(t, e.repo.SetPlan(bg, owner.ID, plan))
		r := e.do(req{method: "GET", path: path, token: "owner"})
		require.Equal(t, http.StatusPaymentRequired, r.Code, plan)
		assert.Equal(t, "plan_required", r.errCode())
		assert.Equal(t, "pro", r.errField("plan"))
	}
}

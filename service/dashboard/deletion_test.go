//go:build !js

package dashboard

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/service/accounts"
	"github.com/emojisearch/emojisearch/service/apikey"
	"github.com/emojisearch/emojisearch/service/auth"
	"github.com/emojisearch/emojisearch/service/plans"
	"github.com/emojisearch/emojisearch/service/store"
)

// allTables lists every table of migrations/ but the bookkeeping ones.
var allTables = []string{"accounts", "apps", "api_keys", "usage_monthly", "team_members", "invites", "waitlist",
	"deleted_users", "tenants", "custom_emoji", "webhooks", "webhook_deliveries", "usage_thresholds", "query_daily", "sessions", "events",
	"webhook_fanouts", "webhook_queue"}

func TestAllTablesListed(t *testing.T) {
	e := newEnv(t)
	res, err := e.db.All(bg, store.Q(`SELECT name FROM sqlite_master WHERE type = 'table'
		AND name NOT IN ('cron_runs', 'd1_migrations', 'sqlite_sequence')`))
	require.NoError(t, err)
	var names []string
	for _, r := range res.Rows {
		n, _ := r.String("name")
		names = append(names, n)
	}
	assert.ElementsMatch(t, allTables, names, "a new table must join the deletion checks")
}

func (e *env) tableCounts() map[string]int64 {
	out := map[string]int64{}
	for _, tb := range allTables {
		out[tb] = e.count("SELECT count(*) AS n FROM " + tb)
	}
	return out
}

// populate gives the account rows in every table through the API where
// there is one and directly otherwise, and links it with another account
// both ways. It returns the image keys of its custom emoji.
func (e *env) populate(token string, a accounts.Account, other accounts.Account) []string {
	e.t.Helper()
	app := e.createApp(token, "development")
	e.createKey(token, app, apikey.Publishable, nil)
	require.NoError(e.t, e.repo.AddUsage(bg, []accounts.Delta{{AppID: app, Period: "2026-11", Metric: plans.SemanticCalls, Count: 4}}))
	if email := a.EmailOrEmpty(); email != "" {
		require.NoError(e.t, e.repo.JoinWaitlist(bg, accounts.WaitlistEntry{Email: email, Plan: plans.Scale, Source: accounts.SourceWebsite}))
	}
	imgs := []string{"custom/" + app + "/_/emo_a_" + token + ".png", "custom/" + app + "/ten_" + token + "/emo_b.png"}
	_, err := e.db.Batch(bg, []store.Stmt{
		store.Q("INSERT INTO query_daily (app_id, day, qkey, query, searches, misses) VALUES (?, '2026-11-20', '00000000000000ca', 'cat', 3, 1)", app),
		store.Q("INSERT INTO tenants (id, app_id, external_id, created_at) VALUES (?, ?, 'cust', 1)", "ten_"+token, app),
		store.Q(`INSERT INTO custom_emoji (id, app_id, scope, shortcode, image_key, content_type, source, bytes, created_at)
			VALUES (?, ?, '', 'a', ?, 'image/png', 'upload', 1, 1)`, "emo_a_"+token, app, imgs[0]),
		store.Q(`INSERT INTO custom_emoji (id, app_id, tenant_id, scope, shortcode, image_key, content_type, source, bytes, created_at)
			VALUES (?, ?, ?, ?, 'b', ?, 'image/png', 'api', 1, 1)`, "emo_b_"+token, app, "ten_"+token, "ten_"+token, imgs[1]),
		store.Q("INSERT INTO webhooks (id, app_id, url, secret, created_at) VALUES (?, ?, 'https://h.example', 'whsec_x', 1)", "wh_"+token, app),
		store.Q("INSERT INTO webhook_deliveries (id, webhook_id, event_id, event, ok, duration_ms, created_at) VALUES (?, ?, 'evt', 'webhook.test', 1, 1, 1)", "dl_"+token, "wh_"+token),
		store.Q("INSERT INTO usage_thresholds (account_id, period, metric, threshold, limit_value, event_id, fired_at) VALUES (?, '2026-11', 'semantic_calls', 80, 10, 'evt', 1)", a.ID),
		store.Q("INSERT INTO sessions (id, account_id, token_hash, created_at, expires_at) VALUES (?, ?, ?, 1, 2)", "ses_"+token, a.ID, "th_"+token),
		store.Q("INSERT INTO team_members (id, owner_id, member_id, role, created_at) VALUES (?, ?, ?, 'viewer', 1)", "tm_"+token, a.ID, other.ID),
		store.Q("INSERT INTO invites (id, owner_id, token_hash, role, email, created_at) VALUES (?, ?, ?, 'viewer', 'z@x.io', 1)", "inv_"+token, a.ID, "ih_"+token),
		store.Q("INSERT INTO events (id, app_id, type, data, created_at) VALUES (?, ?, 'tenant.created', '{}', 1)", "evt_"+token, app),
		store.Q("INSERT INTO webhook_fanouts (event_id, app_id, fanned_at) VALUES (?, ?, 1)", "evt_"+token, app),
		store.Q("INSERT INTO webhook_queue (webhook_id, event_id, app_id, due_at, created_at) VALUES (?, ?, ?, 1, 1)", "wh_"+token, "evt_"+token, app),
	})
	require.NoError(e.t, err)
	return imgs
}

func TestDeleteAccount(t *testing.T) {
	e := newEnv(t)
	gone := e.user("gone", "Gone@Example.io", plans.Scale)
	keep := e.user("keep", "keep@x.io", plans.Scale)
	imgs := e.populate("gone", gone, keep)
	e.populate("keep", keep, gone)
	before := e.tableCounts()

	// Wrong confirmations delete nothing.
	for _, confirm := range []any{nil, "", "keep@x.io", "delete my account", "Gone@Example.io'; DELETE FROM accounts;--", 5} {
		body := map[string]any{}
		if confirm != nil {
			body["confirm"] = confirm
		}
		r := e.do(req{method: "DELETE", path: "/api/me", token: "gone", body: body})
		if _, isNumber := confirm.(int); isNumber {
			assert.Equal(t, "invalid_request", r.errCode())
			continue
		}
		assert.Equal(t, http.StatusBadRequest, r.Code, "%v", confirm)
		assert.Equal(t, "confirmation_required", r.errCode(), "%v", confirm)
	}
	assert.Equal(t, before, e.tableCounts())

	// The image store fails: 503 and every row stays.
	e.objects.fail = true
	r := e.do(req{method: "DELETE", path: "/api/me", token: "gone", body: map[string]any{"confirm": "  gone@example.IO "}})
	assert.Equal(t, http.StatusServiceUnavailable, r.Code)
	assert.Equal(t, "storage_unavailable", r.errCode())
	assert.Equal(t, before, e.tableCounts())

	e.objects.fail = false
	r = e.do(req{method: "DELETE", path: "/api/me", token: "gone", body: map[string]any{"confirm": "  gone@example.IO "}})
	require.Equal(t, http.StatusOK, r.Code, r.Body.String())
	assert.Equal(t, map[string]any{"ok": true, "idpUserDeleted": true}, r.json())
	assert.ElementsMatch(t, imgs, e.objects.deleted, "images deleted first")
	assert.Equal(t, []string{"idp_gone"}, e.users.deleted)

	// Exactly the deleted account's rows are gone: per table, what the
	// other account still owns plus the memory of the deleted user.
	after := e.tableCounts()
	assert.Equal(t, map[string]int64{
		"accounts": 1, "apps": 1, "api_keys": 1, "usage_monthly": 1, "team_members": 0, "invites": 1, "waitlist": 1,
		"deleted_users": 1, "tenants": 1, "custom_emoji": 2, "webhooks": 1, "webhook_deliveries": 1, "usage_thresholds": 1,
		"query_daily": 1, "sessions": 1, "events": 1, "webhook_fanouts": 1, "webhook_queue": 1,
	}, after)
	for _, q := range []string{
		"SELECT count(*) AS n FROM accounts WHERE id = ?",
		"SELECT count(*) AS n FROM apps WHERE account_id = ?",
		"SELECT count(*) AS n FROM team_members WHERE owner_id = ?1 OR member_id = ?1",
		"SELECT count(*) AS n FROM invites WHERE owner_id = ?",
		"SELECT count(*) AS n FROM usage_thresholds WHERE account_id = ?",
		"SELECT count(*) AS n FROM sessions WHERE account_id = ?",
		"SELECT count(*) AS n FROM waitlist WHERE account_id = ?",
	} {
		assert.Zero(t, e.count(q, gone.ID), q)
	}
	assert.Zero(t, e.count("SELECT count(*) AS n FROM waitlist WHERE email = 'gone@example.io'"))

	// The same still-valid token gets 401 for ten minutes, not a new account.
	r = e.do(req{method: "GET", path: "/api/me", token: "gone"})
	assert.Equal(t, http.StatusUnauthorized, r.Code)
	assert.Equal(t, "unauthorized", r.errCode())
	assert.Zero(t, e.count("SELECT count(*) AS n FROM accounts WHERE idp_user_id = 'idp_gone'"))
	e.clock.add(accounts.DeletedUserMemory)
	r = e.do(req{method: "GET", path: "/api/me", token: "gone"})
	assert.Equal(t, http.StatusOK, r.Code, "after ten minutes the id is forgotten")
	assert.Equal(t, float64(0), r.json()["appCount"])

	for _, l := range e.logs {
		assert.NotContains(t, strings.ToLower(l), "gone@example.io")
	}
}

func TestDeleteAccountWithoutEmailOrImages(t *testing.T) {
	e := newEnv(t, func(c Config) Config { return c.WithUserDeleter(nil).WithObjects(nil) })
	a := e.user("anon", "", plans.Free)
	e.createApp("anon", "development")
	r := e.do(req{method: "DELETE", path: "/api/me", token: "anon", body: map[string]any{"confirm": "anon@x.io"}})
	assert.Equal(t, "confirmation_required", r.errCode())
	r = e.do(req{method: "DELETE", path: "/api/me", token: "anon", body: map[string]any{"confirm": " Delete My Account "}})
	require.Equal(t, http.StatusOK, r.Code, r.Body.String())
	assert.Equal(t, map[string]any{"ok": true, "idpUserDeleted": false}, r.json(), "no deleter: the front end deletes the user")
	for tb, n := range e.tableCounts() {
		if tb == "deleted_users" {
			assert.Equal(t, int64(1), n)
			continue
		}
		assert.Zero(t, n, tb)
	}
	_, err := e.repo.Account(bg, a.ID)
	assert.ErrorIs(t, err, accounts.ErrNotFound)
}

func TestDeleteAccountImagesNeedTheStore(t *testing.T) {
	e := newEnv(t, func(c Config) Config { return c.WithObjects(nil) })
	a := e.user("u", "u@x.io", plans.Solo)
	other := e.user("o", "o@x.io", plans.Free)
	e.populate("u", a, other)
	before := e.tableCounts()
	r := e.do(req{method: "DELETE", path: "/api/me", token: "u", body: map[string]any{"confirm": "u@x.io"}})
	assert.Equal(t, http.StatusServiceUnavailable, r.Code)
	assert.Equal(t, "storage_unavailable", r.errCode())
	assert.Equal(t, before, e.tableCounts())
}

func TestDeleteAccountIdpFailure(t *testing.T) {
	e := newEnv(t)
	e.users.err = auth.ErrUserNotFound
	e.user("a", "a@x.io", plans.Free)
	r := e.do(req{method: "DELETE", path: "/api/me", token: "a", body: map[string]any{"confirm": "a@x.io"}})
	assert.Equal(t, true, r.json()["idpUserDeleted"], "already gone counts as deleted")

	e.users.err = &auth.ClerkError{Status: http.StatusBadGateway}
	e.user("b", "b@x.io", plans.Free)
	r = e.do(req{method: "DELETE", path: "/api/me", token: "b", body: map[string]any{"confirm": "b@x.io"}})
	require.Equal(t, http.StatusOK, r.Code)
	assert.Equal(t, false, r.json()["idpUserDeleted"], "a failure leaves it to the front end")
	assert.Zero(t, e.count("SELECT count(*) AS n FROM accounts"))
}

// TestUsageOfDeletedAppsDropped: counts an instance flushes after the
// deletion are dropped (spec 2, Account deletion 7).
func TestUsageOfDeletedAppsDropped(t *testing.T) {
	e := newEnv(t)
	e.user("u", "u@x.io", plans.Free)
	app := e.createApp("u", "production")
	r := e.do(req{method: "DELETE", path: "/api/me", token: "u", body: map[string]any{"confirm": "u@x.io"}})
	require.Equal(t, http.StatusOK, r.Code)
	require.NoError(t, e.repo.AddUsage(bg, []accounts.Delta{{AppID: app, Period: "2026-11", Metric: plans.SemanticCalls, Count: 3}}))
	assert.Zero(t, e.count("SELECT count(*) AS n FROM usage_monthly"))
}

//go:build !js

package dashboard

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/service/accounts"
	"github.com/emojisearch/emojisearch/service/apikey"
	"github.com/emojisearch/emojisearch/service/auth"
	"github.com/emojisearch/emojisearch/service/plans"
	"github.com/emojisearch/emojisearch/service/store"
)

func TestNewReportsEveryProblem(t *testing.T) {
	_, err := New(NewConfig(nil, nil).WithEnvironment("staging").WithWaitlist([]string{"ftp://x", "https://ok.example/path"}, nil).
		WithWaitlistPath("waitlist").WithClock(nil).WithLog(nil))
	require.Error(t, err)
	for _, want := range []string{"no database", "no authenticator", `"staging"`, "no clock", "no log",
		"no waitlist limiter", `"waitlist"`, `"ftp://x"`, `"https://ok.example/path"`} {
		assert.Contains(t, err.Error(), want)
	}
	_, err = New(NewConfig(nil, nil))
	assert.ErrorContains(t, err, "no website origins")
}

func TestAuthentication(t *testing.T) {
	e := newEnv(t)
	e.auth.add("noemail", auth.Identity{Subject: "idp_noemail", Name: "x"})
	e.auth.add("unverified", auth.Identity{Subject: "idp_unverified", Email: "u@x.io", EmailVerified: false})
	e.auth.add("new", auth.Identity{Subject: "idp_new", Email: "New@X.io", EmailVerified: true, Name: "New"})
	cases := []struct {
		name, token string
		status      int
		code        string
	}{
		{"no token", "", http.StatusUnauthorized, "unauthorized"},
		{"unknown token", "forged", http.StatusUnauthorized, "unauthorized"},
		{"provider not configured", "unconfigured", http.StatusServiceUnavailable, "clerk_unconfigured"},
		{"new user without email", "noemail", http.StatusForbidden, "email_required"},
		{"new user with unverified email", "unverified", http.StatusForbidden, "email_required"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := e.do(req{method: "GET", path: "/api/me", token: c.token})
			assert.Equal(t, c.status, r.Code)
			assert.Equal(t, c.code, r.errCode())
		})
	}
	assert.Zero(t, e.count("SELECT count(*) AS n FROM accounts"), "no account without a verified email")

	r := e.do(req{method: "GET", path: "/api/me", token: "new"})
	require.Equal(t, http.StatusOK, r.Code, r.Body.String())
	m := r.json()
	acc := m["account"].(map[string]any)
	assert.Equal(t, "New@X.io", acc["email"])
	assert.Equal(t, "free", acc["plan"])
	assert.Equal(t, "free", m["plan"])
	assert.Equal(t, float64(0), m["appCount"])
	assert.Nil(t, m["waitlistPlan"])
	assert.Equal(t, []any{}, m["teams"])
	// The same user again: the same account.
	r = e.do(req{method: "GET", path: "/api/me", token: "new"})
	assert.Equal(t, acc["id"], r.json()["account"].(map[string]any)["id"])
	assert.Equal(t, int64(1), e.count("SELECT count(*) AS n FROM accounts"))

	// An existing account keeps working if a later token lacks the email.
	e.auth.add("new", auth.Identity{Subject: "idp_new", Name: "New"})
	r = e.do(req{method: "GET", path: "/api/me", token: "new"})
	assert.Equal(t, http.StatusOK, r.Code)
	assert.Equal(t, "New@X.io", r.json()["account"].(map[string]any)["email"])
}

func TestProfileTeams(t *testing.T) {
	e := newEnv(t)
	owner := e.user("owner", "o@x.io", plans.Pro)
	me := e.user("me", "me@x.io", plans.Free)
	e.member(owner, me, accounts.RoleAdmin)
	e.createApp("me", "development")
	r := e.do(req{method: "GET", path: "/api/me", token: "me"})
	require.Equal(t, http.StatusOK, r.Code)
	m := r.json()
	assert.Equal(t, float64(1), m["appCount"])
	assert.Equal(t, []any{map[string]any{"ownerId": owner.ID, "ownerName": "Name owner", "role": "admin"}}, m["teams"])
}

func TestDevSignIn(t *testing.T) {
	dev := func(c Config) Config { return c.WithEnvironment(EnvDevelopment) }
	cases := []struct {
		name   string
		opts   []func(Config) Config
		host   string
		login  string
		status int
		code   string
	}{
		{"production environment", nil, "localhost:8787", "ann", http.StatusNotFound, "not_found"},
		{"development, other host", []func(Config) Config{dev}, "dash.example", "ann", http.StatusNotFound, "not_found"},
		{"bad login", []func(Config) Config{dev}, "localhost:8787", "a'; DROP TABLE accounts;--", http.StatusBadRequest, "invalid_request"},
		{"signed in", []func(Config) Config{dev}, "localhost:8787", "Ann", http.StatusOK, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, c.opts...)
			r := e.do(req{method: "GET", path: "/api/auth/dev?login=" + strings.ReplaceAll(c.login, " ", "%20"), host: c.host})
			assert.Equal(t, c.status, r.Code, r.Body.String())
			out := e.do(req{method: "POST", path: "/api/auth/logout", host: c.host})
			if c.code != "" {
				assert.Equal(t, c.code, r.errCode())
				assert.Empty(t, r.Result().Cookies())
				if c.code == "not_found" {
					assert.Equal(t, http.StatusNotFound, out.Code)
				}
				return
			}
			cookies := r.Result().Cookies()
			require.Len(t, cookies, 1)
			assert.Equal(t, auth.DevCookieName, cookies[0].Name)
			assert.Equal(t, "ann@dev.localhost", r.json()["account"].(map[string]any)["email"])
			assert.Equal(t, http.StatusOK, out.Code)
			cleared := out.Result().Cookies()
			require.Len(t, cleared, 1)
			assert.Less(t, cleared[0].MaxAge, 0)
		})
	}
}

func TestMethodNotAllowedInDashboardShape(t *testing.T) {
	e := newEnv(t)
	r := e.do(req{method: "PUT", path: "/api/me"})
	assert.Equal(t, http.StatusMethodNotAllowed, r.Code)
	assert.Equal(t, "method_not_allowed", r.errCode())
	assert.Equal(t, "DELETE, GET, HEAD", r.Header().Get("Allow"))
	assert.Equal(t, "no-store", r.Header().Get("Cache-Control"))

	missing := e.do(req{method: "GET", path: "/api/nothing/here"})
	assert.Equal(t, http.StatusNotFound, missing.Code)
	assert.Equal(t, "not_found", missing.errCode(), "unknown /api paths answer in the dashboard's shape")
}

func TestCreateApps(t *testing.T) {
	e := newEnv(t)
	e.user("u", "u@x.io", plans.Free)
	cases := []struct {
		name   string
		body   any
		status int
		code   string
		field  string
	}{
		{"empty name", map[string]any{"name": "  "}, http.StatusBadRequest, "invalid_request", "name"},
		{"long name", map[string]any{"name": strings.Repeat("é", 65)}, http.StatusBadRequest, "invalid_request", "name"},
		{"control character", map[string]any{"name": "a\u0000b"}, http.StatusBadRequest, "invalid_request", "name"},
		{"name of the wrong type", map[string]any{"name": 5}, http.StatusBadRequest, "invalid_request", "name"},
		{"unknown environment", map[string]any{"name": "a", "environment": "staging"}, http.StatusBadRequest, "invalid_request", "environment"},
		{"development app", map[string]any{"name": " Mine ", "environment": "development"}, http.StatusCreated, "", ""},
		{"production by default", map[string]any{"name": "Robert'); DROP TABLE apps;--"}, http.StatusCreated, "", ""},
		{"past maxApps", map[string]any{"name": "third"}, http.StatusPaymentRequired, "plan_required", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := e.do(req{method: "POST", path: "/api/apps", token: "u", body: c.body})
			require.Equal(t, c.status, r.Code, r.Body.String())
			if c.code != "" {
				assert.Equal(t, c.code, r.errCode())
				if c.field != "" {
					assert.Equal(t, c.field, r.errField("field"))
				}
				return
			}
			app := r.json()["app"].(map[string]any)
			assert.Equal(t, "owner", app["role"])
			assert.Equal(t, "native", app["emojiSet"])
		})
	}
	r := e.do(req{method: "POST", path: "/api/apps", token: "u", body: map[string]any{"name": "x"}})
	assert.Equal(t, "solo", r.errField("plan"), "the cheapest plan with more apps")

	r = e.do(req{method: "GET", path: "/api/apps", token: "u"})
	require.Equal(t, http.StatusOK, r.Code)
	apps := r.json()["apps"].([]any)
	require.Len(t, apps, 2)
	assert.Equal(t, "Mine", apps[0].(map[string]any)["name"])
	assert.Equal(t, "development", apps[0].(map[string]any)["environment"])
	assert.Equal(t, "Robert'); DROP TABLE apps;--", apps[1].(map[string]any)["name"], "stored verbatim")
	assert.Equal(t, "production", apps[1].(map[string]any)["environment"])
}

func TestTopPlanAtMaxApps(t *testing.T) {
	e := newEnv(t)
	a := e.user("big", "b@x.io", plans.Scale)
	scale, _ := plans.Get(plans.Scale)
	var stmts []store.Stmt
	for i := range scale.MaxApps {
		stmts = append(stmts, store.Q("INSERT INTO apps (id, account_id, name, environment, created_at) VALUES (?, ?, 'a', 'production', ?)",
			accounts.NewID("app"), a.ID, i))
	}
	_, err := e.db.Batch(bg, stmts)
	require.NoError(t, err)
	r := e.do(req{method: "POST", path: "/api/apps", token: "big", body: map[string]any{"name": "one more"}})
	assert.Equal(t, http.StatusForbidden, r.Code)
	assert.Equal(t, "plan_limit", r.errCode())
}

func TestParallelCreatesNeverPassMaxApps(t *testing.T) {
	e := newEnv(t)
	a := e.user("u", "u@x.io", plans.Solo)
	solo, _ := plans.Get(plans.Solo)
	var wg sync.WaitGroup
	var mu sync.Mutex
	codes := map[int]int{}
	for range 3 * solo.MaxApps {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := e.do(req{method: "POST", path: "/api/apps", token: "u", body: map[string]any{"name": "p"}})
			mu.Lock()
			codes[r.Code]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	assert.Equal(t, map[int]int{http.StatusCreated: solo.MaxApps, http.StatusPaymentRequired: 2 * solo.MaxApps}, codes)
	assert.Equal(t, int64(solo.MaxApps), e.count("SELECT count(*) AS n FROM apps WHERE account_id = ?", a.ID))
}

func TestPatchAppPlanGate(t *testing.T) {
	e := newEnv(t)
	owner := e.user("u", "u@x.io", plans.Free)
	app := e.createApp("u", "production")
	path := "/api/apps/" + app
	cases := []struct {
		name   string
		plan   string
		body   any
		status int
		code   string
		field  string
		plan2  string
	}{
		{"hosted set on free", plans.Free, map[string]any{"emojiSet": "twemoji"}, http.StatusPaymentRequired, "plan_required", "", "solo"},
		{"native on free", plans.Free, map[string]any{"emojiSet": "native"}, http.StatusOK, "", "", ""},
		{"unknown set", plans.Solo, map[string]any{"emojiSet": "apple"}, http.StatusBadRequest, "invalid_request", "emojiSet", ""},
		{"hosted set on solo", plans.Solo, map[string]any{"emojiSet": "noto", "name": "Renamed"}, http.StatusOK, "", "", ""},
		{"bad name", plans.Solo, map[string]any{"name": ""}, http.StatusBadRequest, "invalid_request", "name", ""},
		{"not found", plans.Solo, nil, http.StatusNotFound, "not_found", "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			require.NoError(t, e.repo.SetPlan(bg, owner.ID, c.plan))
			p := path
			body := c.body
			if body == nil {
				p, body = "/api/apps/app_missing", map[string]any{"name": "x"}
			}
			r := e.do(req{method: "PATCH", path: p, token: "u", body: body})
			require.Equal(t, c.status, r.Code, r.Body.String())
			if c.code != "" {
				assert.Equal(t, c.code, r.errCode())
				if c.field != "" {
					assert.Equal(t, c.field, r.errField("field"))
				}
				if c.plan2 != "" {
					assert.Equal(t, c.plan2, r.errField("plan"))
				}
			}
		})
	}
	r := e.do(req{method: "GET", path: path, token: "u"})
	app1 := r.json()["app"].(map[string]any)
	assert.Equal(t, "noto", app1["emojiSet"])
	assert.Equal(t, "Renamed", app1["name"])
}

// TestRoleMatrix runs every role against every app, key, usage and
// billing route, then takes Teams away from the owner's plan.
func TestRoleMatrix(t *testing.T) {
	e := newEnv(t)
	owner := e.user("owner", "o@x.io", plans.Pro)
	for _, role := range []string{accounts.RoleAdmin, accounts.RoleDeveloper, accounts.RoleViewer} {
		e.member(owner, e.user(role, role+"@x.io", plans.Free), role)
	}
	e.user("stranger", "s@x.io", plans.Free)
	app := e.createApp("owner", "development")

	routes := []roleRoute{
		{"GET app", accounts.RoleViewer, func(tok string) resp { return e.do(req{method: "GET", path: "/api/apps/" + app, token: tok}) }},
		{"GET usage", accounts.RoleViewer, func(tok string) resp {
			return e.do(req{method: "GET", path: "/api/apps/" + app + "/usage", token: tok})
		}},
		{"PATCH app", accounts.RoleDeveloper, func(tok string) resp {
			return e.do(req{method: "PATCH", path: "/api/apps/" + app, token: tok, body: map[string]any{"name": "n"}})
		}},
		{"POST key", accounts.RoleDeveloper, func(tok string) resp {
			return e.do(req{method: "POST", path: "/api/apps/" + app + "/keys", token: tok, body: map[string]any{"kind": "secret"}})
		}},
		{"PATCH key", accounts.RoleDeveloper, func(tok string) resp {
			id, _ := e.createKey("owner", app, apikey.Publishable, nil)
			return e.do(req{method: "PATCH", path: "/api/keys/" + id, token: tok, body: map[string]any{"allowedOrigins": []string{"https://a.example"}}})
		}},
		{"DELETE key", accounts.RoleDeveloper, func(tok string) resp {
			id, _ := e.createKey("owner", app, apikey.Secret, nil)
			return e.do(req{method: "DELETE", path: "/api/keys/" + id, token: tok})
		}},
		{"GET billing", accounts.RoleAdmin, func(tok string) resp {
			return e.do(req{method: "GET", path: "/api/billing?owner=" + owner.ID, token: tok})
		}},
		{"POST upgrade", accounts.RoleOwner, func(tok string) resp {
			return e.do(req{method: "POST", path: "/api/billing/upgrade?owner=" + owner.ID, token: tok, body: map[string]any{"plan": "scale"}})
		}},
	}
	roleMatrix(t, routes)
}

func TestAppListOwnThenTeam(t *testing.T) {
	e := newEnv(t)
	owner := e.user("owner", "o@x.io", plans.Scale)
	me := e.user("me", "me@x.io", plans.Free)
	e.member(owner, me, accounts.RoleViewer)
	theirs := e.createApp("owner", "production")
	e.clock.add(time.Second)
	mine := e.createApp("me", "development")
	r := e.do(req{method: "GET", path: "/api/apps", token: "me"})
	apps := r.json()["apps"].([]any)
	require.Len(t, apps, 2)
	assert.Equal(t, mine, apps[0].(map[string]any)["id"])
	assert.Equal(t, me.ID, apps[0].(map[string]any)["ownerId"])
	assert.Equal(t, map[string]any{"id": theirs, "name": "app", "environment": "production", "emojiSet": "native",
		"createdAt": float64(e.clock.now().Add(-time.Second).UnixMilli()), "ownerId": owner.ID, "ownerName": "Name owner",
		"role": "viewer"}, apps[1])
}

func TestKeyLifecycle(t *testing.T) {
	e := newEnv(t)
	e.user("u", "u@x.io", plans.Free)
	prod := e.createApp("u", "production")
	dev := e.createApp("u", "development")

	cases := []struct {
		name    string
		app     string
		body    any
		status  int
		field   string
		origins []any
	}{
		{"bad kind", prod, map[string]any{"kind": "admin"}, http.StatusBadRequest, "kind", nil},
		{"publishable without origins on production", prod, map[string]any{"kind": "publishable", "allowedOrigins": []string{}}, http.StatusBadRequest, "allowedOrigins", nil},
		{"origin with a path", prod, map[string]any{"kind": "publishable", "allowedOrigins": []string{"https://a.example/x"}}, http.StatusBadRequest, "allowedOrigins", nil},
		{"origin with SQL", prod, map[string]any{"kind": "publishable", "allowedOrigins": []string{"https://a.example'; DROP TABLE api_keys;--"}}, http.StatusBadRequest, "allowedOrigins", nil},
		{"javascript scheme", prod, map[string]any{"kind": "publishable", "allowedOrigins": []string{"javascript://a"}}, http.StatusBadRequest, "allowedOrigins", nil},
		{"too many origins", prod, map[string]any{"kind": "publishable", "allowedOrigins": manyOrigins(51)}, http.StatusBadRequest, "allowedOrigins", nil},
		{"secret with origins", prod, map[string]any{"kind": "secret", "allowedOrigins": []string{"https://a.example"}}, http.StatusBadRequest, "allowedOrigins", nil},
		{"origins of the wrong type", prod, map[string]any{"kind": "publishable", "allowedOrigins": "https://a.example"}, http.StatusBadRequest, "allowedOrigins", nil},
		{"publishable on production", prod, map[string]any{"kind": "publishable",
			"allowedOrigins": []string{"HTTPS://A.example:443", "https://a.example/", "chrome-extension://abcdef", "http://localhost:5173"}},
			http.StatusCreated, "", []any{"https://a.example", "chrome-extension://abcdef", "http://localhost:5173"}},
		{"publishable without origins on development", dev, map[string]any{"kind": "publishable"}, http.StatusCreated, "", []any{}},
		{"secret", prod, map[string]any{"kind": "secret"}, http.StatusCreated, "", []any{}},
		{"unknown app", "app_missing", map[string]any{"kind": "secret"}, http.StatusNotFound, "", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := e.do(req{method: "POST", path: "/api/apps/" + c.app + "/keys", token: "u", body: c.body})
			require.Equal(t, c.status, r.Code, r.Body.String())
			if c.field != "" {
				assert.Equal(t, "invalid_request", r.errCode())
				assert.Equal(t, c.field, r.errField("field"))
			}
			if c.status != http.StatusCreated {
				return
			}
			m := r.json()
			key := m["key"].(map[string]any)
			full := m["fullKey"].(string)
			kind, ok := apikey.KindOf(full)
			assert.True(t, ok)
			assert.Equal(t, key["kind"], kind)
			assert.Equal(t, full[:12], key["hint"])
			assert.Equal(t, c.origins, key["allowedOrigins"])
			assert.Equal(t, "active", key["status"])
			assert.Nil(t, key["revokedAt"])
		})
	}

	id, full := e.createKey("u", prod, apikey.Publishable, []string{"https://a.example"})
	r := e.do(req{method: "GET", path: "/api/apps/" + prod, token: "u"})
	require.Equal(t, http.StatusOK, r.Code)
	assert.NotContains(t, r.Body.String(), full, "the full key is shown once")
	assert.NotContains(t, r.Body.String(), apikey.Hash(full))
	assert.NotContains(t, r.Body.String(), "hash")
	assert.Len(t, r.json()["keys"], 3)

	patch := func(body any) resp {
		return e.do(req{method: "PATCH", path: "/api/keys/" + id, token: "u", body: body})
	}
	r = patch(map[string]any{"allowedOrigins": []string{"https://b.example"}})
	require.Equal(t, http.StatusOK, r.Code, r.Body.String())
	assert.Equal(t, []any{"https://b.example"}, r.json()["key"].(map[string]any)["allowedOrigins"])
	r = patch(map[string]any{})
	assert.Equal(t, "allowedOrigins", r.errField("field"))
	r = patch(map[string]any{"allowedOrigins": []string{}})
	assert.Equal(t, http.StatusBadRequest, r.Code, "production publishable keys keep an origin")

	rec, found, err := e.repo.LookupKey(bg, apikey.Hash(full))
	require.NoError(t, err)
	require.True(t, found)
	assert.Equal(t, []string{"https://b.example"}, rec.AllowedOrigins)

	r = e.do(req{method: "DELETE", path: "/api/keys/" + id, token: "u"})
	require.Equal(t, http.StatusOK, r.Code)
	k := r.json()["key"].(map[string]any)
	assert.Equal(t, "revoked", k["status"])
	assert.Equal(t, float64(e.clock.now().UnixMilli()), k["revokedAt"])
	e.clock.add(time.Minute)
	r = e.do(req{method: "DELETE", path: "/api/keys/" + id, token: "u"})
	assert.Equal(t, float64(e.clock.now().Add(-time.Minute).UnixMilli()), r.json()["key"].(map[string]any)["revokedAt"])
	r = patch(map[string]any{"allowedOrigins": []string{"https://c.example"}})
	assert.Equal(t, http.StatusConflict, r.Code)
	assert.Equal(t, "key_revoked", r.errCode())
	rec, _, err = e.repo.LookupKey(bg, apikey.Hash(full))
	require.NoError(t, err)
	assert.True(t, rec.Revoked)
	assert.Equal(t, int64(1), e.count("SELECT count(*) AS n FROM api_keys WHERE id = ?", id), "revoked keys stay stored")

	for _, m := range []string{"PATCH", "DELETE"} {
		r = e.do(req{method: m, path: "/api/keys/key_missing", token: "u", body: map[string]any{"allowedOrigins": []string{}}})
		assert.Equal(t, http.StatusNotFound, r.Code)
		assert.Equal(t, "not_found", r.errCode())
	}
}

func manyOrigins(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = "https://o" + strings.Repeat("x", i) + ".example"
	}
	return out
}

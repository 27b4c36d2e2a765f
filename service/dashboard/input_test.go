//go:build !js

package dashboard

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/service/auth"
	"github.com/emojisearch/emojisearch/service/plans"
	"github.com/emojisearch/emojisearch/service/store"
)

// route is a method and path a table test calls.
type route struct{ method, path string }

// bodyCase is one request body and the refusal it must get.
type bodyCase struct {
	name, body, ctype string
	status            int
	code              string
}

// jsonRuleCases are the JSON rules every dashboard body route shares,
// around a well-formed body {"<field>": "<value>"}.
func jsonRuleCases(field, value string) []bodyCase {
	pair := `"` + field + `": "` + value + `"`
	return []bodyCase{
		{"oversized", `{"` + field + `": "` + strings.Repeat("a", MaxBody) + `"}`, "application/json", http.StatusRequestEntityTooLarge, "body_too_large"},
		{"malformed", `{` + pair, "application/json", http.StatusBadRequest, "invalid_json"},
		{"not an object", `["` + value + `"]`, "application/json", http.StatusBadRequest, "invalid_json"},
		{"trailing garbage", `{` + pair + `} {}`, "application/json", http.StatusBadRequest, "invalid_json"},
		{"empty", ``, "application/json", http.StatusBadRequest, "invalid_json"},
		{"not JSON", field + `=` + value, "text/plain", http.StatusUnsupportedMediaType, "unsupported_media_type"},
	}
}

// refuseBodies sends every case to every route as token and checks the
// status and error code; before runs ahead of each request.
func refuseBodies(t *testing.T, e *env, token string, routes []route, cases []bodyCase, before func()) {
	t.Helper()
	for _, rt := range routes {
		for _, c := range cases {
			t.Run(rt.method+" "+rt.path+" "+c.name, func(t *testing.T) {
				if before != nil {
					before()
				}
				r := e.do(req{method: rt.method, path: rt.path, token: token, body: c.body, contentType: c.ctype})
				assert.Equal(t, c.status, r.Code, r.Body.String())
				assert.Equal(t, c.code, r.errCode())
			})
		}
	}
}

func TestBadBodies(t *testing.T) {
	e := newEnv(t)
	e.user("u", "u@x.io", plans.Free)
	app := e.createApp("u", "development")
	routes := []route{
		{"POST", "/api/apps"},
		{"PATCH", "/api/apps/" + app},
		{"POST", "/api/apps/" + app + "/keys"},
		{"POST", "/api/billing/upgrade"},
		{"DELETE", "/api/me"},
		{"POST", "/api/waitlist"},
	}
	// A fresh waitlist rate-limit window for every request.
	refuseBodies(t, e, "u", routes, jsonRuleCases("name", "x"), func() { e.clock.add(time.Minute) })
	assert.Equal(t, int64(1), e.count("SELECT count(*) AS n FROM accounts"), "nothing changed")
	assert.Equal(t, int64(1), e.count("SELECT count(*) AS n FROM apps"))
}

// TestSQLMetacharacters sends quotes, comments and wildcards in every field
// and path part: stored verbatim where the field accepts them, refused by
// validation where it does not, and never touching other rows.
func TestSQLMetacharacters(t *testing.T) {
	const evil = `x'); DROP TABLE accounts; -- "%_*\`
	e := newEnv(t)
	e.auth.add("evil", auth.Identity{Subject: "idp_" + evil, Email: "o'hara%_@x.io", EmailVerified: true, Name: evil})
	r := e.do(req{method: "GET", path: "/api/me", token: "evil"})
	require.Equal(t, http.StatusOK, r.Code, r.Body.String())
	acc := r.json()["account"].(map[string]any)
	assert.Equal(t, evil, acc["name"])
	assert.Equal(t, "o'hara%_@x.io", acc["email"])
	other := e.user("other", "other@x.io", plans.Free)
	otherApp := e.createApp("other", "production")

	r = e.do(req{method: "POST", path: "/api/apps", token: "evil", body: map[string]any{"name": evil, "environment": "development"}})
	require.Equal(t, http.StatusCreated, r.Code, r.Body.String())
	app := r.json()["app"].(map[string]any)["id"].(string)
	r = e.do(req{method: "PATCH", path: "/api/apps/" + app, token: "evil", body: map[string]any{"name": evil + "2"}})
	require.Equal(t, http.StatusOK, r.Code)
	assert.Equal(t, evil+"2", r.json()["app"].(map[string]any)["name"])

	esc := url.PathEscape(evil)
	refused := []struct {
		method, path string
		body         any
		status       int
	}{
		{"GET", "/api/apps/" + esc, nil, http.StatusNotFound},
		{"GET", "/api/apps/%25", nil, http.StatusNotFound},
		{"PATCH", "/api/apps/" + esc, map[string]any{"name": "n"}, http.StatusNotFound},
		{"GET", "/api/apps/" + esc + "/usage", nil, http.StatusNotFound},
		{"PATCH", "/api/keys/" + esc, map[string]any{"allowedOrigins": []string{}}, http.StatusNotFound},
		{"DELETE", "/api/keys/" + esc, nil, http.StatusNotFound},
		{"GET", "/api/billing?owner=" + url.QueryEscape(evil), nil, http.StatusNotFound},
		{"GET", "/api/billing?owner=" + url.QueryEscape("' OR 1=1 --"), nil, http.StatusNotFound},
		{"PATCH", "/api/apps/" + app, map[string]any{"emojiSet": evil}, http.StatusBadRequest},
		{"POST", "/api/apps", map[string]any{"name": "n", "environment": evil}, http.StatusBadRequest},
		{"POST", "/api/apps/" + app + "/keys", map[string]any{"kind": evil}, http.StatusBadRequest},
		{"POST", "/api/apps/" + app + "/keys", map[string]any{"kind": "publishable", "allowedOrigins": []string{evil}}, http.StatusBadRequest},
		{"GET", "/api/apps/" + app + "/usage?period=" + url.QueryEscape(evil), nil, http.StatusBadRequest},
		{"POST", "/api/billing/upgrade", map[string]any{"plan": evil}, http.StatusBadRequest},
		{"POST", "/api/billing/upgrade", map[string]any{"plan": "pro", "email": evil}, http.StatusBadRequest},
		{"DELETE", "/api/me", map[string]any{"confirm": evil}, http.StatusBadRequest},
		{"DELETE", "/api/me", map[string]any{"confirm": "' OR '1'='1"}, http.StatusBadRequest},
	}
	for _, c := range refused {
		r := e.do(req{method: c.method, path: c.path, token: "evil", body: c.body})
		assert.Equal(t, c.status, r.Code, "%s %s: %s", c.method, c.path, r.Body.String())
	}

	r = e.do(req{method: "POST", path: "/api/billing/upgrade", token: "evil", body: map[string]any{"plan": "pro"}})
	require.Equal(t, http.StatusOK, r.Code, r.Body.String())
	r = e.do(req{method: "POST", path: "/api/waitlist", body: map[string]any{"email": "a'--%@x.io", "plan": "solo"}})
	require.Equal(t, http.StatusOK, r.Code, r.Body.String())
	assert.Equal(t, int64(1), e.count("SELECT count(*) AS n FROM waitlist WHERE email = ?", "a'--%@x.io"))
	assert.Equal(t, int64(1), e.count("SELECT count(*) AS n FROM waitlist WHERE email = ?", "o'hara%_@x.io"))

	// Everything else is as it was.
	assert.Equal(t, int64(2), e.count("SELECT count(*) AS n FROM accounts"))
	assert.Equal(t, int64(1), e.count("SELECT count(*) AS n FROM apps WHERE account_id = ? AND id = ?", other.ID, otherApp))
	row, err := e.db.First(bg, store.Q("SELECT name FROM apps WHERE id = ?", app))
	require.NoError(t, err)
	name, _ := row.String("name")
	assert.Equal(t, evil+"2", name)

	r = e.do(req{method: "DELETE", path: "/api/me", token: "evil", body: map[string]any{"confirm": "O'HARA%_@x.io"}})
	require.Equal(t, http.StatusOK, r.Code, r.Body.String())
	assert.Equal(t, int64(1), e.count("SELECT count(*) AS n FROM accounts"))
	assert.Equal(t, int64(1), e.count("SELECT count(*) AS n FROM waitlist"), "only the deleted account's entry went")
}

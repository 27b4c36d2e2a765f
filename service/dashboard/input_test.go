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

func TestBadBodies(t *testing.T) {
	e := newEnv(t)
	e.user("u", "u@x.io", plans.Free)
	app := e.createApp("u", "development")
	big := `{"name": "` + strings.Repeat("a", MaxBody) + `"}`
	routes := []struct{ method, path string }{
		{"POST", "/api/apps"},
		{"PATCH", "/api/apps/" + app},
		{"POST", "/api/apps/" + app + "/keys"},
		{"POST", "/api/billing/upgrade"},
		{"DELETE", "/api/me"},
		{"POST", "/api/waitlist"},
	}
	cases := []struct {
		name, body, ctype string
		status            int
		code              string
	}{
		{"oversized", big, "application/json", http.StatusRequestEntityTooLarge, "body_too_large"},
		{"malformed", `{"name": "x"`, "application/json", http.StatusBadRequest, "invalid_json"},
		{"not an object", `["x"]`, "application/json", http.StatusBadRequest, "invalid_json"},
		{"trailing garbage", `{"name": "x"} {}`, "application/json", http.StatusBadRequest, "invalid_json"},
		{"empty", ``, "application/json", http.StatusBadRequest, "invalid_json"},
		{"not JSON", `name=x`, "text/plain", http.StatusUnsupportedMediaType, "unsupported_media_type"},
	}
	for _, rt := range routes {
		for _, c := range cases {
			t.Run(rt.method+" "+rt.path+" "+c.name, func(t *testing.T) {
				e.clock.add(time.Minute) // a fresh waitlist rate-limit window
				r := e.do(req{method: rt.method, path: rt.path, token: "u", body: c.body, contentType: c.ctype})
				assert.Equal(t, c.status, r.Code, r.Body.String())
				assert.Equal(t, c.code, r.errCode())
			})
		}
	}
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

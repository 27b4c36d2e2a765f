package api_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/service/api"
	"github.com/emojisearch/emojisearch/service/auth"
	"github.com/emojisearch/emojisearch/service/dashboard"
	"github.com/emojisearch/emojisearch/service/httpx"
	"github.com/emojisearch/emojisearch/service/store"
)

// unreachable is a store no refused request may reach.
type unreachable struct{ store.DB }

// noLimit admits every waitlist post (never reached either).
type noLimit struct{}

func (noLimit) Allow(context.Context, string) (bool, error) { return true, nil }

// routeInputs lists every route with the query parameters and JSON body
// fields it reads (spec 1 and 2), and a value for each path parameter.
var routeInputs = []struct {
	method, path string // path parameters filled in
	pattern      string
	query        []string
	body         []string
}{
	{"GET", "/v1/health", "/v1/health", nil, nil},
	{"GET", "/v1/search", "/v1/search", []string{"q", "locale", "limit", "mode", "culture", "region", "pack", "tenant", "key"}, nil},
	{"POST", "/v1/suggest-reactions", "/v1/suggest-reactions", nil, []string{"text", "locale", "tenant"}},
	{"POST", "/v1/classify-image", "/v1/classify-image", []string{"limit", "locale", "key"}, nil},
	{"GET", "/api/me", "/api/me", nil, nil},
	{"DELETE", "/api/me", "/api/me", nil, []string{"confirm"}},
	{"GET", "/api/auth/dev", "/api/auth/dev", []string{"login"}, nil},
	{"POST", "/api/auth/logout", "/api/auth/logout", nil, nil},
	{"GET", "/api/apps", "/api/apps", nil, nil},
	{"POST", "/api/apps", "/api/apps", nil, []string{"name", "environment"}},
	{"GET", "/api/apps/app_1", "/api/apps/:id", nil, nil},
	{"PATCH", "/api/apps/app_1", "/api/apps/:id", nil, []string{"name", "emojiSet"}},
	{"POST", "/api/apps/app_1/keys", "/api/apps/:id/keys", nil, []string{"kind", "allowedOrigins"}},
	{"PATCH", "/api/keys/key_1", "/api/keys/:id", nil, []string{"allowedOrigins"}},
	{"DELETE", "/api/keys/key_1", "/api/keys/:id", nil, nil},
	{"GET", "/api/apps/app_1/usage", "/api/apps/:id/usage", []string{"period"}, nil},
	{"GET", "/api/billing", "/api/billing", []string{"owner"}, nil},
	{"POST", "/api/billing/upgrade", "/api/billing/upgrade", nil, []string{"plan", "email"}},
	{"POST", "/api/waitlist", "/api/waitlist", nil, []string{"email", "plan"}},
	{"GET", "/api/team", "/api/team", []string{"owner"}, nil},
	{"POST", "/api/team/invites", "/api/team/invites", []string{"owner"}, []string{"role", "email"}},
	{"DELETE", "/api/team/invites/inv_1", "/api/team/invites/:id", []string{"owner"}, nil},
	{"PATCH", "/api/team/members/acct_1", "/api/team/members/:id", []string{"owner"}, []string{"role"}},
	{"DELETE", "/api/team/members/acct_1", "/api/team/members/:id", []string{"owner"}, nil},
	{"POST", "/api/invites/tok_1/accept", "/api/invites/:token/accept", nil, nil},
	{"GET", "/api/apps/app_1/analytics", "/api/apps/:id/analytics", []string{"days"}, nil},
	{"GET", "/api/apps/app_1/emoji", "/api/apps/:id/emoji", []string{"tenantId"}, nil},
	{"POST", "/api/apps/app_1/emoji", "/api/apps/:id/emoji", nil, nil}, // multipart: its fields are the upload's own rules
	{"PATCH", "/api/apps/app_1/emoji/emo_1", "/api/apps/:id/emoji/:emojiId", nil, []string{"shortcode", "aliases"}},
	{"DELETE", "/api/apps/app_1/emoji/emo_1", "/api/apps/:id/emoji/:emojiId", nil, nil},
	{"GET", "/api/apps/app_1/tenants", "/api/apps/:id/tenants", nil, nil},
	{"POST", "/api/apps/app_1/tenants", "/api/apps/:id/tenants", nil, []string{"externalId", "name"}},
	{"GET", "/api/apps/app_1/tenants/ten_1", "/api/apps/:id/tenants/:tenantId", nil, nil},
	{"DELETE", "/api/apps/app_1/tenants/ten_1", "/api/apps/:id/tenants/:tenantId", nil, nil},
	{"POST", "/api/auth/dev/plan", "/api/auth/dev/plan", nil, []string{"plan"}},
}

func fullService(t *testing.T) *api.Service {
	t.Helper()
	authn, err := auth.NewAuthenticator(auth.Config{DevSignIn: true})
	require.NoError(t, err)
	dash, err := dashboard.New(dashboard.NewConfig(unreachable{}, authn).WithEnvironment(dashboard.EnvDevelopment).
		WithWaitlist([]string{"https://www.example.com"}, noLimit{}))
	require.NoError(t, err)
	return api.New(api.Config{
		PackVersion: "2026.11.0",
		Search: http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
			t.Error("a refused request reached the search handler")
		}),
		Reactions: http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
			t.Error("a refused request reached the reactions handler")
		}),
		Classify: http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
			t.Error("a refused request reached the classify handler")
		}),
		Dashboard: func(r *httpx.Router) { dash.Routes(r) },
	})
}

// TestInvalidUTF8Refused: text that is not UTF-8 in any query parameter,
// JSON string or path parameter of every /v1 and /api route answers 400
// in that surface's error shape, never cached, before the route runs.
func TestInvalidUTF8Refused(t *testing.T) {
	s := fullService(t)
	var covered []string
	for _, r := range routeInputs {
		covered = append(covered, r.pattern)
	}
	for _, p := range s.Routes() {
		if strings.HasPrefix(p, "/v1/") || strings.HasPrefix(p, "/api/") && !strings.Contains(p, "*") {
			assert.Contains(t, covered, p, "route %s has no row in routeInputs", p)
		}
	}

	type attempt struct {
		name, target, body, field, code string
	}
	for _, r := range routeInputs {
		var attempts []attempt
		for _, q := range r.query {
			attempts = append(attempts,
				attempt{q + " invalid", r.path + "?" + q + "=%ff%fe", "", q, "invalid_request"},
				attempt{q + " broken escape", r.path + "?" + q + "=%zz", "", q, "invalid_request"},
				attempt{q + " lone continuation byte", r.path + "?" + q + "=ok%80", "", q, "invalid_request"},
				attempt{q + " overlong slash", r.path + "?" + q + "=%c0%af", "", q, "invalid_request"})
		}
		attempts = append(attempts, attempt{"parameter name", r.path + "?%ff=1", "", "", "invalid_request"})
		for _, f := range r.body {
			attempts = append(attempts,
				attempt{f + " raw bytes", r.path, `{"` + f + "\":\"a\xff\xfe\"}", "", "invalid_json"},
				attempt{f + " lone surrogate escape", r.path, `{"` + f + `":"a\ud800b"}`, "", "invalid_json"},
				attempt{f + " in a list", r.path, `{"` + f + `":["\udc00"]}`, "", "invalid_json"})
		}
		if i := strings.LastIndex(r.path, "_1"); i > 0 {
			attempts = append(attempts, attempt{"path parameter", r.path[:i] + "%ff" + r.path[i+2:], "", "", "invalid_request"})
		}
		for _, a := range attempts {
			t.Run(r.method+" "+r.pattern+" "+a.name, func(t *testing.T) {
				var req *http.Request
				if a.body != "" {
					req = httptest.NewRequest(r.method, "http://localhost"+a.target, strings.NewReader(a.body))
					req.Header.Set("Content-Type", "application/json")
				} else {
					req = httptest.NewRequest(r.method, "http://localhost"+a.target, nil)
				}
				rec := httptest.NewRecorder()
				s.ServeHTTP(rec, req)
				require.Equal(t, 400, rec.Code, rec.Body.String())
				assert.Equal(t, "no-store", rec.Header().Get("Cache-Control"))
				assert.Equal(t, httpx.ContentTypeJSON, rec.Header().Get("Content-Type"))
				assert.Equal(t, "*", rec.Header().Get("Access-Control-Allow-Origin"))
				if strings.HasPrefix(r.pattern, "/api/") {
					var body struct{ Error dashboard.Error }
					require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &body), rec.Body.String())
					assert.Equal(t, a.code, body.Error.Code)
					assert.Equal(t, a.field, body.Error.Field)
					assert.NotEmpty(t, body.Error.Message)
				} else {
					var body map[string]any
					require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &body), rec.Body.String())
					assert.Equal(t, []string{"error"}, slices.Collect(mapsKeys(body)))
					assert.IsType(t, "", body["error"])
				}
			})
		}
	}
}

func mapsKeys(m map[string]any) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// Valid text passes: emoji, other scripts, surrogate pairs, + as space.
func TestValidUTF8Passes(t *testing.T) {
	reached := 0
	s := api.New(api.Config{Search: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached++
		w.WriteHeader(200)
	})})
	for _, target := range []string{
		"/v1/search?q=%F0%9F%98%80", "/v1/search?q=%E7%8C%AB&locale=zh", "/v1/search?q=so+tired",
		"/v1/search?q=a;b", "/v1/search?q=", "/v1/search?&&q=x", "/v1/search?q=%C3%A9t%C3%A9",
	} {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest("GET", "http://localhost"+target, nil))
		assert.Equal(t, 200, rec.Code, target)
	}
	assert.Equal(t, 7, reached)
}

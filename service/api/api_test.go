package api_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/service/api"
)

func serve(t *testing.T, method, url string) *httptest.ResponseRecorder {
	t.Helper()
	s := api.New(api.Config{PackVersion: "2026.11.0", Model: "glove-cldr@100", Semantic: false})
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(method, url, nil))
	return rec
}

func TestConventions(t *testing.T) {
	cases := []struct {
		name, method, url string
		status            int
		header            map[string]string
		errorContains     string
	}{
		{"health", "GET", "http://localhost/v1/health", 200, map[string]string{"Cache-Control": "no-store"}, ""},
		{"head health", "HEAD", "http://localhost/v1/health", 200, nil, ""},
		{"unknown route", "GET", "http://localhost/v1/nope", 404, map[string]string{"Cache-Control": "no-store"}, "No such route"},
		{"root", "GET", "http://localhost/", 404, nil, "No such route"},
		{"wrong method", "POST", "http://localhost/v1/health", 405, map[string]string{"Allow": "GET, HEAD"}, "not allowed"},
		{"preflight", "OPTIONS", "http://localhost/v1/health", 204, map[string]string{"Access-Control-Allow-Methods": "GET, HEAD"}, ""},
		{"plain http to a hosted name", "GET", "http://api.example.com/v1/health", 403, nil, "https"},
		{"https to a hosted name", "GET", "https://api.example.com/v1/health", 200, nil, ""},
		{"loopback ip", "GET", "http://127.0.0.1:8787/v1/health", 200, nil, ""},
		{"ipv6 loopback", "GET", "http://[::1]:8787/v1/health", 200, nil, ""},
		{"dev subdomain", "GET", "http://app.localhost/v1/health", 200, nil, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rec := serve(t, tc.method, tc.url)
			require.Equal(t, tc.status, rec.Code, rec.Body.String())
			assert.Equal(t, "*", rec.Header().Get("Access-Control-Allow-Origin"))
			for k, v := range tc.header {
				assert.Equal(t, v, rec.Header().Get(k), k)
			}
			if tc.status != 204 {
				assert.Equal(t, "application/json; charset=utf-8", rec.Header().Get("Content-Type"))
				assert.Equal(t, "nosniff", rec.Header().Get("X-Content-Type-Options"))
			}
			if tc.errorContains != "" {
				var body struct{ Error string }
				require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &body))
				assert.Contains(t, body.Error, tc.errorContains)
			}
		})
	}
}

func TestHealthBody(t *testing.T) {
	rec := serve(t, "GET", "http://localhost/v1/health")
	require.JSONEq(t, `{"ok":true,"packVersion":"2026.11.0","model":"glove-cldr@100","semantic":false}`, rec.Body.String())
	assert.False(t, strings.Contains(rec.Body.String(), "\n"))
}

// /v1/health's `semantic` is the meaning tier's truth: false with no
// backend bound, and false when the bound backend does not answer now.
func TestHealthSemantic(t *testing.T) {
	answers := func(ok bool) func(context.Context) bool { return func(context.Context) bool { return ok } }
	cases := []struct {
		name  string
		bound bool
		check func(context.Context) bool
		want  bool
	}{
		{"none bound", false, nil, false},
		{"none bound, check not asked", false, answers(true), false},
		{"bound, no check", true, nil, true},
		{"bound and answering", true, answers(true), true},
		{"bound and down", true, answers(false), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := api.New(api.Config{PackVersion: "2026.11.0", Model: "glove-cldr@100", Semantic: c.bound, SemanticCheck: c.check})
			rec := httptest.NewRecorder()
			s.ServeHTTP(rec, httptest.NewRequest("GET", "http://localhost/v1/health", nil))
			require.Equal(t, 200, rec.Code)
			var body map[string]any
			require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &body))
			assert.Equal(t, c.want, body["semantic"])
		})
	}
}

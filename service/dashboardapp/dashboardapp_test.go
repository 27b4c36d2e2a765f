package dashboardapp

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/service/httpx"
)

const page = "<!doctype html><title>Dashboard</title>"

func router(pageErr error) *httpx.Router {
	r := &httpx.Router{NotFound: httpx.NotFound(), BadMethod: httpx.MethodNotAllowed}
	Routes(r, Config{
		Environment:         "development",
		ClerkPublishableKey: "pk_test_x",
		Page: func(context.Context) ([]byte, error) {
			if pageErr != nil {
				return nil, pageErr
			}
			return []byte(page), nil
		},
	})
	return r
}

func TestRoutes(t *testing.T) {
	cases := []struct {
		name, method, path string
		status             int
		typ, body          string
	}{
		{"a page of the app", "GET", "/dashboard/apps/app_1/keys", 200, "text/html", page},
		{"an invite link", "GET", "/dashboard/invite/tok_abc", 200, "text/html", page},
		{"HEAD has no body", "HEAD", "/dashboard/team", 200, "text/html", ""},
		{"the settings", "GET", "/dashboard/config.json", 200, "application/json", `{"environment":"development","clerkPublishableKey":"pk_test_x"}`},
		{"a missing file is no page", "GET", "/dashboard/missing.js", 404, "application/json", ""},
		{"a missing nested file", "GET", "/dashboard/assets/x.css", 404, "application/json", ""},
		{"another method", "POST", "/dashboard/apps", 405, "application/json", ""},
	}
	r := router(nil)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w := httptest.NewRecorder()
			r.ServeHTTP(w, httptest.NewRequest(tc.method, tc.path, nil))
			assert.Equal(t, tc.status, w.Code)
			assert.Contains(t, w.Header().Get("Content-Type"), tc.typ)
			if tc.body != "" || tc.method == "HEAD" {
				assert.Equal(t, tc.body, w.Body.String())
			}
		})
	}
}

func TestPageHeaders(t *testing.T) {
	w := httptest.NewRecorder()
	router(nil).ServeHTTP(w, httptest.NewRequest("GET", "/dashboard/billing", nil))
	assert.Equal(t, "no-cache", w.Header().Get("Cache-Control"))
	assert.Equal(t, "DENY", w.Header().Get("X-Frame-Options"))
	assert.Equal(t, "nosniff", w.Header().Get("X-Content-Type-Options"))

	w = httptest.NewRecorder()
	router(nil).ServeHTTP(w, httptest.NewRequest("GET", ConfigPath, nil))
	assert.Equal(t, "no-store", w.Header().Get("Cache-Control"), "settings follow the vars at once")
}

func TestPageUnavailable(t *testing.T) {
	w := httptest.NewRecorder()
	router(errors.New("assets answered 404")).ServeHTTP(w, httptest.NewRequest("GET", "/dashboard/apps", nil))
	require.Equal(t, http.StatusServiceUnavailable, w.Code)
	assert.Equal(t, "60", w.Header().Get("Retry-After"))
	assert.Contains(t, w.Body.String(), "not available")
}

// Package dashboardapp serves the two things of the dashboard web app
// (/dashboard/, static assets built from dashboard/) that static files
// cannot: its settings from the Worker's vars, and deep links. The asset
// server answers /dashboard/ and the app's files before the Worker runs;
// a path under /dashboard/ with no file (/dashboard/apps/<id>/keys, an
// invite link /dashboard/invite/<token>) reaches the Worker, which answers
// with the app's page so the app can route it in the browser.
package dashboardapp

import (
	"context"
	"net/http"
	"strings"

	"github.com/emojisearch/emojisearch/service/httpx"
)

// ConfigPath is where the app reads its settings.
const ConfigPath = "/dashboard/config.json"

// Config says what the app is told and where its page comes from.
type Config struct {
	// Environment is the Worker's ENVIRONMENT: "development" lets the app
	// offer the development sign-in on localhost.
	Environment string
	// ClerkPublishableKey (CLERK_PUBLISHABLE_KEY) turns on the identity
	// provider's browser sign-in; empty: none.
	ClerkPublishableKey string
	// Page returns the app's HTML page (build/assets/dashboard/index.html,
	// read through the ASSETS binding).
	Page func(ctx context.Context) ([]byte, error)
}

// Settings is the body of ConfigPath.
type Settings struct {
	Environment         string `json:"environment"`
	ClerkPublishableKey string `json:"clerkPublishableKey"`
}

// Routes registers GET and HEAD of ConfigPath and of every other path
// under /dashboard/.
func Routes(r *httpx.Router, c Config) {
	config := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		httpx.JSON(w, http.StatusOK, Settings{Environment: c.Environment, ClerkPublishableKey: c.ClerkPublishableKey})
	})
	page := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { servePage(w, r, c) })
	for _, m := range []string{http.MethodGet, http.MethodHead} {
		r.Handle(m, ConfigPath, config)
		r.Handle(m, "/dashboard/*path", page)
	}
}

// servePage answers a deep link with the app's page. A path that names a
// file (a dot in its last segment) is a missing asset: 404, not the page,
// so a broken script reference fails loudly instead of parsing HTML.
func servePage(w http.ResponseWriter, r *http.Request, c Config) {
	if looksLikeFile(httpx.Param(r, "path")) {
		httpx.NotFound().ServeHTTP(w, r)
		return
	}
	body, err := c.Page(r.Context())
	if err != nil {
		w.Header().Set("Cache-Control", "no-store")
		w.Header().Set("Retry-After", "60")
		httpx.Error(w, http.StatusServiceUnavailable, "The dashboard is not available right now; try again.")
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "same-origin")
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(body)
	}
}

func looksLikeFile(path string) bool {
	return strings.Contains(path[strings.LastIndex(path, "/")+1:], ".")
}

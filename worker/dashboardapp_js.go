//go:build js && wasm

package main

import (
	"context"
	"fmt"
	"net/http"

	"github.com/emojisearch/emojisearch/service/dashboardapp"
	"github.com/emojisearch/emojisearch/service/httpx"
	"github.com/emojisearch/emojisearch/worker/internal/cf/fetch"
	"github.com/emojisearch/emojisearch/worker/internal/jsutil"
)

// dashboardPageAsset is the web app's page in the static assets (asked for
// as the folder: html_handling redirects /dashboard/index.html there).
const dashboardPageAsset = "https://assets.local/dashboard/"

// dashboardAppRoutes serves the dashboard web app's settings
// (ENVIRONMENT, CLERK_PUBLISHABLE_KEY) and its deep links.
func dashboardAppRoutes(r *httpx.Router) {
	env := jsutil.Env()
	dashboardapp.Routes(r, dashboardapp.Config{
		Environment:         jsutil.String(env.Get("ENVIRONMENT")),
		ClerkPublishableKey: jsutil.String(env.Get("CLERK_PUBLISHABLE_KEY")),
		Page: func(ctx context.Context) ([]byte, error) {
			res, err := fetch.Binding(ctx, "ASSETS", fetch.Request{URL: dashboardPageAsset})
			if err != nil {
				return nil, err
			}
			if res.Status != http.StatusOK {
				return nil, fmt.Errorf("dashboard page: assets answered %d", res.Status)
			}
			return res.Body, nil
		},
	})
}

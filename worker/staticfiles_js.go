//go:build js && wasm

package main

import (
	"context"
	"net/http"

	"github.com/emojisearch/emojisearch/service/httpx"
	"github.com/emojisearch/emojisearch/service/staticfiles"
	"github.com/emojisearch/emojisearch/worker/internal/cf/fetch"
)

// staticFileRoutes passes the pack and culture files run_worker_first sends
// to the Worker through the ASSETS binding.
func staticFileRoutes(r *httpx.Router) {
	staticfiles.Routes(r, func(ctx context.Context, method, path string, header http.Header) (*staticfiles.File, error) {
		res, err := fetch.Binding(ctx, "ASSETS", fetch.Request{Method: method, URL: "https://assets.local" + path, Header: header, Redirect: "manual"})
		if err != nil {
			return nil, err
		}
		return &staticfiles.File{Status: res.Status, Header: res.Header, Body: res.Body}, nil
	})
}

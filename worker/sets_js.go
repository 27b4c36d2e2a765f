//go:build js && wasm

package main

import (
	"context"
	"fmt"
	"net/http"
	"sync"

	"github.com/emojisearch/emojisearch/service/emojisets"
	"github.com/emojisearch/emojisearch/service/httpx"
	"github.com/emojisearch/emojisearch/worker/internal/cf/cache"
	"github.com/emojisearch/emojisearch/worker/internal/cf/fetch"
	"github.com/emojisearch/emojisearch/worker/internal/jsbridge"
	"github.com/emojisearch/emojisearch/worker/internal/jsutil"
)

// setsMapAsset is where build.sh puts packs/sets/sets.json.
const setsMapAsset = "https://assets.local/sets/sets.json"

// setRoutes serves GET /v1/sets/:set/:hexcode.svg. The mapping is read
// from the static assets on the first request of the instance (not at
// start: most instances never serve a set file), and again after a failure.
func setRoutes(r *httpx.Router) {
	h := &setsHandler{upstream: jsutil.String(jsutil.Env().Get("SETS_UPSTREAM"))}
	r.Handle(http.MethodGet, "/v1/sets/:set/:file", h)
}

type setsHandler struct {
	upstream string
	mu       sync.Mutex
	srv      *emojisets.Server
}

func (h *setsHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	srv, err := h.server(r.Context())
	if err != nil {
		fmt.Println("worker: hosted sets unavailable:", err)
		w.Header().Set("Cache-Control", "no-store")
		w.Header().Set("Retry-After", "60")
		httpx.JSON(w, http.StatusServiceUnavailable, map[string]string{"error": "unavailable", "message": "Hosted sets are not available right now; try again."})
		return
	}
	srv.ServeHTTP(w, r)
}

func (h *setsHandler) server(ctx context.Context) (*emojisets.Server, error) {
	h.mu.Lock()
	srv := h.srv
	h.mu.Unlock()
	if srv != nil {
		return srv, nil
	}
	res, err := fetch.Binding(ctx, "ASSETS", fetch.Request{URL: setsMapAsset})
	if err != nil {
		return nil, err
	}
	if res.Status != http.StatusOK {
		return nil, fmt.Errorf("sets.json: assets answered %d", res.Status)
	}
	m, err := emojisets.Parse(res.Body)
	if err != nil {
		return nil, err
	}
	srv, err = emojisets.New(emojisets.Server{Map: m, Upstream: h.upstream, Fetch: upstreamFetch{}, Cache: setsCache{}, Background: jsbridge.WaitUntil})
	if err != nil {
		return nil, err
	}
	h.mu.Lock()
	h.srv = srv
	h.mu.Unlock()
	return srv, nil
}

// upstreamFetch gets a mapped file with the platform's fetch.
type upstreamFetch struct{}

func (upstreamFetch) Get(ctx context.Context, url string) (int, []byte, error) {
	res, err := fetch.Do(ctx, fetch.Request{URL: url})
	if err != nil {
		return 0, nil, err
	}
	return res.Status, res.Body, nil
}

// setsCache keeps fetched files in caches.default for a year.
type setsCache struct{}

func (setsCache) Match(ctx context.Context, url string) ([]byte, bool, error) {
	res, found, err := cache.Default().Match(ctx, url, nil)
	if err != nil || !found || res.Status != http.StatusOK {
		return nil, false, err
	}
	return res.Body, true, nil
}

func (setsCache) Put(ctx context.Context, url string, body []byte) error {
	h := http.Header{}
	h.Set("Content-Type", "image/svg+xml")
	h.Set("Cache-Control", emojisets.CacheImmutable)
	return cache.Default().Put(ctx, url, &fetch.Response{Status: http.StatusOK, Header: h, Body: body})
}

package app

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/emojisearch/emojisearch/service/emojisets"
	"github.com/emojisearch/emojisearch/service/httpx"
	"github.com/emojisearch/emojisearch/service/staticfiles"
)

// assetFiles reads the pack, vector and culture files of a pack version
// from the static assets.
type assetFiles struct {
	src     staticfiles.Source
	version string
}

func (a assetFiles) LoadPack(ctx context.Context, name string) ([]byte, error) {
	return assetBody(ctx, a.src, "/v1/pack/"+a.version+"/"+name, "pack "+name)
}

// LoadVectors reads a vector file of the pack version.
func (a assetFiles) LoadVectors(ctx context.Context, name string) ([]byte, error) {
	return a.LoadPack(ctx, name)
}

// LoadCulture reads a locale's culture file; 404 means it has none.
func (a assetFiles) LoadCulture(ctx context.Context, locale string) ([]byte, bool, error) {
	f, err := a.src(ctx, http.MethodGet, "/v1/culture/"+a.version+"/culture."+locale+".json", nil)
	switch {
	case err != nil:
		return nil, false, err
	case f.Status == http.StatusNotFound:
		return nil, false, nil
	case f.Status != http.StatusOK:
		return nil, false, fmt.Errorf("culture %s: assets answered %d", locale, f.Status)
	}
	return f.Body, true, nil
}

// ttlCache keeps JSON answers in the edge cache with their lifetime in
// s-maxage, which the Cache API honours (search, the custom pack).
type ttlCache struct{ c Cache }

func (t ttlCache) Get(ctx context.Context, key string) ([]byte, bool, error) {
	return t.c.Match(ctx, key)
}

func (t ttlCache) Put(ctx context.Context, key string, body []byte, ttl time.Duration) error {
	h := http.Header{}
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Cache-Control", fmt.Sprintf("public, s-maxage=%d", int(ttl.Seconds())))
	return t.c.Put(ctx, key, h, body)
}

// shardCache keeps whole shard answers in the edge cache.
type shardCache struct{ c Cache }

func (s shardCache) Match(ctx context.Context, url string) ([]byte, bool, error) {
	return s.c.Match(ctx, url)
}

func (s shardCache) Put(ctx context.Context, url string, body []byte, cacheControl string) error {
	h := http.Header{}
	h.Set("Content-Type", httpx.ContentTypeJSON)
	h.Set("Cache-Control", cacheControl)
	return s.c.Put(ctx, url, h, body)
}

// shardBucket is shards.Bucket over Objects.
type shardBucket struct{ Objects }

func (b shardBucket) Put(ctx context.Context, key string, body []byte) error {
	return b.Objects.Put(ctx, key, body, httpx.ContentTypeJSON, nil)
}

func (b shardBucket) Delete(ctx context.Context, keys ...string) error {
	return b.Objects.Delete(ctx, keys)
}

// noImages is the image store when Objects is not bound.
type noImages struct{}

func (noImages) Get(context.Context, string) ([]byte, bool, error) { return nil, false, nil }

// setsMapAsset is where build.sh puts packs/sets/sets.json.
const setsMapAsset = "/sets/sets.json"

// setsHandler serves the hosted sets. The mapping is read from the static
// assets on the first request of the instance (not at start: most
// instances never serve a set file), and again after a failure.
type setsHandler struct {
	p        Platform
	upstream string
	mu       sync.Mutex
	srv      *emojisets.Server
}

func (h *setsHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	srv, err := h.server(r.Context())
	if err != nil {
		h.p.Log("worker: hosted sets unavailable: %v", err)
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
	body, err := assetBody(ctx, h.p.Assets, setsMapAsset, "sets.json")
	if err != nil {
		return nil, err
	}
	m, err := emojisets.Parse(body)
	if err != nil {
		return nil, err
	}
	srv, err = emojisets.New(emojisets.Config{Map: m, Upstream: h.upstream, Fetch: upstreamFetch{h.p.Fetch},
		Cache: setsCache{h.p.Cache}, Background: h.p.WaitUntil})
	if err != nil {
		return nil, err
	}
	h.mu.Lock()
	h.srv = srv
	h.mu.Unlock()
	return srv, nil
}

// maxRedirects bounds the redirects upstreamFetch follows (as fetch's 20).
const maxRedirects = 20

// upstreamFetch gets a mapped file, following redirects (a CDN's move of
// a file is not the service's business).
type upstreamFetch struct{ d Doer }

func (u upstreamFetch) Get(ctx context.Context, target string) (int, []byte, error) {
	for range maxRedirects {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
		if err != nil {
			return 0, nil, err
		}
		res, err := u.d.Do(req)
		if err != nil {
			return 0, nil, err
		}
		body, err := io.ReadAll(res.Body)
		_ = res.Body.Close()
		if err != nil {
			return 0, nil, err
		}
		loc := res.Header.Get("Location")
		if res.StatusCode < 300 || res.StatusCode > 399 || loc == "" {
			return res.StatusCode, body, nil
		}
		next, err := url.Parse(loc)
		if err != nil {
			return 0, nil, err
		}
		target = req.URL.ResolveReference(next).String()
	}
	return 0, nil, fmt.Errorf("sets upstream: more than %d redirects", maxRedirects)
}

// setsCache keeps fetched files in the edge cache for a year.
type setsCache struct{ c Cache }

func (s setsCache) Match(ctx context.Context, url string) ([]byte, bool, error) {
	return s.c.Match(ctx, url)
}

func (s setsCache) Put(ctx context.Context, url string, body []byte) error {
	h := http.Header{}
	h.Set("Content-Type", "image/svg+xml")
	h.Set("Cache-Control", emojisets.CacheImmutable)
	return s.c.Put(ctx, url, h, body)
}

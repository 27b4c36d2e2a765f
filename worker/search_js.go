//go:build js && wasm

package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/emojisearch/emojisearch/packs/dist"
	"github.com/emojisearch/emojisearch/service/customemoji"
	"github.com/emojisearch/emojisearch/service/meaning"
	"github.com/emojisearch/emojisearch/service/metering"
	"github.com/emojisearch/emojisearch/service/modelguard"
	"github.com/emojisearch/emojisearch/service/search"
	"github.com/emojisearch/emojisearch/worker/internal/cf/ai"
	"github.com/emojisearch/emojisearch/worker/internal/cf/cache"
	"github.com/emojisearch/emojisearch/worker/internal/cf/fetch"
	"github.com/emojisearch/emojisearch/worker/internal/jsbridge"
	"github.com/emojisearch/emojisearch/worker/internal/jsutil"
)

// newSearch wires /v1/search to the platform: every locale's packs from
// the static assets (none built in, packs/dist says why; the first search
// warms en and tr in its waitUntil), the meaning tier (when an embedding
// backend is bound), the edge cache, waitUntil.
// The packs and the meaning tier are returned for the other routes that
// rank emoji (reactions, images), so an instance holds them once.
func newSearch(packVersion, model string, embedder meaning.Embedder, meter *metering.Meter, custom *customemoji.Index) (*search.Service, *search.Packs, *meaning.Tier, error) {
	hash, err := dist.DataHash()
	if err != nil {
		return nil, nil, nil, err
	}
	manifest, err := dist.Manifest()
	if err != nil {
		return nil, nil, nil, err
	}
	packs, err := search.NewPacks(map[string][]byte{search.ManifestFile: manifest}, assetPacks{version: packVersion})
	if err != nil {
		return nil, nil, nil, err
	}
	cfg := search.Config{
		PackVersion: packVersion,
		Model:       model,
		DataHash:    hash,
		Packs:       packs,
		Cache:       edgeCache{},
		Cultures:    search.NewCultures(assetCultures{version: packVersion}),
		Background:  jsbridge.WaitUntil,
		Prefetch:    search.BuiltinLocales,
		Now:         func() time.Time { return time.Now().Add(clockOffset()) },
	}
	if meter != nil {
		cfg.Meter = meter
	}
	if custom != nil {
		cfg.Custom = custom
	}
	if searchAnalytics != nil {
		cfg.Analytics = searchAnalytics
	}
	var tier *meaning.Tier
	if embedder != nil {
		m, err := meaning.Lookup(model)
		if err != nil {
			return nil, nil, nil, err
		}
		tier = meaning.New(meaning.Config{
			Model:    m,
			Embedder: embedder,
			Files:    assetPacks{version: packVersion},
			Emoji:    packs.Emoji,
		})
		cfg.Meaning, cfg.Fuse = tier, meaning.Fuser(m.Calibration)
	}
	return search.New(cfg), packs, tier, nil
}

// newEmbedder picks the embedding backend: the Workers AI REST endpoint
// when EMBED_URL is set (local workerd has no Workers AI), else the AI
// binding; nil when neither is there.
func newEmbedder(model, url, token string) (meaning.Embedder, error) {
	m, err := meaning.Lookup(model)
	if err != nil {
		return nil, err
	}
	if url != "" {
		return meaning.REST{BaseURL: url, Token: token, Model: m.WorkersAI, Client: fetchDoer{}}, nil
	}
	client, err := ai.Open("AI")
	if errors.Is(err, jsutil.ErrUnbound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return meaning.Binding{AI: client, Model: m.WorkersAI}, nil
}

// newBreaker guards one model's calls with a deadline and a circuit
// breaker (service/modelguard), timed by JS timers armed in the calling
// request (PROTOCOL.md rule 1). One per model and instance.
func newBreaker(name string, deadline time.Duration) *modelguard.Breaker {
	b, err := modelguard.New(modelguard.NewConfig(name).WithDeadline(deadline).WithTimer(jsutil.After))
	if err != nil {
		panic(err) // the defaults are valid: a programming error
	}
	return b
}

// assetCultures reads culture files from the ASSETS binding; 404 means the
// locale has none.
type assetCultures struct{ version string }

func (a assetCultures) LoadCulture(ctx context.Context, locale string) ([]byte, bool, error) {
	res, err := fetch.Binding(ctx, "ASSETS", fetch.Request{URL: "https://assets.local/v1/culture/" + a.version + "/culture." + locale + ".json"})
	switch {
	case err != nil:
		return nil, false, err
	case res.Status == http.StatusNotFound:
		return nil, false, nil
	case res.Status != http.StatusOK:
		return nil, false, fmt.Errorf("culture %s: assets answered %d", locale, res.Status)
	}
	return res.Body, true, nil
}

// clockOffset is the e2e seam for the culture layer's day: zero always in
// production; the diag build moves the service's clock.
var clockOffset = func() time.Duration { return 0 }

// assetFault is the e2e seam for a static file that fails to load: nil
// always in production; the diag build fails the files a test names.
var assetFault = func(name string) error { return nil }

// assetPacks reads pack and vector files from the ASSETS binding.
type assetPacks struct{ version string }

func (a assetPacks) LoadPack(ctx context.Context, name string) ([]byte, error) {
	return a.load(ctx, name)
}

// LoadVectors reads a vector file of the pack version.
func (a assetPacks) LoadVectors(ctx context.Context, name string) ([]byte, error) {
	return a.load(ctx, name)
}

func (a assetPacks) load(ctx context.Context, name string) ([]byte, error) {
	if err := assetFault(name); err != nil {
		return nil, err
	}
	res, err := fetch.Binding(ctx, "ASSETS", fetch.Request{URL: "https://assets.local/v1/pack/" + a.version + "/" + name})
	if err != nil {
		return nil, err
	}
	if res.Status != http.StatusOK {
		return nil, fmt.Errorf("pack %s: assets answered %d", name, res.Status)
	}
	return res.Body, nil
}

// edgeCache is the shared cache on caches.default. Entries carry the
// lifetime in s-maxage, which the Cache API honours.
type edgeCache struct{}

func (edgeCache) Get(ctx context.Context, key string) ([]byte, bool, error) {
	res, found, err := cache.Default().Match(ctx, key, nil)
	if err != nil || !found || res.Status != http.StatusOK {
		return nil, false, err
	}
	return res.Body, true, nil
}

func (edgeCache) Put(ctx context.Context, key string, body []byte, ttl time.Duration) error {
	h := http.Header{}
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Cache-Control", fmt.Sprintf("public, s-maxage=%d", int(ttl.Seconds())))
	return cache.Default().Put(ctx, key, &fetch.Response{Status: http.StatusOK, Header: h, Body: body})
}

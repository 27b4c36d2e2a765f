//go:build js && wasm

package main

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/emojisearch/emojisearch/packs/dist"
	"github.com/emojisearch/emojisearch/service/search"
	"github.com/emojisearch/emojisearch/worker/internal/cf/cache"
	"github.com/emojisearch/emojisearch/worker/internal/cf/fetch"
	"github.com/emojisearch/emojisearch/worker/internal/jsbridge"
)

// newSearch wires /v1/search to the platform: built-in en/tr packs, other
// locales from the static assets, the edge cache, waitUntil.
func newSearch(packVersion, model string) (*search.Service, error) {
	builtin, err := dist.Builtin()
	if err != nil {
		return nil, err
	}
	hash, err := dist.DataHash()
	if err != nil {
		return nil, err
	}
	packs, err := search.NewPacks(builtin, assetPacks{version: packVersion})
	if err != nil {
		return nil, err
	}
	return search.New(search.Config{
		PackVersion: packVersion,
		Model:       model,
		DataHash:    hash,
		Packs:       packs,
		Cache:       edgeCache{},
		Cultures:    search.NewCultures(assetCultures{version: packVersion}),
		Background:  jsbridge.WaitUntil,
	}), nil
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

// assetPacks reads pack files from the ASSETS binding.
type assetPacks struct{ version string }

func (a assetPacks) LoadPack(ctx context.Context, name string) ([]byte, error) {
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

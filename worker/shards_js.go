//go:build js && wasm

package main

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/emojisearch/emojisearch/service/httpx"
	"github.com/emojisearch/emojisearch/service/search"
	"github.com/emojisearch/emojisearch/service/shards"
	"github.com/emojisearch/emojisearch/service/store"
	"github.com/emojisearch/emojisearch/worker/internal/cf/cache"
	"github.com/emojisearch/emojisearch/worker/internal/cf/fetch"
	"github.com/emojisearch/emojisearch/worker/internal/cf/r2"
	"github.com/emojisearch/emojisearch/worker/internal/jsbridge"
)

// shardRoutes serves GET /p/:packVersion/… from OBJECTS through the edge
// cache; without the bucket the route answers 404 like no build.
func shardRoutes(r *httpx.Router) {
	b, err := r2.Open("OBJECTS")
	if err != nil {
		fmt.Println("worker: shards unavailable:", err)
		return
	}
	s := &shards.Server{Bucket: r2Bucket{b}, Cache: shardCache{}, Background: jsbridge.WaitUntil}
	s.Routes(r)
}

// shardBuild is the nightly shard build over D1 and OBJECTS, answering
// with svc. Edge copies of this location are dropped after a build, so
// the files show at once here (other locations within their max-age).
func shardBuild(db store.DB, packVersion, model string, svc *search.Service) func(ctx context.Context, at time.Time) error {
	return func(ctx context.Context, at time.Time) error {
		b, err := r2.Open("OBJECTS")
		if err != nil {
			return err
		}
		sum, err := shards.Build(ctx, shards.Config{DB: db, Bucket: r2Bucket{b}, Search: svc, PackVersion: packVersion, Model: model}, at)
		purge := append([]string{"index"}, sum.Keys...)
		for _, k := range sum.Deleted {
			purge = append(purge, k[len(shards.Prefix(packVersion)):len(k)-len(".json")])
		}
		for _, k := range purge {
			_, _ = cache.Default().Delete(ctx, shards.CacheURL(packVersion, k+".json"))
		}
		return err
	}
}

// r2Bucket adapts OBJECTS to shards.Bucket.
type r2Bucket struct{ b *r2.Bucket }

func (r r2Bucket) Get(ctx context.Context, key string) ([]byte, bool, error) {
	o, err := r.b.Get(ctx, key, nil)
	if err != nil || o == nil {
		return nil, false, err
	}
	return o.Body, true, nil
}

func (r r2Bucket) Put(ctx context.Context, key string, body []byte) error {
	_, err := r.b.Put(ctx, key, body, r2.PutOptions{HTTPMetadata: r2.HTTPMetadata{ContentType: httpx.ContentTypeJSON}})
	return err
}

func (r r2Bucket) List(ctx context.Context, prefix string) ([]string, error) {
	var out []string
	cursor := ""
	for {
		page, err := r.b.List(ctx, r2.ListOptions{Prefix: prefix, Cursor: cursor})
		if err != nil {
			return nil, err
		}
		for _, o := range page.Objects {
			out = append(out, o.Key)
		}
		if !page.Truncated {
			return out, nil
		}
		cursor = page.Cursor
	}
}

func (r r2Bucket) Delete(ctx context.Context, keys ...string) error {
	return objects{r.b}.Delete(ctx, keys)
}

// shardCache keeps whole shard answers in caches.default.
type shardCache struct{}

func (shardCache) Match(ctx context.Context, url string) ([]byte, bool, error) {
	res, found, err := cache.Default().Match(ctx, url, nil)
	if err != nil || !found || res.Status != http.StatusOK {
		return nil, false, err
	}
	return res.Body, true, nil
}

func (shardCache) Put(ctx context.Context, url string, body []byte, cacheControl string) error {
	h := http.Header{}
	h.Set("Content-Type", httpx.ContentTypeJSON)
	h.Set("Cache-Control", cacheControl)
	return cache.Default().Put(ctx, url, &fetch.Response{Status: http.StatusOK, Header: h, Body: body})
}

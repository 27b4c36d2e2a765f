//go:build js && wasm

// Package cache wraps the Workers Cache API (caches.default and named
// caches) with Go types. Entries are keyed by URL; what is stored follows
// the response's Cache-Control, as the platform decides.
package cache

import (
	"context"
	"net/http"
	"syscall/js"

	"github.com/emojisearch/emojisearch/worker/internal/cf/fetch"
	"github.com/emojisearch/emojisearch/worker/internal/jsutil"
)

// Cache is one cache of the edge location.
type Cache struct{ v js.Value }

// Default returns caches.default.
func Default() *Cache { return &Cache{v: jsutil.Global.Get("caches").Get("default")} }

// Open returns the named cache.
func Open(ctx context.Context, name string) (*Cache, error) {
	v, err := jsutil.CallAwait(ctx, jsutil.Global.Get("caches"), "open", name)
	if err != nil {
		return nil, err
	}
	return &Cache{v: v}, nil
}

// Match looks url up; found is false on a miss. header carries conditional
// and range request headers.
func (c *Cache) Match(ctx context.Context, url string, header http.Header) (*fetch.Response, bool, error) {
	res, err := jsutil.CallAwait(ctx, c.v, "match", fetch.NewJSRequest(http.MethodGet, url, header))
	if err != nil || res.IsUndefined() || res.IsNull() {
		return nil, false, err
	}
	out, err := fetch.ResponseFromJS(ctx, res)
	return out, err == nil, err
}

// Put stores res under url (the platform may decline to store it).
func (c *Cache) Put(ctx context.Context, url string, res *fetch.Response) error {
	_, err := jsutil.CallAwait(ctx, c.v, "put", fetch.NewJSRequest(http.MethodGet, url, nil), fetch.NewJSResponse(res))
	return err
}

// Delete removes url; it reports whether an entry was there.
func (c *Cache) Delete(ctx context.Context, url string) (bool, error) {
	res, err := jsutil.CallAwait(ctx, c.v, "delete", fetch.NewJSRequest(http.MethodGet, url, nil))
	if err != nil {
		return false, err
	}
	return res.Truthy(), nil
}

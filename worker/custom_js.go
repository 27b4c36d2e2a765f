//go:build js && wasm

package main

import (
	"context"
	"fmt"
	"time"

	"github.com/emojisearch/emojisearch/service/access"
	"github.com/emojisearch/emojisearch/service/customhost"
	"github.com/emojisearch/emojisearch/service/emojistore"
	"github.com/emojisearch/emojisearch/service/httpx"
	"github.com/emojisearch/emojisearch/service/store"
	"github.com/emojisearch/emojisearch/service/tenantsapi"
	"github.com/emojisearch/emojisearch/worker/internal/cf/r2"
)

// newCustom wires the custom emoji routes of spec 1: the images and the
// custom pack (service/customhost, edge cache on caches.default) and the
// tenants API, over D1 and the OBJECTS bucket. Without the bucket, images
// answer 404 and writes 503 storage_unavailable.
// changed is told after every committed change (the search index forgets
// the app's copy).
func newCustom(db store.DB, guard access.Guard, packVersion string, changed func(appID string)) func(*httpx.Router) {
	logf := func(format string, args ...any) { fmt.Printf(format+"\n", args...) }
	var objs emojistore.Objects
	var images customhost.Images = noImages{}
	if bucket, err := r2.Open("OBJECTS"); err == nil {
		objs, images = objects{bucket}, objects{bucket}
	}
	es := emojistore.New(db, objs, time.Now, logf).WithChanged(changed)
	host := customhost.New(es, images, edgeCache{}, guard, packVersion)
	tenants := tenantsapi.New(es, guard)
	return func(r *httpx.Router) {
		host.Routes(r)
		tenants.Routes(r)
	}
}

// Put stores a custom emoji image with its content type; meta becomes the
// object's custom metadata (its xxhash64).
func (o objects) Put(ctx context.Context, key string, body []byte, contentType string, meta map[string]string) error {
	_, err := o.b.Put(ctx, key, body, r2.PutOptions{HTTPMetadata: r2.HTTPMetadata{ContentType: contentType}, CustomMetadata: meta})
	return err
}

// Get reads an image; found false when the object is missing.
func (o objects) Get(ctx context.Context, key string) ([]byte, bool, error) {
	obj, err := o.b.Get(ctx, key, nil)
	if err != nil || obj == nil {
		return nil, false, err
	}
	return obj.Body, true, nil
}

// noImages is the image store when OBJECTS is not bound.
type noImages struct{}

func (noImages) Get(context.Context, string) ([]byte, bool, error) { return nil, false, nil }

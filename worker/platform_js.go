//go:build js && wasm

package main

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/emojisearch/emojisearch/service/access"
	"github.com/emojisearch/emojisearch/service/app"
	"github.com/emojisearch/emojisearch/service/classify"
	"github.com/emojisearch/emojisearch/service/meaning"
	"github.com/emojisearch/emojisearch/service/staticfiles"
	"github.com/emojisearch/emojisearch/worker/internal/cf/ai"
	"github.com/emojisearch/emojisearch/worker/internal/cf/cache"
	"github.com/emojisearch/emojisearch/worker/internal/cf/fetch"
	"github.com/emojisearch/emojisearch/worker/internal/cf/kv"
	"github.com/emojisearch/emojisearch/worker/internal/cf/r2"
	"github.com/emojisearch/emojisearch/worker/internal/cf/ratelimit"
	"github.com/emojisearch/emojisearch/worker/internal/jsbridge"
	"github.com/emojisearch/emojisearch/worker/internal/jsutil"
)

// platform reads the bindings and vars of wrangler.toml. A binding that is
// not there stays nil; one that fails to open is logged and left nil.
func platform() app.Platform {
	env := jsutil.Env()
	vars := func(name string) string { return jsutil.String(env.Get(name)) }
	p := app.Platform{
		Assets:    assets,
		Cache:     edgeCache{},
		Fetch:     fetchDoer{},
		WaitUntil: jsbridge.WaitUntil,
		Timer:     jsutil.After,
		Clock:     time.Now,
		Vars:      vars,
		Log:       logf,
		Limiters:  map[string]access.Limiter{},
	}
	switch db, err := openStore("DB"); {
	case err == nil:
		p.DB = db
	case !errors.Is(err, jsutil.ErrUnbound):
		logf("worker: DB unavailable: %v", err)
	}
	if ns, err := kv.Open("KV"); err == nil {
		p.KV = labelCache{ns}
	}
	if b, err := r2.Open("OBJECTS"); err == nil {
		p.Objects = objects{b}
	}
	for _, name := range []string{"RL_KEYED", "RL_ANON", "RL_WAITLIST"} {
		switch l, err := ratelimit.Open(name); {
		case err == nil:
			p.Limiters[name] = l
		case !errors.Is(err, jsutil.ErrUnbound):
			logf("worker: rate limiter %s unavailable: %v", name, err)
		}
	}
	p.Embedder, p.Vision = models(vars("EMBED_MODEL"), vars("EMBED_URL"), vars("EMBED_TOKEN"))
	return p
}

// models picks the model backends: the Workers AI REST endpoint when
// EMBED_URL is set (local workerd has no Workers AI), else the AI binding;
// nil when neither is there.
func models(model, url, token string) (meaning.Embedder, classify.Vision) {
	m, err := meaning.Lookup(model)
	if err != nil {
		logf("worker: meaning tier unavailable: %v", err)
	}
	client, aiErr := ai.Open("AI")
	var embedder meaning.Embedder
	var vision classify.Vision
	switch {
	case url != "":
		vision = classify.RESTVision{BaseURL: url, Token: token, Client: fetchDoer{}}
		if err == nil {
			embedder = meaning.REST{BaseURL: url, Token: token, Model: m.WorkersAI, Client: fetchDoer{}}
		}
	case aiErr == nil:
		vision = classify.BindingVision{AI: client}
		if err == nil {
			embedder = meaning.Binding{AI: client, Model: m.WorkersAI}
		}
	case !errors.Is(aiErr, jsutil.ErrUnbound):
		logf("worker: models unavailable: %v", aiErr)
	}
	return embedder, vision
}

// assets asks the ASSETS binding for path.
func assets(ctx context.Context, method, path string, header http.Header) (*staticfiles.File, error) {
	res, err := fetch.Binding(ctx, "ASSETS", fetch.Request{Method: method, URL: "https://assets.local" + path, Header: header, Redirect: "manual"})
	if err != nil {
		return nil, err
	}
	return &staticfiles.File{Status: res.Status, Header: res.Header, Body: res.Body}, nil
}

// edgeCache is caches.default.
type edgeCache struct{}

func (edgeCache) Match(ctx context.Context, url string) ([]byte, bool, error) {
	res, found, err := cache.Default().Match(ctx, url, nil)
	if err != nil || !found || res.Status != http.StatusOK {
		return nil, false, err
	}
	return res.Body, true, nil
}

func (edgeCache) Put(ctx context.Context, url string, header http.Header, body []byte) error {
	return cache.Default().Put(ctx, url, &fetch.Response{Status: http.StatusOK, Header: header, Body: body})
}

func (edgeCache) Delete(ctx context.Context, url string) (bool, error) {
	return cache.Default().Delete(ctx, url)
}

// labelCache is the label cache on a KV namespace; entries expire by TTL.
type labelCache struct{ ns *kv.Namespace }

func (c labelCache) Get(ctx context.Context, key string) ([]byte, bool, error) {
	return c.ns.Get(ctx, key)
}

func (c labelCache) Put(ctx context.Context, key string, value []byte, ttl time.Duration) error {
	return c.ns.Put(ctx, key, value, kv.PutOptions{ExpirationTTL: int64(ttl.Seconds())})
}

// objects is app.Objects over an R2 bucket.
type objects struct{ b *r2.Bucket }

// Get reads an object; found false when it is missing.
func (o objects) Get(ctx context.Context, key string) ([]byte, bool, error) {
	obj, err := o.b.Get(ctx, key, nil)
	if err != nil || obj == nil {
		return nil, false, err
	}
	return obj.Body, true, nil
}

// Put stores an object with its content type; meta becomes the object's
// custom metadata.
func (o objects) Put(ctx context.Context, key string, body []byte, contentType string, meta map[string]string) error {
	_, err := o.b.Put(ctx, key, body, r2.PutOptions{HTTPMetadata: r2.HTTPMetadata{ContentType: contentType}, CustomMetadata: meta})
	return err
}

// List returns every key under prefix, page by page.
func (o objects) List(ctx context.Context, prefix string) ([]string, error) {
	var out []string
	cursor := ""
	for {
		page, err := o.b.List(ctx, r2.ListOptions{Prefix: prefix, Cursor: cursor})
		if err != nil {
			return nil, err
		}
		for _, obj := range page.Objects {
			out = append(out, obj.Key)
		}
		if !page.Truncated {
			return out, nil
		}
		cursor = page.Cursor
	}
}

// Delete removes keys, at most 1,000 per call (R2's limit for a multi-key
// delete).
func (o objects) Delete(ctx context.Context, keys []string) error {
	for len(keys) > 0 {
		n := min(len(keys), 1000)
		if err := o.b.Delete(ctx, keys[:n]...); err != nil {
			return err
		}
		keys = keys[n:]
	}
	return nil
}

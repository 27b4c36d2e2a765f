// Package app is the composition root of the service: it takes what a
// runtime binds (Platform) and returns the HTTP handler and the cron jobs
// (App). The Worker (worker/) fills Platform from the Cloudflare bindings;
// native tests, the evaluation commands and the benchmarks fill it from
// SQLite and folders (service/app/local), so all of them run the same
// wiring.
package app

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/emojisearch/emojisearch/service/access"
	"github.com/emojisearch/emojisearch/service/classify"
	"github.com/emojisearch/emojisearch/service/httpx"
	"github.com/emojisearch/emojisearch/service/meaning"
	"github.com/emojisearch/emojisearch/service/staticfiles"
	"github.com/emojisearch/emojisearch/service/store"
	"github.com/emojisearch/emojisearch/service/writebehind"
)

// Platform is what the runtime binds. It is data, built once by the entry
// from its bindings, so it is a plain struct: a nil field is "not bound"
// (the service answers without it, as spec 1 says for each).
type Platform struct {
	// DB holds accounts, keys, usage and the webhook outbox (binding DB);
	// nil: every caller is anonymous and the dashboard is off.
	DB store.DB
	// KV is the image-label cache (binding KV).
	KV classify.KV
	// Objects is the bucket of custom emoji images and shards (OBJECTS).
	Objects Objects
	// Cache is the shared edge cache (caches.default).
	Cache Cache
	// Embedder is the embedding backend, unguarded (the app adds the
	// deadline and breaker); nil: alias tier only.
	Embedder meaning.Embedder
	// Vision is the vision model, unguarded; nil: classify-image answers
	// 503 for every uncached picture.
	Vision classify.Vision
	// Limiters are the rate limiting bindings by name (RL_KEYED, RL_ANON,
	// RL_WAITLIST); a missing name is no limit.
	Limiters map[string]access.Limiter
	// Assets is the static asset server (binding ASSETS), asked by path;
	// nil: every asset is missing.
	Assets staticfiles.Source
	// Fetch sends outbound requests without following redirects (webhooks,
	// chat providers, Clerk, the hosted sets' upstream).
	Fetch Doer
	// WaitUntil runs work after the answer, keeping the request alive;
	// nil runs it before the answer.
	WaitUntil func(ctx context.Context, fn func(context.Context))
	// Timer waits for a delay in the calling request (the Worker's JS
	// timers; PROTOCOL.md rule 1); nil: Go timers.
	Timer writebehind.Timer
	// Clock is the day the answers see (search and reactions: the
	// culture layer's windows), which the test build moves; accounts,
	// metering and deliveries keep the real time. nil: time.Now.
	Clock func() time.Time
	// Vars reads a var of wrangler.toml (or a secret); nil: none set.
	Vars func(name string) string
	// Log writes an operator's log line; nil: standard output.
	Log func(format string, args ...any)
	// Routes are extra route sets registered before the app's optional
	// surfaces (the test build's diagnostics).
	Routes []func(*httpx.Router)
}

// Doer sends an HTTP request (redirects are answered, not followed).
type Doer interface {
	Do(*http.Request) (*http.Response, error)
}

// Objects is an object bucket (R2).
type Objects interface {
	Get(ctx context.Context, key string) (body []byte, found bool, err error)
	Put(ctx context.Context, key string, body []byte, contentType string, meta map[string]string) error
	// List returns every key under prefix.
	List(ctx context.Context, prefix string) ([]string, error)
	// Delete removes keys, any number of them.
	Delete(ctx context.Context, keys []string) error
}

// Cache is a shared HTTP cache keyed by URL (the Cache API). Match reports
// stored 200 answers only; an entry's lifetime is its Cache-Control.
type Cache interface {
	Match(ctx context.Context, url string) (body []byte, found bool, err error)
	Put(ctx context.Context, url string, header http.Header, body []byte) error
	Delete(ctx context.Context, url string) (bool, error)
}

// withDefaults fills the fields whose nil has a default.
func (p Platform) withDefaults() Platform {
	if p.WaitUntil == nil {
		p.WaitUntil = func(ctx context.Context, fn func(context.Context)) { fn(ctx) }
	}
	if p.Timer == nil {
		p.Timer = writebehind.GoTimer
	}
	if p.Clock == nil {
		p.Clock = time.Now
	}
	if p.Vars == nil {
		p.Vars = func(string) string { return "" }
	}
	if p.Log == nil {
		p.Log = func(format string, args ...any) { fmt.Printf(format+"\n", args...) }
	}
	if p.Assets == nil {
		p.Assets = func(context.Context, string, string, http.Header) (*staticfiles.File, error) {
			return &staticfiles.File{Status: http.StatusNotFound, Header: http.Header{}}, nil
		}
	}
	if p.Cache == nil {
		p.Cache = noCache{}
	}
	if p.Fetch == nil {
		p.Fetch = noFetch{}
	}
	return p
}

// errNoFetch is every outbound request's failure when Fetch is not bound.
var errNoFetch = errors.New("app: no outbound fetch")

// noFetch is the outbound fetch when none is bound.
type noFetch struct{}

func (noFetch) Do(*http.Request) (*http.Response, error) { return nil, errNoFetch }

// sleep waits d on the platform's timer.
func (p Platform) sleep(ctx context.Context, d time.Duration) error { return p.Timer(d)(ctx) }

// limiter returns the named limiter, or nil (no limit) when not bound.
func (p Platform) limiter(name string) access.Limiter {
	if l, ok := p.Limiters[name]; ok && l != nil {
		return l
	}
	return nil
}

// noCache is the edge cache when none is bound: nothing is kept.
type noCache struct{}

func (noCache) Match(context.Context, string) ([]byte, bool, error)    { return nil, false, nil }
func (noCache) Put(context.Context, string, http.Header, []byte) error { return nil }
func (noCache) Delete(context.Context, string) (bool, error)           { return false, nil }

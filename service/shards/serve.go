package shards

import (
	"context"
	"net/http"
	"strings"

	"github.com/emojisearch/emojisearch/service/httpx"
)

// Cache-Control of spec 1's static files table.
const (
	IndexCacheControl = "public, max-age=3600"
	ShardCacheControl = "public, max-age=86400"
)

// EdgeCache is the location's shared cache (caches.default): whole answers
// keyed by URL, kept as their Cache-Control says.
type EdgeCache interface {
	Match(ctx context.Context, url string) (body []byte, ok bool, err error)
	Put(ctx context.Context, url string, body []byte, cacheControl string) error
}

// Server answers GET /p/:packVersion/index.json and /p/:packVersion/<key>.json
// from the edge cache, else from the bucket (then cached). Missing files
// answer 404 and are not cached, so the first build shows at once.
type Server struct {
	Bucket Bucket
	Cache  EdgeCache // nil: no edge cache
	// Background runs the cache write after the answer (waitUntil).
	Background func(ctx context.Context, fn func(context.Context))
}

// Routes registers the route on r.
func (s *Server) Routes(r *httpx.Router) {
	r.Handle(http.MethodGet, "/p/:version/:file", s)
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	version, file := httpx.Param(r, "version"), httpx.Param(r, "file")
	name, ok := strings.CutSuffix(file, ".json")
	cc := ShardCacheControl
	if name == "index" {
		cc = IndexCacheControl
	} else if !ok || !ValidKey(name) {
		httpx.Error(w, http.StatusNotFound, "No such shard file.")
		return
	}
	if !validVersion(version) {
		httpx.Error(w, http.StatusNotFound, "No such pack version.")
		return
	}
	ctx := r.Context()
	url := CacheURL(version, file)
	if s.Cache != nil {
		if body, ok, err := s.Cache.Match(ctx, url); err == nil && ok {
			write(w, body, cc)
			return
		}
	}
	body, found, err := s.Bucket.Get(ctx, Prefix(version)+file)
	switch {
	case err != nil:
		w.Header().Set("Retry-After", "60")
		httpx.Error(w, http.StatusServiceUnavailable, "The shard store cannot be read; try again.")
		return
	case !found && name == "index":
		httpx.Error(w, http.StatusNotFound, "No shard build exists for this pack version yet.")
		return
	case !found:
		httpx.Error(w, http.StatusNotFound, "No such shard file.")
		return
	}
	if s.Cache != nil {
		run := s.Background
		if run == nil {
			run = func(ctx context.Context, fn func(context.Context)) { fn(ctx) }
		}
		run(ctx, func(ctx context.Context) { _ = s.Cache.Put(ctx, url, body, cc) })
	}
	write(w, body, cc)
}

func write(w http.ResponseWriter, body []byte, cc string) {
	h := w.Header()
	h.Set("Content-Type", httpx.ContentTypeJSON)
	h.Set("Cache-Control", cc)
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
}

// CacheURL is the edge cache key of a file: one per file whatever the
// request's host or query, so a build can drop it.
func CacheURL(version, file string) string { return "https://shards.cache/p/" + version + "/" + file }

// validVersion keeps the bucket key to letters, digits, dots, hyphens and
// underscores.
func validVersion(v string) bool {
	if v == "" || len(v) > 64 {
		return false
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_') || strings.Contains(v, "..") {
			return false
		}
	}
	return true
}

//go:build js && wasm && diag

package main

import (
	"encoding/json"
	"io"
	"net/http"
	"strconv"

	"github.com/emojisearch/emojisearch/service/httpx"
	"github.com/emojisearch/emojisearch/worker/internal/cf/cache"
	"github.com/emojisearch/emojisearch/worker/internal/cf/fetch"
	"github.com/emojisearch/emojisearch/worker/internal/cf/r2"
	"github.com/emojisearch/emojisearch/worker/internal/cf/ratelimit"
)

// storeRoutes drive the R2, Cache API and rate limiting bindings directly.
func storeRoutes(r *httpx.Router) {
	r.HandleFunc(http.MethodPut, "/__diag/r2/*key", diagR2Put)
	r.HandleFunc(http.MethodGet, "/__diag/r2/*key", diagR2Get)
	r.HandleFunc(http.MethodDelete, "/__diag/r2/*key", diagR2Delete)
	r.HandleFunc(http.MethodGet, "/__diag/r2-list", diagR2List)
	r.HandleFunc(http.MethodPost, "/__diag/cache/put", diagCachePut)
	r.HandleFunc(http.MethodGet, "/__diag/cache/match", diagCacheMatch)
	r.HandleFunc(http.MethodPost, "/__diag/cache/delete", diagCacheDelete)
	r.HandleFunc(http.MethodPost, "/__diag/ratelimit/:binding", diagRateLimit)
}

func bucket(w http.ResponseWriter) *r2.Bucket {
	b, err := r2.Open("OBJECTS")
	if err != nil {
		fail(w, err)
	}
	return b
}

// diagR2Put stores the body; Content-Type and X-Meta-* headers become
// metadata; If-Match makes it conditional.
func diagR2Put(w http.ResponseWriter, r *http.Request) {
	b := bucket(w)
	if b == nil {
		return
	}
	body, _ := io.ReadAll(r.Body)
	opts := r2.PutOptions{HTTPMetadata: r2.HTTPMetadata{ContentType: r.Header.Get("Content-Type")}, OnlyIfETagMatches: r.Header.Get("If-Match")}
	if m := r.Header.Get("X-Meta"); m != "" {
		_ = json.Unmarshal([]byte(m), &opts.CustomMetadata)
	}
	obj, err := b.Put(r.Context(), httpx.Param(r, "key"), body, opts)
	if err != nil {
		httpx.Error(w, http.StatusBadRequest, err.Error())
		return
	}
	httpx.JSON(w, http.StatusOK, map[string]any{"object": obj})
}

func diagR2Get(w http.ResponseWriter, r *http.Request) {
	b := bucket(w)
	if b == nil {
		return
	}
	var rng *r2.Range
	q := r.URL.Query()
	if q.Has("offset") || q.Has("suffix") {
		rng = &r2.Range{}
		rng.Offset, _ = strconv.ParseInt(q.Get("offset"), 10, 64)
		rng.Length, _ = strconv.ParseInt(q.Get("length"), 10, 64)
		rng.Suffix, _ = strconv.ParseInt(q.Get("suffix"), 10, 64)
	}
	var obj *r2.Object
	var err error
	if q.Get("head") == "1" {
		obj, err = b.Head(r.Context(), httpx.Param(r, "key"))
	} else {
		obj, err = b.Get(r.Context(), httpx.Param(r, "key"), rng)
	}
	if err != nil {
		httpx.Error(w, http.StatusBadRequest, err.Error())
		return
	}
	if obj == nil {
		httpx.JSON(w, http.StatusOK, map[string]any{"found": false})
		return
	}
	httpx.JSON(w, http.StatusOK, map[string]any{"found": true, "object": obj, "body": string(obj.Body)})
}

func diagR2Delete(w http.ResponseWriter, r *http.Request) {
	b := bucket(w)
	if b == nil {
		return
	}
	if err := b.Delete(r.Context(), httpx.Param(r, "key")); err != nil {
		fail(w, err)
		return
	}
	httpx.JSON(w, http.StatusOK, map[string]bool{"ok": true})
}

func diagR2List(w http.ResponseWriter, r *http.Request) {
	b := bucket(w)
	if b == nil {
		return
	}
	q := r.URL.Query()
	limit, _ := strconv.Atoi(q.Get("limit"))
	res, err := b.List(r.Context(), r2.ListOptions{Prefix: q.Get("prefix"), Cursor: q.Get("cursor"), Delimiter: q.Get("delimiter"), Limit: limit, IncludeMetadata: q.Get("include") == "1"})
	if err != nil {
		httpx.Error(w, http.StatusBadRequest, err.Error())
		return
	}
	httpx.JSON(w, http.StatusOK, res)
}

type cacheEntry struct {
	URL     string            `json:"url"`
	Status  int               `json:"status"`
	Headers map[string]string `json:"headers"`
	Body    string            `json:"body"`
}

func diagCachePut(w http.ResponseWriter, r *http.Request) {
	var e cacheEntry
	if err := json.NewDecoder(r.Body).Decode(&e); err != nil {
		httpx.Error(w, http.StatusBadRequest, err.Error())
		return
	}
	h := http.Header{}
	for k, v := range e.Headers {
		h.Set(k, v)
	}
	if err := cache.Default().Put(r.Context(), e.URL, &fetch.Response{Status: e.Status, Header: h, Body: []byte(e.Body)}); err != nil {
		httpx.Error(w, http.StatusBadRequest, err.Error())
		return
	}
	httpx.JSON(w, http.StatusOK, map[string]bool{"ok": true})
}

func diagCacheMatch(w http.ResponseWriter, r *http.Request) {
	h := http.Header{}
	for _, name := range []string{"Range", "If-None-Match"} {
		if v := r.URL.Query().Get(name); v != "" {
			h.Set(name, v)
		}
	}
	res, found, err := cache.Default().Match(r.Context(), r.URL.Query().Get("url"), h)
	if err != nil {
		fail(w, err)
		return
	}
	if !found {
		httpx.JSON(w, http.StatusOK, map[string]any{"found": false})
		return
	}
	headers := map[string]string{}
	for k := range res.Header {
		headers[http.CanonicalHeaderKey(k)] = res.Header.Get(k)
	}
	httpx.JSON(w, http.StatusOK, map[string]any{"found": true, "status": res.Status, "headers": headers, "body": string(res.Body)})
}

func diagCacheDelete(w http.ResponseWriter, r *http.Request) {
	deleted, err := cache.Default().Delete(r.Context(), r.URL.Query().Get("url"))
	if err != nil {
		fail(w, err)
		return
	}
	httpx.JSON(w, http.StatusOK, map[string]bool{"deleted": deleted})
}

func diagRateLimit(w http.ResponseWriter, r *http.Request) {
	l, err := ratelimit.Open(httpx.Param(r, "binding"))
	if err != nil {
		fail(w, err)
		return
	}
	ok, err := l.Allow(r.Context(), r.URL.Query().Get("key"))
	if err != nil {
		fail(w, err)
		return
	}
	httpx.JSON(w, http.StatusOK, map[string]bool{"success": ok})
}

// Package staticfiles answers the pack and culture files (spec 1, Static
// files) on the Worker's side of the asset server. wrangler.toml's
// run_worker_first sends /v1/pack/* and /v1/culture/* to the Worker, because
// the asset server answers another method than GET or HEAD with an empty,
// immutable 405 that no _headers rule can turn into the service's error
// shape. GET and HEAD are passed to the asset server unchanged (its status,
// ETag, 304, content type and _headers rules); every other method gets the
// router's 405 in the error shape, never cached.
package staticfiles

import (
	"context"
	"net/http"

	"github.com/emojisearch/emojisearch/service/httpx"
)

// Patterns are the routes served, matching run_worker_first in wrangler.toml.
var Patterns = []string{"/v1/pack/:version/:file", "/v1/culture/:version/:file"}

// File is the asset server's answer.
type File struct {
	Status int
	Header http.Header
	Body   []byte
}

// Source asks the asset server (env.ASSETS.fetch) for path with method and
// the request's headers.
type Source func(ctx context.Context, method, path string, header http.Header) (*File, error)

// Routes registers GET (and so HEAD) of Patterns; the router answers every
// other method 405 with Allow: GET, HEAD.
func Routes(r *httpx.Router, src Source) {
	h := http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) { serve(w, req, src) })
	for _, p := range Patterns {
		r.Handle(http.MethodGet, p, h)
	}
}

// hopHeaders are not passed on either way: the runtime sets them for the
// bytes it actually sends.
var hopHeaders = []string{"Host", "Content-Length", "Connection", "Transfer-Encoding"}

func serve(w http.ResponseWriter, r *http.Request, src Source) {
	in := r.Header.Clone()
	for _, k := range hopHeaders {
		in.Del(k)
	}
	f, err := src(r.Context(), r.Method, r.URL.EscapedPath(), in)
	if err != nil {
		httpx.Error(w, http.StatusInternalServerError, "internal error")
		return
	}
	if f.Status == http.StatusNotFound {
		// The asset server's 404 carries the path's immutable rules; a
		// missing file is the service's 404, never cached.
		httpx.NotFound().ServeHTTP(w, r)
		return
	}
	for k, v := range f.Header {
		w.Header()[http.CanonicalHeaderKey(k)] = v
	}
	for _, k := range hopHeaders {
		w.Header().Del(k)
	}
	w.WriteHeader(f.Status)
	if r.Method != http.MethodHead {
		_, _ = w.Write(f.Body)
	}
}

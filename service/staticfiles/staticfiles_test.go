package staticfiles

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/service/httpx"
)

// assetServer stands in for env.ASSETS.fetch: one immutable file, and the
// asset server's bare 404 (with the path's _headers rules) otherwise.
func assetServer(calls *[]string) Source {
	return func(_ context.Context, method, path string, header http.Header) (*File, error) {
		*calls = append(*calls, method+" "+path+" "+header.Get("If-None-Match"))
		h := http.Header{"Cache-Control": {"public, max-age=31536000, immutable"}, "Access-Control-Allow-Origin": {"*"}}
		switch path {
		case "/v1/pack/v1/manifest.json":
			h.Set("Etag", `"abc"`)
			h.Set("Content-Type", "application/json")
			h.Set("Content-Length", "2")
			if header.Get("If-None-Match") == `"abc"` {
				return &File{Status: 304, Header: h}, nil
			}
			return &File{Status: 200, Header: h, Body: []byte("{}")}, nil
		case "/v1/culture/v1/broken.json":
			return nil, errors.New("binding failed")
		}
		return &File{Status: 404, Header: h}, nil
	}
}

func TestRoutes(t *testing.T) {
	cases := []struct {
		name, method, path, inm string
		status                  int
		cache, allow, body      string
		errorShape              bool
	}{
		{"GET passes the file through", "GET", "/v1/pack/v1/manifest.json", "", 200, "public, max-age=31536000, immutable", "", "{}", false},
		{"HEAD has no body", "HEAD", "/v1/pack/v1/manifest.json", "", 200, "public, max-age=31536000, immutable", "", "", false},
		{"If-None-Match reaches the asset server", "GET", "/v1/pack/v1/manifest.json", `"abc"`, 304, "public, max-age=31536000, immutable", "", "", false},
		{"a missing file is the service's 404", "GET", "/v1/culture/v1/culture.xx.json", "", 404, "no-store", "", "", true},
		{"POST is the JSON 405", "POST", "/v1/pack/v1/manifest.json", "", 405, "no-store", "GET, HEAD", "", true},
		{"DELETE on a culture file too", "DELETE", "/v1/culture/v1/index.json", "", 405, "no-store", "GET, HEAD", "", true},
		{"a failing binding is a 500, not cached", "GET", "/v1/culture/v1/broken.json", "", 500, "no-store", "", "", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var calls []string
			r := &httpx.Router{NotFound: httpx.NotFound(), BadMethod: httpx.MethodNotAllowed}
			Routes(r, assetServer(&calls))
			req := httptest.NewRequest(c.method, c.path, strings.NewReader("{}"))
			req.Header.Set("If-None-Match", c.inm)
			w := httptest.NewRecorder()
			r.ServeHTTP(w, req)
			assert.Equal(t, c.status, w.Code)
			assert.Equal(t, c.cache, w.Header().Get("Cache-Control"))
			assert.Equal(t, c.allow, w.Header().Get("Allow"))
			assert.Empty(t, w.Header().Get("Content-Length"), "the runtime sets the length it sends")
			if c.errorShape {
				var body map[string]string
				require.NoError(t, json.Unmarshal(w.Body.Bytes(), &body), w.Body.String())
				assert.NotEmpty(t, body["error"])
				return
			}
			assert.Equal(t, c.body, w.Body.String())
			assert.Equal(t, []string{c.method + " " + c.path + " " + c.inm}, calls)
		})
	}
}

package httpx

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestRouter(t *testing.T) {
	r := &Router{NotFound: NotFound(), BadMethod: MethodNotAllowed, Preflight: Preflight}
	ok := http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) { _, _ = w.Write([]byte("ok " + Param(req, "id"))) })
	r.Handle(http.MethodGet, "/v1/things/:id", ok)
	r.Handle(http.MethodPost, "/api/apps", ok)
	own := func(status int) func([]string) http.Handler {
		return func(allow []string) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				if len(allow) > 0 {
					w.Header().Set("Allow", allow[0])
				}
				w.WriteHeader(status)
				_, _ = w.Write([]byte("own"))
			})
		}
	}
	r.HandleOther("/api/apps", own(http.StatusMethodNotAllowed))
	r.HandleOther("/api/*rest", own(http.StatusNotFound))
	cases := []struct {
		name, method, path string
		status             int
		body               string
	}{
		{"param", "GET", "/v1/things/42", 200, "ok 42"},
		{"HEAD answered by GET", "HEAD", "/v1/things/42", 200, ""},
		{"router 405", "DELETE", "/v1/things/42", 405, `{"error":"Method DELETE is not allowed here; use GET or HEAD"}`},
		{"preflight", "OPTIONS", "/v1/things/42", 204, ""},
		{"route's own 405", "GET", "/api/apps", 405, "own"},
		{"preflight on a route with its own 405", "OPTIONS", "/api/apps", 204, ""},
		{"catch-all 404", "GET", "/api/nope", 404, "own"},
		{"catch-all on any method", "PATCH", "/api/a/b/c", 404, "own"},
		{"router 404", "GET", "/nowhere", 404, `{"error":"No such route: /nowhere"}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			r.ServeHTTP(rec, httptest.NewRequest(c.method, "http://localhost"+c.path, nil))
			assert.Equal(t, c.status, rec.Code)
			if c.body != "" {
				assert.Contains(t, rec.Body.String(), c.body)
			}
		})
	}
}

package e2e

import (
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/engine/packfmt"
)

func TestServiceConventions(t *testing.T) {
	cases := []struct {
		name, method, path string
		headers            []string
		status             int
		want               map[string]string
		errorContains      string
	}{
		{"health", "GET", "/v1/health", nil, 200, map[string]string{"Cache-Control": "no-store"}, ""},
		{"unknown route", "GET", "/v1/does-not-exist", nil, 404, map[string]string{"Cache-Control": "no-store"}, "No such route"},
		{"wrong method", "DELETE", "/v1/health", nil, 405, map[string]string{"Allow": "GET, HEAD"}, "not allowed"},
		{"preflight", "OPTIONS", "/v1/health", []string{"Origin", "https://example.com", "Access-Control-Request-Method", "GET"}, 204,
			map[string]string{"Access-Control-Allow-Methods": "GET, HEAD"}, ""},
		{"plain http to a hosted name", "GET", "/v1/health", []string{"Host", "api.example.com"}, 403, nil, "https"},
		{"plain http to localhost", "GET", "/v1/health", []string{"Host", "localhost"}, 200, nil, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := call(t, tc.method, tc.path, nil, tc.headers...)
			require.Equal(t, tc.status, r.Status, string(r.Body))
			assert.Equal(t, "*", r.Header.Get("Access-Control-Allow-Origin"))
			for k, v := range tc.want {
				assert.Equal(t, v, r.Header.Get(k), k)
			}
			if tc.status != http.StatusNoContent {
				assert.Equal(t, "application/json; charset=utf-8", r.Header.Get("Content-Type"))
				assert.Equal(t, "nosniff", r.Header.Get("X-Content-Type-Options"))
			}
			if tc.errorContains != "" {
				assert.Contains(t, r.JSON(t)["error"], tc.errorContains)
			}
		})
	}
}

func TestHealthBody(t *testing.T) {
	body := get(t, "/v1/health").JSON(t)
	assert.Equal(t, true, body["ok"])
	assert.Equal(t, packfmt.DefaultVersion, body["packVersion"], "packVersion comes from wrangler.toml vars")
	assert.Equal(t, "glove-cldr@100", body["model"])
	assert.Equal(t, true, body["semantic"], "hostsim binds the local model as AI; workerd reaches it through EMBED_URL")
}

func TestOneInstanceServesManyRequests(t *testing.T) {
	first := get(t, "/__diag/instance").JSON(t)
	for i := 0; i < 20; i++ {
		get(t, "/__diag/instance")
	}
	last := get(t, "/__diag/instance").JSON(t)
	assert.Equal(t, first["startedAt"], last["startedAt"], "the same Go instance answered")
	assert.Greater(t, last["requests"].(float64), first["requests"].(float64)+20)
}

func TestConcurrentHealth(t *testing.T) {
	const n = 500
	var wg sync.WaitGroup
	statuses := make(chan int, n)
	errs := make(chan error, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := client.Get(tgt.base + "/v1/health")
			if err != nil {
				errs <- err
				return
			}
			res.Body.Close()
			statuses <- res.StatusCode
		}()
	}
	wg.Wait()
	close(errs)
	close(statuses)
	for err := range errs {
		require.NoError(t, err)
	}
	for s := range statuses {
		require.Equal(t, 200, s)
	}
}

func TestStaticAssetsComeFirst(t *testing.T) {
	r := get(t, "/robots.txt")
	require.Equal(t, 200, r.Status)
	assert.Contains(t, string(r.Body), "Disallow: /")
	assert.NotEmpty(t, r.Header.Get("ETag"))

	viaBinding := get(t, "/__diag/assets/robots.txt").JSON(t)
	assert.Equal(t, 200.0, viaBinding["status"])
	assert.Contains(t, viaBinding["body"], "Disallow: /")
	assert.Contains(t, viaBinding["contentType"], "text/plain")

	missing := get(t, "/__diag/assets/nope.txt").JSON(t)
	assert.Equal(t, 404.0, missing["status"])
}

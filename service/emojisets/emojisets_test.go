//go:build !js

package emojisets

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/service/emojisets/emojisetstest"
	"github.com/emojisearch/emojisearch/service/httpx"
)

func TestCanonical(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{"1F600", "1F600", true},
		{"1f600", "1F600", true},
		{"2764-FE0F-200D-1F525", "2764-200D-1F525", true},
		{"2764-200d-1f525", "2764-200D-1F525", true},
		{"0023-fe0f-20e3", "0023-20E3", true},
		{"23-20e3", "0023-20E3", true},
		{"1F44B-1F3FB", "1F44B-1F3FB", true},
		{"", "", false},
		{"FE0F", "", false},
		{"1F600-", "", false},
		{"1F60G", "", false},
		{"1F6000A", "", false},
		{"../1F600", "", false},
		{"1F600%2F", "", false},
		{"1-2-3-4-5-6-7-8-9-10-11-12-13", "", false},
	} {
		got, ok := Canonical(tc.in)
		assert.Equal(t, tc.ok, ok, tc.in)
		assert.Equal(t, tc.want, got, tc.in)
	}
}

// upstream is a real HTTP server of a folder of files, counting requests;
// down makes it answer 503.
type upstream struct {
	*httptest.Server
	calls atomic.Int64
	down  atomic.Bool
	paths sync.Map
}

func newUpstream(t *testing.T, files map[string]string) *upstream {
	dir := t.TempDir()
	for p, body := range files {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, p), []byte(body), 0o644))
	}
	u := &upstream{}
	fsrv := http.FileServer(http.Dir(dir))
	u.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u.calls.Add(1)
		u.paths.Store(r.URL.Path, true)
		if u.down.Load() {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		fsrv.ServeHTTP(w, r)
	}))
	t.Cleanup(u.Close)
	return u
}

type httpFetch struct{}

func (httpFetch) Get(ctx context.Context, url string) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0, nil, err
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	return res.StatusCode, body, err
}

type memCache struct {
	mu sync.Mutex
	m  map[string][]byte
}

func (c *memCache) Match(_ context.Context, url string) ([]byte, bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b, ok := c.m[url]
	return b, ok, nil
}

func (c *memCache) Put(_ context.Context, url string, body []byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[url] = body
	return nil
}

const mappingJSON = `{"format":1,"order":["twemoji","openmoji","noto"],
"sets":{"twemoji":{"path":"tw/svg/","license":"https://creativecommons.org/licenses/by/4.0/"},
"openmoji":{"path":"om/svg/","license":"https://creativecommons.org/licenses/by-sa/4.0/"},
"noto":{"path":"noto/svg/","license":"https://www.apache.org/licenses/LICENSE-2.0"}},
"emoji":{"1F600":["1f600","1F600","emoji_u1f600"],
"2764-200D-1F525":["2764-fe0f-200d-1f525","2764-FE0F-200D-1F525","emoji_u2764_200d_1f525"],
"1F1EB-1F1F7":["1f1eb-1f1f7","1F1EB-1F1F7",""],
"1F6D8":["","1F6D8","emoji_u1f6d8"]}}`

func TestServe(t *testing.T) {
	up := newUpstream(t, map[string]string{
		"tw/svg/1f600.svg": "<svg>tw</svg>", "om/svg/1F600.svg": "<svg>om</svg>", "noto/svg/emoji_u1f600.svg": "<svg>noto</svg>",
		"tw/svg/2764-fe0f-200d-1f525.svg": "<svg>heart on fire</svg>",
		"evil.svg":                        "<svg>never</svg>",
	})
	m, err := Parse([]byte(mappingJSON))
	require.NoError(t, err)
	cache := &memCache{m: map[string][]byte{}}
	srv, err := New(Config{Map: m, Upstream: up.URL, Fetch: httpFetch{}, Cache: cache})
	require.NoError(t, err)
	router := &httpx.Router{NotFound: httpx.NotFound(), BadMethod: httpx.MethodNotAllowed}
	srv.Routes(router)
	get := func(path string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		router.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "http://localhost"+path, nil))
		return rec
	}

	for _, tc := range []struct{ set, path, body string }{
		{"twemoji", "/v1/sets/twemoji/1F600.svg", "<svg>tw</svg>"},
		{"openmoji", "/v1/sets/openmoji/1f600.svg", "<svg>om</svg>"},
		{"noto", "/v1/sets/noto/1F600-FE0F.svg", "<svg>noto</svg>"},
		{"twemoji", "/v1/sets/twemoji/2764-200D-1F525.svg", "<svg>heart on fire</svg>"},
	} {
		rec := get(tc.path)
		require.Equal(t, 200, rec.Code, tc.path)
		assert.Equal(t, tc.body, rec.Body.String())
		emojisetstest.CheckFile(t, tc.set, rec.Header())
	}
	calls := up.calls.Load()
	assert.Equal(t, 200, get("/v1/sets/twemoji/1f600.svg").Code)
	assert.Equal(t, calls, up.calls.Load(), "a second request is served from the edge cache")

	for _, tc := range []emojisetstest.ErrorCase{
		{Path: "/v1/sets/apple/1F600.svg", Status: 404, Code: "unknown_set"},
		{Path: "/v1/sets/twemoji/1F60G.svg", Status: 400, Code: "invalid_hexcode"},
		{Path: "/v1/sets/twemoji/1F600.png", Status: 400, Code: "invalid_hexcode"},
		{Path: "/v1/sets/twemoji/..%2Fevil.svg", Status: 400, Code: "invalid_hexcode"},
		{Path: "/v1/sets/twemoji/1F47D.svg", Status: 404, Code: "unknown_emoji"},
		{Path: "/v1/sets/noto/1F1EB-1F1F7.svg", Status: 404, Code: "not_in_set"},
		{Path: "/v1/sets/twemoji/1F6D8.svg", Status: 404, Code: "not_in_set"},
	} {
		rec := get(tc.Path)
		emojisetstest.CheckError(t, tc, rec.Code, rec.Header(), rec.Body.Bytes())
	}
	_, fetched := up.paths.Load("/evil.svg")
	assert.False(t, fetched, "only mapped paths are fetched")

	up.down.Store(true)
	rec := get("/v1/sets/openmoji/2764-fe0f-200d-1f525.svg")
	require.Equal(t, 502, rec.Code)
	assert.Equal(t, "no-store", rec.Header().Get("Cache-Control"))
	assert.Contains(t, rec.Body.String(), "upstream_unavailable")
	up.down.Store(false)
	rec = get("/v1/sets/twemoji/2764-fe0f-200d-1f525.svg")
	assert.Equal(t, 200, rec.Code, "a 502 is not cached: the next request recovers")
	rec = get("/v1/sets/openmoji/2764-fe0f-200d-1f525.svg")
	assert.Equal(t, 502, rec.Code, "upstream answers 404 for a mapped file: still 502, never a 200")
}

// The committed mapping parses, covers the pack, and keys every entry by
// its canonical spelling.
func TestCommittedMapping(t *testing.T) {
	b, err := os.ReadFile("../../packs/sets/sets.json")
	require.NoError(t, err)
	m, err := Parse(b)
	require.NoError(t, err)
	assert.Equal(t, []string{"twemoji", "openmoji", "noto"}, m.Order)
	assert.Len(t, m.Emoji, 3564)
	notIn := make([]int, 3)
	for k, files := range m.Emoji {
		c, ok := Canonical(k)
		require.True(t, ok, k)
		require.Equal(t, c, k)
		for i, f := range files {
			if f == "" {
				notIn[i]++
			}
		}
	}
	assert.Equal(t, []int{43, 0, 262}, notIn, "Twemoji 16 lacks Emoji 17, Noto has no flags")
	assert.Equal(t, "", m.Emoji["1F1EB-1F1F7"][2], "no flags in Noto")
}

package search

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const packDir = "../../packs/dist"

// dirLoader reads packs of one version from the repository.
type dirLoader struct {
	dir  string
	fail bool
}

func (l dirLoader) LoadPack(_ context.Context, name string) ([]byte, error) {
	if l.fail {
		return nil, errors.New("assets unreachable")
	}
	return os.ReadFile(filepath.Join(l.dir, name))
}

// memCache is the shared cache as a map (the Cache API itself is tested
// end to end).
type memCache struct {
	mu sync.Mutex
	m  map[string][]byte
}

func (c *memCache) Get(_ context.Context, key string) ([]byte, bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b, ok := c.m[key]
	return b, ok, nil
}

func (c *memCache) Put(_ context.Context, key string, body []byte, ttl time.Duration) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if ttl != CacheLifetime {
		return errors.New("wrong lifetime")
	}
	c.m[key] = body
	return nil
}

// meaning answers from a fixed table, or fails like a backend that is down.
type meaning struct{ down bool }

func (m meaning) Search(_ context.Context, text, _ string, _ int) (MeaningResult, error) {
	if m.down {
		return MeaningResult{Embed: time.Millisecond}, errors.New("AI binding unavailable")
	}
	return MeaningResult{Hits: []Hit{{ID: "1F634", Emoji: "😴", Cosine: 0.61}, {ID: "1F62B", Emoji: "😫", Cosine: 0.55}}, Embed: time.Millisecond}, nil
}

func version(t *testing.T) string {
	t.Helper()
	dirs, err := filepath.Glob(filepath.Join(packDir, "*", "manifest.json"))
	require.NoError(t, err)
	require.NotEmpty(t, dirs)
	return filepath.Base(filepath.Dir(dirs[0]))
}

func newService(t *testing.T, m Meaning, failLoads bool) (*Service, *memCache) {
	t.Helper()
	dir := filepath.Join(packDir, version(t))
	builtin := map[string][]byte{}
	for _, n := range []string{"index.en.bin", "index.tr.bin"} {
		b, err := os.ReadFile(filepath.Join(dir, n))
		require.NoError(t, err)
		builtin[n] = b
	}
	packs, err := NewPacks(builtin, dirLoader{dir: dir, fail: failLoads})
	require.NoError(t, err)
	cache := &memCache{m: map[string][]byte{}}
	return New(Config{PackVersion: version(t), Model: "glove-cldr@100", DataHash: "h1", Packs: packs, Meaning: m, Cache: cache}), cache
}

func get(t *testing.T, s *Service, query string) (*httptest.ResponseRecorder, Response) {
	t.Helper()
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "http://localhost/v1/search?"+query, nil))
	var res Response
	if rec.Code == 200 {
		require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &res))
	}
	return rec, res
}

func TestAnswerAndSharedCache(t *testing.T) {
	s, cache := newService(t, meaning{}, false)
	rec, res := get(t, s, "q=joy")
	require.Equal(t, 200, rec.Code)
	require.NotEmpty(t, res.Results)
	assert.Equal(t, "😂", res.Results[0].Emoji)
	assert.Equal(t, "alias", res.Results[0].Source)
	assert.Equal(t, "public, max-age=3600, s-maxage=86400", rec.Header().Get("Cache-Control"))
	assert.Regexp(t, `^embed;dur=[0-9.]+, total;dur=[0-9.]+$`, rec.Header().Get("Server-Timing"))
	assert.False(t, res.Cached)
	assert.False(t, res.Degraded)
	require.NotNil(t, res.AliasLocale)
	assert.Equal(t, "en", *res.AliasLocale)
	assert.Nil(t, res.Culture)
	assert.Len(t, cache.m, 1)

	rec, again := get(t, s, "q=joy")
	assert.True(t, again.Cached)
	assert.Equal(t, res.Results, again.Results)
	assert.Regexp(t, `^total;dur=[0-9.]+$`, rec.Header().Get("Server-Timing"), "no embed timing on a cache hit")

	_, other := get(t, s, "q=joy&limit=5")
	assert.False(t, other.Cached, "limit is part of the cache key")
	_, culture := get(t, s, "q=joy&culture=1&region=US")
	assert.True(t, culture.Cached, "culture and region do not split the cache")
}

// With no embedding backend bound, an answer is alias-only: degraded,
// no-store and never put in the shared cache, so it cannot be served as a
// full answer once the model is back (issue 31). A full answer another
// instance cached is still served.
func TestNoMeaningTierAnswersDegraded(t *testing.T) {
	s, cache := newService(t, nil, false)
	for _, mode := range []string{"hybrid", "semantic"} {
		rec, res := get(t, s, "q=joy&mode="+mode)
		require.Equal(t, 200, rec.Code)
		assert.True(t, res.Degraded, mode)
		assert.Equal(t, "no-store", rec.Header().Get("Cache-Control"), mode)
		assert.Regexp(t, `^total;dur=[0-9.]+$`, rec.Header().Get("Server-Timing"), "no embed timing without a meaning tier")
		require.NotEmpty(t, res.Results, mode)
		assert.Equal(t, "😂", res.Results[0].Emoji, mode)
	}
	assert.Empty(t, cache.m, "nothing model-less enters the shared cache")

	full, fullCache := newService(t, meaning{}, false)
	_, want := get(t, full, "q=joy")
	cache.m = fullCache.m
	_, res := get(t, s, "q=joy")
	assert.True(t, res.Cached)
	assert.False(t, res.Degraded)
	assert.Equal(t, want.Results, res.Results)
}

func TestCacheControlTable(t *testing.T) {
	cases := []struct {
		name    string
		meaning Meaning
		fail    bool
		query   string
		want    string
	}{
		{"normal", meaning{}, false, "q=tired", "public, max-age=3600, s-maxage=86400"},
		{"culture", meaning{}, false, "q=tired&culture=1", "public, max-age=3600"},
		{"degraded", meaning{down: true}, false, "q=tired", "no-store"},
		{"locale pack failed", meaning{}, true, "q=tired&locale=fr", "no-store"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := newService(t, tc.meaning, tc.fail)
			rec, _ := get(t, s, tc.query)
			require.Equal(t, 200, rec.Code)
			assert.Equal(t, tc.want, rec.Header().Get("Cache-Control"))
		})
	}
}

func TestDegradedIsAliasOnlyAndUncached(t *testing.T) {
	s, cache := newService(t, meaning{down: true}, false)
	rec, res := get(t, s, "q=joy&mode=semantic")
	require.Equal(t, 200, rec.Code)
	assert.True(t, res.Degraded)
	require.NotEmpty(t, res.Results)
	assert.Equal(t, "alias", res.Results[0].Source)
	assert.Empty(t, cache.m)
	assert.Regexp(t, `^embed;dur=[0-9.]+, total;dur=[0-9.]+$`, rec.Header().Get("Server-Timing"))
}

func TestLocales(t *testing.T) {
	s, _ := newService(t, meaning{}, false)
	_, fr := get(t, s, "q=chat&locale=fr-CA")
	require.NotNil(t, fr.AliasLocale)
	assert.Equal(t, "fr", *fr.AliasLocale, "a locale loaded on first use")

	_, sem := get(t, s, "q=so+tired+after+work&mode=semantic")
	assert.Nil(t, sem.AliasLocale, "semantic mode fuses no aliases")
	require.NotEmpty(t, sem.Results)
	assert.Equal(t, "semantic", sem.Results[0].Source)

	failing, cache := newService(t, meaning{}, true)
	rec, res := get(t, failing, "q=chat&locale=fr")
	require.Equal(t, 200, rec.Code)
	assert.Nil(t, res.AliasLocale, "the pack did not load: semantic-only")
	assert.Empty(t, cache.m, "never cached")
	_, tr := get(t, failing, "q=kedi&locale=tr")
	assert.NotNil(t, tr.AliasLocale, "tr is built in")
}

func TestBadParameters(t *testing.T) {
	s, _ := newService(t, nil, false)
	for _, q := range []string{"", "q=", "q=a&locale=xx", "q=a&limit=99", "q=a&mode=x", "q=a&culture=2", "q=a&region=QQ"} {
		rec, _ := get(t, s, q)
		assert.Equal(t, 400, rec.Code, q)
		assert.Equal(t, "no-store", rec.Header().Get("Cache-Control"), q)
		assert.Contains(t, rec.Body.String(), `"error"`, q)
	}
}

// TestQueryNormalisedOnce: the answer's query is the normalised form, from
// the engine when the alias tier runs and from the service when only the
// meaning tier does; the meaning tier gets the embedding text.
func TestQueryNormalisedOnce(t *testing.T) {
	s, _ := newService(t, meaning{}, false)
	for _, tc := range []struct{ name, params, want string }{
		{"hybrid", "q=++Caf%C3%A9+%3AJOY%3A++", "cafe joy"},
		{"semantic", "q=++Caf%C3%A9+%3AJOY%3A++&mode=semantic", "cafe joy"},
		{"hybrid, no words", "q=%F0%9F%98%82", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec, res := get(t, s, tc.params)
			require.Equal(t, 200, rec.Code)
			assert.Equal(t, tc.want, res.Query)
		})
	}
}

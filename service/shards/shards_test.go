//go:build !js

package shards

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/packs/dist"
	"github.com/emojisearch/emojisearch/service/httpx"
	"github.com/emojisearch/emojisearch/service/internal/meaningtest"
	"github.com/emojisearch/emojisearch/service/meaning"
	"github.com/emojisearch/emojisearch/service/search"
	"github.com/emojisearch/emojisearch/service/store"
	"github.com/emojisearch/emojisearch/service/store/sqlitedb"
)

var bg = context.Background()

// at is a nightly run: its window is 2026-11-21 … 2026-11-26.
var at = time.Date(2026, 11, 27, 3, 17, 0, 0, time.UTC)

// dirBucket is R2 as real files under a directory.
type dirBucket struct {
	dir  string
	mu   sync.Mutex
	gets int
}

func (b *dirBucket) Get(_ context.Context, key string) ([]byte, bool, error) {
	b.mu.Lock()
	b.gets++
	b.mu.Unlock()
	body, err := os.ReadFile(filepath.Join(b.dir, key))
	if os.IsNotExist(err) {
		return nil, false, nil
	}
	return body, err == nil, err
}

func (b *dirBucket) Put(_ context.Context, key string, body []byte) error {
	p := filepath.Join(b.dir, key)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, body, 0o644)
}

func (b *dirBucket) List(_ context.Context, prefix string) ([]string, error) {
	var out []string
	err := filepath.Walk(b.dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			k, _ := filepath.Rel(b.dir, p)
			if strings.HasPrefix(filepath.ToSlash(k), prefix) {
				out = append(out, filepath.ToSlash(k))
			}
		}
		return err
	})
	return out, err
}

func (b *dirBucket) Delete(_ context.Context, keys ...string) error {
	for _, k := range keys {
		if err := os.Remove(filepath.Join(b.dir, k)); err != nil {
			return err
		}
	}
	return nil
}

// aliasSearch is the real search service over the built-in packs and the
// local embedding model: an answer without a model is degraded and never
// published, so a shard build needs one.
func aliasSearch(t *testing.T) *search.Service {
	t.Helper()
	packs, err := search.NewPacks(nil, distFiles{})
	require.NoError(t, err)
	m := meaningtest.New(t, nil)
	return search.New(search.Config{PackVersion: dist.Version, Model: "glove-cldr@100", DataHash: "h", Packs: packs,
		Meaning: m.Tier, Fuse: meaning.Fuser(m.Model.Calibration)})
}

// distFiles reads pack files of the committed build.
type distFiles struct{}

func (distFiles) LoadPack(_ context.Context, name string) ([]byte, error) {
	return os.ReadFile(filepath.Join("../../packs/dist", dist.Version, name))
}

func newDB(t *testing.T) *sqlitedb.DB {
	t.Helper()
	d, err := sqlitedb.Open(bg, ":memory:", sqlitedb.RepoMigrations())
	require.NoError(t, err)
	t.Cleanup(func() { _ = d.Close() })
	for i := range 5 {
		_, err := d.Batch(bg, []store.Stmt{
			store.Q(`INSERT INTO accounts (id, idp_user_id, created_at) VALUES (?, ?, 0)`, fmt.Sprint("acct", i), fmt.Sprint("sub", i)),
			store.Q(`INSERT INTO apps (id, account_id, name, environment, created_at) VALUES (?, ?, 'A', 'production', 0)`, fmt.Sprint("app", i), fmt.Sprint("acct", i)),
			store.Q(`INSERT INTO apps (id, account_id, name, environment, created_at) VALUES (?, ?, 'B', 'production', 0)`, fmt.Sprint("app", i, "b"), fmt.Sprint("acct", i)),
		})
		require.NoError(t, err)
	}
	return d
}

var keyN int

// log adds searches of query by an app on a day.
func log(t *testing.T, d store.DB, app, day, locale, query string, searches, personal int) {
	t.Helper()
	keyN++
	_, err := d.Run(bg, store.Q(`INSERT INTO query_daily (app_id, day, qkey, locale, query, searches, personal) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		app, day, fmt.Sprintf("%016x", keyN), locale, query, searches, personal))
	require.NoError(t, err)
}

func TestHashAndKeys(t *testing.T) {
	assert.Equal(t, "811c9dc5", Hash(""), "FNV-1a 32 offset basis")
	assert.Equal(t, "e40c292c", Hash("a"))
	assert.Equal(t, "en", Key("en", ""))
	assert.Equal(t, "en-3f", Key("en", "3f"))
	for name, ok := range map[string]bool{"en": true, "en-0": true, "zh-0123abcd": true, "en-0123abcde": false,
		"EN": false, "en-": false, "en-g": false, "e": false, "eng": false, "../x": false, "index": false} {
		assert.Equal(t, ok, ValidKey(name), name)
	}
	keys := map[string]bool{"en-0": true, "en-1": true, "fr": true}
	h := Hash("cat")
	want := ""
	if h[0] == '0' || h[0] == '1' {
		want = "en-" + h[:1]
	}
	assert.Equal(t, want, KeyFor(keys, "en", "cat"))
	assert.Equal(t, "fr", KeyFor(keys, "fr", "chat"))
	assert.Equal(t, "", KeyFor(keys, "de", "katze"))
}

// Spec 1 Static files rule 6, each threshold on its own.
func TestQualifying(t *testing.T) {
	d := newDB(t)
	spread := func(query string, accounts, each int, day string) {
		for i := range accounts {
			log(t, d, fmt.Sprint("app", i), day, "en", query, each, 0)
		}
	}
	spread("qualifies", 3, 4, "2026-11-21")                      // 3 accounts, 12 searches, first day of the window
	spread("two accounts", 2, 20, "2026-11-22")                  // too few accounts
	spread("nine searches", 3, 3, "2026-11-23")                  // too few searches
	spread("today", 3, 10, "2026-11-27")                         // today is not complete
	spread("too old", 3, 10, "2026-11-20")                       // before the window
	spread("john doe example com", 3, 10, "2026-11-24")          // personal when normalized
	log(t, d, "app0", "2026-11-26", "en", "same account", 20, 0) // one account with two apps
	log(t, d, "app0b", "2026-11-26", "en", "same account", 20, 0)
	log(t, d, "app1", "2026-11-26", "en", "same account", 20, 0)
	for i := range 3 {
		log(t, d, fmt.Sprint("app", i), "2026-11-25", "en", "typed personal", 5, i%2) // once flagged when typed
	}
	for i := range 3 { // split over days and locales: per locale
		log(t, d, fmt.Sprint("app", i), "2026-11-25", "fr", "chat", 2, 0)
		log(t, d, fmt.Sprint("app", i), "2026-11-26", "fr", "chat", 2, 0)
		log(t, d, fmt.Sprint("app", i), "2026-11-26", "es", "chat", 1, 0)
	}
	_, err := d.Run(bg, store.Q(`INSERT INTO query_daily (app_id, day, qkey, searches) VALUES ('app0', '2026-11-25', 'overflow', 999)`))
	require.NoError(t, err)

	got, err := Qualifying(bg, d, at)
	require.NoError(t, err)
	assert.ElementsMatch(t, []Candidate{{"en", "qualifies"}, {"fr", "chat"}}, got)
}

func TestBuildServeAndDrop(t *testing.T) {
	d := newDB(t)
	for i := range 3 {
		log(t, d, fmt.Sprint("app", i), "2026-11-26", "en", "cat", 5, 0)
		log(t, d, fmt.Sprint("app", i), "2026-11-26", "en", "pizza", 5, 0)
	}
	bucket := &dirBucket{dir: t.TempDir()}
	cfg := Config{DB: d, Bucket: bucket, Search: aliasSearch(t), PackVersion: dist.Version, Model: "glove-cldr@100"}
	cache := &memCache{m: map[string]memEntry{}}
	srv := &Server{Bucket: bucket, Cache: cache}
	router := &httpx.Router{NotFound: httpx.NotFound(), BadMethod: httpx.MethodNotAllowed}
	srv.Routes(router)
	get := func(path string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		router.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "http://localhost"+path, nil))
		return rec
	}
	base := "/p/" + dist.Version + "/"

	rec := get(base + "index.json")
	assert.Equal(t, 404, rec.Code, "no build yet")
	assert.Equal(t, "no-store", rec.Header().Get("Cache-Control"))

	sum, err := Build(bg, cfg, at)
	require.NoError(t, err)
	assert.Equal(t, 2, sum.Published)
	assert.Equal(t, []string{"en"}, sum.Keys)

	rec = get(base + "index.json")
	require.Equal(t, 200, rec.Code)
	assert.Equal(t, IndexCacheControl, rec.Header().Get("Cache-Control"))
	var idx Index
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &idx))
	assert.Equal(t, []string{"en"}, idx.Keys)
	assert.Equal(t, dist.Version, idx.PackVersion)

	rec = get(base + "en.json")
	require.Equal(t, 200, rec.Code)
	assert.Equal(t, ShardCacheControl, rec.Header().Get("Cache-Control"))
	var sh Shard
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &sh))
	require.NotEmpty(t, sh.Results["cat"])
	direct, err := aliasSearch(t).Precompute(bg, "en", "cat", Limit)
	require.NoError(t, err)
	assert.Equal(t, direct, sh.Results["cat"], "the service's own answer")
	assert.NotContains(t, rec.Body.String(), "app0", "no app, account, day or count")
	assert.NotContains(t, rec.Body.String(), "2026-11-26")

	gets := bucket.gets
	assert.Equal(t, 200, get(base+"en.json").Code)
	assert.Equal(t, gets, bucket.gets, "the second answer comes from the edge cache")

	for _, p := range []string{base + "xx.json", base + "en", base + "../x.json", "/p/v..1/en.json", base + "en-zz.json"} {
		assert.Equal(t, 404, get(p).Code, p)
	}

	// The next night "pizza" has stopped qualifying: it leaves the files.
	_, err = d.Run(bg, store.Q(`DELETE FROM query_daily WHERE query = 'pizza'`))
	require.NoError(t, err)
	_, err = Build(bg, cfg, at.AddDate(0, 0, 1))
	require.NoError(t, err)
	body, ok, err := bucket.Get(bg, Prefix(dist.Version)+"en.json")
	require.NoError(t, err)
	require.True(t, ok)
	assert.Contains(t, string(body), `"cat"`)
	assert.NotContains(t, string(body), "pizza")

	// Nothing qualifies any more: the stale shard is deleted.
	_, err = d.Run(bg, store.Q(`DELETE FROM query_daily`))
	require.NoError(t, err)
	sum, err = Build(bg, cfg, at.AddDate(0, 0, 2))
	require.NoError(t, err)
	assert.Equal(t, []string{Prefix(dist.Version) + "en.json"}, sum.Deleted)
	_, ok, _ = bucket.Get(bg, Prefix(dist.Version)+"en.json")
	assert.False(t, ok)
}

func TestSplitKeepsShardsSmall(t *testing.T) {
	results := map[string][]search.Item{}
	var items []search.Item
	for i := range 24 {
		items = append(items, search.Item{Emoji: "😀", ID: fmt.Sprint("1F6", i), Score: 0.5, Source: "alias"})
	}
	for i := range 3000 {
		results[fmt.Sprint("query ", i)] = items
	}
	files := map[string][]byte{}
	require.NoError(t, split("en", "", results, files))
	require.Greater(t, len(files), 16)
	keys := map[string]bool{}
	for k, body := range files {
		keys[k] = true
		assert.LessOrEqual(t, len(body), MaxShardBytes, k)
	}
	prefix := func(k string) string { return strings.TrimPrefix(strings.TrimPrefix(k, "en"), "-") }
	for k1 := range keys {
		for k2 := range keys {
			if k1 != k2 {
				assert.False(t, strings.HasPrefix(prefix(k2), prefix(k1)), "prefix-free: %s %s", k1, k2)
			}
		}
	}
	for q := range results {
		k := KeyFor(keys, "en", q)
		require.NotEmpty(t, k, q)
		var sh Shard
		require.NoError(t, json.Unmarshal(files[k], &sh))
		assert.Contains(t, sh.Results, q, "KeyFor finds the shard holding %q", q)
	}
}

type memEntry struct {
	body []byte
	cc   string
}

// memCache stands for caches.default (hostsim and workerd run the real one
// in the e2e suite).
type memCache struct {
	mu sync.Mutex
	m  map[string]memEntry
}

func (c *memCache) Match(_ context.Context, url string) ([]byte, bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[url]
	return e.body, ok, nil
}

func (c *memCache) Put(_ context.Context, url string, body []byte, cc string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[url] = memEntry{body, cc}
	return nil
}

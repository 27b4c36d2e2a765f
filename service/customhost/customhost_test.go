//go:build !js

package customhost_test

import (
	"context"
	"encoding/json"
	"errors"
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

	"github.com/emojisearch/emojisearch/engine/packfmt"
	"github.com/emojisearch/emojisearch/service/access"
	"github.com/emojisearch/emojisearch/service/accounts"
	"github.com/emojisearch/emojisearch/service/apikey"
	"github.com/emojisearch/emojisearch/service/auth"
	"github.com/emojisearch/emojisearch/service/customhost"
	"github.com/emojisearch/emojisearch/service/emojistore"
	"github.com/emojisearch/emojisearch/service/emojistore/emojistoretest"
	"github.com/emojisearch/emojisearch/service/httpx"
	"github.com/emojisearch/emojisearch/service/imageintake"
	"github.com/emojisearch/emojisearch/service/plans"
	"github.com/emojisearch/emojisearch/service/store"
	"github.com/emojisearch/emojisearch/service/store/sqlitedb"
)

var bg = context.Background()

// memCache keeps entries until the test moves past their lifetime.
type memCache struct {
	mu      sync.Mutex
	entries map[string][]byte
	puts    int
}

func (c *memCache) Get(_ context.Context, key string) ([]byte, bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b, ok := c.entries[key]
	return b, ok, nil
}

func (c *memCache) Put(_ context.Context, key string, body []byte, ttl time.Duration) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if ttl != customhost.PackTTL {
		return errors.New("unexpected ttl")
	}
	c.entries[key] = body
	c.puts++
	return nil
}

// failingDB fails every read, like D1 that cannot be reached.
type failingDB struct{ store.DB }

func (failingDB) All(context.Context, store.Stmt) (store.Result, error) {
	return store.Result{}, errors.New("d1 down")
}
func (failingDB) First(context.Context, store.Stmt) (store.Row, error) {
	return nil, errors.New("d1 down")
}

type env struct {
	t      *testing.T
	db     *sqlitedb.DB
	repo   *accounts.Repo
	es     *emojistore.Store
	obj    *emojistoretest.Objects
	cache  *memCache
	router *httpx.Router
	dev    string
}

func newEnv(t *testing.T, db store.DB) *env {
	sdb, err := sqlitedb.Open(bg, filepath.Join(t.TempDir(), "d1.sqlite"), sqlitedb.RepoMigrations())
	require.NoError(t, err)
	t.Cleanup(func() { _ = sdb.Close() })
	if db == nil {
		db = sdb
	}
	dev, err := apikey.New(apikey.Secret)
	require.NoError(t, err)
	e := &env{t: t, db: sdb, repo: accounts.New(accounts.NewConfig(sdb)), obj: &emojistoretest.Objects{},
		cache: &memCache{entries: map[string][]byte{}}, dev: dev.Full}
	e.es = emojistore.New(emojistore.NewConfig(sdb).WithObjects(e.obj))
	res, err := access.NewResolver(access.NewConfig(e.repo.Keys()).WithDevKeys(dev.Full))
	require.NoError(t, err)
	h := customhost.New(customhost.Config{Store: emojistore.New(emojistore.NewConfig(db).WithObjects(e.obj)), Images: e.obj, Cache: e.cache, Guard: access.NewGuard(res, nil, nil), PackVersion: "v1test"})
	e.router = &httpx.Router{NotFound: httpx.NotFound(), BadMethod: httpx.MethodNotAllowed}
	h.Routes(e.router)
	return e
}

func (e *env) app(name string) (string, string) {
	a, err := e.repo.CreateAccount(bg, auth.Identity{Subject: "idp_" + name})
	require.NoError(e.t, err)
	require.NoError(e.t, e.repo.SetPlan(bg, a.ID, plans.Scale))
	ap, err := e.repo.CreateApp(bg, a.ID, "a", accounts.EnvProduction, 10)
	require.NoError(e.t, err)
	_, sk, err := e.repo.CreateKey(bg, ap.ID, apikey.Secret, nil)
	require.NoError(e.t, err)
	return ap.ID, sk
}

func (e *env) emoji(app, tenant, shortcode, file string) emojistore.Emoji {
	img, err := imageintake.Check([]byte(file), "")
	require.NoError(e.t, err)
	em, err := e.es.Create(bg, emojistore.NewEmoji{AppID: app, TenantID: tenant, Shortcode: shortcode, Aliases: []string{shortcode + " alias"},
		Source: emojistore.SourceUpload, Image: []byte(file), Checked: img, Limit: -1, Base: "https://api.example"})
	require.NoError(e.t, err)
	return em
}

func (e *env) get(path, key string, header map[string]string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(http.MethodGet, "https://api.example"+path, nil)
	if key != "" {
		r.Header.Set("Authorization", "Bearer "+key)
	}
	for k, v := range header {
		r.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	e.router.ServeHTTP(w, r)
	return w
}

const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"><circle cx="4" cy="4" r="3"/></svg>`

func TestImage(t *testing.T) {
	e := newEnv(t, nil)
	app, _ := e.app("a")
	other, _ := e.app("b")
	em := e.emoji(app, "", "logo", svg)

	w := e.get("/v1/custom/"+app+"/"+em.ID, "", nil)
	require.Equal(t, http.StatusOK, w.Code)
	assert.Equal(t, svg, w.Body.String())
	h := w.Header()
	assert.Equal(t, "image/svg+xml", h.Get("Content-Type"))
	assert.Equal(t, "public, max-age=31536000, immutable", h.Get("Cache-Control"))
	assert.Equal(t, `"`+imageintake.Hash([]byte(svg))+`"`, h.Get("ETag"))
	assert.Equal(t, "*", h.Get("Access-Control-Allow-Origin"))
	assert.Equal(t, "cross-origin", h.Get("Cross-Origin-Resource-Policy"))
	assert.Equal(t, "nosniff", h.Get("X-Content-Type-Options"))
	assert.Contains(t, h.Get("Content-Security-Policy"), "sandbox")
	assert.Contains(t, h.Get("Content-Security-Policy"), "default-src 'none'")

	for _, inm := range []string{h.Get("ETag"), `W/` + h.Get("ETag"), `"x", ` + h.Get("ETag"), "*"} {
		w = e.get("/v1/custom/"+app+"/"+em.ID, "", map[string]string{"If-None-Match": inm})
		assert.Equal(t, http.StatusNotModified, w.Code, inm)
		assert.Empty(t, w.Body.String())
	}
	w = e.get("/v1/custom/"+app+"/"+em.ID, "", map[string]string{"If-None-Match": `"other"`})
	assert.Equal(t, http.StatusOK, w.Code)

	for name, path := range map[string]string{
		"unknown emoji":        "/v1/custom/" + app + "/emo_nope",
		"emoji of another app": "/v1/custom/" + other + "/" + em.ID,
	} {
		w = e.get(path, "", nil)
		assert.Equal(t, http.StatusNotFound, w.Code, name)
		assert.Equal(t, "no-store", w.Header().Get("Cache-Control"), name)
	}
	e.obj.Remove(em.ImageKey)
	w = e.get("/v1/custom/"+app+"/"+em.ID, "", nil)
	assert.Equal(t, http.StatusNotFound, w.Code, "a missing stored object")

	e.obj.SetFail(true)
	w = e.get("/v1/custom/"+app+"/"+em.ID, "", nil)
	assert.Equal(t, http.StatusServiceUnavailable, w.Code)

	down := newEnv(t, failingDB{})
	w = down.get("/v1/custom/"+app+"/"+em.ID, "", nil)
	assert.Equal(t, http.StatusServiceUnavailable, w.Code)
	assert.NotEmpty(t, w.Header().Get("Retry-After"))
	assert.Equal(t, "no-store", w.Header().Get("Cache-Control"))
}

func decodePack(t *testing.T, w *httptest.ResponseRecorder) map[string]any {
	require.Equal(t, http.StatusOK, w.Code, w.Body.String())
	var m map[string]any
	require.NoError(t, json.Unmarshal(w.Body.Bytes(), &m))
	assert.Equal(t, packfmt.Format, m["format"])
	assert.Equal(t, "custom", m["part"])
	return m
}

func TestPack(t *testing.T) {
	e := newEnv(t, nil)
	app, sk := e.app("a")
	ten, _, err := e.es.CreateTenant(bg, app, "t1", "")
	require.NoError(t, err)
	wide := e.emoji(app, "", "logo", svg)
	e.emoji(app, "", "wave", svg)
	mine := e.emoji(app, ten.ID, "logo", svg)

	w := e.get("/v1/custom-pack", "", nil)
	assert.Equal(t, http.StatusUnauthorized, w.Code)

	w = e.get("/v1/custom-pack", sk, nil)
	p := decodePack(t, w)
	assert.Equal(t, "public, max-age=60", w.Header().Get("Cache-Control"))
	rows := p["rows"].([]any)
	require.Len(t, rows, 2)
	idx := p["rowIndex"].(map[string]any)
	first := rows[1].([]any) // newest first: wave, then logo
	assert.Equal(t, packfmt.CustomIDPrefix+wide.ID, first[int(idx["id"].(float64))])
	assert.Equal(t, ":logo:", first[int(idx["emoji"].(float64))])
	assert.Equal(t, "logo", first[int(idx["shortcode"].(float64))])
	assert.Equal(t, "logo alias", first[int(idx["alias"].(float64))])
	assert.Equal(t, "https://api.example/v1/custom/"+app+"/"+wide.ID, first[int(idx["imageUrl"].(float64))])

	p = decodePack(t, e.get("/v1/custom-pack?tenant=t1", sk, nil))
	ids := []string{}
	for _, r := range p["rows"].([]any) {
		ids = append(ids, r.([]any)[0].(string))
	}
	assert.Contains(t, ids, packfmt.CustomIDPrefix+mine.ID, "the tenant's logo replaces the app-wide one")
	assert.NotContains(t, ids, packfmt.CustomIDPrefix+wide.ID)
	assert.Len(t, ids, 2)
	assert.Equal(t, "t1", p["tenant"])

	// Cached for 60 s per app and tenant: a new emoji shows after expiry.
	puts := e.cache.puts
	e.emoji(app, "", "new", svg)
	p = decodePack(t, e.get("/v1/custom-pack", sk, nil))
	assert.Len(t, p["rows"], 2, "served from the edge cache")
	assert.Equal(t, puts, e.cache.puts)
	clear(e.cache.entries)
	p = decodePack(t, e.get("/v1/custom-pack", sk, nil))
	assert.Len(t, p["rows"], 3)
	for k := range e.cache.entries {
		assert.NotContains(t, k, sk, "no key in the cache key")
		assert.NotContains(t, k, "t1", "the tenant is hashed")
	}

	w = e.get("/v1/custom-pack", e.dev, nil)
	p = decodePack(t, w)
	assert.Empty(t, p["rows"], "development keys get an empty pack")

	w = e.get("/v1/custom-pack?tenant="+strings.Repeat("x", 129), sk, nil)
	assert.Equal(t, http.StatusBadRequest, w.Code)

	down := newEnv(t, failingDB{})
	dApp, dKey := down.app("d")
	_ = dApp
	w = down.get("/v1/custom-pack", dKey, nil)
	p = decodePack(t, w)
	assert.Empty(t, p["rows"])
	assert.Equal(t, "no-store", w.Header().Get("Cache-Control"), "an unreadable store: empty and not cached")
	assert.Empty(t, down.cache.entries)
}

// TestClientFixture keeps client/test/custom-pack.json, the client
// library's test data for loadCustomPack, equal to what this host serves:
// an app's pack, the same with ?tenant=acme (whose logo replaces the
// app-wide one) and a development key's empty pack. Ids are the only
// random parts; they are replaced by stable names. WRITE_CLIENT_FIXTURE=1
// rewrites the file after a change of the format.
func TestClientFixture(t *testing.T) {
	e := newEnv(t, nil)
	tick := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	e.es = emojistore.New(emojistore.NewConfig(e.db).WithObjects(e.obj).WithClock(func() time.Time { tick = tick.Add(time.Minute); return tick }))
	app, sk := e.app("fixture")
	ten, _, err := e.es.CreateTenant(bg, app, "acme", "")
	require.NoError(t, err)
	names := strings.NewReplacer() // filled below: random id -> stable name
	pairs := []string{app, "app_fixture"}
	for _, m := range []struct{ tenant, shortcode, name string }{
		{"", "logo", "emo_logo"}, {"", "party_parrot", "emo_parrot"}, {ten.ID, "logo", "emo_acme_logo"},
	} {
		img, err := imageintake.Check([]byte(svg), "")
		require.NoError(t, err)
		em, err := e.es.Create(bg, emojistore.NewEmoji{AppID: app, TenantID: m.tenant, Shortcode: m.shortcode,
			Aliases: map[string][]string{"logo": {"company logo"}, "party_parrot": {"fiesta", "dance party"}}[m.shortcode],
			Source:  emojistore.SourceUpload, Image: []byte(svg), Checked: img, Limit: -1, Base: "https://api.example"})
		require.NoError(t, err)
		pairs = append(pairs, em.ID, m.name)
	}
	names = strings.NewReplacer(pairs...)
	answers := map[string]json.RawMessage{}
	for name, req := range map[string]struct{ path, key string }{
		"app": {"/v1/custom-pack", sk}, "acme": {"/v1/custom-pack?tenant=acme", sk}, "dev": {"/v1/custom-pack", e.dev},
	} {
		w := e.get(req.path, req.key, nil)
		require.Equal(t, http.StatusOK, w.Code)
		answers[name] = json.RawMessage(names.Replace(w.Body.String()))
	}
	got, err := json.MarshalIndent(answers, "", " ")
	require.NoError(t, err)
	got = append(got, '\n')
	path := filepath.Join("..", "..", "client", "test", "custom-pack.json")
	if os.Getenv("WRITE_CLIENT_FIXTURE") == "1" {
		require.NoError(t, os.WriteFile(path, got, 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got), "the custom pack changed: run WRITE_CLIENT_FIXTURE=1 go test -run TestClientFixture ./service/customhost/ and update client/src/load.js")
}

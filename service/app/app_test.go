//go:build !js

package app_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/packs/dist"
	"github.com/emojisearch/emojisearch/service/access"
	"github.com/emojisearch/emojisearch/service/app"
	"github.com/emojisearch/emojisearch/service/app/local"
	"github.com/emojisearch/emojisearch/service/store"
	"github.com/emojisearch/emojisearch/service/store/sqlitedb"
)

// root is the checkout's top folder (this package is service/app).
var root = filepath.Join("..", "..")

// platform is the composed app's platform natively: SQLite with the
// repository's migrations, the checkout's assets, in-memory KV, R2 and
// Cache, and the local embedding model.
func platform(t *testing.T) app.Platform {
	t.Helper()
	db, err := sqlitedb.Open(context.Background(), filepath.Join(t.TempDir(), "d1.sqlite"), sqlitedb.RepoMigrations())
	require.NoError(t, err)
	t.Cleanup(func() { _ = db.Close() })
	embedder, model, err := local.Model(filepath.Join(root, "packs", "models", "glove-cldr.100.embm"))
	require.NoError(t, err)
	return app.Platform{
		DB:       db,
		KV:       &local.KV{},
		Objects:  &local.Objects{},
		Cache:    &local.Cache{},
		Embedder: embedder,
		Limiters: map[string]access.Limiter{"RL_KEYED": allowAll{}, "RL_ANON": allowAll{}, "RL_WAITLIST": allowAll{}},
		Assets:   local.Assets(local.RepoMounts(root)),
		Vars: local.Vars{
			"ENVIRONMENT":     "development",
			"PACK_VERSION":    dist.Version,
			"EMBED_MODEL":     model,
			"SETS_UPSTREAM":   "https://sets.invalid/",
			"WEBSITE_ORIGINS": "https://example.com",
		}.Get,
		Log: t.Logf,
	}
}

// allowAll is a rate limiter that never limits.
type allowAll struct{}

func (allowAll) Allow(context.Context, string) (bool, error) { return true, nil }

// documented lists the method and path template of every operation of
// docs/openapi.json (CORS preflights aside).
func documented(t *testing.T) [][2]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "docs", "openapi.json"))
	require.NoError(t, err)
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	require.NoError(t, json.Unmarshal(b, &doc))
	var out [][2]string
	for path, item := range doc.Paths {
		for method := range item {
			m := strings.ToUpper(method)
			if slices.Contains([]string{"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"}, m) {
				out = append(out, [2]string{m, path})
			}
		}
	}
	slices.SortFunc(out, func(a, b [2]string) int { return strings.Compare(a[1]+a[0], b[1]+b[0]) })
	require.NotEmpty(t, out)
	return out
}

var param = regexp.MustCompile(`\{[^}]+\}`)

// concrete are paths whose answer is a file: a file that is there.
var concrete = map[string]string{
	"/v1/pack/{version}/{file}":        "/v1/pack/" + dist.Version + "/manifest.json",
	"/v1/culture/{packVersion}/{file}": "/v1/culture/" + dist.Version + "/index.json",
	"/v1/sets/{set}/{file}":            "/v1/sets/twemoji/1f600.svg",
}

// assetOnly are documented paths the asset server answers before the
// Worker runs (build.sh copies the file there).
var assetOnly = []string{"/openapi.json"}

// Every operation the document names reaches a handler of the composed
// app: none answers the router's 404 ("No such route"), the dashboard's
// catch-all 404 or a 405.
func TestEveryDocumentedRouteIsWired(t *testing.T) {
	h := app.New(platform(t)).Handler
	for _, op := range documented(t) {
		if slices.Contains(assetOnly, op[1]) {
			continue
		}
		t.Run(op[0]+" "+op[1], func(t *testing.T) {
			path, ok := concrete[op[1]]
			if !ok {
				path = param.ReplaceAllString(op[1], "x1")
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(op[0], "http://localhost"+path, strings.NewReader("{}")))
			body := rec.Body.String()
			assert.NotEqual(t, http.StatusMethodNotAllowed, rec.Code, body)
			assert.NotContains(t, body, "No such route", "the router's 404")
			assert.NotContains(t, body, "No such dashboard route", "the /api catch-all")
		})
	}
}

// The /api conventions hold for routes of every package that adds /api
// routes (dashboard, webhooks, imports): no-store, and a wrong method is
// 405 with Allow in the dashboard's error shape.
func TestAPIConventions(t *testing.T) {
	h := app.New(platform(t)).Handler
	for _, c := range []struct{ path, allow string }{
		{"/api/me", "DELETE, GET, HEAD"},
		{"/api/webhooks/x1/test", "POST"},
		{"/api/apps/x1/emoji/import/slack", "POST"},
	} {
		t.Run(c.path, func(t *testing.T) {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(http.MethodPut, "http://localhost"+c.path, nil))
			assert.Equal(t, http.StatusMethodNotAllowed, rec.Code)
			assert.Equal(t, c.allow, rec.Header().Get("Allow"))
			assert.Equal(t, "no-store", rec.Header().Get("Cache-Control"))
			assert.Contains(t, rec.Body.String(), `"code":"method_not_allowed"`)
		})
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "http://localhost/api/nothing/here", nil))
	assert.Equal(t, http.StatusNotFound, rec.Code)
	assert.Equal(t, "no-store", rec.Header().Get("Cache-Control"))
	assert.Contains(t, rec.Body.String(), "No such dashboard route")
}

// The composed app answers a search from the checkout's packs with the
// meaning tier on, as the Worker does.
func TestSearchAnswers(t *testing.T) {
	a := app.New(platform(t))
	rec := httptest.NewRecorder()
	a.Handler.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "http://localhost/v1/health", nil))
	require.Equal(t, http.StatusOK, rec.Code)
	assert.JSONEq(t, `{"ok":true,"packVersion":"`+dist.Version+`","model":"glove-cldr@100","semantic":true}`, rec.Body.String())
	got := local.Emoji(a.Handler, httptest.NewRequest(http.MethodGet, "http://localhost/v1/search?q=pizza&locale=en", nil))
	require.NotEmpty(t, got)
	assert.Equal(t, "🍕", got[0])
}

// cronRE reads wrangler.toml's crons.
var cronRE = regexp.MustCompile(`(?m)^crons = \[(.*)\]`)

// The app's cron jobs are wrangler.toml's triggers, and a run is recorded
// in cron_runs.
func TestCronJobs(t *testing.T) {
	p := platform(t)
	a := app.New(p)
	b, err := os.ReadFile(filepath.Join(root, "wrangler.toml"))
	require.NoError(t, err)
	m := cronRE.FindSubmatch(b)
	require.NotNil(t, m, "wrangler.toml has crons")
	var crons []string
	require.NoError(t, json.Unmarshal([]byte("["+string(m[1])+"]"), &crons))
	jobs := make([]string, 0, len(a.Jobs))
	for c := range a.Jobs {
		jobs = append(jobs, c)
	}
	assert.ElementsMatch(t, crons, jobs)
	assert.ElementsMatch(t, []string{app.NightlyCron, app.SweepCron}, jobs)

	ctx := context.Background()
	for _, c := range crons {
		require.NoError(t, a.Scheduled(ctx, c, time.Now()), c)
	}
	require.NoError(t, a.Scheduled(ctx, "0 0 * * *", time.Now()), "a trigger with no job is recorded")
	res, err := p.DB.All(ctx, store.Stmt{SQL: "SELECT cron, ok, detail FROM cron_runs ORDER BY id"})
	require.NoError(t, err)
	require.Len(t, res.Rows, 3)
	for i, row := range res.Rows {
		ok, err := row.Int("ok")
		require.NoError(t, err)
		detail, err := row.String("detail")
		require.NoError(t, err)
		assert.Equal(t, int64(1), ok, "run %d: %s", i, detail)
		if i == 2 {
			assert.Equal(t, "no job", detail)
		}
	}
}

// Without a database the app still serves the alias tier and search, and
// has no cron jobs.
func TestWithoutBindings(t *testing.T) {
	a := app.New(app.Platform{Assets: local.Assets(local.RepoMounts(root)), Log: t.Logf})
	assert.Empty(t, a.Jobs)
	got := local.Emoji(a.Handler, httptest.NewRequest(http.MethodGet, "http://localhost/v1/search?q=pizza", nil))
	require.NotEmpty(t, got)
	assert.Equal(t, "🍕", got[0])
	rec := httptest.NewRecorder()
	a.Handler.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "http://localhost/api/me", nil))
	assert.Equal(t, http.StatusNotFound, rec.Code)
}

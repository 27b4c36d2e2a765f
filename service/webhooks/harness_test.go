//go:build !js

package webhooks_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/service/auth"
	"github.com/emojisearch/emojisearch/service/dashboard"
	"github.com/emojisearch/emojisearch/service/httpx"
	"github.com/emojisearch/emojisearch/service/store"
	"github.com/emojisearch/emojisearch/service/store/sqlitedb"
	"github.com/emojisearch/emojisearch/service/webhooks"
	"github.com/emojisearch/emojisearch/service/webhooks/webhookstest"
)

var bg = context.Background()

// env is a dashboard with the webhook routes over a real SQLite D1, the
// development sign-in, and a receiver that verifies every delivery.
type env struct {
	t    *testing.T
	db   store.DB
	svc  *webhooks.Service
	h    http.Handler
	recv *webhookstest.Receiver
	logs *bytes.Buffer
}

type logBuf struct {
	mu sync.Mutex
	b  *bytes.Buffer
}

func newEnv(t *testing.T, cfg func(webhooks.Config) webhooks.Config) *env {
	db, err := sqlitedb.Open(bg, filepath.Join(t.TempDir(), "d1.sqlite"), sqlitedb.RepoMigrations())
	require.NoError(t, err)
	t.Cleanup(func() { _ = db.Close() })
	authn, err := auth.NewAuthenticator(auth.Config{DevSignIn: true})
	require.NoError(t, err)
	lb := &logBuf{b: &bytes.Buffer{}}
	logf := func(f string, a ...any) {
		lb.mu.Lock()
		defer lb.mu.Unlock()
		lb.b.WriteString(strings.TrimSpace(sprintf(f, a...)) + "\n")
	}
	d, err := dashboard.New(dashboard.NewConfig(db, authn).WithEnvironment(dashboard.EnvDevelopment).
		WithWaitlist([]string{"https://example.com"}, nopLimiter{}).WithLog(logf))
	require.NoError(t, err)
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	c := webhooks.NewConfig(db, client).WithDevelopment(true).WithLog(logf).
		WithRetryDelays(300*time.Millisecond, 900*time.Millisecond).WithTimeout(2 * time.Second)
	if cfg != nil {
		c = cfg(c)
	}
	svc, err := webhooks.New(c)
	require.NoError(t, err)
	r := &httpx.Router{NotFound: http.NotFoundHandler()}
	d.Routes(r, svc.APIRoutes(d)...)
	e := &env{t: t, db: db, svc: svc, logs: lb.b, recv: webhookstest.NewReceiver(t)}
	e.h = svc.Middleware(func(ctx context.Context, fn func(context.Context)) { fn(ctx) })(r)
	return e
}

type nopLimiter struct{}

func (nopLimiter) Allow(context.Context, string) (bool, error) { return true, nil }

// user signs in with the development cookie and returns the cookie and
// account id.
func (e *env) user(login string) (*http.Cookie, string) {
	req := httptest.NewRequest("GET", "http://localhost/api/auth/dev?login="+login, nil)
	w := httptest.NewRecorder()
	e.h.ServeHTTP(w, req)
	require.Equal(e.t, 200, w.Code, w.Body.String())
	var me struct {
		Account struct {
			ID string `json:"id"`
		} `json:"account"`
	}
	require.NoError(e.t, json.Unmarshal(w.Body.Bytes(), &me))
	return w.Result().Cookies()[0], me.Account.ID
}

type answer struct {
	Code int
	Body map[string]any
	Raw  string
}

func (e *env) call(c *http.Cookie, method, path string, body any) answer {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req := httptest.NewRequest(method, "http://localhost"+path, rd)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c != nil {
		req.AddCookie(c)
	}
	w := httptest.NewRecorder()
	e.h.ServeHTTP(w, req)
	a := answer{Code: w.Code, Raw: w.Body.String()}
	_ = json.Unmarshal(w.Body.Bytes(), &a.Body)
	return a
}

func (e *env) sql(q string, args ...any) store.Result {
	res, err := e.db.All(bg, store.Q(q, args...))
	require.NoError(e.t, err)
	return res
}

// scaleApp signs in login, puts its account on plan and creates an app.
func (e *env) app(login, plan string) (*http.Cookie, string, string) {
	c, acc := e.user(login)
	e.sql("UPDATE accounts SET plan = ? WHERE id = ?", plan, acc)
	a := e.call(c, "POST", "/api/apps", map[string]any{"name": "app of " + login})
	require.Equal(e.t, 201, a.Code, a.Raw)
	return c, acc, a.Body["app"].(map[string]any)["id"].(string)
}

func sprintf(f string, a ...any) string { return fmt.Sprintf(f, a...) }

//go:build !js

package dashboard

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/service/accounts"
	"github.com/emojisearch/emojisearch/service/auth"
	"github.com/emojisearch/emojisearch/service/httpx"
	"github.com/emojisearch/emojisearch/service/store"
	"github.com/emojisearch/emojisearch/service/store/sqlitedb"
)

var bg = context.Background()

// fakeAuth reads "Authorization: Bearer <token>" where the token names an
// identity of its map; the token "unconfigured" stands for a service
// without provider settings. Development sign-in works on localhost.
type fakeAuth struct {
	mu  sync.Mutex
	ids map[string]auth.Identity
}

func (f *fakeAuth) add(token string, id auth.Identity) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.ids[token] = id
}

func (f *fakeAuth) Authenticate(r *http.Request) (auth.Identity, error) {
	if c, err := r.Cookie(auth.DevCookieName); err == nil && f.DevAllowed(r) {
		return devIdentity(c.Value), nil
	}
	token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok {
		return auth.Identity{}, auth.ErrUnauthorized
	}
	if token == "unconfigured" {
		return auth.Identity{}, auth.ErrUnconfigured
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	id, ok := f.ids[token]
	if !ok {
		return auth.Identity{}, auth.ErrUnauthorized
	}
	return id, nil
}

func (f *fakeAuth) DevAllowed(r *http.Request) bool {
	return strings.HasPrefix(r.Host, "localhost")
}

func (f *fakeAuth) DevSignIn(r *http.Request, login string) (*http.Cookie, auth.Identity, error) {
	if !f.DevAllowed(r) {
		return nil, auth.Identity{}, auth.ErrDevUnavailable
	}
	login, ok := auth.NormalizeDevLogin(login)
	if !ok {
		return nil, auth.Identity{}, auth.ErrDevLogin
	}
	return &http.Cookie{Name: auth.DevCookieName, Value: login}, devIdentity(login), nil
}

func devIdentity(login string) auth.Identity {
	return auth.Identity{Subject: "dev_" + login, Email: login + "@dev.localhost", EmailVerified: true, Name: login}
}

type fakeObjects struct {
	mu      sync.Mutex
	deleted []string
	fail    bool
	stored  map[string]string // key → content type, of the objects held now
	failPut bool
}

func (o *fakeObjects) Put(_ context.Context, key string, _ []byte, contentType string, _ map[string]string) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.failPut {
		return errors.New("r2 down")
	}
	if o.stored == nil {
		o.stored = map[string]string{}
	}
	o.stored[key] = contentType
	return nil
}

func (o *fakeObjects) Delete(_ context.Context, keys []string) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.fail {
		return errors.New("r2 down")
	}
	o.deleted = append(o.deleted, keys...)
	for _, k := range keys {
		delete(o.stored, k)
	}
	return nil
}

type fakeUsers struct {
	mu      sync.Mutex
	deleted []string
	err     error
}

func (u *fakeUsers) DeleteUser(_ context.Context, id string) error {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.err != nil {
		return u.err
	}
	u.deleted = append(u.deleted, id)
	return nil
}

// fakeLimiter allows 5 calls per key per clock minute, like the binding
// configured with limit 5, period 60.
type fakeLimiter struct {
	mu     sync.Mutex
	now    func() time.Time
	counts map[string]int
	err    error
}

func (l *fakeLimiter) Allow(_ context.Context, key string) (bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil {
		return false, l.err
	}
	k := fmt.Sprintf("%s@%d", key, l.now().Unix()/60)
	l.counts[k]++
	return l.counts[k] <= 5, nil
}

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

// env is one dashboard over a fresh database with the real migrations.
type env struct {
	t       *testing.T
	db      *sqlitedb.DB
	d       *Dashboard
	repo    *accounts.Repo
	auth    *fakeAuth
	objects *fakeObjects
	users   *fakeUsers
	limiter *fakeLimiter
	clock   *clock
	router  *httpx.Router
	mu      sync.Mutex
	logs    []string
}

const site = "https://emojisearch.example"

func newEnv(t *testing.T, opts ...func(Config) Config) *env {
	t.Helper()
	db, err := sqlitedb.Open(bg, ":memory:", sqlitedb.RepoMigrations())
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	e := &env{t: t, db: db, auth: &fakeAuth{ids: map[string]auth.Identity{}}, objects: &fakeObjects{},
		users: &fakeUsers{}, clock: &clock{t: time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)}}
	e.limiter = &fakeLimiter{now: e.clock.now, counts: map[string]int{}}
	cfg := NewConfig(db, e.auth).WithObjects(e.objects).WithUserDeleter(e.users).
		WithWaitlist([]string{site, "https://www.emojisearch.example"}, e.limiter).
		WithClock(e.clock.now).WithLog(func(format string, args ...any) {
		e.mu.Lock()
		defer e.mu.Unlock()
		e.logs = append(e.logs, fmt.Sprintf(format, args...))
	})
	for _, o := range opts {
		cfg = o(cfg)
	}
	e.d, err = New(cfg)
	require.NoError(t, err)
	e.repo = e.d.Repo()
	e.router = &httpx.Router{NotFound: httpx.NotFound(), BadMethod: httpx.MethodNotAllowed}
	e.d.Routes(e.router)
	return e
}

// user registers a token for an identity with a verified email (none when
// email is "") and creates the account on the given plan.
func (e *env) user(token, email, plan string) accounts.Account {
	e.t.Helper()
	e.auth.add(token, auth.Identity{Subject: "idp_" + token, Email: email, EmailVerified: email != "", Name: "Name " + token})
	a, err := e.repo.CreateAccount(bg, auth.Identity{Subject: "idp_" + token, Email: email, Name: "Name " + token})
	require.NoError(e.t, err)
	if plan != "free" {
		require.NoError(e.t, e.repo.SetPlan(bg, a.ID, plan))
		a.Plan = plan
	}
	return a
}

func (e *env) member(owner, member accounts.Account, role string) {
	e.t.Helper()
	_, err := e.db.Run(bg, store.Q("INSERT INTO team_members (id, owner_id, member_id, role, created_at) VALUES (?, ?, ?, ?, 1)",
		accounts.NewID("tm"), owner.ID, member.ID, role))
	require.NoError(e.t, err)
}

type req struct {
	method, path, token string
	body                any // string: sent as is; else JSON
	contentType         string
	header              map[string]string
	host                string
}

type resp struct {
	*httptest.ResponseRecorder
	t *testing.T
}

func (r resp) json() map[string]any {
	r.t.Helper()
	var m map[string]any
	require.NoError(r.t, json.Unmarshal(r.Body.Bytes(), &m), r.Body.String())
	return m
}

// errCode is the error.code of an error answer.
func (r resp) errCode() string {
	r.t.Helper()
	m := r.json()
	e, ok := m["error"].(map[string]any)
	require.True(r.t, ok, r.Body.String())
	return e["code"].(string)
}

func (r resp) errField(name string) any {
	r.t.Helper()
	return r.json()["error"].(map[string]any)[name]
}

func (e *env) do(q req) resp {
	e.t.Helper()
	var body io.Reader
	ct := q.contentType
	switch b := q.body.(type) {
	case nil:
	case string:
		body = strings.NewReader(b)
	default:
		data, err := json.Marshal(b)
		require.NoError(e.t, err)
		body = bytes.NewReader(data)
		if ct == "" {
			ct = "application/json"
		}
	}
	r := httptest.NewRequest(q.method, q.path, body)
	if q.host != "" {
		r.Host = q.host
	}
	if ct != "" {
		r.Header.Set("Content-Type", ct)
	}
	if q.token != "" {
		r.Header.Set("Authorization", "Bearer "+q.token)
	}
	for k, v := range q.header {
		r.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	e.router.ServeHTTP(w, r)
	if w.Code >= 400 && w.Code != http.StatusMethodNotAllowed {
		assert.Equal(e.t, "no-store", w.Header().Get("Cache-Control"), q.path)
	}
	return resp{ResponseRecorder: w, t: e.t}
}

func (e *env) count(sql string, args ...any) int64 {
	e.t.Helper()
	row, err := e.db.First(bg, store.Q(sql, args...))
	require.NoError(e.t, err)
	n, err := row.Int("n")
	require.NoError(e.t, err)
	return n
}

// createApp creates an app through the API and returns its id.
func (e *env) createApp(token, env string) string {
	e.t.Helper()
	r := e.do(req{method: "POST", path: "/api/apps", token: token, body: map[string]string{"name": "app", "environment": env}})
	require.Equal(e.t, http.StatusCreated, r.Code, r.Body.String())
	return r.json()["app"].(map[string]any)["id"].(string)
}

// createKey creates a key through the API and returns its id and full key.
func (e *env) createKey(token, appID, kind string, origins []string) (string, string) {
	e.t.Helper()
	r := e.do(req{method: "POST", path: "/api/apps/" + appID + "/keys", token: token,
		body: map[string]any{"kind": kind, "allowedOrigins": origins}})
	require.Equal(e.t, http.StatusCreated, r.Code, r.Body.String())
	m := r.json()
	return m["key"].(map[string]any)["id"].(string), m["fullKey"].(string)
}

package access

import (
	"encoding/json"
	"errors"
	"github.com/emojisearch/emojisearch/service/internal/testclock"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/service/apikey"
	"github.com/emojisearch/emojisearch/service/plans"
)

func key(prefix string, fill byte) string { return prefix + strings.Repeat(string(fill), 32) }

var (
	pkProd      = key(apikey.PublishablePrefix, 'A')
	pkDevApp    = key(apikey.PublishablePrefix, 'B')
	pkProdEmpty = key(apikey.PublishablePrefix, 'C')
	pkRevoked   = key(apikey.PublishablePrefix, 'D')
	pkMismatch  = key(apikey.PublishablePrefix, 'E')
	pkUnknown   = key(apikey.PublishablePrefix, 'F')
	skProd      = key(apikey.SecretPrefix, 'A')
	skUnknown   = key(apikey.SecretPrefix, 'F')
	pkDevKey    = key(apikey.PublishablePrefix, 'x')
	skDevKey    = key(apikey.SecretPrefix, 'x')
)

const site = "https://app.example"

// world is one instance: a store, both limiters, a clock and a Guard.
type world struct {
	store        *fakeStore
	keyed, anon  *fakeLimiter
	clock        *fakeClock
	res          *Resolver
	guard        Guard
	sawCaller    Caller
	handlerCalls int
}

func newWorld(t *testing.T) *world {
	t.Helper()
	w := &world{
		store: newFakeStore(),
		keyed: newFakeLimiter(120),
		anon:  newFakeLimiter(30),
		clock: testclock.New(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)),
	}
	put := func(full, id, env string, origins []string, revoked bool) {
		kind, ok := apikey.KindOf(full)
		require.True(t, ok)
		w.store.set(apikey.Hash(full), KeyRecord{KeyID: id, AppID: "app_" + id, AccountID: "acct_1",
			Kind: kind, AllowedOrigins: origins, Revoked: revoked, AppEnvironment: env, Plan: plans.Pro})
	}
	put(pkProd, "k_prod", EnvProduction, []string{site, "http://localhost:5173"}, false)
	put(pkDevApp, "k_devapp", EnvDevelopment, nil, false)
	put(pkProdEmpty, "k_prodempty", EnvProduction, []string{}, false)
	put(pkRevoked, "k_revoked", EnvProduction, []string{site}, true)
	put(skProd, "k_secret", EnvProduction, nil, false)
	w.store.set(apikey.Hash(pkMismatch), KeyRecord{KeyID: "k_mismatch", AppID: "app_m", Kind: apikey.Secret,
		AppEnvironment: EnvProduction})

	res, err := NewResolver(NewConfig(w.store).WithDevKeys(pkDevKey, skDevKey).WithClock(w.clock.Now))
	require.NoError(t, err)
	w.res = res
	w.guard = NewGuard(res, w.keyed, w.anon)
	return w
}

// req describes one request.
type req struct {
	query   string // raw query, e.g. "key=..."
	auth    []string
	origin  []string
	ip      string
	nocfip  bool
	remote  string
	require bool // route refuses anonymous callers
}

func (w *world) do(t *testing.T, q req) *httptest.ResponseRecorder {
	t.Helper()
	r := httptest.NewRequest(http.MethodGet, "https://api.example/v1/search?q=cat", nil)
	if q.query != "" {
		r.URL.RawQuery = "q=cat&" + q.query
	}
	for _, a := range q.auth {
		r.Header.Add("Authorization", a)
	}
	for _, o := range q.origin {
		r.Header.Add("Origin", o)
	}
	ip := q.ip
	if ip == "" {
		ip = "203.0.113.7"
	}
	if !q.nocfip {
		r.Header.Set("CF-Connecting-IP", ip)
	}
	r.RemoteAddr = q.remote
	g := w.guard
	if q.require {
		g = g.WithRequireKey()
	}
	rec := httptest.NewRecorder()
	w.sawCaller = Caller{}
	g.Wrap(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		c, ok := FromContext(r.Context())
		require.True(t, ok)
		w.sawCaller = c
		w.handlerCalls++
		rw.WriteHeader(http.StatusOK)
	})).ServeHTTP(rec, r)
	return rec
}

// assertRefused checks a refusal's status, spec-1 error shape and headers.
func assertRefused(t *testing.T, rec *httptest.ResponseRecorder, want *Error) {
	t.Helper()
	assert.Equal(t, want.Status, rec.Code)
	assert.Equal(t, "no-store", rec.Header().Get("Cache-Control"))
	assert.Equal(t, "application/json; charset=utf-8", rec.Header().Get("Content-Type"))
	var body map[string]string
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &body))
	assert.Equal(t, map[string]string{"error": want.Message}, body)
	for _, k := range []string{pkProd, skProd, pkUnknown, skUnknown, pkRevoked, pkDevKey, skDevKey} {
		assert.NotContains(t, rec.Body.String(), k[8:], "the key is never echoed")
	}
}

func q(full string) string { return "key=" + url.QueryEscape(full) }

func bearerOf(full string) []string { return []string{"Bearer " + full} }

// TestAuthenticationTable has one row per rule of spec 1's Authentication
// table and rules, and the 401 and 403 rows of its Errors table.
func TestAuthenticationTable(t *testing.T) {
	keyed := func(id, kind, env string) Caller {
		return Caller{KeyID: id, AppID: "app_" + id, AccountID: "acct_1", Kind: kind, Plan: plans.Pro, Environment: env}
	}
	cases := []struct {
		name      string
		req       req
		storeDown bool
		wantErr   *Error
		want      Caller
	}{
		{name: "no key is anonymous", req: req{},
			want: Caller{Anonymous: true, AnonReason: AnonNoKey}},
		{name: "empty key parameter is anonymous", req: req{query: "key="},
			want: Caller{Anonymous: true, AnonReason: AnonNoKey}},
		{name: "publishable from allowed origin", req: req{query: q(pkProd), origin: []string{site}},
			want: keyed("k_prod", apikey.Publishable, EnvProduction)},
		{name: "publishable from allowed origin, other case and default port",
			req:  req{query: q(pkProd), origin: []string{"HTTPS://App.Example:443"}},
			want: keyed("k_prod", apikey.Publishable, EnvProduction)},
		{name: "publishable from allowed http origin with port",
			req:  req{query: q(pkProd), origin: []string{"http://localhost:5173"}},
			want: keyed("k_prod", apikey.Publishable, EnvProduction)},
		{name: "publishable from refused origin", req: req{query: q(pkProd), origin: []string{"https://evil.example"}},
			wantErr: ErrOriginNotAllowed},
		{name: "publishable, origin differs by port", req: req{query: q(pkProd), origin: []string{"https://app.example:8443"}},
			wantErr: ErrOriginNotAllowed},
		{name: "publishable, origin differs by scheme", req: req{query: q(pkProd), origin: []string{"http://app.example"}},
			wantErr: ErrOriginNotAllowed},
		{name: "publishable, subdomain is another origin", req: req{query: q(pkProd), origin: []string{"https://www.app.example"}},
			wantErr: ErrOriginNotAllowed},
		{name: "publishable, origin null", req: req{query: q(pkProd), origin: []string{"null"}},
			wantErr: ErrOriginNotAllowed},
		{name: "publishable without Origin", req: req{query: q(pkProd)},
			wantErr: ErrOriginRequired},
		{name: "empty list, development app, any origin", req: req{query: q(pkDevApp), origin: []string{"https://anything.example"}},
			want: keyed("k_devapp", apikey.Publishable, EnvDevelopment)},
		{name: "empty list, development app, no origin", req: req{query: q(pkDevApp)},
			want: keyed("k_devapp", apikey.Publishable, EnvDevelopment)},
		{name: "empty list, production app", req: req{query: q(pkProdEmpty), origin: []string{site}},
			wantErr: ErrNoAllowedOrigins},
		{name: "secret in URL", req: req{query: q(skProd)},
			wantErr: ErrSecretInURL},
		{name: "secret in URL alongside a valid bearer", req: req{query: q(skProd), auth: bearerOf(skProd)},
			wantErr: ErrSecretInURL},
		{name: "unknown secret in URL", req: req{query: q(skUnknown)},
			wantErr: ErrSecretInURL},
		{name: "secret with Origin", req: req{auth: bearerOf(skProd), origin: []string{site}},
			wantErr: ErrSecretWithOrigin},
		{name: "secret as Bearer", req: req{auth: bearerOf(skProd)},
			want: keyed("k_secret", apikey.Secret, EnvProduction)},
		{name: "secret as bearer, scheme lowercase", req: req{auth: []string{"bearer " + skProd}},
			want: keyed("k_secret", apikey.Secret, EnvProduction)},
		{name: "Authorization Basic", req: req{auth: []string{"Basic x"}},
			wantErr: ErrBadAuthorization},
		{name: "Bearer without key", req: req{auth: []string{"Bearer"}},
			wantErr: ErrBadAuthorization},
		{name: "Bearer and a space without key", req: req{auth: []string{"Bearer "}},
			wantErr: ErrBadAuthorization},
		{name: "empty Authorization", req: req{auth: []string{""}},
			wantErr: ErrBadAuthorization},
		{name: "Bearer with two tokens", req: req{auth: []string{"Bearer " + skProd + " x"}},
			wantErr: ErrBadAuthorization},
		{name: "two Authorization headers", req: req{auth: []string{"Bearer " + skProd, "Bearer " + skProd}},
			wantErr: ErrBadAuthorization},
		{name: "publishable as Bearer", req: req{auth: bearerOf(pkProd)},
			wantErr: ErrPublishableAsBearer},
		{name: "key parameter and Authorization", req: req{query: q(pkProd), auth: bearerOf(skProd), origin: []string{site}},
			wantErr: ErrTwoKeys},
		{name: "two key parameters", req: req{query: q(pkProd) + "&" + q(pkDevApp), origin: []string{site}},
			wantErr: ErrTwoKeys},
		{name: "unknown publishable key", req: req{query: q(pkUnknown), origin: []string{site}},
			wantErr: ErrUnknownKey},
		{name: "unknown secret key", req: req{auth: bearerOf(skUnknown)},
			wantErr: ErrUnknownKey},
		{name: "revoked key", req: req{query: q(pkRevoked), origin: []string{site}},
			wantErr: ErrRevokedKey},
		{name: "stored kind disagrees with prefix", req: req{query: q(pkMismatch), origin: []string{site}},
			wantErr: ErrUnknownKey},
		{name: "wrong prefix in URL", req: req{query: q(key("pk_test_", 'A')), origin: []string{site}},
			wantErr: ErrMalformedKey},
		{name: "wrong prefix as Bearer", req: req{auth: bearerOf(key("sk_test_", 'A'))},
			wantErr: ErrMalformedKey},
		{name: "malformed key, too short", req: req{query: q(pkProd[:20]), origin: []string{site}},
			wantErr: ErrMalformedKey},
		{name: "malformed key, bad character", req: req{query: q(pkProd[:39] + "-"), origin: []string{site}},
			wantErr: ErrMalformedKey},
		{name: "malformed secret as Bearer", req: req{auth: bearerOf(skProd + "A")},
			wantErr: ErrMalformedKey},
		{name: "development publishable key, any origin", req: req{query: q(pkDevKey), origin: []string{"https://x.example"}},
			want: Caller{Dev: true, KeyID: "dev_" + apikey.Hash(pkDevKey)[:12], Kind: apikey.Publishable, Environment: EnvDevelopment}},
		{name: "development secret key as Bearer", req: req{auth: bearerOf(skDevKey)},
			want: Caller{Dev: true, KeyID: "dev_" + apikey.Hash(skDevKey)[:12], Kind: apikey.Secret, Environment: EnvDevelopment}},
		{name: "development secret key with Origin", req: req{auth: bearerOf(skDevKey), origin: []string{site}},
			wantErr: ErrSecretWithOrigin},
		{name: "development key works while the store is down", storeDown: true, req: req{auth: bearerOf(skDevKey)},
			want: Caller{Dev: true, KeyID: "dev_" + apikey.Hash(skDevKey)[:12], Kind: apikey.Secret, Environment: EnvDevelopment}},
		{name: "store down, key not cached: anonymous", storeDown: true, req: req{query: q(pkProd), origin: []string{site}},
			want: Caller{Anonymous: true, AnonReason: AnonStoreUnavailable}},
		{name: "store down, secret not cached: anonymous", storeDown: true, req: req{auth: bearerOf(skProd)},
			want: Caller{Anonymous: true, AnonReason: AnonStoreUnavailable}},
		{name: "key route without key", req: req{require: true},
			wantErr: ErrKeyRequired},
		{name: "key route with key", req: req{require: true, auth: bearerOf(skProd)},
			want: keyed("k_secret", apikey.Secret, EnvProduction)},
		{name: "key route, store down: handler decides", storeDown: true, req: req{require: true, auth: bearerOf(skProd)},
			want: Caller{Anonymous: true, AnonReason: AnonStoreUnavailable}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			w.store.setDown(tc.storeDown)
			rec := w.do(t, tc.req)
			if tc.wantErr != nil {
				assertRefused(t, rec, tc.wantErr)
				assert.Zero(t, w.handlerCalls)
				return
			}
			require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
			assert.Equal(t, tc.want, w.sawCaller)
		})
	}
}

// TestResolveErrorsAreTyped checks that worker code can match refusals by
// identity and read their status.
func TestResolveErrorsAreTyped(t *testing.T) {
	w := newWorld(t)
	r := httptest.NewRequest(http.MethodGet, "/v1/search?"+q(skProd), nil)
	_, err := w.res.Resolve(r)
	require.ErrorIs(t, err, ErrSecretInURL)
	var e *Error
	require.True(t, errors.As(err, &e))
	assert.Equal(t, http.StatusForbidden, e.Status)
	assert.Equal(t, "secret_key_in_url", e.Code)
	assert.NotContains(t, err.Error(), skProd[8:])
}

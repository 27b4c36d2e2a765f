package access

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRateLimitAnonymous30PerIP(t *testing.T) {
	w := newWorld(t)
	for i := range 30 {
		require.Equal(t, http.StatusOK, w.do(t, req{ip: "198.51.100.1"}).Code, "call %d", i+1)
	}
	rec := w.do(t, req{ip: "198.51.100.1"})
	assertRefused(t, rec, ErrRateLimitedAnon)
	assert.Equal(t, "60", rec.Header().Get("Retry-After"))
	assert.Equal(t, http.StatusOK, w.do(t, req{ip: "198.51.100.2"}).Code, "another IP has its own bucket")
	assert.ElementsMatch(t, []string{"198.51.100.1", "198.51.100.2"}, w.anon.keys())
	assert.Empty(t, w.keyed.keys())
}

func TestRateLimitKeyed120PerKeyAndIP(t *testing.T) {
	w := newWorld(t)
	r := req{auth: bearerOf(skProd), ip: "198.51.100.1"}
	for i := range 120 {
		require.Equal(t, http.StatusOK, w.do(t, r).Code, "call %d", i+1)
	}
	rec := w.do(t, r)
	assertRefused(t, rec, ErrRateLimitedKeyed)
	assert.Equal(t, "60", rec.Header().Get("Retry-After"))

	assert.Equal(t, http.StatusOK, w.do(t, req{auth: bearerOf(skProd), ip: "198.51.100.2"}).Code, "same key, other IP")
	assert.Equal(t, http.StatusOK, w.do(t, req{query: q(pkProd), origin: []string{site}, ip: "198.51.100.1"}).Code,
		"other key, same IP")
	assert.Equal(t, http.StatusOK, w.do(t, req{ip: "198.51.100.1"}).Code, "anonymous calls use the other binding")
	assert.ElementsMatch(t, []string{"k_secret:198.51.100.1", "k_secret:198.51.100.2", "k_prod:198.51.100.1"}, w.keyed.keys())
}

func TestRateLimitStoreDownUsesAnonymousLimit(t *testing.T) {
	w := newWorld(t)
	w.store.setDown(true)
	w.do(t, req{auth: bearerOf(skProd), ip: "198.51.100.9"})
	assert.Equal(t, []string{"198.51.100.9"}, w.anon.keys())
}

func TestRefusalsDoNotCountAgainstTheLimit(t *testing.T) {
	w := newWorld(t)
	w.do(t, req{auth: []string{"Basic x"}})
	w.do(t, req{auth: bearerOf(skUnknown)})
	assert.Empty(t, w.anon.keys())
	assert.Empty(t, w.keyed.keys())
}

func TestLimiterErrorFailsOpen(t *testing.T) {
	w := newWorld(t)
	boom := errors.New("binding exploded")
	w.anon.err, w.keyed.err = boom, boom
	var seen []error
	w.guard = w.guard.WithErrorHook(func(err error) { seen = append(seen, err) })
	assert.Equal(t, http.StatusOK, w.do(t, req{}).Code)
	assert.Equal(t, http.StatusOK, w.do(t, req{auth: bearerOf(skProd)}).Code)
	assert.Equal(t, []error{boom, boom}, seen)
}

func TestNilLimiterAppliesNoLimit(t *testing.T) {
	w := newWorld(t)
	w.guard = NewGuard(w.res, nil, nil)
	for range 100 {
		require.Equal(t, http.StatusOK, w.do(t, req{}).Code)
	}
}

func TestErrorWriter(t *testing.T) {
	w := newWorld(t)
	w.guard = w.guard.WithRequireKey().WithErrorWriter(func(rw http.ResponseWriter, _ *http.Request, e *Error) {
		rw.WriteHeader(e.Status)
		_, _ = rw.Write([]byte(e.Code))
	})
	rec := w.do(t, req{})
	assert.Equal(t, http.StatusUnauthorized, rec.Code)
	assert.Equal(t, "unauthorized", rec.Body.String())

	w.anon.limit = 0
	w.store.setDown(true)
	rec = w.do(t, req{auth: bearerOf(skProd)})
	assert.Equal(t, http.StatusTooManyRequests, rec.Code)
	assert.Equal(t, strconv.Itoa(RetryAfterSeconds), rec.Header().Get("Retry-After"), "set before the writer runs")
}

func TestClientIP(t *testing.T) {
	cases := []struct {
		name, cf, remote, want string
		noCF                   bool
	}{
		{name: "CF-Connecting-IP v4", cf: "203.0.113.5", remote: "10.0.0.1:1234", want: "203.0.113.5"},
		{name: "CF-Connecting-IP v6 canonical", cf: "2001:DB8::0:1", want: "2001:db8::1"},
		{name: "v4-mapped v6", cf: "::ffff:203.0.113.5", want: "203.0.113.5"},
		{name: "absent: RemoteAddr", noCF: true, remote: "192.0.2.1:5555", want: "192.0.2.1"},
		{name: "absent: RemoteAddr without port", noCF: true, remote: "192.0.2.1", want: "192.0.2.1"},
		{name: "not an address: RemoteAddr", cf: "garbage", remote: "[2001:db8::2]:80", want: "2001:db8::2"},
		{name: "nothing", noCF: true, want: "unknown"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodGet, "/", nil)
			r.RemoteAddr = tc.remote
			if !tc.noCF {
				r.Header.Set("CF-Connecting-IP", tc.cf)
			}
			assert.Equal(t, tc.want, ClientIP(r))
		})
	}
}

func TestNormalizeOrigin(t *testing.T) {
	cases := []struct {
		in, want string
		ok       bool
	}{
		{"https://app.example", "https://app.example", true},
		{"HTTPS://APP.example:443", "https://app.example", true},
		{"http://app.example:80/", "http://app.example", true},
		{"http://localhost:5173", "http://localhost:5173", true},
		{"https://[2001:DB8::1]:8443", "https://[2001:db8::1]:8443", true},
		{"chrome-extension://abcdef", "chrome-extension://abcdef", true},
		{"https://app.example/path", "", false},
		{"https://user@app.example", "", false},
		{"https://app.example?x", "", false},
		{"null", "", false},
		{"", "", false},
		{"app.example", "", false},
	}
	for _, tc := range cases {
		got, ok := NormalizeOrigin(tc.in)
		assert.Equal(t, tc.ok, ok, tc.in)
		assert.Equal(t, tc.want, got, tc.in)
	}
}

func TestCallerContext(t *testing.T) {
	_, ok := FromContext(t.Context())
	assert.False(t, ok)
	c := Caller{KeyID: "k"}
	got, ok := FromContext(WithCaller(t.Context(), c))
	assert.True(t, ok)
	assert.Equal(t, c, got)
}

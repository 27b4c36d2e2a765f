package auth_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/service/auth"
)

// devAuth is an Authenticator with development sign-in on a clock the
// test moves.
func devAuth(t *testing.T, mutate func(*auth.Config)) (*auth.Authenticator, *time.Time) {
	t.Helper()
	now := epoch
	cfg := auth.Config{DevSignIn: true, Now: func() time.Time { return now }}
	if mutate != nil {
		mutate(&cfg)
	}
	a, err := auth.NewAuthenticator(cfg)
	require.NoError(t, err)
	return a, &now
}

func withCookie(r *http.Request, c *http.Cookie) *http.Request {
	r.AddCookie(&http.Cookie{Name: c.Name, Value: c.Value})
	return r
}

func TestDevSignIn(t *testing.T) {
	a, _ := devAuth(t, nil)
	for _, host := range []string{"localhost:8787", "localhost", "LOCALHOST:3000", "127.0.0.1:8787", "127.0.0.1", "[::1]:8787", "[::1]"} {
		t.Run(host, func(t *testing.T) {
			c, id, err := a.DevSignIn(request(host), "Alice")
			require.NoError(t, err)
			want := auth.Identity{Subject: "dev_alice", Email: "alice@dev.localhost", EmailVerified: true, Name: "alice"}
			assert.Equal(t, want, id)
			assert.Equal(t, auth.DevCookieName, c.Name)
			assert.Equal(t, "/", c.Path)
			assert.True(t, c.HttpOnly)
			assert.Equal(t, http.SameSiteLaxMode, c.SameSite)
			assert.Equal(t, int(auth.DevCookieMaxAge/time.Second), c.MaxAge)
			assert.NoError(t, c.Valid())

			got, err := a.Authenticate(withCookie(request(host), c))
			require.NoError(t, err)
			assert.Equal(t, want, got)
		})
	}
}

func TestDevLogin(t *testing.T) {
	for _, tc := range []struct {
		login, want string
		ok          bool
	}{
		{"alice", "alice", true},
		{"Alice", "alice", true},
		{" bob ", "bob", true},
		{"a.b_c-d9", "a.b_c-d9", true},
		{"7", "7", true},
		{strings.Repeat("x", 64), strings.Repeat("x", 64), true},
		{strings.Repeat("x", 65), "", false},
		{"", "", false},
		{".alice", "", false},
		{"-alice", "", false},
		{"_alice", "", false},
		{"al ice", "", false},
		{"alice@example.com", "", false},
		{"al/ice", "", false},
		{"zoë", "", false},
		{"alice;x=1", "", false},
	} {
		t.Run(tc.login, func(t *testing.T) {
			got, ok := auth.NormalizeDevLogin(tc.login)
			assert.Equal(t, tc.ok, ok)
			assert.Equal(t, tc.want, got)

			a, _ := devAuth(t, nil)
			_, _, err := a.DevSignIn(request("localhost:8787"), tc.login)
			if tc.ok {
				assert.NoError(t, err)
			} else {
				assert.ErrorIs(t, err, auth.ErrDevLogin)
			}
		})
	}
}

func TestDevRefused(t *testing.T) {
	on, _ := devAuth(t, nil)
	off, _ := devAuth(t, func(c *auth.Config) { c.DevSignIn = false })
	c, _, err := on.DevSignIn(request("localhost:8787"), "alice")
	require.NoError(t, err)

	for _, tc := range []struct {
		name string
		a    *auth.Authenticator
		host string
	}{
		{"dev disabled, localhost", off, "localhost:8787"},
		{"public host", on, "dashboard.example.com"},
		{"localhost as a subdomain", on, "localhost.example.com"},
		{"subdomain of localhost", on, "app.localhost:8787"},
		{"other loopback address", on, "127.0.0.2:8787"},
		{"localhost with a trailing dot", on, "localhost.:8787"},
		{"public address", on, "203.0.113.7"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := tc.a.DevSignIn(request(tc.host), "alice")
			assert.ErrorIs(t, err, auth.ErrDevUnavailable)
			_, err = tc.a.Authenticate(withCookie(request(tc.host), c))
			assert.ErrorIs(t, err, auth.ErrUnauthorized)
		})
	}
}

func TestDevCookieTampering(t *testing.T) {
	a, now := devAuth(t, nil)
	c, _, err := a.DevSignIn(request("localhost"), "alice")
	require.NoError(t, err)
	value := c.Value
	login, rest, _ := strings.Cut(value, ".")
	issued, mac, _ := strings.Cut(rest, ".")
	require.Equal(t, "alice", login)

	otherSecret, _ := devAuth(t, func(c *auth.Config) { c.DevSecret = "another development secret" })
	foreign, _, err := otherSecret.DevSignIn(request("localhost"), "alice")
	require.NoError(t, err)
	flipped := []byte(mac)
	flipped[0] ^= 1

	for _, tc := range []struct {
		name, value string
	}{
		{"other login", "admin." + issued + "." + mac},
		{"login case", "Alice." + issued + "." + mac},
		{"issue time changed", login + "." + issued + "9." + mac},
		{"mac flipped", login + "." + issued + "." + string(flipped)},
		{"mac missing", login + "." + issued + "."},
		{"mac only", mac},
		{"no dots", "alice"},
		{"empty", ""},
		{"other secret", foreign.Value},
		{"bearer value in the cookie", "Bearer " + value},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := request("localhost")
			r.AddCookie(&http.Cookie{Name: auth.DevCookieName, Value: tc.value})
			_, err := a.Authenticate(r)
			assert.ErrorIs(t, err, auth.ErrUnauthorized)
		})
	}

	t.Run("issued in the future", func(t *testing.T) {
		*now = epoch.Add(time.Hour)
		future, _, err := a.DevSignIn(request("localhost"), "alice")
		require.NoError(t, err)
		*now = epoch
		_, err = a.Authenticate(withCookie(request("localhost"), future))
		assert.ErrorIs(t, err, auth.ErrUnauthorized)
	})
	t.Run("expired", func(t *testing.T) {
		*now = epoch.Add(auth.DevCookieMaxAge)
		_, err := a.Authenticate(withCookie(request("localhost"), c))
		assert.NoError(t, err, "at the max age")
		*now = epoch.Add(auth.DevCookieMaxAge + time.Second)
		_, err = a.Authenticate(withCookie(request("localhost"), c))
		assert.ErrorIs(t, err, auth.ErrUnauthorized)
		*now = epoch
	})
}

// TestDevCookieBearerWins: with an Authorization header the cookie is not
// read, even when the header fails.
func TestDevCookieBearerWins(t *testing.T) {
	a, _ := devAuth(t, nil)
	c, _, err := a.DevSignIn(request("localhost"), "alice")
	require.NoError(t, err)
	r := withCookie(request("localhost", "Authorization", "Bearer abc.def.ghi"), c)
	_, err = a.Authenticate(r)
	assert.ErrorIs(t, err, auth.ErrUnconfigured)
	r = withCookie(request("localhost", "Authorization", "Basic xyz"), c)
	_, err = a.Authenticate(r)
	assert.ErrorIs(t, err, auth.ErrUnauthorized)
}

func TestDevSignOut(t *testing.T) {
	c := auth.DevSignOut()
	assert.Equal(t, auth.DevCookieName, c.Name)
	assert.Empty(t, c.Value)
	assert.Equal(t, "/", c.Path)
	assert.True(t, c.HttpOnly)
	assert.Equal(t, http.SameSiteLaxMode, c.SameSite)
	assert.Less(t, c.MaxAge, 0)
	assert.Contains(t, c.String(), "Max-Age=0")
}

package e2e

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/service/auth/authtest"
)

func errorCode(t *testing.T, r reply) string {
	t.Helper()
	e, ok := r.JSON(t)["error"].(map[string]any)
	require.True(t, ok, "dashboard error shape: %s", r.Body)
	return e["code"].(string)
}

// Tokens the Worker must refuse, over HTTP on both runtimes (spec 2
// Authentication; issue 5 abuse list).
func TestDashboardRefusesBadTokens(t *testing.T) {
	forger, err := authtest.StartIssuer()
	require.NoError(t, err)
	now := time.Now()
	cases := []struct {
		name   string
		header string
		status int
		code   string
	}{
		{"no header", "", 401, "unauthorized"},
		{"not bearer", "Basic dXNlcjpwYXNz", 401, "unauthorized"},
		{"malformed", "Bearer not.a.jwt", 401, "unauthorized"},
		{"forged signature", "Bearer " + forger.Token(t, nil), 401, "unauthorized"},
		{"expired", "Bearer " + issuer.Token(t, authtest.Claims{"exp": now.Add(-time.Minute).Unix()}), 401, "unauthorized"},
		{"not yet valid", "Bearer " + issuer.Token(t, authtest.Claims{"nbf": now.Add(time.Minute).Unix()}), 401, "unauthorized"},
		{"wrong issuer", "Bearer " + issuer.Token(t, authtest.Claims{"iss": "https://evil.example"}), 401, "unauthorized"},
		{"wrong authorized party", "Bearer " + issuer.Token(t, authtest.Claims{"azp": "https://evil.example"}), 401, "unauthorized"},
		{"pending session", "Bearer " + issuer.Token(t, authtest.Claims{"sts": "pending"}), 401, "unauthorized"},
		{"alg none", "Bearer " + issuer.Sign(t, "none", issuer.DefaultClaims()), 401, "unauthorized"},
		{"HS256 keyed with the public key", "Bearer " + issuer.Sign(t, "HS256", issuer.DefaultClaims()), 401, "unauthorized"},
		{"an API key", "Bearer sk_live_" + strings.Repeat("a", 32), 401, "unauthorized"},
		{"no verified email", "Bearer " + issuer.Token(t, authtest.Claims{"sub": unique("user_noemail"), "email_verified": false}), 403, "email_required"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var headers []string
			if c.header != "" {
				headers = []string{"Authorization", c.header}
			}
			r := get(t, "/api/me", headers...)
			assert.Equal(t, c.status, r.Status, string(r.Body))
			assert.Equal(t, c.code, errorCode(t, r))
			if c.header != "" {
				assert.NotContains(t, string(r.Body), strings.TrimPrefix(c.header, "Bearer "), "the token is never echoed")
			}
		})
	}
}

// Keys the search service must refuse (spec 1 Authentication).
func TestSearchRefusesBadKeys(t *testing.T) {
	body := strings.Repeat("Ab1", 10) + "xy"
	cases := []struct {
		name    string
		query   string
		headers []string
		status  int
	}{
		{"wrong prefix", "key=pk_test_" + body, nil, 401},
		{"unknown key", "key=pk_live_" + body, []string{"Origin", "https://a.test"}, 401},
		{"secret key in the URL", "key=sk_live_" + body, nil, 403},
		{"secret key with an Origin", "", []string{"Authorization", "Bearer sk_live_" + body, "Origin", "https://a.test"}, 403},
		{"authorization not bearer", "", []string{"Authorization", "Token abc"}, 401},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := get(t, "/v1/search?q=cat&"+c.query, c.headers...)
			assert.Equal(t, c.status, r.Status, string(r.Body))
			assert.Equal(t, "no-store", r.Header.Get("Cache-Control"))
			assert.NotContains(t, string(r.Body), body, "the key is never echoed")
		})
	}
}

// The development sign-in (ENVIRONMENT=development, localhost only).
func TestDevelopmentSignIn(t *testing.T) {
	login := strings.ToLower(unique("dev"))
	r := get(t, "/api/auth/dev?login="+url.QueryEscape(login))
	require.Equal(t, 200, r.Status, string(r.Body))
	var cookie *http.Cookie
	for _, c := range (&http.Response{Header: r.Header}).Cookies() {
		cookie = c
	}
	require.NotNil(t, cookie, "a sign-in cookie is set")
	assert.True(t, cookie.HttpOnly)
	me := get(t, "/api/me", "Cookie", cookie.Name+"="+cookie.Value)
	require.Equal(t, 200, me.Status, string(me.Body))

	hosted := get(t, "/api/auth/dev?login=x", "Host", "api.emojisearch.dev", "X-Forwarded-Proto", "https")
	assert.NotEqual(t, 200, hosted.Status, "never on a hosted name")

	out := call(t, "POST", "/api/auth/logout", nil, "Cookie", cookie.Name+"="+cookie.Value)
	require.Equal(t, 200, out.Status, string(out.Body))
	assert.Contains(t, out.Header.Get("Set-Cookie"), cookie.Name+"=;")
}

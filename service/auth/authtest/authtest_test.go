package authtest_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/service/auth"
	"github.com/emojisearch/emojisearch/service/auth/authtest"
)

// TestFakeClerkWire: the fake answers in Clerk's Backend API shapes.
func TestFakeClerkWire(t *testing.T) {
	fake := authtest.NewFakeClerk(t)
	fake.AddUser("user_1")
	for _, tc := range []struct {
		name, method, path, auth string
		status                   int
		body                     string // exact JSON for 200, else the error code
	}{
		{"delete", http.MethodDelete, "/v1/users/user_1", "Bearer " + authtest.FakeSecretKey, 200, `{"deleted":true,"id":"user_1","object":"user","slug":null}`},
		{"delete again", http.MethodDelete, "/v1/users/user_1", "Bearer " + authtest.FakeSecretKey, 404, "resource_not_found"},
		{"no secret", http.MethodDelete, "/v1/users/user_1", "", 401, "authentication_invalid"},
		{"other method", http.MethodGet, "/v1/users/user_1", "Bearer " + authtest.FakeSecretKey, 405, "method_not_allowed"},
		{"other path", http.MethodDelete, "/v1/sessions/sess_1", "Bearer " + authtest.FakeSecretKey, 404, "resource_not_found"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequest(tc.method, fake.URL+tc.path, nil)
			require.NoError(t, err)
			if tc.auth != "" {
				req.Header.Set("Authorization", tc.auth)
			}
			resp, err := fake.Client().Do(req)
			require.NoError(t, err)
			defer resp.Body.Close()
			body, err := io.ReadAll(resp.Body)
			require.NoError(t, err)
			assert.Equal(t, tc.status, resp.StatusCode)
			assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))
			if tc.status == 200 {
				assert.JSONEq(t, tc.body, string(body))
				return
			}
			var wire struct {
				Errors []struct {
					Message     string `json:"message"`
					LongMessage string `json:"long_message"`
					Code        string `json:"code"`
				} `json:"errors"`
				TraceID string `json:"clerk_trace_id"`
			}
			require.NoError(t, json.Unmarshal(body, &wire))
			require.Len(t, wire.Errors, 1)
			assert.Equal(t, tc.body, wire.Errors[0].Code)
			assert.NotEmpty(t, wire.Errors[0].Message)
			assert.NotEmpty(t, wire.Errors[0].LongMessage)
			assert.Len(t, wire.TraceID, 32)
		})
	}
	assert.Len(t, fake.Calls(), 5)
}

// TestIssuerTokens: default tokens pass the Authenticator configured from
// the Issuer, and Sign makes each algorithm it names.
func TestIssuerTokens(t *testing.T) {
	iss := authtest.NewIssuer(t)
	a, err := auth.NewAuthenticator(iss.Config())
	require.NoError(t, err)
	id, err := a.Verify(iss.Token(t, authtest.Claims{"sub": "user_other", "name": nil}))
	require.NoError(t, err)
	assert.Equal(t, auth.Identity{
		Subject: "user_other", Email: authtest.DefaultEmail, EmailVerified: true, IssuedAtUnix: id.IssuedAtUnix,
	}, id)

	for _, alg := range []string{"RS256", "RS384", "RS512", "PS256", "HS256", "none"} {
		token := iss.Sign(t, alg, iss.DefaultClaims())
		parts := strings.Split(token, ".")
		require.Len(t, parts, 3, alg)
		assert.Equal(t, alg == "none", parts[2] == "", alg)
	}
}

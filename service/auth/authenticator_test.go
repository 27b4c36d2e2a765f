package auth_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/service/auth"
	"github.com/emojisearch/emojisearch/service/auth/authtest"
)

func request(host string, headers ...string) *http.Request {
	r := httptest.NewRequest(http.MethodGet, "http://"+host+"/api/me", nil)
	for i := 0; i+1 < len(headers); i += 2 {
		r.Header.Add(headers[i], headers[i+1])
	}
	return r
}

func TestAuthenticate(t *testing.T) {
	iss, a := newIssuer(t)
	token := iss.Token(t, nil)
	for _, tc := range []struct {
		name    string
		headers []string
		// cookie is set as Clerk's __session cookie, which is never read.
		cookie  string
		wantErr error
	}{
		{"bearer", []string{"Authorization", "Bearer " + token}, "", nil},
		{"bearer, scheme lowercase", []string{"Authorization", "bearer " + token}, "", nil},
		{"bearer, two spaces", []string{"Authorization", "Bearer  " + token}, "", nil},
		{"no header", nil, "", auth.ErrUnauthorized},
		{"session cookie only", nil, token, auth.ErrUnauthorized},
		{"empty header", []string{"Authorization", ""}, "", auth.ErrUnauthorized},
		{"scheme only", []string{"Authorization", "Bearer"}, "", auth.ErrUnauthorized},
		{"scheme and space", []string{"Authorization", "Bearer "}, "", auth.ErrUnauthorized},
		{"no scheme", []string{"Authorization", token}, "", auth.ErrUnauthorized},
		{"basic", []string{"Authorization", "Basic dXNlcjpwYXNz"}, "", auth.ErrUnauthorized},
		{"token with a space", []string{"Authorization", "Bearer " + token + " x"}, "", auth.ErrUnauthorized},
		{"two headers", []string{"Authorization", "Bearer " + token, "Authorization", "Bearer " + token}, "", auth.ErrUnauthorized},
		{"invalid token", []string{"Authorization", "Bearer abc.def.ghi"}, "", auth.ErrUnauthorized},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := request("api.example.com", tc.headers...)
			if tc.cookie != "" {
				r.AddCookie(&http.Cookie{Name: "__session", Value: tc.cookie})
			}
			id, err := a.Authenticate(r)
			if tc.wantErr != nil {
				require.ErrorIs(t, err, tc.wantErr)
				assert.Equal(t, auth.Identity{}, id)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, authtest.DefaultSubject, id.Subject)
		})
	}
}

func TestAuthenticateUnconfigured(t *testing.T) {
	a, err := auth.NewAuthenticator(auth.Config{Issuer: authtest.DefaultIssuer})
	require.NoError(t, err)
	for _, tc := range []struct {
		name    string
		headers []string
		wantErr error
	}{
		{"bearer token", []string{"Authorization", "Bearer abc.def.ghi"}, auth.ErrUnconfigured},
		{"no header", nil, auth.ErrUnauthorized},
		{"not bearer", []string{"Authorization", "Basic dXNlcjpwYXNz"}, auth.ErrUnauthorized},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := a.Authenticate(request("api.example.com", tc.headers...))
			assert.ErrorIs(t, err, tc.wantErr)
		})
	}
}

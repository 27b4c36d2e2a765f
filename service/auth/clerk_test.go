package auth_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/service/auth"
	"github.com/emojisearch/emojisearch/service/auth/authtest"
)

func TestClerkDeleter(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(*authtest.FakeClerk)
		// secret overrides the fake's secret key.
		secret   string
		status   int
		code     string
		notFound bool
	}{
		{name: "deleted", setup: func(f *authtest.FakeClerk) { f.AddUser("user_2abc") }, status: http.StatusOK},
		{name: "unknown user (404 from Clerk)", status: 404, code: "resource_not_found", notFound: true},
		{name: "wrong secret key", setup: func(f *authtest.FakeClerk) { f.AddUser("user_2abc") }, secret: "sk_test_wrong", status: 401, code: "authentication_invalid"},
		{name: "Clerk failing (500)", setup: func(f *authtest.FakeClerk) { f.AddUser("user_2abc"); f.FailWith(500) }, status: 500, code: "internal_clerk_error"},
		{name: "Clerk unavailable (503)", setup: func(f *authtest.FakeClerk) { f.AddUser("user_2abc"); f.FailWith(503) }, status: 503, code: "internal_clerk_error"},
		{name: "rate limited (429)", setup: func(f *authtest.FakeClerk) { f.AddUser("user_2abc"); f.FailWith(429) }, status: 429, code: "too_many_requests"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fake := authtest.NewFakeClerk(t)
			if tc.setup != nil {
				tc.setup(fake)
			}
			cfg := fake.ClerkConfig()
			if tc.secret != "" {
				cfg.SecretKey = tc.secret
			}
			d, err := auth.NewClerkDeleter(cfg)
			require.NoError(t, err)

			err = d.DeleteUser(context.Background(), "user_2abc")
			calls := fake.Calls()
			require.Len(t, calls, 1)
			assert.Equal(t, authtest.Call{
				Method: http.MethodDelete, Path: "/v1/users/user_2abc", UserID: "user_2abc",
				Authorized: tc.secret == "", Status: tc.status,
			}, calls[0])
			if tc.status == http.StatusOK {
				require.NoError(t, err)
				assert.False(t, fake.HasUser("user_2abc"))
				return
			}
			require.Error(t, err)
			var ce *auth.ClerkError
			require.ErrorAs(t, err, &ce)
			assert.Equal(t, tc.status, ce.Status)
			assert.Equal(t, tc.code, ce.Code)
			assert.NotEmpty(t, ce.Message)
			assert.NotEmpty(t, ce.LongMessage)
			assert.NotEmpty(t, ce.TraceID)
			assert.Equal(t, tc.notFound, errors.Is(err, auth.ErrUserNotFound))
			assert.NotContains(t, err.Error(), cfg.SecretKey)
		})
	}
}

func TestClerkDeleterTwice(t *testing.T) {
	fake := authtest.NewFakeClerk(t)
	fake.AddUser("user_2abc")
	d := fake.Deleter(t)
	require.NoError(t, d.DeleteUser(context.Background(), "user_2abc"))
	assert.ErrorIs(t, d.DeleteUser(context.Background(), "user_2abc"), auth.ErrUserNotFound)
	fake.FailWith(500)
	assert.Error(t, d.DeleteUser(context.Background(), "user_2abc"))
	fake.FailWith(0)
	assert.ErrorIs(t, d.DeleteUser(context.Background(), "user_2abc"), auth.ErrUserNotFound)
	assert.Len(t, fake.Calls(), 4)
}

// doerFunc is a Doer in a function, to see the exact request and answer
// with anything.
type doerFunc func(*http.Request) (*http.Response, error)

func (f doerFunc) Do(r *http.Request) (*http.Response, error) { return f(r) }

func answer(status int, body string) *http.Response {
	return &http.Response{
		StatusCode: status,
		Header:     http.Header{"Content-Type": {"application/json"}},
		Body:       io.NopCloser(strings.NewReader(body)),
	}
}

const testSecret = "sk_live_0123456789abcdefSECRET"

// TestClerkDeleterWire: the request Clerk's Backend API expects, on the
// default base URL, and the answers it may give.
func TestClerkDeleterWire(t *testing.T) {
	type ctxKey struct{}
	for _, tc := range []struct {
		name     string
		resp     *http.Response
		doErr    error
		wantErr  string
		notFound bool
	}{
		{name: "deleted", resp: answer(200, `{"object":"user","id":"user_2abc","slug":null,"deleted":true}`)},
		{name: "not confirmed", resp: answer(200, `{"object":"user","id":"user_2abc","deleted":false}`), wantErr: "does not confirm"},
		{name: "other user confirmed", resp: answer(200, `{"object":"user","id":"user_other","deleted":true}`), wantErr: "does not confirm"},
		{name: "not JSON", resp: answer(200, `<html>`), wantErr: "not a deleted object"},
		{name: "404 without a body", resp: answer(404, ``), wantErr: "clerk answered 404", notFound: true},
		{name: "error body", resp: answer(422, `{"errors":[{"message":"is invalid","long_message":"x","code":"form_param_invalid"}]}`), wantErr: "clerk answered 422 form_param_invalid: is invalid"},
		{name: "502 from a proxy", resp: answer(502, `Bad Gateway`), wantErr: "clerk answered 502"},
		{name: "network failure", doErr: errors.New("fetch failed"), wantErr: "fetch failed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got *http.Request
			d, err := auth.NewClerkDeleter(auth.ClerkConfig{SecretKey: testSecret, Client: doerFunc(func(r *http.Request) (*http.Response, error) {
				got = r
				return tc.resp, tc.doErr
			})})
			require.NoError(t, err)
			ctx := context.WithValue(context.Background(), ctxKey{}, "request ctx")

			err = d.DeleteUser(ctx, "user_2abc")
			require.NotNil(t, got)
			assert.Equal(t, http.MethodDelete, got.Method)
			assert.Equal(t, "https://api.clerk.com/v1/users/user_2abc", got.URL.String())
			assert.Equal(t, "Bearer "+testSecret, got.Header.Get("Authorization"))
			assert.Equal(t, "application/json", got.Header.Get("Accept"))
			assert.Equal(t, "request ctx", got.Context().Value(ctxKey{}))
			if tc.wantErr == "" {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.wantErr)
			assert.NotContains(t, err.Error(), testSecret)
			assert.Equal(t, tc.notFound, errors.Is(err, auth.ErrUserNotFound))
		})
	}
}

func TestClerkDeleterUserID(t *testing.T) {
	calls := 0
	d, err := auth.NewClerkDeleter(auth.ClerkConfig{SecretKey: testSecret, Client: doerFunc(func(*http.Request) (*http.Response, error) {
		calls++
		return answer(200, `{}`), nil
	})})
	require.NoError(t, err)
	for _, id := range []string{"", "../users", "user_2abc/x", "user 2", "user_2abc?x=1", "user%2F", strings.Repeat("u", 129)} {
		assert.Error(t, d.DeleteUser(context.Background(), id), id)
	}
	assert.Zero(t, calls, "no request for an invalid id")
}

func TestClerkConfig(t *testing.T) {
	client := doerFunc(func(*http.Request) (*http.Response, error) { return nil, errors.New("unused") })
	for _, tc := range []struct {
		name string
		cfg  auth.ClerkConfig
		errs []string
	}{
		{"valid", auth.ClerkConfig{SecretKey: testSecret, Client: client}, nil},
		{"base URL for tests", auth.ClerkConfig{SecretKey: "sk_test_x", BaseURL: "http://127.0.0.1:9999/", Client: client}, nil},
		{"publishable key", auth.ClerkConfig{SecretKey: "pk_live_abc", Client: client}, []string{"must be a Clerk secret key"}},
		{"every problem at once", auth.ClerkConfig{BaseURL: "ftp://x"}, []string{"SecretKey", "BaseURL", "Client is required"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := auth.NewClerkDeleter(tc.cfg)
			if len(tc.errs) == 0 {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Nil(t, d)
			for _, want := range tc.errs {
				assert.Contains(t, err.Error(), want)
			}
			assert.NotContains(t, err.Error(), "pk_live_abc")
		})
	}
}

func TestClerkDeleterHidesSecret(t *testing.T) {
	d, err := auth.NewClerkDeleter(auth.ClerkConfig{SecretKey: testSecret, Client: doerFunc(nil)})
	require.NoError(t, err)
	for _, format := range []string{"%v", "%+v", "%#v", "%s"} {
		out := fmt.Sprintf(format, d)
		assert.NotContains(t, out, testSecret, format)
		assert.Contains(t, out, "api.clerk.com", format)
	}
}

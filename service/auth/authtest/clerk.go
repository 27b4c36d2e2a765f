package authtest

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/emojisearch/emojisearch/service/auth"
)

// FakeSecretKey is the secret key FakeClerk accepts.
const FakeSecretKey = "sk_test_authtestFakeClerkSecret"

// Call is one request FakeClerk answered.
type Call struct {
	Method string
	Path   string
	// UserID is the {user_id} of DELETE /v1/users/{user_id}, else "".
	UserID string
	// Authorized reports whether the request carried FakeSecretKey.
	Authorized bool
	Status     int
}

// FakeClerk is the Clerk Backend API's DELETE /v1/users/{user_id} on an
// httptest.Server, with Clerk's wire format: 200 {"object":"user","id",
// "deleted":true}, errors {"errors":[{"message","long_message","code"}],
// "clerk_trace_id"}. Users must be added before they can be deleted;
// unknown users get 404 resource_not_found, a wrong secret 401.
type FakeClerk struct {
	*httptest.Server

	mu    sync.Mutex
	users map[string]bool
	calls []Call
	fail  int
}

// NewFakeClerk starts the fake and closes it when the test ends.
func NewFakeClerk(t testing.TB) *FakeClerk {
	t.Helper()
	f := StartFakeClerk()
	t.Cleanup(f.Close)
	return f
}

// StartFakeClerk starts the fake for code without a testing.TB (an e2e
// suite's TestMain); the caller closes it.
func StartFakeClerk() *FakeClerk {
	f := &FakeClerk{users: map[string]bool{}}
	f.Server = httptest.NewServer(http.HandlerFunc(f.serve))
	return f
}

// AddUser makes users known, so deleting them succeeds once.
func (f *FakeClerk) AddUser(ids ...string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, id := range ids {
		f.users[id] = true
	}
}

// HasUser reports whether id is known and not deleted.
func (f *FakeClerk) HasUser(id string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.users[id]
}

// FailWith makes every following request answer status with Clerk's
// error body for it (401, 403, 404, 422, 429 or 5xx); 0 stops failing.
func (f *FakeClerk) FailWith(status int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.fail = status
}

// Calls returns the requests answered so far, oldest first.
func (f *FakeClerk) Calls() []Call {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Call(nil), f.calls...)
}

// ClerkConfig configures an auth.ClerkDeleter against this fake.
func (f *FakeClerk) ClerkConfig() auth.ClerkConfig {
	return auth.ClerkConfig{SecretKey: FakeSecretKey, BaseURL: f.URL, Client: f.Client()}
}

// Deleter is an auth.ClerkDeleter against this fake.
func (f *FakeClerk) Deleter(t testing.TB) *auth.ClerkDeleter {
	t.Helper()
	d, err := auth.NewClerkDeleter(f.ClerkConfig())
	if err != nil {
		t.Fatalf("authtest: %v", err)
	}
	return d
}

func (f *FakeClerk) serve(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	call := Call{
		Method:     r.Method,
		Path:       r.URL.Path,
		Authorized: r.Header.Get("Authorization") == "Bearer "+FakeSecretKey,
	}
	id, isUser := strings.CutPrefix(r.URL.Path, "/v1/users/")
	if isUser && id != "" && !strings.Contains(id, "/") {
		call.UserID = id
	}
	switch {
	case f.fail != 0:
		call.Status = f.fail
	case !call.Authorized:
		call.Status = http.StatusUnauthorized
	case call.UserID == "":
		call.Status = http.StatusNotFound
	case r.Method != http.MethodDelete:
		call.Status = http.StatusMethodNotAllowed
	case !f.users[call.UserID]:
		call.Status = http.StatusNotFound
	default:
		call.Status = http.StatusOK
		delete(f.users, call.UserID)
	}
	f.calls = append(f.calls, call)

	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(call.Status)
	var body any
	if call.Status == http.StatusOK {
		body = map[string]any{"object": "user", "id": call.UserID, "slug": nil, "deleted": true}
	} else {
		code, msg, long := clerkErrorFor(call.Status)
		body = map[string]any{
			"errors":         []map[string]any{{"message": msg, "long_message": long, "code": code}},
			"clerk_trace_id": traceID(),
		}
	}
	_ = json.NewEncoder(w).Encode(body)
}

// clerkErrorFor is Clerk's error for a status, as its Backend API words
// it (codes outside these are the fake's best guess).
func clerkErrorFor(status int) (code, message, long string) {
	switch status {
	case http.StatusUnauthorized:
		return "authentication_invalid", "Invalid authentication", "Unable to authenticate the request, you need to supply an active API key"
	case http.StatusForbidden:
		return "authorization_invalid", "Unauthorized request", "You are not authorized to perform this request"
	case http.StatusNotFound:
		return "resource_not_found", "not found", "Resource not found"
	case http.StatusMethodNotAllowed:
		return "method_not_allowed", "method not allowed", "The request method is not allowed on this resource"
	case http.StatusUnprocessableEntity:
		return "form_param_invalid", "is invalid", "The request parameters are invalid"
	case http.StatusTooManyRequests:
		return "too_many_requests", "Too many requests", "Too many requests, please try again later"
	}
	return "internal_clerk_error", "Oops, an unexpected error occurred", "There was an internal error on our servers. We've been notified and are working on fixing it."
}

func traceID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

package auth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// UserDeleter deletes a user at the identity provider (spec 2, Account
// deletion step 4; best effort, the caller decides what a failure means).
type UserDeleter interface {
	DeleteUser(ctx context.Context, userID string) error
}

// Doer sends one HTTP request. The worker passes its fetch-backed client
// and tests an *http.Client: net/http's own client adds about 5 MB to the
// wasm module, so this package never creates one.
type Doer interface {
	Do(*http.Request) (*http.Response, error)
}

// DefaultClerkAPI is the Clerk Backend API origin.
const DefaultClerkAPI = "https://api.clerk.com"

// maxClerkBody bounds what is read of a Clerk answer.
const maxClerkBody = 64 << 10

// ErrUserNotFound matches a ClerkError for 404: the user is already gone.
var ErrUserNotFound = errors.New("auth: identity-provider user not found")

// ClerkConfig configures ClerkDeleter.
type ClerkConfig struct {
	// SecretKey is the instance's Backend API secret (sk_live_... or
	// sk_test_...). It is sent only in the Authorization header and
	// never appears in errors or String.
	SecretKey string
	// BaseURL is the API origin without /v1; empty means
	// DefaultClerkAPI. Tests point it at authtest.FakeClerk.
	BaseURL string
	// Client sends the requests. Required.
	Client Doer
}

// ClerkDeleter deletes users through the Clerk Backend API
// (DELETE /v1/users/{user_id}).
type ClerkDeleter struct {
	secret string
	base   string
	client Doer
}

var _ UserDeleter = (*ClerkDeleter)(nil)

// NewClerkDeleter checks cfg and reports every problem in one error.
func NewClerkDeleter(cfg ClerkConfig) (*ClerkDeleter, error) {
	var errs []error
	if !strings.HasPrefix(cfg.SecretKey, "sk_") {
		// Never quote the value: it may be a real key in the wrong place.
		errs = append(errs, errors.New("auth: SecretKey must be a Clerk secret key (sk_...)"))
	}
	base := strings.TrimSuffix(cfg.BaseURL, "/")
	if base == "" {
		base = DefaultClerkAPI
	}
	if u, err := url.Parse(base); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		errs = append(errs, fmt.Errorf("auth: BaseURL %q is not an http(s) URL", cfg.BaseURL))
	}
	if cfg.Client == nil {
		errs = append(errs, errors.New("auth: Client is required"))
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return &ClerkDeleter{secret: cfg.SecretKey, base: base, client: cfg.Client}, nil
}

// String keeps the secret key out of logs that print the value.
func (d *ClerkDeleter) String() string { return "auth.ClerkDeleter{" + d.base + "}" }

// GoString keeps the secret key out of %#v.
func (d *ClerkDeleter) GoString() string { return d.String() }

// ClerkError is an answer of the Clerk Backend API other than success,
// with Clerk's first error ({"errors":[{"message","long_message","code"}]}).
type ClerkError struct {
	Status      int
	Code        string
	Message     string
	LongMessage string
	TraceID     string
}

func (e *ClerkError) Error() string {
	msg := fmt.Sprintf("auth: clerk answered %d", e.Status)
	if e.Code != "" {
		msg += " " + e.Code
	}
	if e.Message != "" {
		msg += ": " + e.Message
	}
	return msg
}

// Is makes a 404 match ErrUserNotFound.
func (e *ClerkError) Is(target error) bool {
	return target == ErrUserNotFound && e.Status == http.StatusNotFound
}

// DeleteUser deletes the Clerk user userID. A user Clerk does not know
// gives an error matching ErrUserNotFound; other refusals a *ClerkError.
func (d *ClerkDeleter) DeleteUser(ctx context.Context, userID string) error {
	if !validUserID(userID) {
		return fmt.Errorf("auth: %q is not a Clerk user id", userID)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodDelete, d.base+"/v1/users/"+url.PathEscape(userID), nil)
	if err != nil {
		return fmt.Errorf("auth: clerk request: %w", err)
	}
	req.Header.Set("Authorization", "Bearer "+d.secret)
	req.Header.Set("Accept", "application/json")
	resp, err := d.client.Do(req)
	if err != nil {
		return fmt.Errorf("auth: clerk delete user: %w", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxClerkBody))
	if err != nil {
		return fmt.Errorf("auth: clerk delete user: reading the answer: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		return clerkError(resp.StatusCode, body)
	}
	var deleted struct {
		Object  string `json:"object"`
		ID      string `json:"id"`
		Deleted bool   `json:"deleted"`
	}
	if err := json.Unmarshal(body, &deleted); err != nil {
		return errors.New("auth: clerk delete user: the answer is not a deleted object")
	}
	if !deleted.Deleted || deleted.ID != userID {
		return errors.New("auth: clerk delete user: the answer does not confirm the deletion")
	}
	return nil
}

func clerkError(status int, body []byte) *ClerkError {
	e := &ClerkError{Status: status}
	var wire struct {
		Errors []struct {
			Message     string `json:"message"`
			LongMessage string `json:"long_message"`
			Code        string `json:"code"`
		} `json:"errors"`
		TraceID string `json:"clerk_trace_id"`
	}
	if json.Unmarshal(body, &wire) == nil {
		e.TraceID = wire.TraceID
		if len(wire.Errors) > 0 {
			e.Code = wire.Errors[0].Code
			e.Message = wire.Errors[0].Message
			e.LongMessage = wire.Errors[0].LongMessage
		}
	}
	return e
}

// validUserID accepts Clerk's id shape (user_ and base62), keeping odd
// values out of the URL path.
func validUserID(id string) bool {
	if id == "" || len(id) > 128 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

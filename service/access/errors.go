package access

import "net/http"

// Error is a refusal with the HTTP status spec 1 gives it. Code is a stable
// name for routes with their own error shape (the tenants API); Message is
// what the search routes send as `error`. Neither ever contains the key.
type Error struct {
	Status  int
	Code    string
	Message string
}

func (e *Error) Error() string { return "access: " + e.Message }

// Refusals, matched with errors.Is (they are compared by identity).
var (
	// ErrBadAuthorization: an Authorization header not of the form
	// `Bearer <key>` (spec 1, Authentication rule 2).
	ErrBadAuthorization = &Error{http.StatusUnauthorized, "unauthorized",
		"The Authorization header must be of the form: Bearer <key>"}
	// ErrMalformedKey: a key without a known prefix or of the wrong shape.
	ErrMalformedKey = &Error{http.StatusUnauthorized, "unauthorized",
		"The API key is malformed: keys start with pk_live_ or sk_live_ followed by 32 letters and digits"}
	// ErrTwoKeys: more than one key in one request.
	ErrTwoKeys = &Error{http.StatusUnauthorized, "unauthorized",
		"Send one API key per request: a publishable key as the key parameter or a secret key as Authorization: Bearer"}
	// ErrUnknownKey: a well-formed key the key store does not know.
	ErrUnknownKey = &Error{http.StatusUnauthorized, "unauthorized",
		"Unknown API key"}
	// ErrRevokedKey: a key that was revoked.
	ErrRevokedKey = &Error{http.StatusUnauthorized, "unauthorized",
		"This API key was revoked"}
	// ErrKeyRequired: no key on a route that refuses anonymous calls.
	ErrKeyRequired = &Error{http.StatusUnauthorized, "unauthorized",
		"This route needs an API key"}

	// ErrSecretInURL: a secret key in the query string, where logs and
	// browser history keep it.
	ErrSecretInURL = &Error{http.StatusForbidden, "secret_key_in_url",
		"Secret keys must never be sent in the URL: send them from a server as Authorization: Bearer, and rotate this key"}
	// ErrSecretWithOrigin: a secret key from a browser (an Origin header).
	ErrSecretWithOrigin = &Error{http.StatusForbidden, "secret_key_with_origin",
		"Secret keys are for servers only and are refused on requests with an Origin header: use a publishable key in browsers"}
	// ErrPublishableAsBearer: a publishable key in the Authorization header.
	ErrPublishableAsBearer = &Error{http.StatusForbidden, "publishable_key_in_header",
		"Publishable keys are sent as the key query parameter, not in the Authorization header"}
	// ErrOriginRequired: a publishable key on a request without Origin.
	ErrOriginRequired = &Error{http.StatusForbidden, "origin_required",
		"A publishable key needs an Origin header matching one of the key's allowed origins"}
	// ErrOriginNotAllowed: the Origin is not one of the key's origins.
	ErrOriginNotAllowed = &Error{http.StatusForbidden, "origin_not_allowed",
		"This origin is not allowed for this publishable key"}
	// ErrNoAllowedOrigins: a production key whose allowed-origin list is
	// empty; only development apps may allow any origin.
	ErrNoAllowedOrigins = &Error{http.StatusForbidden, "origin_not_allowed",
		"This publishable key has no allowed origins: add your site's origin to the key in the dashboard"}

	// ErrRateLimitedKeyed and ErrRateLimitedAnon: over the per-minute limit
	// (answered with Retry-After: 60).
	ErrRateLimitedKeyed = &Error{http.StatusTooManyRequests, "rate_limited",
		"Rate limit exceeded: 120 requests per minute per key and IP address; retry in 60 seconds"}
	ErrRateLimitedAnon = &Error{http.StatusTooManyRequests, "rate_limited",
		"Rate limit exceeded: 30 requests per minute per IP address without a key; retry in 60 seconds or use an API key"}
)

// RetryAfterSeconds is the Retry-After of a 429 (spec 1, Limits).
const RetryAfterSeconds = 60

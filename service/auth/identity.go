// Package auth verifies dashboard sign-ins (spec 2, Authentication): the
// identity provider's (Clerk's) session tokens, checked locally, and the
// local-development cookie; and deletes the provider's user when an
// account is deleted (spec 2, Account deletion step 4).
package auth

import "errors"

// Identity is the signed-in person a request speaks for.
type Identity struct {
	// Subject is the identity provider's user id (the token's sub).
	Subject       string
	Email         string
	EmailVerified bool
	Name          string
	// IssuedAtUnix is when the session token was issued (its iat; zero
	// for the development cookie); account deletion compares against it.
	IssuedAtUnix int64
}

// Errors callers map to HTTP answers.
var (
	// ErrUnauthorized: no credential, or one that fails any check (401
	// unauthorized).
	ErrUnauthorized = errors.New("auth: unauthorized")
	// ErrUnconfigured: a bearer token reached a service without identity
	// provider settings (503 clerk_unconfigured).
	ErrUnconfigured = errors.New("auth: identity provider not configured")
)

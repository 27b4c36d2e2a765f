package auth

import (
	"net"
	"net/http"
	"strings"
)

// Authenticator tells who a dashboard request speaks for. It is safe for
// concurrent use.
type Authenticator struct {
	s settings
}

// NewAuthenticator checks cfg and reports every problem in one error. A
// Config without PublicKeyPEM is valid: the provider is then unconfigured.
func NewAuthenticator(cfg Config) (*Authenticator, error) {
	s, err := cfg.check()
	if err != nil {
		return nil, err
	}
	return &Authenticator{s: s}, nil
}

// Configured reports whether a Clerk public key is set.
func (a *Authenticator) Configured() bool { return a.s.key != nil }

// String keeps keys out of logs that print the value.
func (a *Authenticator) String() string { return "auth.Authenticator" }

// Authenticate reads `Authorization: Bearer <token>`; cookies are never
// read (spec 2, Authentication), except the development cookie on
// localhost with DevSignIn when the request has no Authorization header.
// Failures are ErrUnauthorized, or ErrUnconfigured for a bearer token
// without a configured provider.
func (a *Authenticator) Authenticate(r *http.Request) (Identity, error) {
	values := r.Header.Values("Authorization")
	if len(values) == 0 {
		if a.DevAllowed(r) {
			if c, err := r.Cookie(DevCookieName); err == nil {
				return a.verifyDevCookie(c.Value)
			}
		}
		return Identity{}, unauthorized("no credential")
	}
	if len(values) > 1 {
		return Identity{}, unauthorized("several Authorization headers")
	}
	token, ok := bearerToken(values[0])
	if !ok {
		return Identity{}, unauthorized("Authorization is not Bearer <token>")
	}
	return a.Verify(token)
}

// bearerToken splits "Bearer <token>" (scheme case-insensitive, RFC 7235).
func bearerToken(v string) (string, bool) {
	scheme, rest, ok := strings.Cut(strings.TrimSpace(v), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	token := strings.TrimLeft(rest, " ")
	if token == "" || strings.ContainsAny(token, " \t") {
		return "", false
	}
	return token, true
}

// DevAllowed reports whether the development cookie may be used for r:
// DevSignIn is on and the request's host is localhost, 127.0.0.1 or
// [::1] (spec 2: local development only).
func (a *Authenticator) DevAllowed(r *http.Request) bool {
	if !a.s.devSignIn {
		return false
	}
	host := r.Host
	if host == "" && r.URL != nil {
		host = r.URL.Host
	}
	return isDevHost(host)
}

func isDevHost(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	} else {
		host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	}
	switch strings.ToLower(host) {
	case "localhost", "127.0.0.1", "::1":
		return true
	}
	return false
}

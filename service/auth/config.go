package auth

import (
	"crypto/rsa"
	"crypto/sha256"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"
)

// DefaultClockSkew is the clock skew allowed on exp, nbf and iat when
// Config.ClockSkew is zero: Clerk's own SDKs allow 5 s.
const DefaultClockSkew = 5 * time.Second

// maxClockSkew bounds Config.ClockSkew: Clerk session tokens live about
// 60 s, so a larger skew would keep expired tokens alive.
const maxClockSkew = time.Minute

// minDevSecret is the shortest Config.DevSecret accepted.
const minDevSecret = 16

// devSecretSeed derives the development cookie key when Config.DevSecret
// is empty. It is public on purpose: the cookie is honoured only with
// DevSignIn on a localhost host, where anyone at the keyboard may sign in
// as anyone anyway.
const devSecretSeed = "emojisearch development sign-in, honoured on localhost only"

// Config says how dashboard sign-ins are verified (spec 2,
// Authentication). It is a plain value: NewAuthenticator copies and checks
// it, reporting every problem at once.
type Config struct {
	// PublicKeyPEM is the Clerk instance's JWT public key (PEM). Literal
	// `\n` and one-line PEMs are accepted, as environment variables carry
	// them. Empty means the identity provider is not configured: bearer
	// tokens then get ErrUnconfigured.
	PublicKeyPEM string
	// Issuer is the instance's Frontend API URL, the tokens' iss, such as
	// https://clerk.example.com. Required with PublicKeyPEM.
	Issuer string
	// AuthorizedParties are the origins (scheme://host[:port]) the
	// dashboard runs on; a token's azp must be one of them. Required with
	// PublicKeyPEM.
	AuthorizedParties []string
	// ClockSkew is allowed on exp, nbf and iat; zero means
	// DefaultClockSkew (5 s). At most one minute.
	ClockSkew time.Duration
	// Now is the clock; nil means time.Now. Tests move it instead of
	// sleeping.
	Now func() time.Time
	// DevSignIn enables the development cookie (GET /api/auth/dev) for
	// requests to localhost, 127.0.0.1 or [::1]. The worker sets it only
	// for ENVIRONMENT=development.
	DevSignIn bool
	// DevSecret keys the development cookie's HMAC-SHA256 (at least 16
	// bytes). Empty means a key derived from a fixed development string,
	// which is enough because the cookie only works on localhost with
	// DevSignIn.
	DevSecret string
}

// settings is a checked Config.
type settings struct {
	key       *rsa.PublicKey // nil: provider not configured
	issuer    string
	parties   []string
	skew      time.Duration
	now       func() time.Time
	devSignIn bool
	devKey    []byte
}

func (c Config) check() (settings, error) {
	var errs []error
	bad := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("auth: "+format, args...))
	}
	s := settings{
		issuer:    c.Issuer,
		parties:   slices.Clone(c.AuthorizedParties),
		skew:      c.ClockSkew,
		now:       c.Now,
		devSignIn: c.DevSignIn,
	}
	if strings.TrimSpace(c.PublicKeyPEM) != "" {
		key, err := parsePublicKey(c.PublicKeyPEM)
		if err != nil {
			bad("PublicKeyPEM: %v", err)
		}
		s.key = key
		if c.Issuer == "" {
			bad("Issuer is required with PublicKeyPEM")
		} else if !isIssuerURL(c.Issuer) {
			bad("Issuer %q is not an http(s) URL without a trailing slash", c.Issuer)
		}
		if len(c.AuthorizedParties) == 0 {
			bad("AuthorizedParties is required with PublicKeyPEM (every token would be refused)")
		}
		for _, p := range c.AuthorizedParties {
			if !isOrigin(p) {
				bad("AuthorizedParties: %q is not an origin (scheme://host[:port])", p)
			}
		}
	}
	switch {
	case c.ClockSkew < 0:
		bad("ClockSkew %v is negative", c.ClockSkew)
	case c.ClockSkew > maxClockSkew:
		bad("ClockSkew %v is over %v", c.ClockSkew, maxClockSkew)
	case c.ClockSkew == 0:
		s.skew = DefaultClockSkew
	}
	if s.now == nil {
		s.now = time.Now
	}
	if c.DevSecret == "" {
		sum := sha256.Sum256([]byte(devSecretSeed))
		s.devKey = sum[:]
	} else if len(c.DevSecret) < minDevSecret {
		bad("DevSecret is shorter than %d bytes", minDevSecret)
	} else {
		s.devKey = []byte(c.DevSecret)
	}
	if len(errs) > 0 {
		return settings{}, errors.Join(errs...)
	}
	return s, nil
}

func isIssuerURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != "" &&
		u.User == nil && u.RawQuery == "" && u.Fragment == "" && !strings.HasSuffix(s, "/")
}

// isOrigin reports whether s is a browser Origin value, the form of azp.
func isOrigin(s string) bool {
	u, err := url.Parse(s)
	return err == nil && u.Scheme != "" && u.Host != "" && u.User == nil &&
		u.Path == "" && u.RawQuery == "" && u.Fragment == "" && !strings.HasSuffix(s, "?") && !strings.HasSuffix(s, "#")
}

package auth

import (
	"crypto"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
)

// maxTokenLen bounds what is parsed before the signature is checked;
// Clerk session tokens are about 1-2 KB.
const maxTokenLen = 16 << 10

// sessionClaims are the claims of a Clerk session token (v2) that the
// dashboard reads, with the custom session claims of spec 2.
type sessionClaims struct {
	Issuer          string   `json:"iss"`
	Subject         string   `json:"sub"`
	ExpiresAt       *float64 `json:"exp"` // NumericDate: seconds, may have a fraction
	NotBefore       *float64 `json:"nbf"`
	IssuedAt        *float64 `json:"iat"`
	AuthorizedParty string   `json:"azp"`
	// Status is v2's sts: "active", or "pending" while the user still
	// has session tasks, which Clerk treats as signed out.
	Status        string   `json:"sts"`
	Email         string   `json:"email"`
	EmailVerified flexBool `json:"email_verified"`
	Name          string   `json:"name"`
}

// flexBool reads a JSON bool, or the strings "true" and "false" that a
// session-claims template quoting its shortcode produces. Anything else
// counts as false: an unverified email is refused later (403
// email_required), not the whole token.
type flexBool bool

func (b *flexBool) UnmarshalJSON(data []byte) error {
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	*b = v == true || v == "true"
	return nil
}

// unauthorized wraps ErrUnauthorized with a fixed reason, safe to log:
// never a token, a claim value or a library message that might quote one.
func unauthorized(reason string) error {
	return fmt.Errorf("%w: %s", ErrUnauthorized, reason)
}

// Verify checks a Clerk session token locally (spec 2, Authentication):
// RS256 only, signature, exp (required), nbf, iat (required, not in the
// future), iss, azp in the authorized parties, sub present, session not
// pending. Every failure is ErrUnauthorized; ErrUnconfigured when no key
// is configured.
//
// It is written out here rather than taken from a JWT library: the Worker
// needs one algorithm, and a general library registers every algorithm
// (ECDSA, EdDSA and their curves), which cost the module about 100 KB
// gzip (docs/benchmarks-history.md, "Issue 17"). The steps, their order and the
// reasons are those of github.com/golang-jwt/jwt/v5 with strict base64,
// which verified these tokens before; TestVerify's table holds it to them.
func (a *Authenticator) Verify(token string) (Identity, error) {
	if a.s.key == nil {
		return Identity{}, ErrUnconfigured
	}
	if len(token) > maxTokenLen {
		return Identity{}, unauthorized("token too long")
	}
	c, err := verifyRS256(token, a.s.key)
	if err != nil {
		return Identity{}, err
	}
	if reason := a.checkTimes(c); reason != "" {
		return Identity{}, unauthorized(reason)
	}
	switch {
	case c.Subject == "":
		return Identity{}, unauthorized("sub missing")
	case c.IssuedAt == nil:
		return Identity{}, unauthorized("iat missing")
	case c.AuthorizedParty == "":
		return Identity{}, unauthorized("azp missing")
	case !slices.Contains(a.s.parties, c.AuthorizedParty):
		return Identity{}, unauthorized("azp not authorized")
	case c.Status != "" && c.Status != "active":
		// Fail closed: "pending" is signed out for Clerk, and an unknown
		// status is not known to be signed in.
		return Identity{}, unauthorized("session not active")
	}
	// A verified flag without an email is no verified email (403
	// email_required for a new user).
	return Identity{
		Subject:       c.Subject,
		Email:         c.Email,
		EmailVerified: bool(c.EmailVerified) && c.Email != "",
		Name:          c.Name,
		IssuedAtUnix:  numericTime(*c.IssuedAt).Unix(),
	}, nil
}

// b64 is JWT's base64url without padding, strictly decoded.
var b64 = base64.RawURLEncoding.Strict()

// verifyRS256 decodes the token and checks its signature: header, then
// claims, then the algorithm (RS256 only: alg none, HS256 keyed with the
// public key and every other algorithm are refused), then the signature.
func verifyRS256(token string, key *rsa.PublicKey) (*sessionClaims, error) {
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return nil, unauthorized("malformed token")
	}
	var header map[string]any
	if !decodeSegment(parts[0], &header) {
		return nil, unauthorized("malformed token")
	}
	var c sessionClaims
	if !decodeSegment(parts[1], &c) {
		return nil, unauthorized("malformed token")
	}
	if alg, _ := header["alg"].(string); alg != "RS256" {
		return nil, unauthorized("algorithm refused")
	}
	sig, err := b64.DecodeString(parts[2])
	if err != nil {
		return nil, unauthorized("malformed token")
	}
	sum := sha256.Sum256([]byte(token[:len(parts[0])+1+len(parts[1])]))
	if rsa.VerifyPKCS1v15(key, crypto.SHA256, sum[:], sig) != nil {
		return nil, unauthorized("bad signature")
	}
	return &c, nil
}

// decodeSegment decodes one base64url JSON object into v.
func decodeSegment(seg string, v any) bool {
	raw, err := b64.DecodeString(seg)
	if err != nil {
		return false
	}
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	return dec.Decode(v) == nil
}

// checkTimes applies the registered claims' rules with the clock skew as
// leeway and names the first failure in the order they matter: a missing
// required claim (exp, iss), then exp, nbf, iat in the future, iss.
func (a *Authenticator) checkTimes(c *sessionClaims) string {
	now, leeway := a.s.now(), a.s.skew
	switch {
	case c.ExpiresAt == nil || c.Issuer == "":
		return "required claim missing"
	case !now.Before(numericTime(*c.ExpiresAt).Add(leeway)):
		return "token expired"
	case c.NotBefore != nil && now.Add(leeway).Before(numericTime(*c.NotBefore)):
		return "token not valid yet"
	case c.IssuedAt != nil && now.Add(leeway).Before(numericTime(*c.IssuedAt)):
		return "token issued in the future"
	case c.Issuer != a.s.issuer:
		return "wrong issuer"
	}
	return ""
}

// numericTime is a JWT NumericDate (seconds since the epoch, maybe with a
// fraction) as a time, truncated to the second as jwt/v5 does.
func numericTime(f float64) time.Time {
	sec, frac := math.Modf(f)
	return time.Unix(int64(sec), int64(frac*1e9)).Truncate(time.Second)
}

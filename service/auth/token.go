package auth

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/golang-jwt/jwt/v5"
)

// maxTokenLen bounds what is parsed before the signature is checked;
// Clerk session tokens are about 1-2 KB.
const maxTokenLen = 16 << 10

// sessionClaims are the claims of a Clerk session token (v2) that the
// dashboard reads, with the custom session claims of spec 2.
type sessionClaims struct {
	jwt.RegisteredClaims
	AuthorizedParty string `json:"azp"`
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
func (a *Authenticator) Verify(token string) (Identity, error) {
	if a.s.key == nil {
		return Identity{}, ErrUnconfigured
	}
	if len(token) > maxTokenLen {
		return Identity{}, unauthorized("token too long")
	}
	var c sessionClaims
	tok, err := a.parser.ParseWithClaims(token, &c, func(t *jwt.Token) (any, error) {
		// WithValidMethods already refuses other algorithms; this keeps
		// the key from ever reaching another method.
		if t.Method != jwt.SigningMethodRS256 {
			return nil, errors.New("not RS256")
		}
		return a.s.key, nil
	})
	if err != nil {
		if tok != nil && !errors.Is(err, jwt.ErrTokenMalformed) && (tok.Method == nil || tok.Method.Alg() != jwt.SigningMethodRS256.Alg()) {
			return Identity{}, unauthorized("algorithm refused")
		}
		return Identity{}, unauthorized(jwtReason(err))
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
		IssuedAtUnix:  c.IssuedAt.Unix(),
	}, nil
}

func newParser(s settings) *jwt.Parser {
	return jwt.NewParser(
		jwt.WithValidMethods([]string{jwt.SigningMethodRS256.Alg()}),
		jwt.WithIssuer(s.issuer),
		jwt.WithExpirationRequired(),
		jwt.WithIssuedAt(),
		jwt.WithLeeway(s.skew),
		jwt.WithTimeFunc(s.now),
		jwt.WithStrictDecoding(),
	)
}

// jwtReason names the first failed check of a jwt error, in the order
// the checks matter.
func jwtReason(err error) string {
	for _, r := range []struct {
		err    error
		reason string
	}{
		{jwt.ErrTokenMalformed, "malformed token"},
		{jwt.ErrTokenUnverifiable, "algorithm refused"},
		{jwt.ErrTokenSignatureInvalid, "bad signature"},
		{jwt.ErrTokenRequiredClaimMissing, "required claim missing"},
		{jwt.ErrInvalidType, "claim of the wrong type"},
		{jwt.ErrTokenExpired, "token expired"},
		{jwt.ErrTokenNotValidYet, "token not valid yet"},
		{jwt.ErrTokenUsedBeforeIssued, "token issued in the future"},
		{jwt.ErrTokenInvalidIssuer, "wrong issuer"},
	} {
		if errors.Is(err, r.err) {
			return r.reason
		}
	}
	return "token refused"
}

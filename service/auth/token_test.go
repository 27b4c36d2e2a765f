package auth_test

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/service/auth"
	"github.com/emojisearch/emojisearch/service/auth/authtest"
)

// epoch is the fake clock's time in every token test.
var epoch = time.Unix(1_800_000_000, 0)

func fixedClock() time.Time { return epoch }

// newIssuer is an Issuer on the fixed clock and an Authenticator that
// trusts it (default skew, 5 s).
func newIssuer(t *testing.T) (*authtest.Issuer, *auth.Authenticator) {
	t.Helper()
	iss := authtest.NewIssuer(t)
	iss.Now = fixedClock
	a, err := auth.NewAuthenticator(iss.Config())
	require.NoError(t, err)
	return iss, a
}

func b64(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }

func TestVerify(t *testing.T) {
	iss, a := newIssuer(t)
	other := authtest.NewIssuer(t) // same iss and azp, another key
	other.Now = fixedClock
	skew := auth.DefaultClockSkew
	at := func(d time.Duration) int64 { return epoch.Add(d).Unix() }
	valid := iss.Token(t, nil)
	parts := strings.Split(valid, ".")

	for _, tc := range []struct {
		name  string
		token func() string
		// reason is the refusal's reason; "" means the token is accepted.
		reason string
	}{
		{"valid", func() string { return valid }, ""},
		{"forged signature (other key)", func() string { return other.Token(t, nil) }, "bad signature"},
		{"payload changed after signing", func() string {
			forged := iss.Token(t, authtest.Claims{"sub": "user_admin"})
			return strings.Join([]string{parts[0], strings.Split(forged, ".")[1], parts[2]}, ".")
		}, "bad signature"},
		{"signature stripped", func() string { return parts[0] + "." + parts[1] + "." }, "bad signature"},

		{"expired at the skew edge", func() string { return iss.Token(t, authtest.Claims{"exp": at(-skew)}) }, "token expired"},
		{"expired just inside the skew", func() string { return iss.Token(t, authtest.Claims{"exp": at(-skew + time.Second)}) }, ""},
		{"expired long ago", func() string { return iss.Token(t, authtest.Claims{"exp": at(-time.Hour)}) }, "token expired"},
		{"exp missing", func() string { return iss.Token(t, authtest.Claims{"exp": nil}) }, "required claim missing"},
		{"exp not a number", func() string { return iss.Token(t, authtest.Claims{"exp": "soon"}) }, "malformed token"},

		{"not yet valid just outside the skew", func() string { return iss.Token(t, authtest.Claims{"nbf": at(skew + time.Second)}) }, "token not valid yet"},
		{"not yet valid at the skew edge", func() string { return iss.Token(t, authtest.Claims{"nbf": at(skew)}) }, ""},
		{"nbf missing (optional)", func() string { return iss.Token(t, authtest.Claims{"nbf": nil}) }, ""},

		{"iat in the future just outside the skew", func() string { return iss.Token(t, authtest.Claims{"iat": at(skew + time.Second)}) }, "token issued in the future"},
		{"iat in the future at the skew edge", func() string { return iss.Token(t, authtest.Claims{"iat": at(skew)}) }, ""},
		{"iat missing", func() string { return iss.Token(t, authtest.Claims{"iat": nil}) }, "iat missing"},

		{"wrong issuer", func() string { return iss.Token(t, authtest.Claims{"iss": "https://clerk.evil.test"}) }, "wrong issuer"},
		{"issuer with a trailing slash", func() string { return iss.Token(t, authtest.Claims{"iss": authtest.DefaultIssuer + "/"}) }, "wrong issuer"},
		{"issuer missing", func() string { return iss.Token(t, authtest.Claims{"iss": nil}) }, "required claim missing"},

		{"azp missing", func() string { return iss.Token(t, authtest.Claims{"azp": nil}) }, "azp missing"},
		{"azp not allowed", func() string { return iss.Token(t, authtest.Claims{"azp": "https://evil.test"}) }, "azp not authorized"},
		{"azp with a path", func() string { return iss.Token(t, authtest.Claims{"azp": authtest.DefaultAuthorizedParty + "/"}) }, "azp not authorized"},

		{"alg none", func() string { return iss.Sign(t, "none", iss.DefaultClaims()) }, "algorithm refused"},
		{"HS256 keyed with the public key PEM", func() string { return iss.Sign(t, "HS256", iss.DefaultClaims()) }, "algorithm refused"},
		{"RS384", func() string { return iss.Sign(t, "RS384", iss.DefaultClaims()) }, "algorithm refused"},
		{"RS512", func() string { return iss.Sign(t, "RS512", iss.DefaultClaims()) }, "algorithm refused"},
		{"PS256", func() string { return iss.Sign(t, "PS256", iss.DefaultClaims()) }, "algorithm refused"},
		{"alg missing", func() string { return b64(`{"typ":"JWT"}`) + "." + parts[1] + "." + parts[2] }, "algorithm refused"},
		{"alg unknown", func() string { return b64(`{"alg":"XX999","typ":"JWT"}`) + "." + parts[1] + "." + parts[2] }, "algorithm refused"},

		{"empty", func() string { return "" }, "malformed token"},
		{"one part", func() string { return "abc" }, "malformed token"},
		{"two parts", func() string { return parts[0] + "." + parts[1] }, "malformed token"},
		{"four parts", func() string { return valid + ".x" }, "malformed token"},
		{"header not base64url", func() string { return "!!!." + parts[1] + "." + parts[2] }, "malformed token"},
		{"payload not base64url", func() string { return parts[0] + ".%%%." + parts[2] }, "malformed token"},
		{"signature not base64url", func() string { return parts[0] + "." + parts[1] + ".***" }, "malformed token"},
		{"header not JSON", func() string { return b64("{alg") + "." + parts[1] + "." + parts[2] }, "malformed token"},
		{"payload not JSON", func() string { return parts[0] + "." + b64(`{"sub":`) + "." + parts[2] }, "malformed token"},
		{"payload a JSON array", func() string { return parts[0] + "." + b64(`[1,2]`) + "." + parts[2] }, "malformed token"},
		{"too long", func() string { return valid + strings.Repeat("A", 16<<10) }, "token too long"},

		{"pending session", func() string { return iss.Token(t, authtest.Claims{"sts": "pending"}) }, "session not active"},
		{"unknown session status", func() string { return iss.Token(t, authtest.Claims{"sts": "revoked"}) }, "session not active"},
		{"no sts (v1 token)", func() string { return iss.Token(t, authtest.Claims{"sts": nil, "v": nil}) }, ""},

		{"sub missing", func() string { return iss.Token(t, authtest.Claims{"sub": nil}) }, "sub missing"},
		{"sub empty", func() string { return iss.Token(t, authtest.Claims{"sub": ""}) }, "sub missing"},
		{"sub not a string", func() string { return iss.Token(t, authtest.Claims{"sub": 42}) }, "malformed token"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			id, err := a.Verify(tc.token())
			if tc.reason == "" {
				require.NoError(t, err)
				assert.Equal(t, authtest.DefaultSubject, id.Subject)
				return
			}
			require.ErrorIs(t, err, auth.ErrUnauthorized)
			assert.Equal(t, "auth: unauthorized: "+tc.reason, err.Error())
			assert.Equal(t, auth.Identity{}, id)
		})
	}
}

func TestVerifyIdentity(t *testing.T) {
	iss, a := newIssuer(t)
	for _, tc := range []struct {
		name     string
		override authtest.Claims
		want     auth.Identity
	}{
		{"defaults", nil, auth.Identity{
			Subject: authtest.DefaultSubject, Email: authtest.DefaultEmail, EmailVerified: true,
			Name: authtest.DefaultName, IssuedAtUnix: epoch.Unix(),
		}},
		{"email_verified string true", authtest.Claims{"email_verified": "true"}, auth.Identity{
			Subject: authtest.DefaultSubject, Email: authtest.DefaultEmail, EmailVerified: true,
			Name: authtest.DefaultName, IssuedAtUnix: epoch.Unix(),
		}},
		{"email_verified string false", authtest.Claims{"email_verified": "false"}, auth.Identity{
			Subject: authtest.DefaultSubject, Email: authtest.DefaultEmail, Name: authtest.DefaultName, IssuedAtUnix: epoch.Unix(),
		}},
		{"email_verified false", authtest.Claims{"email_verified": false}, auth.Identity{
			Subject: authtest.DefaultSubject, Email: authtest.DefaultEmail, Name: authtest.DefaultName, IssuedAtUnix: epoch.Unix(),
		}},
		{"email_verified another string", authtest.Claims{"email_verified": "yes"}, auth.Identity{
			Subject: authtest.DefaultSubject, Email: authtest.DefaultEmail, Name: authtest.DefaultName, IssuedAtUnix: epoch.Unix(),
		}},
		{"email_verified a number", authtest.Claims{"email_verified": 1}, auth.Identity{
			Subject: authtest.DefaultSubject, Email: authtest.DefaultEmail, Name: authtest.DefaultName, IssuedAtUnix: epoch.Unix(),
		}},
		{"verified without an email", authtest.Claims{"email": nil}, auth.Identity{
			Subject: authtest.DefaultSubject, Name: authtest.DefaultName, IssuedAtUnix: epoch.Unix(),
		}},
		{"no custom claims", authtest.Claims{"email": nil, "email_verified": nil, "name": nil}, auth.Identity{
			Subject: authtest.DefaultSubject, IssuedAtUnix: epoch.Unix(),
		}},
		{"null custom claims", authtest.Claims{"email": json.RawMessage("null"), "email_verified": json.RawMessage("null"), "name": json.RawMessage("null")}, auth.Identity{
			Subject: authtest.DefaultSubject, IssuedAtUnix: epoch.Unix(),
		}},
		{"iat earlier", authtest.Claims{"iat": epoch.Unix() - 30}, auth.Identity{
			Subject: authtest.DefaultSubject, Email: authtest.DefaultEmail, EmailVerified: true,
			Name: authtest.DefaultName, IssuedAtUnix: epoch.Unix() - 30,
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			id, err := a.Verify(iss.Token(t, tc.override))
			require.NoError(t, err)
			assert.Equal(t, tc.want, id)
		})
	}
}

func TestVerifyClockSkew(t *testing.T) {
	iss := authtest.NewIssuer(t)
	iss.Now = fixedClock
	cfg := iss.Config()
	cfg.ClockSkew = 30 * time.Second
	a, err := auth.NewAuthenticator(cfg)
	require.NoError(t, err)

	_, err = a.Verify(iss.Token(t, authtest.Claims{"exp": epoch.Unix() - 29}))
	assert.NoError(t, err, "inside a 30 s skew")
	_, err = a.Verify(iss.Token(t, authtest.Claims{"exp": epoch.Unix() - 30}))
	assert.ErrorIs(t, err, auth.ErrUnauthorized, "at a 30 s skew")
}

func TestVerifyMovingClock(t *testing.T) {
	iss := authtest.NewIssuer(t)
	now := epoch
	iss.Now = func() time.Time { return now }
	a, err := auth.NewAuthenticator(iss.Config())
	require.NoError(t, err)

	token := iss.Token(t, nil) // exp = epoch + 60 s
	now = epoch.Add(authtest.DefaultLifetime + auth.DefaultClockSkew - time.Second)
	_, err = a.Verify(token)
	require.NoError(t, err)
	now = epoch.Add(authtest.DefaultLifetime + auth.DefaultClockSkew)
	_, err = a.Verify(token)
	require.ErrorIs(t, err, auth.ErrUnauthorized)
}

func TestVerifyUnconfigured(t *testing.T) {
	iss, _ := newIssuer(t)
	a, err := auth.NewAuthenticator(auth.Config{})
	require.NoError(t, err)
	assert.False(t, a.Configured())
	_, err = a.Verify(iss.Token(t, nil))
	assert.ErrorIs(t, err, auth.ErrUnconfigured)
}

// TestVerifyOneLinePEM: the key as a one-line environment variable
// (spaces or literal \n) verifies the same tokens.
func TestVerifyOneLinePEM(t *testing.T) {
	iss, _ := newIssuer(t)
	for name, pem := range map[string]string{
		"spaces":      strings.ReplaceAll(strings.TrimSpace(iss.PublicKeyPEM), "\n", " "),
		"literal \\n": strings.ReplaceAll(iss.PublicKeyPEM, "\n", `\n`),
		"no breaks":   strings.ReplaceAll(iss.PublicKeyPEM, "\n", ""),
		"indented":    "  " + strings.ReplaceAll(iss.PublicKeyPEM, "\n", "\n    "),
	} {
		t.Run(name, func(t *testing.T) {
			cfg := iss.Config()
			cfg.PublicKeyPEM = pem
			a, err := auth.NewAuthenticator(cfg)
			require.NoError(t, err)
			_, err = a.Verify(iss.Token(t, nil))
			assert.NoError(t, err)
		})
	}
}

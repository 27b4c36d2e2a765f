// Package authtest stands in for Clerk in tests: an Issuer that signs
// session tokens the way a Clerk instance does, and FakeClerk, the Backend
// API's user deletion over HTTP. Dashboard and end-to-end tests use both.
package authtest

import (
	"crypto"
	"crypto/hmac"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"testing"
	"time"

	"github.com/emojisearch/emojisearch/service/auth"
)

// Defaults of a new Issuer and of its tokens.
const (
	DefaultIssuer          = "https://clerk.emojisearch.test"
	DefaultAuthorizedParty = "http://localhost:8787"
	DefaultSubject         = "user_2testSubject"
	DefaultSessionID       = "sess_2testSession"
	DefaultEmail           = "tester@example.com"
	DefaultName            = "Test User"
	// DefaultLifetime is Clerk's default session token lifetime.
	DefaultLifetime = 60 * time.Second
	// DefaultNotBefore is how far before iat Clerk sets nbf.
	DefaultNotBefore = 10 * time.Second
)

// Claims are a token's claims. In an override, a nil value removes the
// claim.
type Claims map[string]any

// Issuer signs session tokens with its own RSA key, like one Clerk
// instance. Change the exported fields before use, not concurrently.
type Issuer struct {
	Key             *rsa.PrivateKey
	PublicKeyPEM    string
	KeyID           string
	Issuer          string
	AuthorizedParty string
	// Now sets iat, nbf and exp; share it with the Authenticator's
	// Config.Now so tokens are fresh on a fake clock.
	Now func() time.Time
}

// NewIssuer generates a 2048-bit RSA key pair (each Issuer its own, so a
// second Issuer forges signatures for the first).
func NewIssuer(t testing.TB) *Issuer {
	t.Helper()
	i, err := StartIssuer()
	if err != nil {
		t.Fatal(err)
	}
	return i
}

// StartIssuer is NewIssuer for code that has no testing.TB yet (an e2e
// suite's TestMain configuring the service under test).
func StartIssuer() (*Issuer, error) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return nil, fmt.Errorf("authtest: generating an RSA key: %w", err)
	}
	der, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
	if err != nil {
		return nil, fmt.Errorf("authtest: encoding the public key: %w", err)
	}
	return &Issuer{
		Key:             key,
		PublicKeyPEM:    string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})),
		KeyID:           "ins_2testInstance",
		Issuer:          DefaultIssuer,
		AuthorizedParty: DefaultAuthorizedParty,
		Now:             time.Now,
	}, nil
}

// Config is an auth.Config that accepts this Issuer's default tokens.
func (i *Issuer) Config() auth.Config {
	return auth.Config{
		PublicKeyPEM:      i.PublicKeyPEM,
		Issuer:            i.Issuer,
		AuthorizedParties: []string{i.AuthorizedParty},
		Now:               i.Now,
	}
}

// DefaultClaims are a valid Clerk v2 session token's claims, with the
// custom session claims email, email_verified and name.
func (i *Issuer) DefaultClaims() Claims {
	now := i.Now()
	return Claims{
		"sub":            DefaultSubject,
		"sid":            DefaultSessionID,
		"iss":            i.Issuer,
		"azp":            i.AuthorizedParty,
		"iat":            now.Unix(),
		"nbf":            now.Add(-DefaultNotBefore).Unix(),
		"exp":            now.Add(DefaultLifetime).Unix(),
		"v":              2,
		"sts":            "active",
		"fva":            []int{0, -1},
		"email":          DefaultEmail,
		"email_verified": true,
		"name":           DefaultName,
	}
}

// Token is a valid RS256 session token: DefaultClaims with override
// applied (nil values remove claims).
func (i *Issuer) Token(t testing.TB, override Claims) string {
	t.Helper()
	c := i.DefaultClaims()
	for k, v := range override {
		if v == nil {
			delete(c, k)
		} else {
			c[k] = v
		}
	}
	return i.Sign(t, "RS256", c)
}

// Sign signs exactly claims with alg, for tokens a verifier must refuse:
// RS256, RS384, RS512 and PS256 use the Issuer's key; HS256 uses the
// public key PEM as the HMAC secret (the algorithm-confusion attack);
// "none" has an empty signature.
func (i *Issuer) Sign(t testing.TB, alg string, claims Claims) string {
	t.Helper()
	header := map[string]any{"alg": alg, "typ": "JWT", "kid": i.KeyID}
	input := segment(t, header) + "." + segment(t, claims)
	var sig []byte
	var err error
	switch alg {
	case "RS256":
		sig, err = rsa.SignPKCS1v15(nil, i.Key, crypto.SHA256, sum256(input))
	case "RS384":
		h := sha512.Sum384([]byte(input))
		sig, err = rsa.SignPKCS1v15(nil, i.Key, crypto.SHA384, h[:])
	case "RS512":
		h := sha512.Sum512([]byte(input))
		sig, err = rsa.SignPKCS1v15(nil, i.Key, crypto.SHA512, h[:])
	case "PS256":
		sig, err = rsa.SignPSS(rand.Reader, i.Key, crypto.SHA256, sum256(input), nil)
	case "HS256":
		m := hmac.New(sha256.New, []byte(i.PublicKeyPEM))
		m.Write([]byte(input))
		sig = m.Sum(nil)
	case "none":
	default:
		t.Fatalf("authtest: Sign does not know alg %q", alg)
	}
	if err != nil {
		t.Fatalf("authtest: signing: %v", err)
	}
	return input + "." + base64.RawURLEncoding.EncodeToString(sig)
}

func segment(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("authtest: encoding a token segment: %v", err)
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

func sum256(s string) []byte {
	h := sha256.Sum256([]byte(s))
	return h[:]
}

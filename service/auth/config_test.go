package auth_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/service/auth"
	"github.com/emojisearch/emojisearch/service/auth/authtest"
)

func publicPEM(t *testing.T, pub any, typ string) string {
	t.Helper()
	var der []byte
	if typ == "RSA PUBLIC KEY" {
		der = x509.MarshalPKCS1PublicKey(pub.(*rsa.PublicKey))
	} else {
		var err error
		der, err = x509.MarshalPKIXPublicKey(pub)
		require.NoError(t, err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}))
}

func TestConfig(t *testing.T) {
	iss := authtest.NewIssuer(t)
	ec, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	small, err := rsa.GenerateKey(rand.Reader, 1024)
	require.NoError(t, err)

	for _, tc := range []struct {
		name   string
		mutate func(*auth.Config)
		// errs are substrings of the one error; none means valid.
		errs []string
	}{
		{"issuer's config", nil, nil},
		{"empty config is unconfigured, not invalid", func(c *auth.Config) { *c = auth.Config{} }, nil},
		{"PKCS#1 key", func(c *auth.Config) { c.PublicKeyPEM = publicPEM(t, &iss.Key.PublicKey, "RSA PUBLIC KEY") }, nil},
		{"several parties", func(c *auth.Config) {
			c.AuthorizedParties = []string{"https://dashboard.example.com", "http://localhost:5173"}
		}, nil},
		{"not PEM", func(c *auth.Config) { c.PublicKeyPEM = "hello" }, []string{"PublicKeyPEM: no PEM block"}},
		{"private key block", func(c *auth.Config) {
			c.PublicKeyPEM = string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: []byte{1}}))
		}, []string{`PEM block is "PRIVATE KEY"`}},
		{"garbage in the block", func(c *auth.Config) {
			c.PublicKeyPEM = string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: []byte{1, 2, 3}}))
		}, []string{"cannot parse the key"}},
		{"EC key", func(c *auth.Config) { c.PublicKeyPEM = publicPEM(t, &ec.PublicKey, "PUBLIC KEY") }, []string{"want an RSA key"}},
		{"1024-bit key", func(c *auth.Config) { c.PublicKeyPEM = publicPEM(t, &small.PublicKey, "PUBLIC KEY") }, []string{"1024 bits"}},
		{"issuer missing", func(c *auth.Config) { c.Issuer = "" }, []string{"Issuer is required"}},
		{"issuer trailing slash", func(c *auth.Config) { c.Issuer += "/" }, []string{"not an http(s) URL without a trailing slash"}},
		{"issuer not a URL", func(c *auth.Config) { c.Issuer = "clerk.example.com" }, []string{"not an http(s) URL"}},
		{"parties missing", func(c *auth.Config) { c.AuthorizedParties = nil }, []string{"AuthorizedParties is required"}},
		{"party with a path", func(c *auth.Config) { c.AuthorizedParties = []string{"https://example.com/"} }, []string{`"https://example.com/" is not an origin`}},
		{"party without a scheme", func(c *auth.Config) { c.AuthorizedParties = []string{"example.com"} }, []string{"is not an origin"}},
		{"party empty", func(c *auth.Config) { c.AuthorizedParties = []string{""} }, []string{"is not an origin"}},
		{"negative skew", func(c *auth.Config) { c.ClockSkew = -time.Second }, []string{"ClockSkew -1s is negative"}},
		{"huge skew", func(c *auth.Config) { c.ClockSkew = time.Hour }, []string{"ClockSkew 1h0m0s is over 1m0s"}},
		{"largest skew", func(c *auth.Config) { c.ClockSkew = time.Minute }, nil},
		{"short dev secret", func(c *auth.Config) { c.DevSecret = "short" }, []string{"DevSecret is shorter than 16 bytes"}},
		{"every problem at once", func(c *auth.Config) {
			*c = auth.Config{PublicKeyPEM: "x", ClockSkew: -1, DevSecret: "x"}
		}, []string{"PublicKeyPEM", "Issuer is required", "AuthorizedParties is required", "negative", "DevSecret"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := iss.Config()
			if tc.mutate != nil {
				tc.mutate(&cfg)
			}
			a, err := auth.NewAuthenticator(cfg)
			if len(tc.errs) == 0 {
				require.NoError(t, err)
				require.NotNil(t, a)
				return
			}
			require.Error(t, err)
			assert.Nil(t, a)
			for _, want := range tc.errs {
				assert.Contains(t, err.Error(), want)
			}
		})
	}
}

// TestConfigCopied: changing the caller's slice after construction does
// not change who is authorized.
func TestConfigCopied(t *testing.T) {
	iss := authtest.NewIssuer(t)
	iss.Now = fixedClock
	cfg := iss.Config()
	a, err := auth.NewAuthenticator(cfg)
	require.NoError(t, err)
	cfg.AuthorizedParties[0] = "https://evil.test"
	_, err = a.Verify(iss.Token(t, nil))
	assert.NoError(t, err)
}

func TestStringHidesSecrets(t *testing.T) {
	iss := authtest.NewIssuer(t)
	cfg := iss.Config()
	cfg.DevSecret = "a development secret value"
	a, err := auth.NewAuthenticator(cfg)
	require.NoError(t, err)
	for _, format := range []string{"%v", "%+v", "%s"} {
		assert.Equal(t, "auth.Authenticator", fmt.Sprintf(format, a))
	}
}

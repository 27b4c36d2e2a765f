package e2e

import (
	"strings"

	"github.com/emojisearch/emojisearch/service/auth/authtest"
)

// The identity provider the suite signs in with: its own RSA key (the
// Worker verifies tokens against the public half) and a fake of Clerk's
// Backend API for account deletion, both in this process.
var (
	issuer *authtest.Issuer
	clerk  *authtest.FakeClerk
)

// websiteOrigin is the marketing site allowed to post the waitlist form.
const websiteOrigin = "https://www.emojisearch.test"

func startIdentity() error {
	var err error
	if issuer, err = authtest.StartIssuer(); err != nil {
		return err
	}
	clerk = authtest.StartFakeClerk()
	return nil
}

// workerVars are the vars and secrets both targets get: the identity
// provider, the website, and the development environment (the dashboard's
// development sign-in answers only there).
func workerVars() map[string]string {
	vars := map[string]string{
		"ENVIRONMENT":              "development",
		"CLERK_JWT_KEY":            strings.ReplaceAll(strings.TrimSpace(issuer.PublicKeyPEM), "\n", `\n`),
		"CLERK_ISSUER":             issuer.Issuer,
		"CLERK_AUTHORIZED_PARTIES": issuer.AuthorizedParty,
		"CLERK_SECRET_KEY":         authtest.FakeSecretKey,
		"CLERK_API_URL":            clerk.URL,
		"WEBSITE_ORIGINS":          websiteOrigin,
		"SETS_UPSTREAM":            setsUpstream().URL + "/",
	}
	for k, v := range chatVars() {
		vars[k] = v
	}
	return vars
}

//go:build js && wasm

package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/emojisearch/emojisearch/service/auth"
	"github.com/emojisearch/emojisearch/service/dashboard"
	"github.com/emojisearch/emojisearch/service/store"
	"github.com/emojisearch/emojisearch/worker/internal/cf/r2"
	"github.com/emojisearch/emojisearch/worker/internal/jsutil"
)

// newDashboard wires the /api routes: Clerk session tokens (CLERK_JWT_KEY,
// CLERK_ISSUER, CLERK_AUTHORIZED_PARTIES), user deletion through the Clerk
// Backend API when CLERK_SECRET_KEY is set (CLERK_API_URL overrides its
// origin), images in OBJECTS, the waitlist's website origins
// (WEBSITE_ORIGINS) and its limiter RL_WAITLIST, the development sign-in
// when ENVIRONMENT is development, invite links on DASHBOARD_URL.
// emojiChanged is told after every custom emoji change (the search index
// of this instance forgets the app's copy).
func newDashboard(db store.DB, environment string, emojiChanged func(appID string)) (*dashboard.Dashboard, error) {
	env := jsutil.Env()
	v := func(name string) string { return strings.TrimSpace(jsutil.String(env.Get(name))) }
	authn, err := auth.NewAuthenticator(auth.Config{
		PublicKeyPEM:      v("CLERK_JWT_KEY"),
		Issuer:            v("CLERK_ISSUER"),
		AuthorizedParties: list(v("CLERK_AUTHORIZED_PARTIES")),
		DevSignIn:         environment == dashboard.EnvDevelopment,
		DevSecret:         v("DEV_AUTH_SECRET"),
	})
	if err != nil {
		return nil, err
	}
	cfg := dashboard.NewConfig(db, authn).
		WithEnvironment(environment).
		WithDashboardURL(v("DASHBOARD_URL")).
		WithEmojiChanged(emojiChanged).
		WithLog(func(format string, args ...any) { fmt.Printf(format+"\n", args...) })
	if secret := v("CLERK_SECRET_KEY"); secret != "" {
		deleter, err := auth.NewClerkDeleter(auth.ClerkConfig{SecretKey: secret, BaseURL: v("CLERK_API_URL"), Client: fetchDoer{}})
		if err != nil {
			return nil, err
		}
		cfg = cfg.WithUserDeleter(deleter)
	}
	if bucket, err := r2.Open("OBJECTS"); err == nil {
		cfg = cfg.WithObjects(objects{bucket})
	}
	waitlist, err := limiter("RL_WAITLIST")
	if err != nil {
		return nil, err
	}
	cfg = cfg.WithWaitlist(list(v("WEBSITE_ORIGINS")), waitlist)
	return dashboard.New(cfg)
}

// list splits a comma-separated var.
func list(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// objects deletes images from R2, at most 1,000 keys per call (R2's
// limit for a multi-key delete).
type objects struct{ b *r2.Bucket }

func (o objects) Delete(ctx context.Context, keys []string) error {
	for len(keys) > 0 {
		n := min(len(keys), 1000)
		if err := o.b.Delete(ctx, keys[:n]...); err != nil {
			return err
		}
		keys = keys[n:]
	}
	return nil
}

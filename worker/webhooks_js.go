//go:build js && wasm

package main

import (
	"context"
	"fmt"
	"time"

	"github.com/emojisearch/emojisearch/service/dashboard"
	"github.com/emojisearch/emojisearch/service/store"
	"github.com/emojisearch/emojisearch/service/webhooks"
	"github.com/emojisearch/emojisearch/worker/internal/jsutil"
)

// sweepCron is wrangler.toml's every-minute trigger: the webhook sweep
// (attempt 3 and anything a request's pump left behind).
const sweepCron = "* * * * *"

// newWebhooks builds webhook delivery over D1 and the Workers fetch
// (redirects never followed), sleeping on JS timers armed by the request
// that waits (Go timers are shared between requests on one instance).
func newWebhooks(db store.DB, environment string) (*webhooks.Service, error) {
	cfg := webhooks.NewConfig(db, fetchDoer{}).
		WithSleep(jsutil.Sleep).
		WithDevelopment(environment == dashboard.EnvDevelopment).
		WithLog(func(format string, args ...any) { fmt.Printf(format+"\n", args...) })
	hooks, err := webhooks.New(cfg)
	if err != nil {
		return nil, err
	}
	scheduledJobs[sweepCron] = func(ctx context.Context, _ time.Time) error { return hooks.Sweep(ctx) }
	return hooks, nil
}

//go:build js && wasm

// Command worker is the Cloudflare Workers module: Go compiled with
// GOOS=js GOARCH=wasm, started once per isolate by worker/entry/worker.mjs
// and kept for many requests (see worker/entry/PROTOCOL.md). It only wires
// the platform's bindings to the service packages.
package main

import (
	"context"
	"fmt"
	"time"

	"github.com/emojisearch/emojisearch/service/api"
	"github.com/emojisearch/emojisearch/service/httpx"
	"github.com/emojisearch/emojisearch/worker/internal/jsbridge"
	"github.com/emojisearch/emojisearch/worker/internal/jsutil"
)

func main() {
	env := jsutil.Env()
	cfg := api.Config{
		PackVersion: jsutil.String(env.Get("PACK_VERSION")),
		Model:       jsutil.String(env.Get("EMBED_MODEL")),
		Semantic:    !env.Get("AI").IsUndefined() || jsutil.String(env.Get("EMBED_URL")) != "",
	}
	svc := api.New(cfg, extraRoutes...)
	jsbridge.Serve(svc, scheduled)
}

// extraRoutes lists optional route sets; the test build adds diagnostics.
var extraRoutes []func(*httpx.Router)

// scheduledJobs run on cron triggers, keyed by cron expression; the test
// build adds one that records each run.
var scheduledJobs = map[string]func(ctx context.Context, at time.Time) error{}

func scheduled(ctx context.Context, cron string, at time.Time) error {
	job, ok := scheduledJobs[cron]
	if !ok {
		if job, ok = scheduledJobs["*"]; !ok {
			return fmt.Errorf("no job for cron %q", cron)
		}
	}
	return job(ctx, at)
}

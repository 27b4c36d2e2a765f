//go:build js && wasm

// Command worker is the Cloudflare Workers module: Go compiled with
// GOOS=js GOARCH=wasm, started once per isolate by worker/entry/worker.mjs
// and kept for many requests (see worker/entry/PROTOCOL.md). It only wires
// the platform's bindings to the service packages.
package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/emojisearch/emojisearch/packs/dist"
	"github.com/emojisearch/emojisearch/service/accounts"
	"github.com/emojisearch/emojisearch/service/api"
	"github.com/emojisearch/emojisearch/service/customemoji"
	"github.com/emojisearch/emojisearch/service/httpx"
	"github.com/emojisearch/emojisearch/service/meaning"
	"github.com/emojisearch/emojisearch/service/metering"
	"github.com/emojisearch/emojisearch/service/modelguard"
	"github.com/emojisearch/emojisearch/service/webhooks"
	"github.com/emojisearch/emojisearch/service/writebehind"
	"github.com/emojisearch/emojisearch/worker/internal/cf/d1"
	"github.com/emojisearch/emojisearch/worker/internal/jsbridge"
	"github.com/emojisearch/emojisearch/worker/internal/jsutil"
)

func main() {
	env := jsutil.Env()
	cfg := api.Config{
		PackVersion: jsutil.String(env.Get("PACK_VERSION")),
		Model:       jsutil.String(env.Get("EMBED_MODEL")),
	}
	if cfg.PackVersion == "" {
		cfg.PackVersion = dist.Version
	}
	embedURL, embedToken := jsutil.String(env.Get("EMBED_URL")), jsutil.String(env.Get("EMBED_TOKEN"))
	embedder, err := newEmbedder(cfg.Model, embedURL, embedToken)
	if err != nil {
		fmt.Println("worker: meaning tier unavailable:", err)
	}
	cfg.Semantic = embedder != nil
	if embedder != nil {
		guarded := meaning.Guarded{Embedder: embedder, Breaker: newBreaker("embedding", modelguard.DefaultDeadline)}
		cfg.SemanticCheck, embedder = guarded.Available, guarded
	}
	var meter *metering.Meter
	var custom *customemoji.Index
	writer := newWriteBehind()
	var hooks *webhooks.Service
	db, dbErr := openStore("DB")
	if dbErr != nil {
		fmt.Println("worker: accounts unavailable, every caller is anonymous:", dbErr)
	} else {
		repo := accounts.New(db, time.Now)
		custom = customemoji.New(repo, time.Now)
		environment := jsutil.String(env.Get("ENVIRONMENT"))
		usage := repo.Usage()
		if hooks, err = newWebhooks(db, environment); err != nil {
			fmt.Println("worker: webhooks unavailable:", err)
		} else {
			// A fired threshold is delivered by a pump of its own, so the
			// meter's write is not held up by webhook attempts.
			usage = hooks.Thresholds(usage, func(ctx context.Context) {
				jsbridge.WaitUntil(ctx, func(ctx context.Context) { hooks.Pump(ctx, 0, webhooks.RequestBudget) })
			})
		}
		if guard, m, err := newAccess(repo, usage, writer, jsutil.String(env.Get("DEV_KEYS"))); err != nil {
			fmt.Println("worker: key rules unavailable:", err)
		} else {
			cfg.Guard, meter = guard.Wrap, m
			extraRoutes = append(extraRoutes, newCustom(db, guard, cfg.PackVersion, custom.Forget))
		}
		searchAnalytics = newAnalytics(db, writer)
		nightlyJobs = append(nightlyJobs, nightlyAnalytics(db))
		scheduledJobs[nightlyCron] = nightly(repo, writer)
		if dash, err := newDashboard(db, environment, custom.Forget); err != nil {
			fmt.Println("worker: dashboard unavailable:", err)
		} else {
			imports, err := newChatImport(db, environment, custom.Forget)
			if err != nil {
				fmt.Println("worker: chat imports unavailable:", err)
			}
			// Webhook and import routes first: the dashboard ends with its
			// /api catch-all.
			cfg.Dashboard = func(r *httpx.Router) {
				if hooks != nil {
					hooks.Routes(r, dash)
				}
				if imports != nil {
					imports.Routes(r, dash)
				}
				dash.Routes(r)
			}
		}
	}
	searchSvc, packs, tier, err := newSearch(cfg.PackVersion, cfg.Model, embedder, meter, custom)
	if err != nil {
		fmt.Println("worker: search unavailable:", err)
	} else {
		cfg.Search = searchSvc
		cfg.Reactions = newReactions(cfg.PackVersion, cfg.Model, packs, tier, meter, custom)
		cfg.Classify = newClassify(cfg.Model, embedURL, embedToken, packs, tier, meter)
		if dbErr == nil {
			nightlyJobs = append(nightlyJobs, shardBuild(db, cfg.PackVersion, cfg.Model, searchSvc))
		}
	}
	extraRoutes = append(extraRoutes, shardRoutes, setRoutes, dashboardAppRoutes, staticFileRoutes)
	var svc http.Handler = api.New(cfg, extraRoutes...)
	if hooks != nil {
		svc = hooks.Middleware(jsbridge.WaitUntil)(svc)
	}
	jsbridge.Serve(svc, scheduled)
}

// extraRoutes lists optional route sets; the test build adds diagnostics.
var extraRoutes []func(*httpx.Router)

// scheduledJobs run on cron triggers, keyed by cron expression: the
// nightly (nightlyCron) and the webhook sweep (sweepCron). Keep
// wrangler.toml's [triggers] comment in step with them.
var scheduledJobs = map[string]func(ctx context.Context, at time.Time) error{}

// nightlyCron is wrangler.toml's daily trigger.
const nightlyCron = "17 3 * * *"

// nightlyJobs run after the nightly's own work, each whatever the others
// did (analytics retention, the shard build).
var nightlyJobs []func(ctx context.Context, at time.Time) error

// nightly writes every in-memory count (the write-behind's sources: meter
// and analytics), drops waitlist entries whose first sign-up is over 12
// months old (spec 2 Limits) and runs nightlyJobs.
func nightly(repo *accounts.Repo, writer *writebehind.Writer) func(ctx context.Context, at time.Time) error {
	return func(ctx context.Context, at time.Time) error {
		errs := []error{writer.Flush(ctx)}
		_, err := repo.PruneWaitlist(ctx, at.AddDate(-1, 0, 0))
		errs = append(errs, err)
		for _, job := range nightlyJobs {
			errs = append(errs, job(ctx, at))
		}
		return errors.Join(errs...)
	}
}

// scheduled runs the jobs of a cron trigger and records the run in the
// cron_runs table, so operators can see that triggers reach the Worker.
func scheduled(ctx context.Context, cron string, at time.Time) error {
	var err error
	detail := "no job"
	if job, ok := scheduledJobs[cron]; ok {
		detail = ""
		err = job(ctx, at)
		if err != nil {
			detail = err.Error()
		}
	}
	db, dbErr := d1.Open("DB")
	if dbErr != nil {
		return errors.Join(err, dbErr)
	}
	ok := 0
	if err == nil {
		ok = 1
	}
	_, recErr := db.Run(ctx, d1.Statement{
		SQL:    "INSERT INTO cron_runs (cron, scheduled_at, finished_at, ok, detail) VALUES (?, ?, ?, ?, ?)",
		Params: []any{cron, at.UnixMilli(), time.Now().UnixMilli(), ok, detail},
	})
	if err != nil {
		return fmt.Errorf("cron %q: %w", cron, err)
	}
	return recErr
}

package app

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/emojisearch/emojisearch/packs/dist"
	"github.com/emojisearch/emojisearch/service/access"
	"github.com/emojisearch/emojisearch/service/accounts"
	"github.com/emojisearch/emojisearch/service/analytics"
	"github.com/emojisearch/emojisearch/service/api"
	"github.com/emojisearch/emojisearch/service/classify"
	"github.com/emojisearch/emojisearch/service/customemoji"
	"github.com/emojisearch/emojisearch/service/dashboard"
	"github.com/emojisearch/emojisearch/service/httpx"
	"github.com/emojisearch/emojisearch/service/meaning"
	"github.com/emojisearch/emojisearch/service/metering"
	"github.com/emojisearch/emojisearch/service/modelguard"
	"github.com/emojisearch/emojisearch/service/reactions"
	"github.com/emojisearch/emojisearch/service/search"
	"github.com/emojisearch/emojisearch/service/store"
	"github.com/emojisearch/emojisearch/service/webhooks"
	"github.com/emojisearch/emojisearch/service/writebehind"
)

// Cron expressions of wrangler.toml's [triggers]; keep its comment in step.
const (
	// NightlyCron is the daily trigger: counts written, waitlist and
	// analytics retention, the shard build.
	NightlyCron = "17 3 * * *"
	// SweepCron is the every-minute trigger: the webhook sweep (attempt 3
	// and anything a request's pump left behind).
	SweepCron = "* * * * *"
)

// Job is the work of one cron trigger.
type Job func(ctx context.Context, at time.Time) error

// App is the composed service.
type App struct {
	// Handler answers every request.
	Handler http.Handler
	// Jobs are the cron jobs by cron expression (only the bound ones).
	Jobs map[string]Job
	// Search and Reactions are the ranking services (nil when the packs
	// could not be set up), for the evaluation commands.
	Search    *search.Service
	Reactions *reactions.Service

	db store.DB
}

// New composes the service over p. A surface whose binding is missing or
// fails to set up is left out and logged, as spec 1 says for each; New
// itself never fails.
func New(p Platform) *App {
	p = p.withDefaults()
	a := &App{Jobs: map[string]Job{}, db: p.DB}
	cfg := api.Config{PackVersion: p.Vars("PACK_VERSION"), Model: p.Vars("EMBED_MODEL")}
	if cfg.PackVersion == "" {
		cfg.PackVersion = dist.Version
	}
	embedder := p.Embedder
	cfg.Semantic = embedder != nil
	if embedder != nil {
		guarded := meaning.Guarded{Embedder: embedder, Breaker: p.breaker("embedding", modelguard.DefaultDeadline)}
		cfg.SemanticCheck, embedder = guarded.Available, guarded
	}
	writer := p.writeBehind()
	var meter *metering.Meter
	var custom *customemoji.Index
	var counter *analytics.Counter
	var hooks *webhooks.Service
	var repo *accounts.Repo
	var nightly []Job
	extra := append([]func(*httpx.Router){}, p.Routes...)
	if p.DB == nil {
		p.Log("worker: accounts unavailable, every caller is anonymous: DB is not bound")
	} else {
		repo = accounts.New(accounts.NewConfig(p.DB))
		custom = customemoji.New(customemoji.NewConfig(repo))
		usage := repo.Usage()
		var err error
		if hooks, err = p.webhooks(); err != nil {
			p.Log("worker: webhooks unavailable: %v", err)
		} else {
			a.Jobs[SweepCron] = func(ctx context.Context, _ time.Time) error { return hooks.Sweep(ctx) }
			// A fired threshold is delivered by a pump of its own, so the
			// meter's write is not held up by webhook attempts.
			usage = hooks.Thresholds(usage, func(ctx context.Context) {
				p.WaitUntil(ctx, func(ctx context.Context) { hooks.Pump(ctx, 0, webhooks.RequestBudget) })
			})
		}
		if guard, m, err := p.access(repo, usage, writer); err != nil {
			p.Log("worker: key rules unavailable: %v", err)
		} else {
			cfg.Guard, meter = guard.Wrap, m
			extra = append(extra, p.custom(guard, cfg.PackVersion, custom.Forget))
		}
		counter = p.analytics(writer)
		nightly = append(nightly, pruneAnalytics(p.DB))
		if dash, err := p.dashboard(custom.Forget); err != nil {
			p.Log("worker: dashboard unavailable: %v", err)
		} else {
			imports, err := p.chatImport(custom.Forget)
			if err != nil {
				p.Log("worker: chat imports unavailable: %v", err)
			}
			cfg.Dashboard = func(r *httpx.Router) {
				var more []dashboard.Route
				if hooks != nil {
					more = append(more, hooks.APIRoutes(dash)...)
				}
				if imports != nil {
					more = append(more, imports.APIRoutes(dash)...)
				}
				dash.Routes(r, more...)
			}
		}
	}
	rank, err := p.ranking(cfg.PackVersion, cfg.Model, embedder)
	if err != nil {
		p.Log("worker: search unavailable: %v", err)
	} else {
		a.Search = search.New(rank.searchConfig(p, meter, custom, counter))
		a.Reactions = reactions.New(rank.reactionsConfig(p, meter, custom))
		cfg.Search, cfg.Reactions = a.Search, a.Reactions
		cfg.Classify = classify.New(p.classifyConfig(rank, meter))
		if p.DB != nil {
			nightly = append(nightly, p.shardBuild(cfg.PackVersion, cfg.Model, a.Search))
		}
	}
	if repo != nil {
		a.Jobs[NightlyCron] = nightlyJob(repo, writer, nightly)
	}
	extra = append(extra, p.shardRoutes, p.setRoutes, p.dashboardAppRoutes, p.staticFileRoutes)
	var h http.Handler = api.New(cfg, extra...)
	if hooks != nil {
		h = hooks.Middleware(p.WaitUntil)(h)
	}
	a.Handler = h
	return a
}

// nightly writes every in-memory count (the write-behind's sources: meter
// and analytics), drops waitlist entries whose first sign-up is over 12
// months old (spec 2 Limits) and runs jobs, each whatever the others did.
func nightlyJob(repo *accounts.Repo, writer *writebehind.Writer, jobs []Job) Job {
	return func(ctx context.Context, at time.Time) error {
		errs := []error{writer.Flush(ctx)}
		_, err := repo.PruneWaitlist(ctx, at.AddDate(-1, 0, 0))
		errs = append(errs, err)
		for _, job := range jobs {
			errs = append(errs, job(ctx, at))
		}
		return errors.Join(errs...)
	}
}

// errNoDB is the cron record's failure when DB is not bound.
var errNoDB = errors.New("app: DB is not bound")

// Scheduled runs the job of a cron trigger and records the run in the
// cron_runs table, so operators can see that triggers reach the service.
func (a *App) Scheduled(ctx context.Context, cron string, at time.Time) error {
	var err error
	detail := "no job"
	if job, ok := a.Jobs[cron]; ok {
		detail = ""
		if err = job(ctx, at); err != nil {
			detail = err.Error()
		}
	}
	if a.db == nil {
		return errors.Join(err, errNoDB)
	}
	ok := 0
	if err == nil {
		ok = 1
	}
	_, recErr := a.db.Run(ctx, store.Stmt{
		SQL:  "INSERT INTO cron_runs (cron, scheduled_at, finished_at, ok, detail) VALUES (?, ?, ?, ?, ?)",
		Args: []any{cron, at.UnixMilli(), time.Now().UnixMilli(), ok, detail},
	})
	if err != nil {
		return fmt.Errorf("cron %q: %w", cron, err)
	}
	return recErr
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

// breaker guards one model's calls with a deadline and a circuit breaker
// (service/modelguard), timed by the platform's timer. One per model.
func (p Platform) breaker(name string, deadline time.Duration) *modelguard.Breaker {
	b, err := modelguard.New(modelguard.NewConfig(name).WithDeadline(deadline).WithTimer(p.Timer))
	if err != nil {
		panic(err) // the defaults are valid: a programming error
	}
	return b
}

// writeBehind is the instance's one delayed write, shared by every
// in-memory counter (metering, analytics), on the platform's timer.
func (p Platform) writeBehind() *writebehind.Writer {
	w, err := writebehind.New(writebehind.NewConfig().
		WithTimer(p.Timer).
		WithErrorHook(func(err error) { p.Log("write-behind: %v", err) }))
	if err != nil {
		panic(err) // the defaults are valid: a programming error
	}
	return w
}

// access builds the per-instance key resolver (60 s key cache, DEV_KEYS)
// and the meter over usage, and the guard of the metered routes over
// RL_KEYED and RL_ANON. The guard is a value: routes with their own rules
// (custom pack, tenants API) derive theirs from it and share its cache.
func (p Platform) access(repo *accounts.Repo, usage metering.UsageStore, writer *writebehind.Writer) (access.Guard, *metering.Meter, error) {
	res, err := access.NewResolver(access.NewConfig(repo.Keys()).WithDevKeys(access.ParseDevKeys(p.Vars("DEV_KEYS"))...))
	if err != nil {
		return access.Guard{}, nil, err
	}
	meter, err := metering.New(metering.NewConfig(usage).WithWriteBehind(writer).
		WithErrorHook(func(err error) { p.Log("metering: %v", err) }))
	if err != nil {
		return access.Guard{}, nil, err
	}
	guard := access.NewGuard(res, p.limiter("RL_KEYED"), p.limiter("RL_ANON")).
		WithErrorHook(func(err error) { p.Log("rate limiting failed open: %v", err) })
	return guard, meter, nil
}

// analytics counts keyed searches over DB through the write-behind (whose
// hook logs failures: the counter's errors name row counts, never query
// text, which never reaches logs); nil when it cannot be set up.
func (p Platform) analytics(writer *writebehind.Writer) *analytics.Counter {
	c, err := analytics.New(analytics.Config{Writer: analytics.NewStore(p.DB), WriteBehind: writer})
	if err != nil {
		p.Log("worker: analytics unavailable: %v", err)
		return nil
	}
	return c
}

// pruneAnalytics deletes query rows past each plan's retention (spec 2
// Limits); the nightly's write-behind flush has written the counts.
func pruneAnalytics(db store.DB) Job {
	return func(ctx context.Context, at time.Time) error {
		_, err := analytics.NewStore(db).Prune(ctx, at)
		return err
	}
}

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
	"github.com/emojisearch/emojisearch/service/auth"
	"github.com/emojisearch/emojisearch/service/chatimport"
	"github.com/emojisearch/emojisearch/service/classify"
	"github.com/emojisearch/emojisearch/service/customemoji"
	"github.com/emojisearch/emojisearch/service/customhost"
	"github.com/emojisearch/emojisearch/service/dashboard"
	"github.com/emojisearch/emojisearch/service/dashboardapp"
	"github.com/emojisearch/emojisearch/service/emojistore"
	"github.com/emojisearch/emojisearch/service/httpx"
	"github.com/emojisearch/emojisearch/service/meaning"
	"github.com/emojisearch/emojisearch/service/metering"
	"github.com/emojisearch/emojisearch/service/reactions"
	"github.com/emojisearch/emojisearch/service/search"
	"github.com/emojisearch/emojisearch/service/shards"
	"github.com/emojisearch/emojisearch/service/staticfiles"
	"github.com/emojisearch/emojisearch/service/tenantsapi"
	"github.com/emojisearch/emojisearch/service/webhooks"
)

// var trims a var's value.
func (p Platform) v(name string) string { return strings.TrimSpace(p.Vars(name)) }

// development reports ENVIRONMENT=development.
func (p Platform) development() bool { return p.Vars("ENVIRONMENT") == dashboard.EnvDevelopment }

// webhooks builds webhook delivery over DB and the platform's fetch,
// sleeping on the platform's timer in the request that waits.
func (p Platform) webhooks() (*webhooks.Service, error) {
	return webhooks.New(webhooks.NewConfig(p.DB, p.Fetch).
		WithSleep(p.sleep).
		WithDevelopment(p.development()).
		WithLog(p.Log))
}

// emojiStore is the one custom emoji writer over DB and Objects; changed
// is told after every committed change (the search index forgets the
// app's copy).
func (p Platform) emojiStore(changed func(appID string)) *emojistore.Store {
	cfg := emojistore.NewConfig(p.DB).WithLog(p.Log).WithChanged(changed)
	if p.Objects != nil {
		cfg = cfg.WithObjects(p.Objects)
	}
	return emojistore.New(cfg)
}

// custom wires the custom emoji routes of spec 1: the images and the
// custom pack (edge cache) and the tenants API. Without Objects, images
// answer 404 and writes 503 storage_unavailable.
func (p Platform) custom(guard access.Guard, packVersion string, changed func(appID string)) func(*httpx.Router) {
	var images customhost.Images = noImages{}
	if p.Objects != nil {
		images = p.Objects
	}
	es := p.emojiStore(changed)
	host := customhost.New(customhost.Config{Store: es, Images: images, Cache: ttlCache{p.Cache}, Guard: guard, PackVersion: packVersion})
	tenants := tenantsapi.New(es, guard)
	return func(r *httpx.Router) {
		host.Routes(r)
		tenants.Routes(r)
	}
}

// dashboard wires the /api routes: Clerk session tokens (CLERK_JWT_KEY,
// CLERK_ISSUER, CLERK_AUTHORIZED_PARTIES), user deletion through the Clerk
// Backend API when CLERK_SECRET_KEY is set (CLERK_API_URL overrides its
// origin), images in Objects, the waitlist's website origins
// (WEBSITE_ORIGINS) and its limiter RL_WAITLIST, the development sign-in
// when ENVIRONMENT is development, invite links on DASHBOARD_URL.
func (p Platform) dashboard(emojiChanged func(appID string)) (*dashboard.Dashboard, error) {
	authn, err := auth.NewAuthenticator(auth.Config{
		PublicKeyPEM:      p.v("CLERK_JWT_KEY"),
		Issuer:            p.v("CLERK_ISSUER"),
		AuthorizedParties: list(p.v("CLERK_AUTHORIZED_PARTIES")),
		DevSignIn:         p.development(),
		DevSecret:         p.v("DEV_AUTH_SECRET"),
	})
	if err != nil {
		return nil, err
	}
	cfg := dashboard.NewConfig(p.DB, authn).
		WithEnvironment(p.Vars("ENVIRONMENT")).
		WithDashboardURL(p.v("DASHBOARD_URL")).
		WithEmojiChanged(emojiChanged).
		WithLog(p.Log)
	if secret := p.v("CLERK_SECRET_KEY"); secret != "" {
		deleter, err := auth.NewClerkDeleter(auth.ClerkConfig{SecretKey: secret, BaseURL: p.v("CLERK_API_URL"), Client: p.Fetch})
		if err != nil {
			return nil, err
		}
		cfg = cfg.WithUserDeleter(deleter)
	}
	if p.Objects != nil {
		cfg = cfg.WithObjects(p.Objects)
	}
	return dashboard.New(cfg.WithWaitlist(list(p.v("WEBSITE_ORIGINS")), p.limiter("RL_WAITLIST")))
}

// chatImport wires the chat-provider imports. IMPORT_SLACK_API,
// IMPORT_DISCORD_API and IMPORT_DISCORD_CDN point it at fake providers, in
// development only (the e2e suite); production talks to the real ones.
func (p Platform) chatImport(changed func(appID string)) (*chatimport.Importer, error) {
	cfg := chatimport.NewConfig(p.DB, p.emojiStore(changed), p.Fetch).WithLog(p.Log)
	if p.development() && p.v("IMPORT_SLACK_API") != "" {
		cfg = cfg.WithProviders(p.v("IMPORT_SLACK_API"), p.v("IMPORT_DISCORD_API"), p.v("IMPORT_DISCORD_CDN"))
	}
	return chatimport.New(cfg)
}

// ranking is what the routes that rank emoji share, so an instance holds
// the packs and the meaning tier once.
type ranking struct {
	packVersion, model, dataHash string
	packs                        *search.Packs
	tier                         *meaning.Tier  // nil: no embedding backend
	meaning                      *meaning.Model // nil: no embedding backend
	assets                       assetFiles
}

// ranking loads every locale's packs from the static assets (none built
// in, packs/dist says why; the first search warms en and tr in its
// waitUntil) and the meaning tier when an embedding backend is bound.
func (p Platform) ranking(packVersion, model string, embedder meaning.Embedder) (ranking, error) {
	hash, err := dist.DataHash()
	if err != nil {
		return ranking{}, err
	}
	manifest, err := dist.Manifest()
	if err != nil {
		return ranking{}, err
	}
	files := assetFiles{src: p.Assets, version: packVersion}
	packs, err := search.NewPacks(map[string][]byte{search.ManifestFile: manifest}, files)
	if err != nil {
		return ranking{}, err
	}
	rk := ranking{packVersion: packVersion, model: model, dataHash: hash, packs: packs, assets: files}
	if embedder != nil {
		m, err := meaning.Lookup(model)
		if err != nil {
			return ranking{}, err
		}
		rk.meaning = &m
		rk.tier = meaning.New(meaning.Config{Model: m, Embedder: embedder, Files: files, Emoji: packs.Emoji})
	}
	return rk, nil
}

func (rk ranking) searchConfig(p Platform, meter *metering.Meter, custom *customemoji.Index, counter search.Analytics) search.Config {
	cfg := search.Config{
		PackVersion: rk.packVersion,
		Model:       rk.model,
		DataHash:    rk.dataHash,
		Packs:       rk.packs,
		Cache:       ttlCache{p.Cache},
		Cultures:    search.NewCultures(rk.assets),
		Background:  p.WaitUntil,
		Prefetch:    search.BuiltinLocales,
		Now:         p.Clock,
	}
	if meter != nil {
		cfg.Meter = meter
	}
	if custom != nil {
		cfg.Custom = custom
	}
	if counter != nil {
		cfg.Analytics = counter
	}
	if rk.tier != nil {
		cfg.Meaning, cfg.Fuse = rk.tier, meaning.Fuser(rk.meaning.Calibration)
	}
	return cfg
}

func (rk ranking) reactionsConfig(p Platform, meter *metering.Meter, custom *customemoji.Index) reactions.Config {
	cfg := reactions.Config{PackVersion: rk.packVersion, Model: rk.model, Packs: rk.packs, Background: p.WaitUntil, Now: p.Clock}
	if rk.tier != nil {
		cfg.Meaning, cfg.Calibration = reactions.TierMeaning(rk.tier), rk.meaning.Calibration
	}
	if meter != nil {
		cfg.Meter = meter
	}
	if custom != nil {
		cfg.Custom = custom
	}
	return cfg
}

// classifyConfig wires POST /v1/classify-image: the guarded vision model,
// the label cache on KV, the caption embedded by the meaning tier.
func (p Platform) classifyConfig(rk ranking, meter *metering.Meter) classify.Config {
	cfg := classify.Config{Packs: rk.packs, Background: p.WaitUntil}
	if p.Vision != nil {
		cfg.Vision = classify.GuardedVision{Vision: p.Vision, Breaker: p.breaker("vision", classify.VisionDeadline)}
	}
	if rk.tier != nil {
		cfg.Meaning, cfg.Calibration = reactions.TierMeaning(rk.tier), rk.meaning.Calibration
	}
	if p.KV != nil {
		cfg.Cache = p.KV
	} else {
		p.Log("worker: label cache unavailable: KV is not bound")
	}
	if meter != nil {
		cfg.Meter = meter
	}
	return cfg
}

// shardRoutes serves GET /p/:packVersion/… from Objects through the edge
// cache; without the bucket the route answers 404 like no build.
func (p Platform) shardRoutes(r *httpx.Router) {
	if p.Objects == nil {
		p.Log("worker: shards unavailable: OBJECTS is not bound")
		return
	}
	s := &shards.Server{Bucket: shardBucket{p.Objects}, Cache: shardCache{p.Cache}, Background: p.WaitUntil}
	s.Routes(r)
}

// errNoObjects fails the shard build when OBJECTS is not bound.
var errNoObjects = errors.New("app: OBJECTS is not bound")

// shardBuild is the nightly shard build over DB and Objects, answering
// with svc. Edge copies of this location are dropped after a build, so
// the files show at once here (other locations within their max-age).
func (p Platform) shardBuild(packVersion, model string, svc *search.Service) Job {
	return func(ctx context.Context, at time.Time) error {
		if p.Objects == nil {
			return errNoObjects
		}
		sum, err := shards.Build(ctx, shards.Config{DB: p.DB, Bucket: shardBucket{p.Objects}, Search: svc, PackVersion: packVersion, Model: model}, at)
		purge := append([]string{"index"}, sum.Keys...)
		for _, k := range sum.Deleted {
			purge = append(purge, k[len(shards.Prefix(packVersion)):len(k)-len(".json")])
		}
		for _, k := range purge {
			_, _ = p.Cache.Delete(ctx, shards.CacheURL(packVersion, k+".json"))
		}
		return err
	}
}

// setRoutes serves GET /v1/sets/:set/:hexcode.svg (SETS_UPSTREAM).
func (p Platform) setRoutes(r *httpx.Router) {
	r.Handle(http.MethodGet, "/v1/sets/:set/:file", &setsHandler{p: p, upstream: p.Vars("SETS_UPSTREAM")})
}

// dashboardAppRoutes serves the dashboard web app's settings
// (ENVIRONMENT, CLERK_PUBLISHABLE_KEY) and its deep links; the page is
// the folder's (html_handling redirects /dashboard/index.html there).
func (p Platform) dashboardAppRoutes(r *httpx.Router) {
	dashboardapp.Routes(r, dashboardapp.Config{
		Environment:         p.Vars("ENVIRONMENT"),
		ClerkPublishableKey: p.Vars("CLERK_PUBLISHABLE_KEY"),
		Page: func(ctx context.Context) ([]byte, error) {
			return assetBody(ctx, p.Assets, "/dashboard/", "dashboard page")
		},
	})
}

// staticFileRoutes passes the pack and culture files run_worker_first
// sends to the Worker to the asset server.
func (p Platform) staticFileRoutes(r *httpx.Router) { staticfiles.Routes(r, p.Assets) }

// assetBody reads a static asset that must be there.
func assetBody(ctx context.Context, src staticfiles.Source, path, what string) ([]byte, error) {
	f, err := src(ctx, http.MethodGet, path, nil)
	if err != nil {
		return nil, err
	}
	if f.Status != http.StatusOK {
		return nil, fmt.Errorf("%s: assets answered %d", what, f.Status)
	}
	return f.Body, nil
}

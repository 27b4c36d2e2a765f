package hostsim

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/emojisearch/emojisearch/hostsim/internal/assets"
	"github.com/emojisearch/emojisearch/hostsim/internal/cache"
	"github.com/emojisearch/emojisearch/hostsim/internal/cf"
	"github.com/emojisearch/emojisearch/hostsim/internal/d1"
	"github.com/emojisearch/emojisearch/hostsim/internal/jsrt"
	"github.com/emojisearch/emojisearch/hostsim/internal/kv"
	"github.com/emojisearch/emojisearch/hostsim/internal/r2"
	"github.com/emojisearch/emojisearch/hostsim/internal/ratelimit"
	"github.com/emojisearch/emojisearch/hostsim/internal/webapi"
)

// envBinding is one name of the Worker's env object and how to build its JS
// object in a fresh realm (one per Go instance).
type envBinding struct {
	name string
	make func(cf.Realm) *jsrt.Object
}

// bindingKind is one kind of binding hostsim knows: the wrangler.toml table
// that declares it, the store behind it, and the JS object the Worker sees.
// It is hostsim's counterpart of miniflare's plugin list.
type bindingKind struct {
	table   string // wrangler.toml key
	store   string // what persists, under the state folder
	exposes string // what the Worker sees
	open    func(s *Simulator, ctx context.Context) ([]envBinding, error)
}

// bindingKinds is every binding hostsim knows, in the order they are
// defined on env. A wrangler.toml key hostsim does not read (another binding
// kind) is listed in wrangler.Config.Ignored, not dropped silently. The
// Cache API is not
// in the table: it is the caches global, not an env binding, and is always
// there (see openBindings).
var bindingKinds = []bindingKind{
	{"kv_namespaces", "kv/<id>/: one file per key (internal/kv)", "KVNamespace: get, getWithMetadata, put, delete, list", (*Simulator).openKV},
	{"assets", "none: read from the assets directory (internal/assets)", "Fetcher: fetch; static assets are also served before the Worker", (*Simulator).openAssets},
	{"ai", "none: the local model of WithAI", "Ai: run(model, inputs); left unbound without a model", (*Simulator).openAI},
	{"d1_databases", "d1/<id>.sqlite: SQLite with migrations applied (internal/d1)", "D1Database: prepare (bind, first, all, run, raw), batch, exec", (*Simulator).openD1},
	{"r2_buckets", "r2/<bucket>/: one file per object (internal/r2)", "R2Bucket: head, get, put, delete, list", (*Simulator).openR2},
	{"ratelimits", "none: in memory, reset at start (internal/ratelimit)", "RateLimit: limit({key})", (*Simulator).openRateLimits},
}

// openBindings opens the store of every binding of wrangler.toml, kind by
// kind from bindingKinds, under the state folder laid out like wrangler's
// `--persist-to` (one folder per kind), and returns the builder of the
// Worker's env object.
func (s *Simulator) openBindings(ctx context.Context) (func(*jsrt.Runtime, *webapi.Web) (*jsrt.Object, error), error) {
	var binds []envBinding
	for _, k := range bindingKinds {
		more, err := k.open(s, ctx)
		if err != nil {
			return nil, err
		}
		binds = append(binds, more...)
	}

	s.freshStore("Cache API", filepath.Join(s.cfg.stateDir, "cache"))
	caches, err := cache.OpenWithConfig(filepath.Join(s.cfg.stateDir, "cache"), cache.NewConfig().WithLog(s.cfg.stderr))
	if err != nil {
		return nil, fmt.Errorf("hostsim: Cache API: %w", err)
	}

	vars := s.wcfg.Vars
	return func(rt *jsrt.Runtime, web *webapi.Web) (*jsrt.Object, error) {
		realm := cf.Realm{RT: rt, Web: web}
		// The Cache API is a global, not an env binding.
		rt.Global.Define("caches", realm.Caches(caches))
		env := rt.NewObject()
		for k, v := range vars {
			env.Define(k, rt.FromGo(v))
		}
		for _, b := range binds {
			env.Define(b.name, b.make(realm))
		}
		return env, nil
	}, nil
}

func (s *Simulator) openKV(context.Context) ([]envBinding, error) {
	var out []envBinding
	for _, ns := range s.wcfg.KVNamespaces {
		dir := filepath.Join(s.cfg.stateDir, "kv", safeName(firstNonEmpty(ns.ID, ns.Binding)))
		s.freshStore("KV "+ns.Binding, dir)
		store, err := kv.OpenWithConfig(dir, kv.NewConfig().WithLog(s.cfg.stderr))
		if err != nil {
			return nil, fmt.Errorf("hostsim: KV %s: %w", ns.Binding, err)
		}
		out = append(out, envBinding{ns.Binding, func(r cf.Realm) *jsrt.Object { return r.KV(store) }})
	}
	return out, nil
}

// openAssets also keeps the server for ServeHTTP, which answers asset
// requests before the Worker as the Workers runtime does.
func (s *Simulator) openAssets(context.Context) ([]envBinding, error) {
	a := s.wcfg.Assets
	if a == nil {
		return nil, nil
	}
	opts := assets.Options{}.
		WithHTMLHandling(a.HTMLHandling).
		WithNotFoundHandling(a.NotFoundHandling).
		WithRunWorkerFirst(a.RunWorkerFirst.All).
		WithWorkerFirst(a.RunWorkerFirst.Patterns...).
		WithNavigationFallback(assets.NavigationFallbackFor(s.wcfg.CompatibilityDate, s.wcfg.CompatibilityFlags))
	srv, err := assets.New(a.Directory, opts)
	if err != nil {
		return nil, err
	}
	s.assets = srv
	if a.Binding == "" {
		return nil, nil
	}
	return []envBinding{{a.Binding, func(r cf.Realm) *jsrt.Object { return r.Assets(srv) }}}, nil
}

func (s *Simulator) openAI(context.Context) ([]envBinding, error) {
	ai := s.wcfg.AI
	if ai == nil {
		return nil, nil
	}
	model := s.cfg.aiModel
	if model == nil {
		fmt.Fprintf(s.cfg.stderr, "hostsim: [ai] binding %s has no local model; leaving it unbound\n", ai.Binding)
		return nil, nil
	}
	return []envBinding{{ai.Binding, func(r cf.Realm) *jsrt.Object { return r.AI(model) }}}, nil
}

// openD1 applies the migrations as `wrangler d1 migrations apply --local`
// does before the Worker sees the database.
func (s *Simulator) openD1(ctx context.Context) ([]envBinding, error) {
	var out []envBinding
	for _, spec := range s.wcfg.D1Databases {
		dir := filepath.Join(s.cfg.stateDir, "d1")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
		file := filepath.Join(dir, safeName(spec.LocalID())+".sqlite")
		s.freshStore("D1 "+spec.Binding, file)
		db, err := d1.Open(file)
		if err != nil {
			return nil, fmt.Errorf("hostsim: D1 %s: %w", spec.Binding, err)
		}
		s.addCloser(db)
		if _, err := os.Stat(spec.MigrationsDir); err == nil {
			applied, err := d1.ApplyMigrations(ctx, db, spec.MigrationsDir, spec.MigrationsTable)
			if err != nil {
				return nil, fmt.Errorf("hostsim: D1 %s migrations: %w", spec.Binding, err)
			}
			for _, name := range applied {
				fmt.Fprintf(s.cfg.stderr, "hostsim: D1 %s: applied migration %s\n", spec.Binding, name)
			}
		}
		out = append(out, envBinding{spec.Binding, func(r cf.Realm) *jsrt.Object { return r.D1(db) }})
	}
	return out, nil
}

func (s *Simulator) openR2(context.Context) ([]envBinding, error) {
	var out []envBinding
	for _, spec := range s.wcfg.R2Buckets {
		dir := filepath.Join(s.cfg.stateDir, "r2", safeName(firstNonEmpty(spec.BucketName, spec.Binding)))
		s.freshStore("R2 "+spec.Binding, dir)
		b, err := r2.OpenWithConfig(dir, r2.NewConfig().WithLog(s.cfg.stderr))
		if err != nil {
			return nil, fmt.Errorf("hostsim: R2 %s: %w", spec.Binding, err)
		}
		out = append(out, envBinding{spec.Binding, func(r cf.Realm) *jsrt.Object { return r.R2(b) }})
	}
	return out, nil
}

func (s *Simulator) openRateLimits(context.Context) ([]envBinding, error) {
	var out []envBinding
	for _, spec := range s.wcfg.RateLimits {
		l, err := ratelimit.NewWithConfig(int(spec.Limit), time.Duration(spec.Period)*time.Second, ratelimit.NewConfig().WithScale(s.cfg.rateScale))
		if err != nil {
			return nil, fmt.Errorf("hostsim: rate limit %s: %w", spec.Name, err)
		}
		out = append(out, envBinding{spec.Name, func(r cf.Realm) *jsrt.Object { return r.RateLimit(l) }})
	}
	return out, nil
}

func (s *Simulator) addCloser(c io.Closer) { s.closers = append(s.closers, c) }

func firstNonEmpty(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}

// safeName keeps an id usable as a folder name.
func safeName(id string) string {
	out := []byte(id)
	for i, c := range out {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			out[i] = '_'
		}
	}
	if len(out) == 0 || string(out) == "." || string(out) == ".." {
		return "_"
	}
	return string(out)
}

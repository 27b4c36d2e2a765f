// Package wrangler reads a Worker's wrangler.toml the way `wrangler dev`
// does, so hostsim runs the project with the same bindings, vars, assets,
// migrations and cron triggers it has under workerd.
//
// Only the keys hostsim simulates are typed (see Config); every other key is
// listed in Config.Ignored so nothing is dropped silently. Paths in the file
// are relative to the file's folder and come back absolute.
//
// Environments follow wrangler's rules: `[env.<name>]` inherits name (as
// "<name>-<env>"), main, compatibility_date, compatibility_flags, triggers
// and assets from the top level, but bindings (vars, kv_namespaces,
// d1_databases, r2_buckets, ai, ratelimits) are not inherited: an environment
// that declares none has none, and Config.Warnings says so, as wrangler does.
//
// Example:
//
//	cfg, err := wrangler.LoadWithConfig("wrangler.toml", wrangler.NewLoadConfig().WithEnv("staging"))
//	if err == nil {
//		err = cfg.Validate()
//	}
package wrangler

import (
	"maps"
	"slices"
)

// Default values wrangler applies when a key is absent.
const (
	DefaultMigrationsDir    = "migrations"
	DefaultMigrationsTable  = "d1_migrations"
	DefaultHTMLHandling     = "auto-trailing-slash"
	DefaultNotFoundHandling = "none"
)

// Config is one environment of a wrangler.toml, resolved.
type Config struct {
	Path string // absolute path of the wrangler.toml
	Dir  string // its folder; relative paths in the file are resolved here
	Env  string // the selected [env.<name>], or "" for the top level

	Name               string
	Main               string // as written
	MainPath           string // absolute
	CompatibilityDate  string
	CompatibilityFlags []string

	// Vars holds [vars] as the Worker sees them: string, int64, float64,
	// bool, []any and map[string]any (TOML dates become RFC 3339 strings).
	// Non-string values reach the Worker as parsed JSON values.
	Vars map[string]any

	KVNamespaces []KVNamespace
	D1Databases  []D1Database
	R2Buckets    []R2Bucket
	Assets       *Assets // nil without an [assets] table
	AI           *AI     // nil without an [ai] table
	RateLimits   []RateLimit
	Crons        []string // triggers.crons

	// SendMetrics is the top-level send_metrics, nil when absent.
	SendMetrics *bool

	Environments []string // names of every [env.*] table, sorted
	Ignored      []string // keys hostsim does not simulate, as dotted paths
	Warnings     []string // wrangler's non-fatal complaints, e.g. bindings not inherited

	problems []string // type errors found while loading, reported by Validate
}

// KVNamespace is one [[kv_namespaces]] entry.
type KVNamespace struct {
	Binding   string
	ID        string
	PreviewID string
}

// D1Database is one [[d1_databases]] entry.
type D1Database struct {
	Binding           string
	DatabaseName      string
	DatabaseID        string
	PreviewDatabaseID string
	MigrationsDir     string // absolute; default "<Dir>/migrations"
	MigrationsTable   string // default "d1_migrations"
}

// LocalID is the id wrangler names the local database after: the preview id
// when set, else the database id, else the binding.
func (d D1Database) LocalID() string {
	switch {
	case d.PreviewDatabaseID != "":
		return d.PreviewDatabaseID
	case d.DatabaseID != "":
		return d.DatabaseID
	}
	return d.Binding
}

// R2Bucket is one [[r2_buckets]] entry.
type R2Bucket struct {
	Binding           string
	BucketName        string
	PreviewBucketName string
	Jurisdiction      string
}

// Assets is the [assets] table.
type Assets struct {
	Directory        string // absolute
	Binding          string // "" when the Worker has no ASSETS-style binding
	HTMLHandling     string // default "auto-trailing-slash"
	NotFoundHandling string // default "none"
	RunWorkerFirst   RunWorkerFirst
}

// RunWorkerFirst is assets.run_worker_first: a bool, or a list of path
// globs ("/api/*", negated with "!/").
type RunWorkerFirst struct {
	All      bool     // run_worker_first = true
	Patterns []string // run_worker_first = ["/api/*", "!/api/docs"]
}

// AI is the [ai] table.
type AI struct {
	Binding string
}

// RateLimit is one [[ratelimits]] entry, the Rate Limiting binding:
//
//	[[ratelimits]]
//	name = "LIMITER"
//	namespace_id = "1001"
//	simple = { limit = 100, period = 60 }
type RateLimit struct {
	Name        string // the binding name
	NamespaceID string
	Limit       int64
	Period      int64 // seconds: 10 or 60
}

// Bindings lists every binding name the Worker's env gets, with its kind:
// vars (sorted by name), then KV, D1, R2, assets, AI and rate limits in file
// order.
func (c Config) Bindings() []Binding {
	var out []Binding
	for _, k := range slices.Sorted(maps.Keys(c.Vars)) {
		out = append(out, Binding{Name: k, Kind: "vars"})
	}
	for _, b := range c.KVNamespaces {
		out = append(out, Binding{Name: b.Binding, Kind: "kv_namespaces"})
	}
	for _, b := range c.D1Databases {
		out = append(out, Binding{Name: b.Binding, Kind: "d1_databases"})
	}
	for _, b := range c.R2Buckets {
		out = append(out, Binding{Name: b.Binding, Kind: "r2_buckets"})
	}
	if c.Assets != nil && c.Assets.Binding != "" {
		out = append(out, Binding{Name: c.Assets.Binding, Kind: "assets"})
	}
	if c.AI != nil {
		out = append(out, Binding{Name: c.AI.Binding, Kind: "ai"})
	}
	for _, b := range c.RateLimits {
		out = append(out, Binding{Name: b.Name, Kind: "ratelimits"})
	}
	return out
}

// Binding names one entry of the Worker's env.
type Binding struct {
	Name string
	Kind string // the wrangler.toml key it comes from
}

// WithDevVars returns a copy whose Vars also hold the .dev.vars values, which
// win over [vars] of the same name as in `wrangler dev`.
func (c Config) WithDevVars(dev map[string]string) Config {
	vars := make(map[string]any, len(c.Vars)+len(dev))
	for k, v := range c.Vars {
		vars[k] = v
	}
	for k, v := range dev {
		vars[k] = v
	}
	c.Vars = vars
	return c
}

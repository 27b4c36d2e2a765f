package wrangler

import (
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
)

// ErrNoEnv is returned by Load when the requested environment is not in the file.
var ErrNoEnv = errors.New("wrangler: no such environment")

// LoadConfig configures LoadWithConfig. It is an immutable value: start
// from NewLoadConfig; every With… returns a changed copy.
type LoadConfig struct {
	env string
}

// NewLoadConfig is the default: the top level, no environment.
func NewLoadConfig() LoadConfig { return LoadConfig{} }

// WithEnv selects an [env.<name>] table, as `wrangler dev --env <name>` does.
// The empty name selects the top level.
func (c LoadConfig) WithEnv(name string) LoadConfig { c.env = name; return c }

// raw mirrors the TOML keys hostsim understands; pointers tell "absent" from
// "empty" where wrangler's inheritance needs it.
type raw struct {
	Name               *string        `toml:"name"`
	Main               *string        `toml:"main"`
	CompatibilityDate  *string        `toml:"compatibility_date"`
	CompatibilityFlags []string       `toml:"compatibility_flags"`
	Vars               map[string]any `toml:"vars"`
	KVNamespaces       []rawKV        `toml:"kv_namespaces"`
	D1Databases        []rawD1        `toml:"d1_databases"`
	R2Buckets          []rawR2        `toml:"r2_buckets"`
	Assets             *rawAssets     `toml:"assets"`
	AI                 *AI            `toml:"ai"`
	RateLimits         []rawRateLimit `toml:"ratelimits"`
	Triggers           *struct {
		Crons []string `toml:"crons"`
	} `toml:"triggers"`
	SendMetrics *bool          `toml:"send_metrics"`
	Env         map[string]raw `toml:"env"`
}

type rawKV struct {
	Binding   string `toml:"binding"`
	ID        string `toml:"id"`
	PreviewID string `toml:"preview_id"`
}

type rawD1 struct {
	Binding           string `toml:"binding"`
	DatabaseName      string `toml:"database_name"`
	DatabaseID        string `toml:"database_id"`
	PreviewDatabaseID string `toml:"preview_database_id"`
	MigrationsDir     string `toml:"migrations_dir"`
	MigrationsTable   string `toml:"migrations_table"`
}

type rawR2 struct {
	Binding           string `toml:"binding"`
	BucketName        string `toml:"bucket_name"`
	PreviewBucketName string `toml:"preview_bucket_name"`
	Jurisdiction      string `toml:"jurisdiction"`
}

type rawAssets struct {
	Directory        string `toml:"directory"`
	Binding          string `toml:"binding"`
	HTMLHandling     string `toml:"html_handling"`
	NotFoundHandling string `toml:"not_found_handling"`
	RunWorkerFirst   any    `toml:"run_worker_first"`
}

type rawRateLimit struct {
	Name        string `toml:"name"`
	NamespaceID any    `toml:"namespace_id"`
	Simple      *struct {
		Limit  any `toml:"limit"`
		Period any `toml:"period"`
	} `toml:"simple"`
}

// Load reads a wrangler.toml and resolves the selected environment. It fails
// only when the file cannot be read or parsed or the environment is missing;
// everything else wrong with the contents is reported by Validate.
func Load(path string) (Config, error) { return LoadWithConfig(path, NewLoadConfig()) }

// LoadWithConfig is Load with a LoadConfig.
func LoadWithConfig(path string, o LoadConfig) (Config, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return Config{}, fmt.Errorf("wrangler: %w", err)
	}
	var top raw
	md, err := toml.DecodeFile(abs, &top)
	if err != nil {
		return Config{}, fmt.Errorf("wrangler: %s: %w", abs, err)
	}
	c := Config{Path: abs, Dir: filepath.Dir(abs), Env: o.env}
	for name := range top.Env {
		c.Environments = append(c.Environments, name)
	}
	sort.Strings(c.Environments)

	src := top
	if o.env != "" {
		env, ok := top.Env[o.env]
		if !ok {
			return Config{}, fmt.Errorf("%w %q in %s (have %q)", ErrNoEnv, o.env, abs, c.Environments)
		}
		src = c.inherit(top, env, md)
	}
	c.fill(src)
	c.SendMetrics = top.SendMetrics
	c.Ignored = ignored(md, o.env)
	return c, nil
}

// inherit applies wrangler's environment rules to build the effective table.
func (c *Config) inherit(top, env raw, md toml.MetaData) raw {
	defined := func(key string) bool { return md.IsDefined("env", c.Env, key) }
	out := env
	if !defined("name") && top.Name != nil {
		name := *top.Name + "-" + c.Env
		out.Name = &name
	}
	if !defined("main") {
		out.Main = top.Main
	}
	if !defined("compatibility_date") {
		out.CompatibilityDate = top.CompatibilityDate
	}
	if !defined("compatibility_flags") {
		out.CompatibilityFlags = top.CompatibilityFlags
	}
	if !defined("triggers") {
		out.Triggers = top.Triggers
	}
	if !defined("assets") {
		out.Assets = top.Assets
	}
	for _, key := range []string{"vars", "kv_namespaces", "d1_databases", "r2_buckets", "ai", "ratelimits"} {
		if md.IsDefined(key) && !defined(key) {
			c.Warnings = append(c.Warnings, fmt.Sprintf(
				"%q exists at the top level, but not on \"env.%s\": it is not inherited, so this environment has none", key, c.Env))
		}
	}
	return out
}

func (c *Config) fill(r raw) {
	c.Name = deref(r.Name)
	c.Main = deref(r.Main)
	if c.Main != "" {
		c.MainPath = c.resolve(c.Main)
	}
	c.CompatibilityDate = deref(r.CompatibilityDate)
	c.CompatibilityFlags = r.CompatibilityFlags
	if r.Vars != nil {
		c.Vars = make(map[string]any, len(r.Vars))
		for k, v := range r.Vars {
			c.Vars[k] = jsonish(v)
		}
	}
	for _, kv := range r.KVNamespaces {
		c.KVNamespaces = append(c.KVNamespaces, KVNamespace(kv))
	}
	for _, d := range r.D1Databases {
		db := D1Database{
			Binding: d.Binding, DatabaseName: d.DatabaseName, DatabaseID: d.DatabaseID,
			PreviewDatabaseID: d.PreviewDatabaseID, MigrationsDir: d.MigrationsDir, MigrationsTable: d.MigrationsTable,
		}
		if db.MigrationsDir == "" {
			db.MigrationsDir = DefaultMigrationsDir
		}
		db.MigrationsDir = c.resolve(db.MigrationsDir)
		if db.MigrationsTable == "" {
			db.MigrationsTable = DefaultMigrationsTable
		}
		c.D1Databases = append(c.D1Databases, db)
	}
	for _, b := range r.R2Buckets {
		c.R2Buckets = append(c.R2Buckets, R2Bucket(b))
	}
	if r.Assets != nil {
		c.Assets = c.assets(*r.Assets)
	}
	if r.AI != nil {
		ai := *r.AI
		c.AI = &ai
	}
	for i, rl := range r.RateLimits {
		c.RateLimits = append(c.RateLimits, c.rateLimit(i, rl))
	}
	if r.Triggers != nil {
		c.Crons = r.Triggers.Crons
	}
}

func (c *Config) assets(a rawAssets) *Assets {
	out := &Assets{
		Binding:          a.Binding,
		HTMLHandling:     a.HTMLHandling,
		NotFoundHandling: a.NotFoundHandling,
	}
	if a.Directory != "" {
		out.Directory = c.resolve(a.Directory)
	}
	if out.HTMLHandling == "" {
		out.HTMLHandling = DefaultHTMLHandling
	}
	if out.NotFoundHandling == "" {
		out.NotFoundHandling = DefaultNotFoundHandling
	}
	switch v := a.RunWorkerFirst.(type) {
	case nil:
	case bool:
		out.RunWorkerFirst.All = v
	case []any:
		out.RunWorkerFirst.Patterns = make([]string, 0, len(v)) // [] is an error, unlike absent
		for _, p := range v {
			s, ok := p.(string)
			if !ok {
				c.problem("assets.run_worker_first: every entry must be a string, got %T", p)
				continue
			}
			out.RunWorkerFirst.Patterns = append(out.RunWorkerFirst.Patterns, s)
		}
	default:
		c.problem("assets.run_worker_first: must be a boolean or an array of strings, got %T", v)
	}
	return out
}

func (c *Config) rateLimit(i int, r rawRateLimit) RateLimit {
	out := RateLimit{Name: r.Name}
	where := fmt.Sprintf("ratelimits[%d]", i)
	switch v := r.NamespaceID.(type) {
	case nil:
	case string:
		out.NamespaceID = v
	case int64:
		out.NamespaceID = strconv.FormatInt(v, 10)
	default:
		c.problem("%s.namespace_id: must be a string, got %T", where, v)
	}
	if r.Simple == nil {
		return out
	}
	out.Limit = c.integer(where+".simple.limit", r.Simple.Limit)
	out.Period = c.integer(where+".simple.period", r.Simple.Period)
	return out
}

func (c *Config) integer(where string, v any) int64 {
	switch n := v.(type) {
	case nil:
		return 0
	case int64:
		return n
	case float64:
		if n == float64(int64(n)) {
			return int64(n)
		}
	}
	c.problem("%s: must be an integer, got %v", where, v)
	return 0
}

func (c *Config) problem(format string, args ...any) {
	c.problems = append(c.problems, fmt.Sprintf(format, args...))
}

func (c *Config) resolve(p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(c.Dir, p)
}

// jsonish turns TOML values into the JSON-like values a Worker gets.
func jsonish(v any) any {
	switch x := v.(type) {
	case time.Time:
		return x.Format(time.RFC3339Nano)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = jsonish(e)
		}
		return out
	case []map[string]any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = jsonish(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = jsonish(e)
		}
		return out
	}
	return v
}

// ignored lists the keys hostsim does not read: at the top level and in the
// selected environment, leaving out [observability] (read by the platform,
// not the Worker) and the insides of [vars] (all passed on).
func ignored(md toml.MetaData, env string) []string {
	var out []string
	for _, k := range md.Undecoded() {
		key := []string(k)
		if len(key) >= 2 && key[0] == "env" {
			if key[1] != env {
				continue
			}
			key = key[2:]
		}
		if len(key) > 0 && (key[0] == "observability" || key[0] == "vars") {
			continue
		}
		out = append(out, strings.Join(k, "."))
	}
	return out
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

package wrangler

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const project = `
name = "emojisearch"
main = "./build/worker.mjs"
compatibility_date = "2026-09-01"
compatibility_flags = ["nodejs_compat"]
send_metrics = false
workers_dev = true

[vars]
ENVIRONMENT = "dev"
MAX_RESULTS = 50
RATIO = 0.5
ENABLED = true
LOCALES = ["en", "fr"]
RELEASED = 2026-01-02T03:04:05Z

[vars.LIMITS]
search = 10

[[kv_namespaces]]
binding = "KV"
id = "abc"
preview_id = "def"

[[d1_databases]]
binding = "DB"
database_name = "emoji"
database_id = "1111"

[[d1_databases]]
binding = "DB2"
database_name = "other"
preview_database_id = "p-2222"
migrations_dir = "db/migrations"
migrations_table = "schema_migrations"

[[r2_buckets]]
binding = "IMAGES"
bucket_name = "emoji-images"

[assets]
directory = "./public"
binding = "ASSETS"
run_worker_first = ["/api/*", "!/api/docs"]
not_found_handling = "404-page"

[ai]
binding = "AI"

[[ratelimits]]
name = "SEARCH_LIMITER"
namespace_id = "1001"
simple = { limit = 100, period = 60 }

[[ratelimits]]
name = "UPLOAD_LIMITER"
namespace_id = 1002

  [ratelimits.simple]
  limit = 5
  period = 10

[triggers]
crons = ["*/5 * * * *", "0 3 * * SUN"]

[observability]
enabled = true

[env.staging]
vars = { ENVIRONMENT = "staging" }
route = "staging.example.com/*"

[[env.staging.kv_namespaces]]
binding = "KV"
id = "staging-kv"

[env.staging.triggers]
crons = []

[env.production]
name = "emojisearch-prod"
compatibility_date = "2026-10-01"
`

func writeConfig(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "wrangler.toml")
	require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	return p
}

func TestLoadTopLevel(t *testing.T) {
	p := writeConfig(t, project)
	dir := filepath.Dir(p)
	c, err := Load(p)
	require.NoError(t, err)

	assert.Equal(t, p, c.Path)
	assert.Equal(t, dir, c.Dir)
	assert.Equal(t, "", c.Env)
	assert.Equal(t, "emojisearch", c.Name)
	assert.Equal(t, "./build/worker.mjs", c.Main)
	assert.Equal(t, filepath.Join(dir, "build", "worker.mjs"), c.MainPath)
	assert.Equal(t, "2026-09-01", c.CompatibilityDate)
	assert.Equal(t, []string{"nodejs_compat"}, c.CompatibilityFlags)
	require.NotNil(t, c.SendMetrics)
	assert.False(t, *c.SendMetrics)

	assert.Equal(t, map[string]any{
		"ENVIRONMENT": "dev",
		"MAX_RESULTS": int64(50),
		"RATIO":       0.5,
		"ENABLED":     true,
		"LOCALES":     []any{"en", "fr"},
		"RELEASED":    "2026-01-02T03:04:05Z",
		"LIMITS":      map[string]any{"search": int64(10)},
	}, c.Vars)

	assert.Equal(t, []KVNamespace{{Binding: "KV", ID: "abc", PreviewID: "def"}}, c.KVNamespaces)
	assert.Equal(t, []D1Database{
		{Binding: "DB", DatabaseName: "emoji", DatabaseID: "1111", MigrationsDir: filepath.Join(dir, "migrations"), MigrationsTable: "d1_migrations"},
		{Binding: "DB2", DatabaseName: "other", PreviewDatabaseID: "p-2222", MigrationsDir: filepath.Join(dir, "db", "migrations"), MigrationsTable: "schema_migrations"},
	}, c.D1Databases)
	assert.Equal(t, "1111", c.D1Databases[0].LocalID())
	assert.Equal(t, "p-2222", c.D1Databases[1].LocalID())
	assert.Equal(t, "X", D1Database{Binding: "X"}.LocalID())
	assert.Equal(t, []R2Bucket{{Binding: "IMAGES", BucketName: "emoji-images"}}, c.R2Buckets)
	assert.Equal(t, &Assets{
		Directory: filepath.Join(dir, "public"), Binding: "ASSETS",
		HTMLHandling: "auto-trailing-slash", NotFoundHandling: "404-page",
		RunWorkerFirst: RunWorkerFirst{Patterns: []string{"/api/*", "!/api/docs"}},
	}, c.Assets)
	assert.Equal(t, &AI{Binding: "AI"}, c.AI)
	assert.Equal(t, []RateLimit{
		{Name: "SEARCH_LIMITER", NamespaceID: "1001", Limit: 100, Period: 60},
		{Name: "UPLOAD_LIMITER", NamespaceID: "1002", Limit: 5, Period: 10},
	}, c.RateLimits)
	assert.Equal(t, []string{"*/5 * * * *", "0 3 * * SUN"}, c.Crons)
	assert.Equal(t, []string{"production", "staging"}, c.Environments)
	assert.Equal(t, []string{"workers_dev"}, c.Ignored, "observability is ignored quietly, other environments are not listed")
	assert.Empty(t, c.Warnings)
	assert.NoError(t, c.Validate())
}

func TestLoadEnvironments(t *testing.T) {
	p := writeConfig(t, project)
	dir := filepath.Dir(p)

	staging, err := LoadWithConfig(p, NewLoadConfig().WithEnv("staging"))
	require.NoError(t, err)
	assert.Equal(t, "staging", staging.Env)
	assert.Equal(t, "emojisearch-staging", staging.Name)
	assert.Equal(t, filepath.Join(dir, "build", "worker.mjs"), staging.MainPath, "main is inherited")
	assert.Equal(t, "2026-09-01", staging.CompatibilityDate)
	assert.Equal(t, []string{"nodejs_compat"}, staging.CompatibilityFlags)
	assert.Equal(t, map[string]any{"ENVIRONMENT": "staging"}, staging.Vars)
	assert.Equal(t, []KVNamespace{{Binding: "KV", ID: "staging-kv"}}, staging.KVNamespaces)
	assert.Empty(t, staging.D1Databases, "bindings are not inherited")
	assert.Empty(t, staging.R2Buckets)
	assert.Nil(t, staging.AI)
	assert.Empty(t, staging.RateLimits)
	assert.Empty(t, staging.Crons, "an empty crons list overrides")
	require.NotNil(t, staging.Assets, "assets are inherited")
	assert.Equal(t, "ASSETS", staging.Assets.Binding)
	assert.Len(t, staging.Warnings, 4) // d1_databases, r2_buckets, ai, ratelimits
	assert.Contains(t, staging.Warnings[0], `"d1_databases" exists at the top level, but not on "env.staging"`)
	assert.Equal(t, []string{"workers_dev", "env.staging.route"}, staging.Ignored)
	require.NotNil(t, staging.SendMetrics, "send_metrics is top-level only")

	prod, err := LoadWithConfig(p, NewLoadConfig().WithEnv("production"))
	require.NoError(t, err)
	assert.Equal(t, "emojisearch-prod", prod.Name)
	assert.Equal(t, "2026-10-01", prod.CompatibilityDate)
	assert.Nil(t, prod.Vars)
	assert.Equal(t, []string{"*/5 * * * *", "0 3 * * SUN"}, prod.Crons, "triggers are inherited")
	assert.Len(t, prod.Warnings, 6)

	_, err = LoadWithConfig(p, NewLoadConfig().WithEnv("qa"))
	require.ErrorIs(t, err, ErrNoEnv)
	assert.Contains(t, err.Error(), `"qa"`)

	top, err := LoadWithConfig(p, NewLoadConfig().WithEnv(""))
	require.NoError(t, err)
	assert.Equal(t, "emojisearch", top.Name)
}

func TestLoadFailures(t *testing.T) {
	_, err := Load(filepath.Join(t.TempDir(), "missing.toml"))
	require.Error(t, err)
	assert.ErrorIs(t, err, fs.ErrNotExist)

	_, err = Load(writeConfig(t, "name = \n"))
	require.Error(t, err)

	_, err = Load(writeConfig(t, "name = 5\n"))
	require.Error(t, err, "wrong scalar types fail to decode")
}

func TestValidateReportsEverything(t *testing.T) {
	p := writeConfig(t, `
compatibility_date = "2026-13-01"
[vars]
KV = "clash"

[[kv_namespaces]]
binding = "KV"

[[kv_namespaces]]
id = "no-binding"

[[d1_databases]]
binding = "DB"

[[r2_buckets]]
binding = "DB"

[ai]

[assets]
html_handling = "sometimes"
run_worker_first = 5

[[ratelimits]]
name = "RL"
namespace_id = "abc"
simple = { limit = 0, period = 30 }

[[ratelimits]]
namespace_id = 1.5

[triggers]
crons = ["* * * *", "0 0 * * 0"]
`)
	c, err := Load(p)
	require.NoError(t, err, "content problems wait for Validate")
	err = c.Validate()
	require.Error(t, err)
	require.ErrorIs(t, err, ErrInvalid)
	var ve *ValidationError
	require.ErrorAs(t, err, &ve)
	want := []string{
		"assets.run_worker_first: must be a boolean or an array of strings",
		"ratelimits[1].namespace_id: must be a string",
		`compatibility_date "2026-13-01"`,
		`kv_namespaces[1]: missing "binding"`,
		`d1_databases[0]: needs "database_name" or "database_id"`,
		`r2_buckets[0]: missing "bucket_name"`,
		`ai: missing "binding"`,
		`ratelimits[0].namespace_id "abc": must be a positive integer`,
		"ratelimits[0].simple.limit 0",
		"ratelimits[0].simple.period 30: must be 10 or 60",
		`ratelimits[1]: missing "name"`,
		`ratelimits[1]: missing "namespace_id"`,
		`ratelimits[1]: missing "simple"`,
		`assets: missing "directory"`,
		`assets.html_handling "sometimes"`,
		"triggers.crons[0]",
		"triggers.crons[1]",
		`binding name "KV" is used more than once (vars, kv_namespaces)`,
		`binding name "DB" is used more than once (d1_databases, r2_buckets)`,
	}
	for _, w := range want {
		found := false
		for _, got := range ve.Problems {
			if strings.Contains(got, w) {
				found = true
			}
		}
		assert.True(t, found, "missing problem %q in\n%s", w, err)
	}
	assert.Len(t, ve.Problems, len(want))
}

func TestValidateRunWorkerFirstList(t *testing.T) {
	c, err := Load(writeConfig(t, "[assets]\ndirectory = \"x\"\nrun_worker_first = []\n"))
	require.NoError(t, err)
	assert.ErrorContains(t, c.Validate(), "at least 1 rule")

	c, err = Load(writeConfig(t, "[assets]\ndirectory = \"x\"\nrun_worker_first = [\"/a\", 3]\n"))
	require.NoError(t, err)
	assert.ErrorContains(t, c.Validate(), "every entry must be a string")

	c, err = Load(writeConfig(t, "[assets]\ndirectory = \"x\"\nrun_worker_first = true\n"))
	require.NoError(t, err)
	assert.True(t, c.Assets.RunWorkerFirst.All)
	assert.NoError(t, c.Validate())
}

func TestWithDevVars(t *testing.T) {
	c := Config{Vars: map[string]any{"A": "vars", "N": int64(1)}}
	merged := c.WithDevVars(map[string]string{"A": "dev", "SECRET": "s"})
	assert.Equal(t, map[string]any{"A": "dev", "N": int64(1), "SECRET": "s"}, merged.Vars)
	assert.Equal(t, map[string]any{"A": "vars", "N": int64(1)}, c.Vars, "the original is unchanged")
}

func TestBindings(t *testing.T) {
	c, err := Load(writeConfig(t, project))
	require.NoError(t, err)
	var names []string
	for _, b := range c.Bindings() {
		names = append(names, b.Kind+":"+b.Name)
	}
	assert.Equal(t, []string{
		"vars:ENABLED", "vars:ENVIRONMENT", "vars:LIMITS", "vars:LOCALES", "vars:MAX_RESULTS", "vars:RATIO", "vars:RELEASED",
		"kv_namespaces:KV", "d1_databases:DB", "d1_databases:DB2", "r2_buckets:IMAGES", "assets:ASSETS", "ai:AI",
		"ratelimits:SEARCH_LIMITER", "ratelimits:UPLOAD_LIMITER",
	}, names)
}

func TestParseDevVars(t *testing.T) {
	cases := []struct {
		name, text string
		want       map[string]string
	}{
		{"plain", "KEY=value\nOTHER=2", map[string]string{"KEY": "value", "OTHER": "2"}},
		{"spaces and trim", "  KEY =  value with spaces  \n", map[string]string{"KEY": "value with spaces"}},
		{"comments", "# full line\nKEY=value # trailing\nHASH=\"a#b\"\n", map[string]string{"KEY": "value", "HASH": "a#b"}},
		{"double quotes expand \\n", `KEY="line1\nline2\rx"`, map[string]string{"KEY": "line1\nline2\rx"}},
		{"single quotes are literal", `KEY='line1\nline2'`, map[string]string{"KEY": `line1\nline2`}},
		{"backticks", "KEY=`it's \"both\"`", map[string]string{"KEY": `it's "both"`}},
		{"multi-line quoted", "KEY=\"first\nsecond\"\nNEXT=n", map[string]string{"KEY": "first\nsecond", "NEXT": "n"}},
		{"export prefix", "export TOKEN=abc", map[string]string{"TOKEN": "abc"}},
		{"colon form", "KEY: value", map[string]string{"KEY": "value"}},
		{"empty value", "EMPTY=\nAFTER=x", map[string]string{"EMPTY": "", "AFTER": "x"}},
		{"later wins", "K=1\nK=2", map[string]string{"K": "2"}},
		{"crlf", "A=1\r\nB=2\r\n", map[string]string{"A": "1", "B": "2"}},
		{"garbage lines skipped", "not an assignment\nK=v", map[string]string{"K": "v"}},
		{"dots and dashes in keys", "a.b-c=1", map[string]string{"a.b-c": "1"}},
		{"unmatched quote kept", `K="abc`, map[string]string{"K": `"abc`}},
		{"escaped quote inside", `K="say \"hi\""`, map[string]string{"K": `say \"hi\"`}},
		{"pem", "KEY=\"-----BEGIN-----\\nAAA\\n-----END-----\"", map[string]string{"KEY": "-----BEGIN-----\nAAA\n-----END-----"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, ParseDevVars(tc.text))
		})
	}
}

func TestLoadDevVarsAndPath(t *testing.T) {
	dir := t.TempDir()
	_, ok := DevVarsPath(dir, "")
	assert.False(t, ok)
	_, err := LoadDevVars(filepath.Join(dir, ".dev.vars"))
	assert.True(t, errors.Is(err, fs.ErrNotExist))

	require.NoError(t, os.WriteFile(filepath.Join(dir, ".dev.vars"), []byte("SECRET=base\n"), 0o600))
	p, ok := DevVarsPath(dir, "staging")
	require.True(t, ok)
	assert.Equal(t, filepath.Join(dir, ".dev.vars"), p)

	require.NoError(t, os.WriteFile(filepath.Join(dir, ".dev.vars.staging"), []byte("SECRET=staging\n"), 0o600))
	p, ok = DevVarsPath(dir, "staging")
	require.True(t, ok)
	vars, err := LoadDevVars(p)
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"SECRET": "staging"}, vars)
}

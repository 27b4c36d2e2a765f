package shards

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/emojisearch/emojisearch/service/privacy"
	"github.com/emojisearch/emojisearch/service/search"
	"github.com/emojisearch/emojisearch/service/store"
)

// Publication thresholds of spec 1 (Static files rule 6).
const (
	MinAccounts = 3
	MinSearches = 10
	WindowDays  = 6
	// MaxPublished bounds one build's work (one search per query); the most
	// searched qualifying queries win. Measured in docs/benchmarks-history.md.
	MaxPublished = 10_000
	// Limit is the number of results per query, the search default.
	Limit = 24
	// Format is the version of index.json and the shard files.
	Format = 1
)

// Bucket is where shard files live (R2 OBJECTS).
type Bucket interface {
	Get(ctx context.Context, key string) ([]byte, bool, error)
	Put(ctx context.Context, key string, body []byte) error
	List(ctx context.Context, prefix string) ([]string, error)
	Delete(ctx context.Context, keys ...string) error
}

// Searcher answers a query as GET /v1/search would (search.Service).
type Searcher interface {
	Precompute(ctx context.Context, locale, query string, limit int) ([]search.Item, error)
}

// Prefix is where a pack version's files live in the bucket.
func Prefix(packVersion string) string { return "shards/" + packVersion + "/" }

// Candidate is a qualifying query.
type Candidate struct {
	Locale string `json:"locale"`
	Query  string `json:"query"`
}

// Qualifying lists the queries published by a build at time at: searched
// at least MinSearches times by apps of at least MinAccounts accounts over
// the WindowDays complete UTC days before at's day, never flagged personal
// when typed, and not personal in their normalized form. Overflow rows
// carry no query. The most searched come first, at most MaxPublished.
func Qualifying(ctx context.Context, db store.DB, at time.Time) ([]Candidate, error) {
	day := at.UTC().Truncate(24 * time.Hour)
	from := day.AddDate(0, 0, -WindowDays).Format(time.DateOnly)
	to := day.AddDate(0, 0, -1).Format(time.DateOnly)
	res, err := db.All(ctx, store.Q(`SELECT q.locale AS locale, q.query AS query
		FROM query_daily q JOIN apps a ON a.id = q.app_id
		WHERE q.day BETWEEN ?1 AND ?2 AND q.qkey != 'overflow'
		GROUP BY q.locale, q.query
		HAVING count(DISTINCT a.account_id) >= ?3 AND sum(q.searches) >= ?4 AND max(q.personal) = 0
		ORDER BY sum(q.searches) DESC, q.locale, q.query LIMIT ?5`, from, to, MinAccounts, MinSearches, MaxPublished))
	if err != nil {
		return nil, err
	}
	all, err := store.DecodeAll[Candidate](res.Rows)
	if err != nil {
		return nil, err
	}
	out := all[:0]
	for _, c := range all {
		if _, personal := privacy.Personal(c.Query, c.Locale); !personal && c.Query != "" {
			out = append(out, c)
		}
	}
	return out, nil
}

// Index is index.json.
type Index struct {
	Format      int      `json:"format"`
	PackVersion string   `json:"packVersion"`
	Model       string   `json:"model"`
	BuiltAt     string   `json:"builtAt"`
	Hash        string   `json:"hash"`
	Keys        []string `json:"keys"`
}

// Shard is one shard file: normalized queries to their results; no app,
// account, day or count.
type Shard struct {
	Format  int                      `json:"format"`
	Key     string                   `json:"key"`
	Locale  string                   `json:"locale"`
	Results map[string][]search.Item `json:"results"`
}

// Summary reports a build.
type Summary struct {
	Published int      // queries in the files
	Keys      []string // shard keys written
	Deleted   []string // bucket keys removed (stale shards)
}

// Config of a build.
type Config struct {
	DB          store.DB
	Bucket      Bucket
	Search      Searcher
	PackVersion string
	Model       string
}

// Build publishes the qualifying queries of time at: shard files first,
// then index.json, then stale files of the version are deleted. A query
// whose answer is degraded stops the build before anything is written, so
// a failing embedding backend never replaces good files.
func Build(ctx context.Context, cfg Config, at time.Time) (Summary, error) {
	cands, err := Qualifying(ctx, cfg.DB, at)
	if err != nil {
		return Summary{}, fmt.Errorf("shards: qualifying queries: %w", err)
	}
	byLocale := map[string]map[string][]search.Item{}
	for _, c := range cands {
		items, err := cfg.Search.Precompute(ctx, c.Locale, c.Query, Limit)
		if err != nil {
			return Summary{}, fmt.Errorf("shards: answer of a %s query: %w", c.Locale, err)
		}
		if byLocale[c.Locale] == nil {
			byLocale[c.Locale] = map[string][]search.Item{}
		}
		byLocale[c.Locale][c.Query] = items
	}
	files := map[string][]byte{}
	for locale, results := range byLocale {
		if err := split(locale, "", results, files); err != nil {
			return Summary{}, err
		}
	}
	sum := Summary{Published: len(cands)}
	prefix := Prefix(cfg.PackVersion)
	for k := range files {
		sum.Keys = append(sum.Keys, k)
	}
	sort.Strings(sum.Keys)
	for _, k := range sum.Keys {
		if err := cfg.Bucket.Put(ctx, prefix+k+".json", files[k]); err != nil {
			return Summary{}, fmt.Errorf("shards: write %s: %w", k, err)
		}
	}
	idx, err := json.Marshal(Index{Format: Format, PackVersion: cfg.PackVersion, Model: cfg.Model,
		BuiltAt: at.UTC().Format(time.RFC3339), Hash: "fnv1a32", Keys: append([]string{}, sum.Keys...)})
	if err != nil {
		return Summary{}, err
	}
	if err := cfg.Bucket.Put(ctx, prefix+"index.json", idx); err != nil {
		return Summary{}, fmt.Errorf("shards: write index: %w", err)
	}
	existing, err := cfg.Bucket.List(ctx, prefix)
	if err != nil {
		return sum, fmt.Errorf("shards: list: %w", err)
	}
	for _, name := range existing {
		k := strings.TrimSuffix(strings.TrimPrefix(name, prefix), ".json")
		if _, ok := files[k]; !ok && k != "index" {
			sum.Deleted = append(sum.Deleted, name)
		}
	}
	if len(sum.Deleted) > 0 {
		if err := cfg.Bucket.Delete(ctx, sum.Deleted...); err != nil {
			return sum, fmt.Errorf("shards: delete stale: %w", err)
		}
	}
	return sum, nil
}

// split writes the shard of locale and hash prefix into files, or its 16
// longer prefixes when it is over MaxShardBytes.
func split(locale, prefix string, results map[string][]search.Item, files map[string][]byte) error {
	key := Key(locale, prefix)
	body, err := json.Marshal(Shard{Format: Format, Key: key, Locale: locale, Results: results})
	if err != nil {
		return err
	}
	if len(body) <= MaxShardBytes || len(prefix) == maxPrefix {
		files[key] = body
		return nil
	}
	parts := map[string]map[string][]search.Item{}
	for q, items := range results {
		p := Hash(q)[:len(prefix)+1]
		if parts[p] == nil {
			parts[p] = map[string][]search.Item{}
		}
		parts[p][q] = items
	}
	for p, part := range parts {
		if err := split(locale, p, part, files); err != nil {
			return err
		}
	}
	return nil
}

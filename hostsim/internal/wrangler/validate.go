package wrangler

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/emojisearch/emojisearch/hostsim/internal/assets"
	"github.com/emojisearch/emojisearch/hostsim/internal/cron"
)

// ErrInvalid is matched (errors.Is) by the error Validate returns.
var ErrInvalid = errors.New("wrangler: invalid configuration")

// ValidationError lists every problem Validate found.
type ValidationError struct {
	Path     string
	Problems []string
}

func (e *ValidationError) Error() string {
	return fmt.Sprintf("wrangler: %s has %d problem(s):\n  - %s", e.Path, len(e.Problems), strings.Join(e.Problems, "\n  - "))
}

// Unwrap makes errors.Is(err, ErrInvalid) true.
func (e *ValidationError) Unwrap() error { return ErrInvalid }

// Allowed values of a rate limit's period, in seconds.
var rateLimitPeriods = map[int64]bool{10: true, 60: true}

// Validate reports every problem with the configuration at once: missing or
// duplicate binding names, missing required fields, bad rate limits, bad
// asset options, bad cron expressions, a malformed compatibility date, and
// values of the wrong type found by Load. It returns nil when there is none.
func (c Config) Validate() error {
	p := append([]string(nil), c.problems...)
	add := func(format string, args ...any) { p = append(p, fmt.Sprintf(format, args...)) }

	if c.CompatibilityDate != "" {
		if _, err := time.Parse("2006-01-02", c.CompatibilityDate); err != nil {
			add("compatibility_date %q: want YYYY-MM-DD", c.CompatibilityDate)
		}
	}
	for i, kv := range c.KVNamespaces {
		if kv.Binding == "" {
			add("kv_namespaces[%d]: missing \"binding\"", i)
		}
	}
	for i, d := range c.D1Databases {
		if d.Binding == "" {
			add("d1_databases[%d]: missing \"binding\"", i)
		}
		if d.DatabaseName == "" && d.DatabaseID == "" {
			add("d1_databases[%d]: needs \"database_name\" or \"database_id\"", i)
		}
	}
	for i, b := range c.R2Buckets {
		if b.Binding == "" {
			add("r2_buckets[%d]: missing \"binding\"", i)
		}
		if b.BucketName == "" {
			add("r2_buckets[%d]: missing \"bucket_name\"", i)
		}
	}
	if c.AI != nil && c.AI.Binding == "" {
		add("ai: missing \"binding\"")
	}
	for i, rl := range c.RateLimits {
		p = append(p, rateLimitProblems(i, rl)...)
	}
	if a := c.Assets; a != nil {
		if a.Directory == "" {
			add("assets: missing \"directory\"")
		}
		opts := assets.Options{HTMLHandling: a.HTMLHandling, NotFoundHandling: a.NotFoundHandling, RunWorkerFirst: a.RunWorkerFirst.All}
		if a.RunWorkerFirst.Patterns != nil {
			opts.WorkerFirst = a.RunWorkerFirst.Patterns
		}
		for _, prob := range opts.Problems() {
			add("assets.%s", prob)
		}
	}
	for i, expr := range c.Crons {
		if _, err := cron.Parse(expr); err != nil {
			add("triggers.crons[%d]: %v", i, err)
		}
	}
	p = append(p, duplicateBindings(c.Bindings())...)
	if len(p) == 0 {
		return nil
	}
	return &ValidationError{Path: c.Path, Problems: p}
}

func rateLimitProblems(i int, rl RateLimit) []string {
	var p []string
	where := fmt.Sprintf("ratelimits[%d]", i)
	if rl.Name == "" {
		p = append(p, where+`: missing "name"`)
	}
	if rl.NamespaceID == "" {
		p = append(p, where+`: missing "namespace_id"`)
	} else if n, err := strconv.ParseUint(rl.NamespaceID, 10, 64); err != nil || n == 0 {
		p = append(p, fmt.Sprintf("%s.namespace_id %q: must be a positive integer", where, rl.NamespaceID))
	}
	if rl.Limit == 0 && rl.Period == 0 {
		return append(p, where+`: missing "simple" = { limit = <n>, period = 10 or 60 }`)
	}
	if rl.Limit <= 0 {
		p = append(p, fmt.Sprintf("%s.simple.limit %d: must be a positive integer", where, rl.Limit))
	}
	if !rateLimitPeriods[rl.Period] {
		p = append(p, fmt.Sprintf("%s.simple.period %d: must be 10 or 60", where, rl.Period))
	}
	return p
}

func duplicateBindings(bindings []Binding) []string {
	var p []string
	kinds := map[string][]string{}
	var order []string
	for _, b := range bindings {
		if b.Name == "" {
			continue // reported as missing by its own check
		}
		if _, seen := kinds[b.Name]; !seen {
			order = append(order, b.Name)
		}
		kinds[b.Name] = append(kinds[b.Name], b.Kind)
	}
	for _, name := range order {
		if ks := kinds[name]; len(ks) > 1 {
			p = append(p, fmt.Sprintf("binding name %q is used more than once (%s)", name, strings.Join(ks, ", ")))
		}
	}
	return p
}

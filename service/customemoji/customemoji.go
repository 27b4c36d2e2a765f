// Package customemoji matches an app's custom emoji against search queries
// (spec 1, GET /v1/search, custom emoji rules): from a per-instance copy of
// the app's emoji at most 60 s old, app-wide emoji plus the named tenant's,
// a tenant emoji replacing an app-wide one of the same shortcode.
//
// Matching (the spec leaves it to us): the normalised query equals the
// shortcode (with '_' and '-' read as spaces) or one of the aliases: score
// 1; the query is a prefix of one of them (2 characters or more, as while
// typing): score 0.8. Exact matches come first, then by shortcode.
package customemoji

import (
	"context"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/emojisearch/emojisearch/engine"
	"github.com/emojisearch/emojisearch/service/accounts"
)

// MaxAge is how old the per-instance copy of an app's emoji may be.
const MaxAge = 60 * time.Second

// maxApps bounds the apps whose copies one instance keeps.
const maxApps = 10_000

// Source lists an app's emoji (accounts.Repo in production).
type Source interface {
	CustomEmojiOf(ctx context.Context, appID string) ([]accounts.CustomEmoji, error)
}

// Match is one matched custom emoji.
type Match struct {
	ID        string
	Shortcode string
	Score     float64
}

// Index keeps each app's emoji for at most MaxAge. No lock is held while
// reading the source; two requests missing together both read it.
type Index struct {
	src Source
	now func() time.Time
	mu  sync.Mutex
	by  map[string]copyOf
}

type copyOf struct {
	at    time.Time
	emoji []entry
}

// entry is an emoji with its phrases normalised once per copy, not per
// query: the shortcode (with '_' and '-' as spaces), then its aliases.
type entry struct {
	accounts.CustomEmoji
	phrases []string
}

var spaced = strings.NewReplacer("_", " ", "-", " ")

func entries(emoji []accounts.CustomEmoji) []entry {
	out := make([]entry, len(emoji))
	for i, e := range emoji {
		out[i] = entry{CustomEmoji: e, phrases: append([]string{engine.Normalize(spaced.Replace(e.Shortcode), engine.MaxQueryLength)}, e.Aliases...)}
	}
	return out
}

// Config is the index's option set (RATIONALE, "One configuration
// style").
type Config struct {
	src Source
	now func() time.Time
}

// NewConfig is the defaults over src: time.Now.
func NewConfig(src Source) Config { return Config{src: src, now: time.Now} }

// WithClock sets the clock (how old a copy is).
func (c Config) WithClock(now func() time.Time) Config { c.now = now; return c }

// New returns an index.
func New(c Config) *Index {
	if c.now == nil {
		c.now = time.Now
	}
	return &Index{src: c.src, now: c.now, by: map[string]copyOf{}}
}

// Match returns the app's emoji matching the query, best first, at most
// limit, and whether the app has any custom emoji at all (its answers are
// then private to it).
func (x *Index) Match(ctx context.Context, appID, tenant, query string, limit int) ([]Match, bool, error) {
	return x.MatchNormalized(ctx, appID, tenant, engine.Normalize(query, engine.MaxQueryLength), limit)
}

// MatchNormalized is Match for a query already in engine.Normalize's form.
// The search route passes the normalised query the engine returned (its
// answer's query), so q is normalised once on the search path.
func (x *Index) MatchNormalized(ctx context.Context, appID, tenant, q string, limit int) ([]Match, bool, error) {
	emoji, err := x.emojiOf(ctx, appID)
	if err != nil {
		return nil, false, err
	}
	if len(emoji) == 0 {
		return nil, false, nil
	}
	if q == "" {
		return nil, true, nil
	}
	visible := map[string]entry{} // by shortcode: the tenant's wins
	for _, e := range emoji {
		switch {
		case e.TenantExternalID == "":
			if _, taken := visible[e.Shortcode]; !taken {
				visible[e.Shortcode] = e
			}
		case tenant != "" && e.TenantExternalID == tenant:
			visible[e.Shortcode] = e
		}
	}
	var out []Match
	for _, e := range visible {
		if s := score(e, q); s > 0 {
			out = append(out, Match{ID: e.ID, Shortcode: e.Shortcode, Score: s})
		}
	}
	slices.SortFunc(out, func(a, b Match) int {
		if a.Score != b.Score {
			if a.Score > b.Score {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Shortcode, b.Shortcode)
	})
	if len(out) > limit {
		out = out[:limit]
	}
	return out, true, nil
}

func score(e entry, q string) float64 {
	best := 0.0
	for _, p := range e.phrases {
		switch {
		case p == q:
			return 1
		case len(q) >= 2 && strings.HasPrefix(p, q):
			best = 0.8
		}
	}
	return best
}

func (x *Index) emojiOf(ctx context.Context, appID string) ([]entry, error) {
	now := x.now()
	x.mu.Lock()
	c, ok := x.by[appID]
	x.mu.Unlock()
	if ok && now.Sub(c.at) < MaxAge {
		return c.emoji, nil
	}
	rows, err := x.src.CustomEmojiOf(ctx, appID)
	if err != nil {
		return nil, err
	}
	emoji := entries(rows)
	x.mu.Lock()
	if len(x.by) >= maxApps { // bounded: drop the expired copies, or all
		for id, c := range x.by {
			if now.Sub(c.at) >= MaxAge {
				delete(x.by, id)
			}
		}
		if len(x.by) >= maxApps {
			clear(x.by)
		}
	}
	x.by[appID] = copyOf{at: now, emoji: emoji}
	x.mu.Unlock()
	return emoji, nil
}

// Forget drops the instance's copy of an app's emoji, so the next search
// reads them again: a write through this instance shows at once here,
// other instances see it within MaxAge.
func (x *Index) Forget(appID string) {
	x.mu.Lock()
	delete(x.by, appID)
	x.mu.Unlock()
}

package search

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"time"

	"github.com/emojisearch/emojisearch/engine"
	"github.com/emojisearch/emojisearch/engine/culture"
	"github.com/emojisearch/emojisearch/engine/embed"
	"github.com/emojisearch/emojisearch/engine/fusion"
	"github.com/emojisearch/emojisearch/service/access"
	"github.com/emojisearch/emojisearch/service/httpx"
	"github.com/emojisearch/emojisearch/service/metering"
	"github.com/emojisearch/emojisearch/service/plans"
)

// EngineVersion changes whenever ranking code changes, so the shared cache
// never answers from an older engine (spec 1, Versioning 4).
const EngineVersion = "1"

// CacheLifetime is how long the shared cache keeps an answer (spec 1).
const CacheLifetime = 7 * 24 * time.Hour

// Cache is the shared edge cache, keyed by URL.
type Cache interface {
	Get(ctx context.Context, key string) ([]byte, bool, error)
	Put(ctx context.Context, key string, body []byte, ttl time.Duration) error
}

// ErrIncomplete marks a meaning-tier answer built without some of its
// data (a vector file that did not load): the hits are used, the answer is
// not cached, and the next request tries again (spec 1).
var ErrIncomplete = errors.New("search: some data could not be loaded")

// Hit is one emoji of the meaning tier with its cosine similarity: the
// fusion's own hit type, so the tier's answer goes to the fuser as it is.
type Hit = fusion.Hit

// Meaning is the meaning tier: it embeds text and returns the nearest
// emoji over the shared English vectors and the locale's own.
type Meaning interface {
	Search(ctx context.Context, text, locale string, k int) (MeaningResult, error)
}

// MeaningResult is the meaning tier's answer: the hits, best first, and the
// time spent in the embedding backend (Server-Timing's embed span; the
// vector search is the service's own time).
type MeaningResult struct {
	Hits  []Hit
	Embed time.Duration
}

// Fuser merges the tiers (engine/fusion in production).
type Fuser func(alias engine.Output, semantic []Hit, limit int) []Item

// Config wires a Service.
type Config struct {
	PackVersion string
	Model       string
	// DataHash identifies the served packs and vector files; it is part of
	// the cache key so a data fix under one pack version is never answered
	// from older entries.
	DataHash string
	Packs    *Packs
	Meaning  Meaning // nil: no embedding backend bound (alias-only service)
	Fuse     Fuser
	Cache    Cache // nil: no shared cache
	// Cultures holds the culture files (nil: culture=1 is accepted and
	// answers with culture null).
	Cultures *Cultures
	// Custom matches the caller's app's custom emoji (service/customemoji);
	// nil: no custom emoji.
	Custom Custom
	// Meter counts keyed calls and knows when an account is over its plan
	// limit (service/metering); nil meters nothing.
	Meter Meter
	// Analytics counts keyed searches per app, day and query
	// (service/analytics); nil counts nothing.
	Analytics Analytics
	// Background runs work after the response (waitUntil); nil runs it
	// inline.
	Background func(ctx context.Context, fn func(context.Context))
	// Prefetch lists locales whose packs the instance's first search
	// loads in its waitUntil (the Worker's en and tr, which are not built
	// in: packs/dist).
	Prefetch []string
	Now      func() time.Time
}

// Meter is the part of service/metering the search route uses.
type Meter interface {
	OverLimit(ctx context.Context, c access.Caller, metric string) bool
	Count(c access.Caller, metric string)
	MaybeFlush(ctx context.Context, run metering.Runner)
}

// MeterGate opens every metered route (search, reactions, image
// classification): whether c's calls count, and whether its account is over
// the plan's monthly metric, when the model is not called and nothing is
// counted (spec 1). A nil m meters nothing.
func MeterGate(ctx context.Context, m Meter, c access.Caller, metric string) (metered, over bool) {
	metered = m != nil && metering.Metered(c)
	return metered, metered && m.OverLimit(ctx, c, metric)
}

// Gate is a metered call's caller and its standing with the meter.
type Gate struct {
	Caller        access.Caller
	Metered, Over bool
}

// OpenMetered opens a metered route that answers no-store (reactions,
// images): it parses the request with parse, answering its error with
// the status parse gives, and gates the caller on metric. ok false: the
// answer is written.
func OpenMetered[P any](w http.ResponseWriter, r *http.Request, parse func(*http.Request) (P, int, error), m Meter, metric string) (p P, g Gate, ok bool) {
	w.Header().Set("Cache-Control", "no-store")
	p, status, err := parse(r)
	if err != nil {
		httpx.Error(w, status, err.Error())
		return p, g, false
	}
	g.Caller, _ = access.FromContext(r.Context())
	g.Metered, g.Over = MeterGate(r.Context(), m, g.Caller, metric)
	return p, g, true
}

// Analytics is the part of service/analytics the search route uses.
type Analytics interface {
	Record(c access.Caller, locale, typed, query string, miss bool)
	MaybeFlush(ctx context.Context, run metering.Runner)
}

// Service answers GET /v1/search.
type Service struct {
	cfg        Config
	prefetched sync.Once
}

// New returns the search service.
func New(cfg Config) *Service {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Background == nil {
		cfg.Background = func(ctx context.Context, fn func(context.Context)) { fn(ctx) }
	}
	return &Service{cfg: cfg}
}

// prefetch warms the Prefetch locales once per instance, in the first
// search's waitUntil.
func (s *Service) prefetch(ctx context.Context) {
	if len(s.cfg.Prefetch) == 0 {
		return
	}
	s.prefetched.Do(func() {
		s.cfg.Background(ctx, func(ctx context.Context) { s.cfg.Packs.Prefetch(ctx, s.cfg.Prefetch...) })
	})
}

// Item is a result item of spec 1: the engine's culture.Result, the one
// result type of the search path (alias, semantic, custom and culture
// results alike), so the culture layer takes and returns the answer's items
// without copying them. Its JSON is spec 1's item: the in-process match
// explanation (Label, Match, Field) is never encoded.
type Item = culture.Result

// Response is the search response of spec 1.
type Response struct {
	Query       string  `json:"query"`
	Results     []Item  `json:"results"`
	PackVersion string  `json:"packVersion"`
	Model       string  `json:"model"`
	Cached      bool    `json:"cached"`
	Degraded    bool    `json:"degraded"`
	OverLimit   bool    `json:"overLimit"`
	AliasLocale *string `json:"aliasLocale"`
	Culture     any     `json:"culture"`
}

// Reaction is spec 1's reaction response: the search response without
// `culture` (reactions have no culture layer). The always-nil field hides
// the embedded one from encoding/json (the shallower field wins).
type Reaction struct {
	Response
	NoCulture *struct{} `json:"culture,omitempty"`
}

// Cache-Control values of spec 1's table.
const (
	ccNormal  = "public, max-age=3600, s-maxage=86400"
	ccCulture = "public, max-age=3600"
	ccPrivate = "private, max-age=60"
	ccNoStore = "no-store"
)

// ServeHTTP answers GET /v1/search. The caller (service/access, put in
// the context by its guard; anonymous without one) decides metering: a
// keyed call counts one semantic_calls when it is answered from the shared
// cache or with a model call, and an account over its limit gets cached
// answers (unmetered) or, else, alias-only (hybrid) or empty (semantic)
// answers that are neither cached nor counted (spec 1 States, Metering).
func (s *Service) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := s.cfg.Now()
	// After the answer, so the prefetch only loads what this request did
	// not (two requests loading one file would each fetch it: no lock is
	// shared across requests, PROTOCOL.md rule 2).
	defer s.prefetch(r.Context())
	p, err := ParseParams(httpx.Query(r))
	if err != nil {
		httpx.Error(w, http.StatusBadRequest, err.Error())
		return
	}
	ctx := r.Context()
	caller, _ := access.FromContext(ctx)
	metered, over := MeterGate(ctx, s.cfg.Meter, caller, plans.SemanticCalls)
	res, timing := s.search(ctx, p, over)
	res.OverLimit = over
	if metered && !over && (res.Cached || (timing.embedded && !res.Degraded)) {
		s.cfg.Meter.Count(caller, plans.SemanticCalls)
	}
	if metered {
		s.cfg.Meter.MaybeFlush(ctx, metering.Runner(s.cfg.Background))
	}
	s.mergeCustom(r, caller, p, &res)
	s.applyCulture(ctx, p, &res.Response)
	if s.cfg.Analytics != nil && metering.Metered(caller) {
		// Every keyed answer counts: cache hits, over-limit and degraded.
		s.cfg.Analytics.Record(caller, p.Locale, p.Query, res.Query, len(res.Results) == 0)
		s.cfg.Analytics.MaybeFlush(ctx, metering.Runner(s.cfg.Background))
	}
	h := w.Header()
	switch {
	case res.cacheControl != "":
		h.Set("Cache-Control", res.cacheControl)
	case p.Culture:
		h.Set("Cache-Control", ccCulture)
	default:
		h.Set("Cache-Control", ccNormal)
	}
	total := s.cfg.Now().Sub(start)
	if timing.embedded {
		h.Set("Server-Timing", fmt.Sprintf("embed;dur=%s, total;dur=%s", ms(timing.embed), ms(total)))
	} else {
		h.Set("Server-Timing", "total;dur="+ms(total))
	}
	httpx.JSON(w, http.StatusOK, res.Response)
}

func ms(d time.Duration) string {
	return strconv.FormatFloat(float64(d.Microseconds())/1000, 'f', 2, 64)
}

type answer struct {
	Response
	cacheControl string // set when the table says otherwise than normal/culture
}

type timing struct {
	embedded bool
	embed    time.Duration
}

// search builds the canonical answer: from the shared cache when it holds
// one, else from the tiers (then cached unless degraded or incomplete).
// Over the limit, the meaning tier is not called and nothing is cached.
//
// The query is prepared once: its embedding text (the cache key's and the
// meaning tier's) here, its normalised form by the engine (Output.Query),
// which the answer reuses; only without an alias search does the service
// normalise it itself.
func (s *Service) search(ctx context.Context, p Params, over bool) (answer, timing) {
	text := engine.EmbeddingText(p.Query)
	key := s.cacheKey(text, p)
	if s.cfg.Cache != nil {
		if body, ok, err := s.cfg.Cache.Get(ctx, key); err == nil && ok {
			var cached Response
			if json.Unmarshal(body, &cached) == nil {
				cached.Cached = true
				return answer{Response: cached}, timing{}
			}
		}
	}
	a := answer{Response: Response{PackVersion: s.cfg.PackVersion, Model: s.cfg.Model, Results: []Item{}}}
	var t timing
	complete := true

	eng, err := s.cfg.Packs.Engine(ctx, p.Locale)
	if err != nil {
		complete = false // semantic-only, uncached, retried next time
	}

	// The alias tier runs in hybrid mode, and in semantic mode when there is
	// no meaning tier to answer (none bound, or it failed: degraded).
	useAlias := p.Mode == Hybrid || s.cfg.Meaning == nil
	if over {
		complete, useAlias = false, p.Mode == Hybrid
	}
	var hits []Hit
	if s.cfg.Meaning == nil && !over {
		// No embedding backend bound: an alias-only answer, degraded and
		// never cached, so it cannot outlive the model's absence (issue 31).
		a.Degraded = true
	}
	if s.cfg.Meaning != nil && !over {
		var sem MeaningResult
		sem, err = s.cfg.Meaning.Search(ctx, text, p.Locale, p.Limit*2)
		hits = sem.Hits
		t = timing{embedded: sem.Embed > 0, embed: sem.Embed} // no call: no vector file loaded
		switch {
		case errors.Is(err, ErrIncomplete):
			complete = false
			useAlias = useAlias || len(hits) == 0
		case err != nil:
			a.Degraded, hits, useAlias = true, nil, true
		}
	}
	var alias engine.Output
	if useAlias && eng != nil {
		opts := engine.DefaultOptions()
		opts.Locale, opts.Limit = p.Locale, p.Limit
		alias = eng.Search(p.Query, opts)
		locale := p.Locale
		a.AliasLocale = &locale
		a.Query = alias.Query
	} else {
		a.Query = engine.Normalize(p.Query, MaxQueryLength)
	}
	a.Results = s.merge(alias, hits, p.Limit)
	if a.Degraded || !complete {
		a.cacheControl = ccNoStore
		return a, t
	}
	if s.cfg.Cache != nil {
		body, err := json.Marshal(a.Response)
		if err == nil {
			s.cfg.Background(ctx, func(ctx context.Context) {
				_ = s.cfg.Cache.Put(ctx, key, body, CacheLifetime)
			})
		}
	}
	return a, t
}

// merge fuses the tiers, or converts the alias tier alone.
func (s *Service) merge(alias engine.Output, hits []Hit, limit int) []Item {
	if len(hits) > 0 && s.cfg.Fuse != nil {
		return s.cfg.Fuse(alias, hits, limit)
	}
	out := make([]Item, 0, min(limit, len(alias.Results)+len(hits)))
	for _, r := range alias.Results {
		if len(out) == limit {
			break
		}
		out = append(out, Item{Emoji: r.Emoji, ID: r.ID, Score: r.Score, Source: "alias"})
	}
	for _, h := range hits {
		if len(out) == limit {
			break
		}
		out = append(out, Item{Emoji: h.Emoji, ID: h.ID, Score: embed.Clamp01(h.Cosine), Source: "semantic"})
	}
	return out
}

// cacheKey is spec 1's shared-cache key: the embedded query text
// (engine.EmbeddingText of p.Query), locale, limit, mode, index version and
// a hash of the served data and engine. It holds no key, app or origin.
func (s *Service) cacheKey(text string, p Params) string {
	q := url.Values{}
	q.Set("t", text)
	q.Set("l", p.Locale)
	q.Set("n", strconv.Itoa(p.Limit))
	q.Set("m", string(p.Mode))
	q.Set("v", s.cfg.PackVersion)
	q.Set("h", s.cfg.DataHash+"."+EngineVersion+"."+s.cfg.Model)
	return "https://search-cache.internal/v1/search?" + q.Encode()
}

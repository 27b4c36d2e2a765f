// Package reactions is POST /v1/suggest-reactions of spec 1: the request
// rules (16 KB JSON body, text cut to 256 characters, locale, limit,
// tenant), one embedding call, the alias search per clause, the ranking of
// engine/reactions, custom emoji first, metering as semantic_calls and
// the no-store answer. The message text is never logged or cached: it
// lives in this request's memory only.
package reactions

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/emojisearch/emojisearch/engine"
	"github.com/emojisearch/emojisearch/engine/fusion"
	"github.com/emojisearch/emojisearch/engine/reactions"
	"github.com/emojisearch/emojisearch/service/access"
	"github.com/emojisearch/emojisearch/service/httpx"
	"github.com/emojisearch/emojisearch/service/meaning"
	"github.com/emojisearch/emojisearch/service/metering"
	"github.com/emojisearch/emojisearch/service/plans"
	"github.com/emojisearch/emojisearch/service/search"
)

// Limits of the route. Spec 1 fixes the body and text sizes and leaves
// limit's default and bounds to us: a reaction bar shows about six emoji,
// and beyond 24 the list is no longer reactions.
const (
	MaxBody       = 16 << 10
	MaxTextLength = 256
	DefaultLimit  = 6
	MaxLimit      = 24
)

// Embedding is one embedded message (meaning.Query).
type Embedding interface {
	Nearest(k int) []search.Hit
	Similarity(id string) (float64, bool)
}

// Meaning embeds a message once for a locale. The error is as the meaning
// tier's: search.ErrIncomplete keeps the embedding usable; any other error
// means the backend failed (degraded). A nil Embedding with a nil or
// ErrIncomplete error means no model call was made (no vector file).
type Meaning func(ctx context.Context, text, locale string) (Embedding, time.Duration, error)

// Config wires a Service.
type Config struct {
	PackVersion string
	Model       string
	Packs       *search.Packs
	Meaning     Meaning // nil: no embedding backend (alias-only)
	Calibration fusion.Calibration
	Custom      search.Custom // nil: no custom emoji
	Meter       search.Meter  // nil: nothing metered
	Background  func(ctx context.Context, fn func(context.Context))
	Now         func() time.Time
}

// Service answers POST /v1/suggest-reactions.
type Service struct{ cfg Config }

// New returns the service.
func New(cfg Config) *Service {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Background == nil {
		cfg.Background = func(ctx context.Context, fn func(context.Context)) { fn(ctx) }
	}
	return &Service{cfg: cfg}
}

// Request is the JSON body.
type Request struct {
	Text   *string          `json:"text"`
	Locale string           `json:"locale"`
	Limit  *json.RawMessage `json:"limit"`
	Tenant string           `json:"tenant"`
}

// params is a validated request.
type params struct {
	text, locale, tenant string
	limit                int
}

// parse validates the request in the order of spec 1: size (413), JSON
// (400), text, locale, limit, tenant.
func parse(r *http.Request) (params, int, error) {
	body, err := io.ReadAll(io.LimitReader(r.Body, MaxBody+1))
	if err != nil {
		return params{}, http.StatusBadRequest, errors.New("the request body could not be read")
	}
	if len(body) > MaxBody {
		return params{}, http.StatusRequestEntityTooLarge, fmt.Errorf("the body must be at most %d bytes", MaxBody)
	}
	var req Request
	if err := json.Unmarshal(body, &req); err != nil {
		return params{}, http.StatusBadRequest, errors.New("the body must be a JSON object: {\"text\": \"...\"}")
	}
	if req.Text == nil || strings.TrimSpace(*req.Text) == "" {
		return params{}, http.StatusBadRequest, errors.New("missing required field text (the message)")
	}
	p := params{text: engine.Cut(*req.Text, MaxTextLength), limit: DefaultLimit, tenant: req.Tenant}
	if p.locale, err = search.ResolveLocale(req.Locale); err != nil {
		return p, http.StatusBadRequest, err
	}
	if req.Limit != nil && string(*req.Limit) != "null" {
		n, err := strconv.Atoi(strings.TrimSpace(string(*req.Limit)))
		if err != nil || n < 1 || n > MaxLimit {
			return p, http.StatusBadRequest, fmt.Errorf("limit must be an integer from 1 to %d", MaxLimit)
		}
		p.limit = n
	}
	if t := httpx.Query(r).Get("tenant"); p.tenant == "" {
		p.tenant = t
	}
	if utf8.RuneCountInString(p.tenant) > search.MaxTenantLength {
		return p, http.StatusBadRequest, fmt.Errorf("tenant must be at most %d characters", search.MaxTenantLength)
	}
	return p, 0, nil
}

// ServeHTTP answers the route. A keyed call counts one semantic_calls when
// the model was called and answered; over the limit the model is not
// called, nothing is counted and every result is an alias one (spec 1).
func (s *Service) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := s.cfg.Now()
	p, gate, ok := search.OpenMetered(w, r, parse, s.cfg.Meter, plans.SemanticCalls)
	if !ok {
		return
	}
	ctx := r.Context()
	caller, metered, over := gate.Caller, gate.Metered, gate.Over

	res := search.Response{Query: engine.Normalize(p.text, MaxTextLength), PackVersion: s.cfg.PackVersion,
		Model: s.cfg.Model, OverLimit: over, Results: []search.Item{}}
	in, ev := s.gather(ctx, p.text, p.locale, !over)
	res.Degraded = ev.degraded
	if ev.searched {
		locale := p.locale
		res.AliasLocale = &locale
	}
	embedded, embedDur := ev.embedded, ev.embedDur
	for _, sg := range reactions.Suggest(in, p.limit) {
		src := "alias"
		if sg.Semantic {
			src = "semantic"
		}
		res.Results = append(res.Results, search.Item{Emoji: sg.Emoji, ID: hexcode(sg.Emoji), Score: sg.Score, Source: src})
	}
	if metered && !over && embedded && !res.Degraded {
		s.cfg.Meter.Count(caller, plans.SemanticCalls)
	}
	if metered {
		s.cfg.Meter.MaybeFlush(ctx, metering.Runner(s.cfg.Background))
	}
	res.Results = s.custom(r, caller, p, res.Results)
	total := s.cfg.Now().Sub(start)
	if embedded || res.Degraded {
		w.Header().Set("Server-Timing", fmt.Sprintf("embed;dur=%s, total;dur=%s", ms(embedDur), ms(total)))
	} else {
		w.Header().Set("Server-Timing", "total;dur="+ms(total))
	}
	httpx.JSON(w, http.StatusOK, search.Reaction{Response: res})
}

// gathered says how a message's evidence was gathered.
type gathered struct {
	embedded, degraded, searched bool
	embedDur                     time.Duration
}

// gather builds the ranking's input: the one embedding call (when embed
// and a backend is configured) and the alias search per clause.
func (s *Service) gather(ctx context.Context, text, locale string, embed bool) (reactions.Input, gathered) {
	in := reactions.Input{Text: text, Locale: locale, Calibration: s.cfg.Calibration}
	var g gathered
	if s.cfg.Meaning != nil && embed {
		emb, d, err := s.cfg.Meaning(ctx, text, locale)
		g.embedDur = d
		switch {
		case err != nil && !errors.Is(err, search.ErrIncomplete):
			g.degraded = true
		case emb != nil:
			g.embedded = true
			in.Nearest = hitsOf(emb.Nearest(16))
			in.Similarity = func(e string) (float64, bool) { return emb.Similarity(hexcode(e)) }
		}
	}
	if eng, _ := s.cfg.Packs.Engine(ctx, locale); eng != nil {
		g.searched = true
		in.Known = func(e string) bool { _, ok := eng.EmojiOf(e); return ok }
		for _, c := range reactions.Clauses(text) {
			out := eng.Search(c, engine.Options{Limit: 5, Locale: locale})
			hits := make([]reactions.Hit, len(out.Results))
			for i, h := range out.Results {
				hits[i] = reactions.Hit{Emoji: h.Emoji, Score: h.Score * out.Confidence}
			}
			in.Alias = append(in.Alias, hits)
		}
	}
	return in, g
}

// Evidence is the ranking's input for a message as the route gathers it
// (cut to MaxTextLength, the locale resolved as the route does), for the
// calibration of engine/reactions; nothing is metered.
func (s *Service) Evidence(ctx context.Context, text, locale string) (reactions.Input, error) {
	loc, err := search.ResolveLocale(locale)
	if err != nil {
		return reactions.Input{}, err
	}
	in, _ := s.gather(ctx, engine.Cut(text, MaxTextLength), loc, true)
	return in, nil
}

func hitsOf(hs []search.Hit) []reactions.Hit {
	out := make([]reactions.Hit, len(hs))
	for i, h := range hs {
		out[i] = reactions.Hit{Emoji: h.Emoji, Score: h.Cosine}
	}
	return out
}

// custom puts the keyed caller's custom emoji first, within the limit: an
// emoji whose shortcode or alias equals a clause or a word of the message
// (exact matches only: a prefix of a word is not a reaction).
func (s *Service) custom(r *http.Request, caller access.Caller, p params, items []search.Item) []search.Item {
	if s.cfg.Custom == nil || caller.Anonymous || caller.AppID == "" {
		return items
	}
	// Each clause normalised once: the clause itself and its words are
	// matched in that form.
	queries := reactions.Clauses(p.text)
	for i, c := range queries {
		queries[i] = engine.Normalize(c, search.MaxQueryLength)
	}
	for _, c := range queries[:len(queries):len(queries)] {
		queries = append(queries, strings.Fields(c)...)
	}
	var found []search.Item
	seen := map[string]bool{}
	scheme := r.URL.Scheme
	if scheme == "" {
		scheme = "https"
	}
	base := scheme + "://" + r.Host
	for _, q := range queries[:min(len(queries), 24)] {
		ms, has, err := s.cfg.Custom.MatchNormalized(r.Context(), caller.AppID, p.tenant, q, p.limit)
		if err != nil || !has {
			break
		}
		for _, m := range ms {
			if m.Score < 1 || seen[m.ID] {
				continue
			}
			seen[m.ID] = true
			found = append(found, search.Item{Emoji: ":" + m.Shortcode + ":", ID: "C-" + m.ID, Score: m.Score,
				Source: "custom", ImageURL: base + "/v1/custom/" + caller.AppID + "/" + m.ID, Shortcode: m.Shortcode})
		}
	}
	if len(found) == 0 {
		return items
	}
	out := append(found[:min(len(found), p.limit):min(len(found), p.limit)], items...)
	return out[:min(len(out), p.limit)]
}

func ms(d time.Duration) string {
	return strconv.FormatFloat(float64(d.Microseconds())/1000, 'f', 2, 64)
}

// TierMeaning adapts the meaning tier (one embedding call per message).
func TierMeaning(t *meaning.Tier) Meaning {
	return func(ctx context.Context, text, locale string) (Embedding, time.Duration, error) {
		q, err := t.Embed(ctx, text, locale)
		if q == nil {
			return nil, 0, err
		}
		if err != nil && !errors.Is(err, search.ErrIncomplete) {
			return nil, q.Embed, err // the backend failed: nothing to rank with
		}
		return q, q.Embed, err
	}
}

// vocabHex holds the hexcodes of the reaction vocabulary, asked for on
// every request (engine.HexcodeOf formats each code point).
var vocabHex = func() map[string]string {
	m := make(map[string]string, len(reactions.Vocabulary))
	for _, v := range reactions.Vocabulary {
		m[v.Emoji] = engine.HexcodeOf(v.Emoji)
	}
	return m
}()

func hexcode(e string) string {
	if h, ok := vocabHex[e]; ok {
		return h
	}
	return engine.HexcodeOf(e)
}

// Package search is the /v1/search route of spec 1: parameters and their
// validation, locale resolution, the alias and meaning tiers, fusion, the
// shared cache, culture and the response with its Cache-Control and
// Server-Timing. It is plain Go: platform pieces (packs, embeddings, the
// edge cache, the clock) come in through interfaces.
package search

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/emojisearch/emojisearch/engine"
	"github.com/emojisearch/emojisearch/engine/packfmt"
)

// Locales are the languages with packs, in the order the spec lists them
// (the registry, packfmt.Registry).
var Locales = packfmt.Locales

// Limits of spec 1. MaxQueryLength is the engine's: the characters of a
// query that are searched.
const (
	MaxQueryLength  = engine.MaxQueryLength
	DefaultLimit    = 24
	MaxLimit        = 50
	MaxTenantLength = 128
)

// Mode selects the tiers: hybrid fuses aliases and meaning; semantic is the
// meaning tier only.
type Mode string

// The two modes.
const (
	Hybrid   Mode = "hybrid"
	Semantic Mode = "semantic"
)

// Params is a validated search request.
type Params struct {
	Query   string // q cut to MaxQueryLength characters, as typed
	Locale  string // one of Locales
	Limit   int
	Mode    Mode
	Pack    string // client pack version, informational
	Key     string
	Tenant  string
	Culture bool
	Region  string // upper-case ISO 3166-1 alpha-2, or ""
}

// ParamError is a 400 answer: which parameter, and the message users see.
type ParamError struct {
	Param   string
	Message string
}

func (e *ParamError) Error() string { return e.Message }

// ParseParams validates the query string of GET /v1/search, reporting the
// first problem in the order of spec 1's parameter table.
func ParseParams(q url.Values) (Params, error) {
	p := Params{Limit: DefaultLimit, Mode: Hybrid, Pack: q.Get("pack"), Key: q.Get("key")}
	raw := q.Get("q")
	if strings.TrimSpace(raw) == "" {
		return p, &ParamError{"q", "Missing required parameter q (the search text)"}
	}
	p.Query = engine.Cut(raw, MaxQueryLength)

	locale, err := ResolveLocale(q.Get("locale"))
	if err != nil {
		return p, err
	}
	p.Locale = locale

	if s := q.Get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > MaxLimit {
			return p, &ParamError{"limit", fmt.Sprintf("limit must be an integer from 1 to %d, got %q", MaxLimit, s)}
		}
		p.Limit = n
	}
	switch m := q.Get("mode"); m {
	case "", string(Hybrid):
	case string(Semantic):
		p.Mode = Semantic
	default:
		return p, &ParamError{"mode", fmt.Sprintf(`mode must be "hybrid" or "semantic", got %q`, m)}
	}
	if t := q.Get("tenant"); utf8.RuneCountInString(t) > MaxTenantLength {
		return p, &ParamError{"tenant", fmt.Sprintf("tenant must be at most %d characters", MaxTenantLength)}
	} else {
		p.Tenant = t
	}
	switch c := strings.ToLower(q.Get("culture")); c {
	case "", "0", "false", "none":
	case "1", "true":
		p.Culture = true
	default:
		return p, &ParamError{"culture", fmt.Sprintf("culture must be one of 0, 1, true, false, none; got %q", q.Get("culture"))}
	}
	if r := q.Get("region"); r != "" {
		region, ok := ParseRegion(r)
		if !ok {
			return p, &ParamError{"region", fmt.Sprintf("region %q is not an ISO 3166-1 alpha-2 region code", r)}
		}
		p.Region = region
	}
	return p, nil
}

// ResolveLocale maps a BCP 47 tag to its language, case-insensitively
// (en-US is en, pt-BR is pt, zh-Hans and zh-Hant are zh); "" means en.
func ResolveLocale(tag string) (string, error) {
	if tag == "" {
		return "en", nil
	}
	unknown := &ParamError{"locale", fmt.Sprintf("Unknown locale %q: supported locales are %s (or a BCP 47 tag of one of them)", tag, strings.Join(Locales, ", "))}
	base, ok := languageOf(tag)
	if !ok {
		return "", unknown
	}
	for _, l := range Locales {
		if base == l {
			return l, nil
		}
	}
	return "", unknown
}

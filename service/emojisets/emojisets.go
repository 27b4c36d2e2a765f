// Package emojisets serves GET /v1/sets/:set/:hexcode.svg (spec 1): the
// three hosted open emoji sets, each file fetched once per edge location
// from a pinned upstream and then served from the edge cache.
//
// Only paths of the mapping (sets.json, built by packs/cmd/setmap from the
// pinned packages) are ever fetched: the request only picks an entry of
// the mapping, it never contributes text to the upstream URL.
package emojisets

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/emojisearch/emojisearch/service/httpx"
)

// Mapping is sets.json (packs/FORMAT.md, "Hosted sets mapping").
type Mapping struct {
	Format int            `json:"format"`
	Order  []string       `json:"order"`
	Sets   map[string]Set `json:"sets"`
	// Emoji maps a canonical hexcode (Canonical) to one file stem per set
	// of Order; "" where the set does not draw the emoji.
	Emoji map[string][]string `json:"emoji"`
}

// Set is one hosted set.
type Set struct {
	// Path is the folder of the set's files under the upstream base URL,
	// pinned to a package version or commit.
	Path    string `json:"path"`
	License string `json:"license"` // URL of the artwork licence
}

// Parse reads and checks sets.json.
func Parse(b []byte) (*Mapping, error) {
	var m Mapping
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("emojisets: %w", err)
	}
	if m.Format != 1 {
		return nil, fmt.Errorf("emojisets: format %d, want 1", m.Format)
	}
	for _, s := range m.Order {
		if _, ok := m.Sets[s]; !ok {
			return nil, fmt.Errorf("emojisets: set %q has no entry", s)
		}
	}
	for k, files := range m.Emoji {
		if len(files) != len(m.Order) {
			return nil, fmt.Errorf("emojisets: %s has %d files for %d sets", k, len(files), len(m.Order))
		}
	}
	return &m, nil
}

// Canonical spells a hexcode the way the mapping keys it: upper case,
// without U+FE0F, code points padded to 4 digits as Emojibase writes them
// (spec 1: case and FE0F spelling do not matter; Twemoji's file names drop
// leading zeros). ok is false for anything but 1 to 12 hyphen-joined code
// points of 1 to 6 hex digits.
func Canonical(hex string) (string, bool) {
	if hex == "" || len(hex) > 12*7 {
		return "", false
	}
	parts := strings.Split(strings.ToUpper(hex), "-")
	if len(parts) > 12 {
		return "", false
	}
	out := parts[:0]
	for _, p := range parts {
		if len(p) < 1 || len(p) > 6 {
			return "", false
		}
		for i := 0; i < len(p); i++ {
			if c := p[i]; !(c >= '0' && c <= '9' || c >= 'A' && c <= 'F') {
				return "", false
			}
		}
		if strings.TrimLeft(p, "0") != "FE0F" {
			out = append(out, strings.TrimLeft(p, "0"))
		}
	}
	if len(out) == 0 {
		return "", false
	}
	for i, p := range out { // emojibase pads code points to 4 digits
		for len(p) < 4 {
			p = "0" + p
		}
		out[i] = p
	}
	return strings.Join(out, "-"), true
}

// Fetcher gets an upstream file (the platform's fetch).
type Fetcher interface {
	Get(ctx context.Context, url string) (status int, body []byte, err error)
}

// Cache is the location's edge cache of finished files, keyed by URL.
type Cache interface {
	Match(ctx context.Context, url string) (body []byte, ok bool, err error)
	Put(ctx context.Context, url string, body []byte) error
}

// Headers of spec 1's answers.
const (
	CacheImmutable = "public, max-age=31536000, immutable"
	CacheNotFound  = "public, max-age=86400"
	// CSP keeps scripts (and everything but inline styles and data
	// images) out when a file is opened directly in a browser.
	CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox"
)

// Config is what the route serves from: data the caller builds once from
// the mapping file and the platform (a plain struct, RATIONALE's rule).
type Config struct {
	Map      *Mapping
	Upstream string // SETS_UPSTREAM, a base URL ending in "/"
	Fetch    Fetcher
	Cache    Cache // nil: no edge cache
	// Background runs the cache write after the answer (waitUntil).
	Background func(ctx context.Context, fn func(context.Context))
}

// Server answers the route.
type Server struct{ cfg Config }

// Routes registers the route on r.
func (s *Server) Routes(r *httpx.Router) {
	r.Handle(http.MethodGet, "/v1/sets/:set/:file", s)
}

// ErrNoUpstream: SETS_UPSTREAM is not an absolute http(s) URL.
var ErrNoUpstream = errors.New("emojisets: SETS_UPSTREAM is not an http(s) URL")

// New checks the configuration.
func New(s Config) (*Server, error) {
	if s.Map == nil || s.Fetch == nil {
		return nil, errors.New("emojisets: no mapping or fetcher")
	}
	if !strings.HasPrefix(s.Upstream, "https://") && !strings.HasPrefix(s.Upstream, "http://") {
		return nil, ErrNoUpstream
	}
	if !strings.HasSuffix(s.Upstream, "/") {
		s.Upstream += "/"
	}
	if s.Background == nil {
		s.Background = func(ctx context.Context, fn func(context.Context)) { fn(ctx) }
	}
	return &Server{cfg: s}, nil
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	name, file := httpx.Param(r, "set"), httpx.Param(r, "file")
	idx := -1
	for i, n := range s.cfg.Map.Order {
		if n == name {
			idx = i
		}
	}
	if idx < 0 {
		fail(w, http.StatusNotFound, "unknown_set", "No hosted set is called "+quote(name)+"; sets: "+strings.Join(s.cfg.Map.Order, ", ")+".")
		return
	}
	hex, ok := strings.CutSuffix(file, ".svg")
	canon, valid := Canonical(hex)
	if !ok || !valid {
		fail(w, http.StatusBadRequest, "invalid_hexcode", "The path must end in an Emojibase hexcode and .svg, like 1F600.svg.")
		return
	}
	files, ok := s.cfg.Map.Emoji[canon]
	if !ok {
		fail(w, http.StatusNotFound, "unknown_emoji", canon+" is not an emoji of the pack or one of its single-tone variants.")
		return
	}
	stem := files[idx]
	if stem == "" {
		fail(w, http.StatusNotFound, "not_in_set", "The "+name+" set does not draw "+canon+".")
		return
	}
	set := s.cfg.Map.Sets[name]
	ctx := r.Context()
	key := "https://sets.cache/v1/sets/" + name + "/" + canon + ".svg"
	if s.cfg.Cache != nil {
		if body, ok, err := s.cfg.Cache.Match(ctx, key); err == nil && ok {
			serve(w, body, set.License)
			return
		}
	}
	status, body, err := s.cfg.Fetch.Get(ctx, s.cfg.Upstream+set.Path+stem+".svg")
	if err != nil || status != http.StatusOK {
		fail(w, http.StatusBadGateway, "upstream_unavailable", "The "+name+" file could not be fetched from its upstream; try again.")
		return
	}
	if s.cfg.Cache != nil {
		s.cfg.Background(ctx, func(ctx context.Context) { _ = s.cfg.Cache.Put(ctx, key, body) })
	}
	serve(w, body, set.License)
}

func serve(w http.ResponseWriter, body []byte, license string) {
	h := w.Header()
	h.Set("Content-Type", "image/svg+xml")
	h.Set("Cache-Control", CacheImmutable)
	h.Set("Link", "<"+license+`>; rel="license"`)
	h.Set("Content-Security-Policy", CSP)
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
}

// fail writes spec 1's { error, message }: 404s cacheable for a day, other
// errors never cached.
func fail(w http.ResponseWriter, status int, code, message string) {
	cc := "no-store"
	if status == http.StatusNotFound {
		cc = CacheNotFound
	}
	w.Header().Set("Cache-Control", cc)
	httpx.JSON(w, status, map[string]string{"error": code, "message": message})
}

func quote(s string) string {
	if len(s) > 40 {
		s = s[:40]
	}
	return fmt.Sprintf("%q", s)
}

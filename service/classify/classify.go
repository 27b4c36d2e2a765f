// Package classify is POST /v1/classify-image of spec 1: the image rules
// (JPEG or WebP by Content-Type and bytes, 256 KB, dimensions bounded from
// the header, X-Image-Hash, locale, limit), one vision model call through
// Workers AI, a tolerant reading of its answer, the label cache in KV,
// the fusion of engine/imagefuse, image_classifications metering and the
// overLimit and degraded flags. The image is processed in memory only:
// never stored, logged or cached (only its label is, under its hash).
package classify

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/emojisearch/emojisearch/engine"
	"github.com/emojisearch/emojisearch/engine/fusion"
	"github.com/emojisearch/emojisearch/engine/imagefuse"
	"github.com/emojisearch/emojisearch/service/httpx"
	"github.com/emojisearch/emojisearch/service/metering"
	"github.com/emojisearch/emojisearch/service/plans"
	"github.com/emojisearch/emojisearch/service/reactions"
	"github.com/emojisearch/emojisearch/service/search"
)

// Limits of spec 1.
const (
	DefaultLimit = 8
	MaxLimit     = 50
)

// Config wires a Service.
type Config struct {
	Packs       *search.Packs
	Vision      Vision            // nil: no vision model bound (every uncached answer is 503)
	Meaning     reactions.Meaning // embeds the caption; nil: no caption embedding
	Calibration fusion.Calibration
	Cache       KV           // the label cache; nil: none
	Meter       search.Meter // nil: nothing metered
	Background  func(ctx context.Context, fn func(context.Context))
}

// Service answers POST /v1/classify-image.
type Service struct{ cfg Config }

// New returns the service.
func New(cfg Config) *Service {
	if cfg.Background == nil {
		cfg.Background = func(ctx context.Context, fn func(context.Context)) { fn(ctx) }
	}
	return &Service{cfg: cfg}
}

// Response is spec 1's classification response.
type Response struct {
	Caption   string        `json:"caption"`
	Reaction  string        `json:"reaction"`
	Keywords  []string      `json:"keywords"`
	Results   []search.Item `json:"results"`
	Cached    bool          `json:"cached"`
	Degraded  bool          `json:"degraded"`
	OverLimit bool          `json:"overLimit"`
}

type params struct {
	image []byte
	hash  string
	limit int
}

// parse checks the request in this order: content type (400), size (413),
// hash, locale and limit (400), the image's header (400).
func parse(r *http.Request) (params, int, error) {
	var p params
	// The media type without parameters, case-insensitively (the mime
	// package would cost the Worker its tables for one comparison).
	ct, _, _ := strings.Cut(r.Header.Get("Content-Type"), ";")
	ct = strings.ToLower(strings.TrimSpace(ct))
	want := ""
	var err error
	switch {
	case ct == "image/jpeg":
		want = JPEG
	case ct == "image/webp":
		want = WebP
	}
	if want == "" {
		return p, http.StatusBadRequest, errors.New("Content-Type must be image/jpeg or image/webp")
	}
	if r.ContentLength > MaxBytes {
		return p, http.StatusRequestEntityTooLarge, fmt.Errorf("the image must be at most %d bytes", MaxBytes)
	}
	p.image, err = io.ReadAll(io.LimitReader(r.Body, MaxBytes+1))
	if err != nil {
		return p, http.StatusBadRequest, errors.New("the image could not be read")
	}
	if len(p.image) > MaxBytes {
		return p, http.StatusRequestEntityTooLarge, fmt.Errorf("the image must be at most %d bytes", MaxBytes)
	}
	if h := r.Header.Get("X-Image-Hash"); h != "" {
		if !isHex16(h) {
			return p, http.StatusBadRequest, errors.New("X-Image-Hash must be 16 hexadecimal characters (a 64-bit perceptual hash)")
		}
		p.hash = strings.ToLower(h)
	}
	q := httpx.Query(r)
	if _, err := search.ResolveLocale(q.Get("locale")); err != nil {
		return p, http.StatusBadRequest, err
	}
	p.limit = DefaultLimit
	if s := q.Get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > MaxLimit {
			return p, http.StatusBadRequest, fmt.Errorf("limit must be an integer from 1 to %d, got %q", MaxLimit, s)
		}
		p.limit = n
	}
	format, _, _, err := Sniff(p.image)
	if err != nil {
		return p, http.StatusBadRequest, err
	}
	if format != want {
		return p, http.StatusBadRequest, fmt.Errorf("%v: the bytes are %s, the Content-Type says %s", ErrUnreadable, format, ct)
	}
	return p, 0, nil
}

// CodeVisionUnavailable is the error code of the answer given when the
// vision model cannot label the image (503, Retry-After, not metered).
const CodeVisionUnavailable = "vision_unavailable"

// RetryAfterSeconds is the Retry-After of that answer: long enough for a
// passing capacity error of Workers AI to clear.
const RetryAfterSeconds = 30

// unavailable answers 503 in the sets route's coded error shape
// `{"error": code, "message": ...}`, with Retry-After.
func unavailable(w http.ResponseWriter) {
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Retry-After", strconv.Itoa(RetryAfterSeconds))
	httpx.JSON(w, http.StatusServiceUnavailable, map[string]string{
		"error":   CodeVisionUnavailable,
		"message": "The vision model could not label the image; retry after " + strconv.Itoa(RetryAfterSeconds) + " s.",
	})
}

func isHex16(s string) bool {
	if len(s) != 16 {
		return false
	}
	for _, c := range []byte(s) {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// ServeHTTP answers the route. A keyed call counts one
// image_classifications when its label came from the model or the label
// cache; over the limit the model is not called (a cached label is still
// served), and an answer without a model call is not counted (spec 1).
func (s *Service) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p, gate, ok := search.OpenMetered(w, r, parse, s.cfg.Meter, plans.ImageClassifications)
	if !ok {
		return
	}
	ctx := r.Context()
	caller, metered, over := gate.Caller, gate.Metered, gate.Over
	res := Response{Keywords: []string{}, Results: []search.Item{}, OverLimit: over}

	label, have := s.cachedLabel(ctx, p.hash)
	res.Cached = have
	if !have && !over && s.cfg.Vision != nil {
		answer, err := s.cfg.Vision.Describe(ctx, p.image)
		if err == nil {
			label, have = ParseLabel(answer)
		}
		if have && p.hash != "" && s.cfg.Cache != nil {
			value := MarshalLabel(label)
			s.cfg.Background(ctx, func(ctx context.Context) {
				_ = s.cfg.Cache.Put(ctx, CacheKey(p.hash), value, LabelLifetime)
			})
		}
	}
	p.image = nil // the image is not needed past the model call
	if !have && !over {
		// The vision model failed or answered nothing usable: an outage,
		// which an empty 200 would pass off as "nothing in this picture".
		// A code and Retry-After let the client retry; nothing is counted.
		unavailable(w)
		return
	}
	if !have {
		// Over the limit with no cached label: 200, overLimit (spec 1).
		httpx.JSON(w, http.StatusOK, res)
		return
	}
	if metered && !over {
		s.cfg.Meter.Count(caller, plans.ImageClassifications)
	}
	if metered {
		s.cfg.Meter.MaybeFlush(ctx, metering.Runner(s.cfg.Background))
	}
	res.Caption, res.Reaction = label.Caption, label.Reaction
	if len(label.Keywords) > 0 {
		res.Keywords = label.Keywords
	}
	res.Results, res.Degraded = s.fuse(ctx, label, p.limit)
	httpx.JSON(w, http.StatusOK, res)
}

// cachedLabel reads the label cache; a value that does not decode is a miss.
func (s *Service) cachedLabel(ctx context.Context, hash string) (Label, bool) {
	if hash == "" || s.cfg.Cache == nil {
		return Label{}, false
	}
	b, ok, err := s.cfg.Cache.Get(ctx, CacheKey(hash))
	if err != nil || !ok {
		return Label{}, false
	}
	l, err := UnmarshalLabel(b)
	return l, err == nil
}

// fuse ranks the label's emoji: the proposals, an English alias search per
// keyword, the emoji nearest to the caption. Degraded reports that the
// caption could not be embedded.
func (s *Service) fuse(ctx context.Context, l Label, limit int) ([]search.Item, bool) {
	in := imagefuse.Input{Proposed: l.Emoji, Calibration: s.cfg.Calibration}
	degraded := true
	if s.cfg.Meaning != nil && l.Caption != "" {
		emb, _, err := s.cfg.Meaning(ctx, l.Caption, "en")
		if emb != nil && (err == nil || errors.Is(err, search.ErrIncomplete)) {
			degraded = false
			for _, h := range emb.Nearest(16) {
				in.Nearest = append(in.Nearest, imagefuse.Hit{Emoji: h.Emoji, Score: h.Cosine})
			}
		}
	}
	if eng, _ := s.cfg.Packs.Engine(ctx, "en"); eng != nil {
		in.Known = func(e string) bool { _, ok := eng.Get(e); return ok }
		for _, k := range l.Keywords {
			out := eng.Search(k, engine.Options{Limit: 5, Locale: "en"})
			hits := make([]imagefuse.Hit, len(out.Results))
			for i, h := range out.Results {
				hits[i] = imagefuse.Hit{Emoji: h.Emoji, Score: h.Score * out.Confidence}
			}
			in.Keywords = append(in.Keywords, hits)
		}
	}
	items := []search.Item{}
	for _, r := range imagefuse.Fuse(in, limit) {
		src := "alias"
		if r.Semantic {
			src = "semantic"
		}
		items = append(items, search.Item{Emoji: r.Emoji, ID: engine.HexcodeOf(r.Emoji), Score: r.Score, Source: src})
	}
	return items, degraded
}

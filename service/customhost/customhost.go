// Package customhost serves custom emoji to clients (spec 1): the images,
// GET /v1/custom/:appId/:emojiId, and the custom pack, GET
// /v1/custom-pack. Neither is metered; images need no key.
//
// Images are served as stored, with the type the intake read from the
// bytes, immutable for a year (an id always names the same bytes), an
// ETag that is the xxhash64 of the bytes (If-None-Match answers 304), CORS
// *, Cross-Origin-Resource-Policy: cross-origin, nosniff, and a CSP that
// sandboxes the file when it is opened directly (an SVG then runs
// nothing, even if the intake missed something).
//
// The custom pack is the app's app-wide emoji plus, with ?tenant=, that
// tenant's (a tenant emoji replacing an app-wide one of the same
// shortcode), in the pack format of packs/FORMAT.md (part custom). It is
// cached at the edge for 60 s under app, xxhash64 of the tenant and the
// layout version, never the key, so every key of the app shares it.
package customhost

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/cespare/xxhash/v2"

	"github.com/emojisearch/emojisearch/engine/packfmt"
	"github.com/emojisearch/emojisearch/service/access"
	"github.com/emojisearch/emojisearch/service/emojistore"
	"github.com/emojisearch/emojisearch/service/httpx"
	"github.com/emojisearch/emojisearch/service/imageintake"
)

// Images reads stored images (R2); found false for a missing object.
type Images interface {
	Get(ctx context.Context, key string) (body []byte, found bool, err error)
}

// Cache is the edge cache (the Cache API), as service/search uses it.
type Cache interface {
	Get(ctx context.Context, key string) ([]byte, bool, error)
	Put(ctx context.Context, key string, body []byte, ttl time.Duration) error
}

// PackTTL is the custom pack's edge and browser lifetime.
const PackTTL = 60 * time.Second

// Config is what the host serves from: every field is needed together
// and built once by the composition root (a plain struct, RATIONALE's
// rule).
type Config struct {
	Store       *emojistore.Store
	Images      Images
	Cache       Cache // nil: no edge cache
	Guard       access.Guard
	PackVersion string
}

// Host serves both routes.
type Host struct{ cfg Config }

// New returns the host; Guard is the service's key guard (New makes it
// require a key).
func New(c Config) *Host {
	c.Guard = c.Guard.WithRequireKey()
	return &Host{cfg: c}
}

// Routes registers the routes on r.
func (h *Host) Routes(r *httpx.Router) {
	r.HandleFunc(http.MethodGet, "/v1/custom/:appId/:emojiId", h.image)
	r.Handle(http.MethodGet, "/v1/custom-pack", h.cfg.Guard.Wrap(http.HandlerFunc(h.pack)))
}

// ImageCSP sandboxes a file opened directly: no script, no fetches but
// embedded data images, inline styles (SVG editors write them).
const ImageCSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; sandbox"

func (h *Host) image(w http.ResponseWriter, r *http.Request) {
	hd := w.Header()
	hd.Set("Access-Control-Allow-Origin", "*")
	hd.Set("Cross-Origin-Resource-Policy", "cross-origin")
	e, err := h.cfg.Store.Get(r.Context(), httpx.Param(r, "appId"), httpx.Param(r, "emojiId"))
	if emojistore.IsNotFound(err) {
		httpx.Error(w, http.StatusNotFound, "No such custom emoji")
		return
	}
	if err != nil {
		hd.Set("Retry-After", "10")
		httpx.Error(w, http.StatusServiceUnavailable, "The custom emoji store cannot be read; try again")
		return
	}
	body, found, err := h.cfg.Images.Get(r.Context(), e.ImageKey)
	if err != nil {
		hd.Set("Retry-After", "10")
		httpx.Error(w, http.StatusServiceUnavailable, "The custom emoji store cannot be read; try again")
		return
	}
	if !found {
		httpx.Error(w, http.StatusNotFound, "No such custom emoji")
		return
	}
	etag := `"` + imageintake.Hash(body) + `"`
	hd.Set("ETag", etag)
	hd.Set("Cache-Control", "public, max-age=31536000, immutable")
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Content-Security-Policy", ImageCSP)
	if etagMatch(r.Header.Get("If-None-Match"), etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	hd.Set("Content-Type", e.ContentType)
	hd.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(body)
	}
}

// etagMatch applies If-None-Match: "*" or any listed tag, weak or strong.
func etagMatch(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == "*" || t == etag {
			return true
		}
	}
	return false
}

// customPack is the custom pack file (packs/FORMAT.md, "The custom pack").
type customPack struct {
	Format        string             `json:"format"`
	FormatVersion int                `json:"formatVersion"`
	PackVersion   string             `json:"packVersion"`
	Locale        string             `json:"locale"`
	Part          string             `json:"part"`
	Layout        int                `json:"layout"`
	AppID         *string            `json:"appId"`
	Tenant        *string            `json:"tenant"`
	Fields        []string           `json:"fields"`
	Weights       map[string]float64 `json:"weights"`
	RowIndex      map[string]int     `json:"rowIndex"`
	Groups        []string           `json:"groups"`
	Rows          [][]any            `json:"rows"`
}

var customRowIndex = func() map[string]int {
	m := map[string]int{"imageUrl": packfmt.ColImageURL}
	for k, v := range packfmt.RowIndex {
		m[k] = v
	}
	return m
}()

func (h *Host) emptyPack() customPack {
	return customPack{Format: packfmt.Format, FormatVersion: packfmt.FormatVersion, PackVersion: h.cfg.PackVersion,
		Locale: "und", Part: packfmt.PartCustom, Layout: packfmt.CustomLayout, Fields: packfmt.Fields[:],
		Weights: packfmt.DefaultWeights, RowIndex: customRowIndex, Groups: []string{"custom"}, Rows: [][]any{}}
}

// MaxTenant is the longest `tenant` parameter (spec 1).
const MaxTenant = 128

func (h *Host) pack(w http.ResponseWriter, r *http.Request) {
	c, _ := access.FromContext(r.Context())
	q := httpx.Query(r)
	tenant := q.Get("tenant")
	if utf8.RuneCountInString(tenant) > MaxTenant {
		httpx.Error(w, http.StatusBadRequest, "tenant is at most 128 characters")
		return
	}
	if c.Dev {
		h.writePack(w, "public, max-age=60", mustJSON(h.emptyPack()))
		return
	}
	if c.Anonymous { // the key store could not be read
		h.writePack(w, "no-store", mustJSON(h.emptyPack()))
		return
	}
	key := "https://custom-pack.internal/" + c.AppID + "/" + strconv.FormatUint(xxhash.Sum64String(tenant), 16) +
		"/v" + strconv.Itoa(packfmt.CustomLayout)
	if h.cfg.Cache != nil {
		if body, ok, err := h.cfg.Cache.Get(r.Context(), key); err == nil && ok {
			h.writePack(w, "public, max-age=60", body)
			return
		}
	}
	list, err := h.cfg.Store.List(r.Context(), c.AppID, nil)
	if err != nil {
		h.writePack(w, "no-store", mustJSON(h.emptyPack()))
		return
	}
	p := h.emptyPack()
	p.AppID = &c.AppID
	if tenant != "" {
		p.Tenant = &tenant
	}
	base := emojistore.BaseURL(r)
	for _, e := range visible(list, tenant) {
		p.Rows = append(p.Rows, row(e, base))
	}
	body := mustJSON(p)
	if h.cfg.Cache != nil {
		_ = h.cfg.Cache.Put(r.Context(), key, body, PackTTL)
	}
	h.writePack(w, "public, max-age=60", body)
}

// visible applies spec 1's custom emoji rules 3 and 4: app-wide emoji,
// replaced by the tenant's of the same shortcode; an unknown tenant adds
// nothing. The order is the store's (newest first).
func visible(list []emojistore.Emoji, tenant string) []emojistore.Emoji {
	own := map[string]bool{}
	if tenant != "" {
		for _, e := range list {
			if e.TenantExternalID == tenant {
				own[e.Shortcode] = true
			}
		}
	}
	var out []emojistore.Emoji
	for _, e := range list {
		switch {
		case e.TenantID == "" && !own[e.Shortcode]:
			out = append(out, e)
		case tenant != "" && e.TenantExternalID == tenant:
			out = append(out, e)
		}
	}
	return out
}

// row is one custom pack row: the pack columns, then the image address.
func row(e emojistore.Emoji, base string) []any {
	r := make([]any, packfmt.NumCols+1)
	for i := range r {
		r[i] = ""
	}
	clean := strings.NewReplacer(packfmt.Sep, " ")
	aliases := make([]string, len(e.Aliases))
	for i, a := range e.Aliases {
		aliases[i] = clean.Replace(a)
	}
	r[packfmt.ColID] = packfmt.CustomIDPrefix + e.ID
	r[packfmt.ColEmoji] = ":" + e.Shortcode + ":"
	r[packfmt.ColGroup], r[packfmt.ColSubgroup], r[packfmt.ColVersion], r[packfmt.ColSkins], r[packfmt.ColPrior] = 0, 0, 0, 0, 0
	r[packfmt.ColLabel] = e.Shortcode
	r[packfmt.ColShortcode] = e.Shortcode
	r[packfmt.ColAlias] = strings.Join(aliases, packfmt.Sep)
	r[packfmt.ColImageURL] = e.ImageURL(base)
	return r
}

func (h *Host) writePack(w http.ResponseWriter, cacheControl string, body []byte) {
	hd := w.Header()
	hd.Set("Cache-Control", cacheControl)
	hd.Set("Content-Type", httpx.ContentTypeJSON)
	hd.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic("customhost: " + err.Error()) // only plain data is marshalled
	}
	return b
}

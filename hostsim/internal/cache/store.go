package cache

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/emojisearch/emojisearch/hostsim/internal/filestore"
)

// Request is the cache key side of a call: the URL is the key; the method
// and headers decide how a match is answered.
type Request struct {
	Method string // "" means GET
	URL    string
	Header http.Header
}

// Response is a response to store or a matched one.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// MatchOptions mirror CacheQueryOptions.
type MatchOptions struct {
	// IgnoreMethod lets a non-GET request match (or delete) the GET entry.
	IgnoreMethod bool
}

// Storage is the `caches` global: the default cache and the named ones, each
// persisted in its own directory under one root. It is safe for concurrent
// use.
type Storage struct {
	dir  string
	env  filestore.Env
	def  *Cache
	mu   sync.Mutex
	byID map[string]*Cache
}

// Cache is one cache (caches.default or caches.open(name)).
type Cache struct {
	store *filestore.Store
	env   filestore.Env
}

// Config configures OpenWithConfig: WithClock (expiry and Age tested without sleeping) and WithRand (multipart boundaries). It is an immutable
// value: start from NewConfig; every With… returns a changed copy.
type Config = filestore.Config

// NewConfig is the default: time.Now and crypto/rand.
func NewConfig() Config { return filestore.NewConfig() }

// Open opens (creating if needed) the caches stored under dir.
func Open(dir string) (*Storage, error) { return OpenWithConfig(dir, NewConfig()) }

// OpenWithConfig is Open with a Config.
func OpenWithConfig(dir string, cfg Config) (*Storage, error) {
	env, err := filestore.NewEnv(dir, cfg)
	if err != nil {
		return nil, fmt.Errorf("cache: %w", err)
	}
	s := &Storage{dir: dir, env: env, byID: map[string]*Cache{}}
	def, err := s.open("default")
	if err != nil {
		return nil, err
	}
	s.def = def
	return s, nil
}

// Default is caches.default.
func (s *Storage) Default() *Cache { return s.def }

// Named is caches.open(name). Named caches never share entries with the
// default cache or with each other, as in miniflare; names must be shorter
// than 1024 bytes, as workerd requires.
func (s *Storage) Named(name string) (*Cache, error) {
	if err := validateName(name); err != nil {
		return nil, err
	}
	sum := sha256.Sum256([]byte(name))
	return s.open("named-" + hex.EncodeToString(sum[:]))
}

func (s *Storage) open(id string) (*Cache, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, ok := s.byID[id]; ok {
		return c, nil
	}
	store, err := filestore.Open(filepath.Join(s.dir, id), s.env.Log)
	if err != nil {
		return nil, fmt.Errorf("cache: %w", err)
	}
	c := &Cache{store: store, env: s.env}
	s.byID[id] = c
	return c, nil
}

// storedEntry is the metadata kept beside a cached body.
type storedEntry struct {
	Status int         `json:"status"`
	Header http.Header `json:"header"`
	// StoredAt and InitialAge give the Age header at match time.
	StoredAt   int64   `json:"storedAtMs"`
	InitialAge float64 `json:"initialAgeSeconds"`
}

// Put is cache.put. It refuses what workerd refuses (non-GET requests, 206
// responses, Vary containing "*") with an *Error, silently ignores 304s, and
// silently stores nothing when the response is not cacheable (see decide).
func (c *Cache) Put(ctx context.Context, req Request, resp Response) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	req.Header, resp.Header = canonical(req.Header), canonical(resp.Header)
	if err := validatePut(req, resp); err != nil {
		return err
	}
	if resp.Status == http.StatusNotModified {
		return nil
	}
	now := c.env.Now()
	d := decide(req, resp, now)
	if !d.store {
		return nil
	}
	meta, err := json.Marshal(storedEntry{Status: resp.Status, Header: d.header, StoredAt: now.UnixMilli(), InitialAge: d.initialAge})
	if err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	rec := filestore.Record{Key: req.URL, Value: resp.Body, Expiration: now.Add(d.ttl), Metadata: meta}
	if err := c.store.Put(rec); err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	return nil
}

// Match is cache.match: the stored response for req.URL with
// CF-Cache-Status: HIT and Age, answered as a cache answers req (a 304 for
// a matching If-None-Match or If-Modified-Since, 206 for a Range, 416 for an
// unsatisfiable Range). Vary is ignored, as miniflare ignores it. A miss
// (absent, expired, or a non-GET request without IgnoreMethod) is nil, false.
func (c *Cache) Match(ctx context.Context, req Request, opts MatchOptions) (*Response, bool, error) {
	if err := ctx.Err(); err != nil {
		return nil, false, err
	}
	if !opts.IgnoreMethod && !isGET(req.Method) {
		return nil, false, nil
	}
	if err := validateURL(req.URL); err != nil {
		return nil, false, err
	}
	now := c.env.Now()
	rec, ok, err := c.store.Get(req.URL, now)
	if err != nil || !ok {
		return nil, false, wrap(err)
	}
	var entry storedEntry
	if err := json.Unmarshal(rec.Metadata, &entry); err != nil {
		// A damaged entry is a miss from now on (package filestore).
		c.store.Quarantine(req.URL, fmt.Errorf("cache: entry %q: %w: %v", req.URL, filestore.ErrCorrupt, err))
		return nil, false, nil
	}
	req.Header = canonical(req.Header)
	resp, err := answer(req, entry, rec.Value, ageAt(entry, now), c.env.Rand)
	if err != nil {
		return nil, false, err
	}
	return resp, true, nil
}

// Delete is cache.delete: true when a live entry was removed. A non-GET
// request deletes nothing unless IgnoreMethod is set.
func (c *Cache) Delete(ctx context.Context, req Request, opts MatchOptions) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	if !opts.IgnoreMethod && !isGET(req.Method) {
		return false, nil
	}
	if err := validateURL(req.URL); err != nil {
		return false, err
	}
	deleted, err := c.store.Delete(req.URL, c.env.Now())
	return deleted, wrap(err)
}

// ageAt is the Age header value now: the age at put plus the time in cache,
// rounded like Math.round.
func ageAt(e storedEntry, now time.Time) string {
	resident := float64(now.UnixMilli()-e.StoredAt) / 1000
	return strconv.FormatInt(int64(math.Floor(e.InitialAge+resident+0.5)), 10)
}

func wrap(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("cache: %w", err)
}

// Package local fills app.Platform natively: static assets from folders
// laid out as build.sh lays out the Worker's, in-memory stand-ins for KV,
// R2 and the Cache API, and the local embedding model. Native tests of the
// composed app, the evaluation commands and the benchmarks run the same
// service the Worker runs over it.
package local

import (
	"bytes"
	"context"
	"encoding/json"
	"mime"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/emojisearch/emojisearch/engine/embed"
	"github.com/emojisearch/emojisearch/packs/dist"
	"github.com/emojisearch/emojisearch/service/meaning"
	"github.com/emojisearch/emojisearch/service/search"
	"github.com/emojisearch/emojisearch/service/staticfiles"
)

// Mounts maps URL path prefixes (ending in "/") to folders.
type Mounts map[string]string

// PackMounts serves the pack folder dir as pack version version (the pack
// and vector files, and its culture/ folder), as build.sh copies it.
func PackMounts(dir, version string) Mounts {
	return Mounts{
		"/v1/pack/" + version + "/":    dir,
		"/v1/culture/" + version + "/": filepath.Join(dir, "culture"),
	}
}

// RepoMounts are the assets of the checkout at root, as build.sh lays
// them out: assets/, the built pack version, the hosted sets' map and the
// dashboard's page.
func RepoMounts(root string) Mounts {
	m := PackMounts(filepath.Join(root, "packs", "dist", dist.Version), dist.Version)
	m["/"] = filepath.Join(root, "assets")
	m["/sets/"] = filepath.Join(root, "packs", "sets")
	m["/dashboard/"] = filepath.Join(root, "dashboard")
	return m
}

// Assets answers GET and HEAD of the files under the mounts (the longest
// prefix wins; a folder answers its index.html), 404 for anything else,
// like the asset server.
func Assets(mounts Mounts) staticfiles.Source {
	prefixes := make([]string, 0, len(mounts))
	for p := range mounts {
		prefixes = append(prefixes, p)
	}
	slices.SortFunc(prefixes, func(a, b string) int { return len(b) - len(a) })
	return func(_ context.Context, method, urlPath string, _ http.Header) (*staticfiles.File, error) {
		missing := &staticfiles.File{Status: http.StatusNotFound, Header: http.Header{}}
		if method != "" && method != http.MethodGet && method != http.MethodHead {
			return &staticfiles.File{Status: http.StatusMethodNotAllowed, Header: http.Header{}}, nil
		}
		for _, p := range prefixes {
			rest, ok := strings.CutPrefix(urlPath, p)
			if !ok {
				continue
			}
			if rest == "" || strings.HasSuffix(rest, "/") {
				rest += "index.html"
			}
			clean := path.Clean("/" + rest)
			b, err := os.ReadFile(filepath.Join(mounts[p], filepath.FromSlash(clean)))
			if os.IsNotExist(err) {
				return missing, nil
			}
			if err != nil {
				return nil, err
			}
			h := http.Header{}
			if ct := mime.TypeByExtension(path.Ext(clean)); ct != "" {
				h.Set("Content-Type", ct)
			}
			if method == http.MethodHead {
				b = nil
			}
			return &staticfiles.File{Status: http.StatusOK, Header: h, Body: b}, nil
		}
		return missing, nil
	}
}

// Vars are wrangler.toml's vars as a map.
type Vars map[string]string

// Get reads a var ("" when unset).
func (v Vars) Get(name string) string { return v[name] }

// Model loads a local embedding model file: the backend and its
// `<model_key>@<dims>` name (EMBED_MODEL).
func Model(path string) (meaning.Embedder, string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, "", err
	}
	em, err := embed.Load(b)
	if err != nil {
		return nil, "", err
	}
	return meaning.Local{Model: em}, em.Name(), nil
}

// Emoji sends req to h and returns the emoji of a 200 answer's results
// (search, reactions and image answers share the shape), best first; nil
// for any other answer.
func Emoji(h http.Handler, req *http.Request) []string {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		return nil
	}
	var res search.Response
	if json.Unmarshal(rec.Body.Bytes(), &res) != nil {
		return nil
	}
	out := make([]string, len(res.Results))
	for i, r := range res.Results {
		out[i] = r.Emoji
	}
	return out
}

// PostJSON is a POST of body as JSON to the local host.
func PostJSON(path string, body any) *http.Request {
	b, _ := json.Marshal(body)
	return httptest.NewRequest(http.MethodPost, "http://localhost"+path, bytes.NewReader(b))
}

// KV is an in-memory KV namespace; entries expire by TTL.
type KV struct {
	mu sync.Mutex
	m  map[string]kvEntry
}

type kvEntry struct {
	value   []byte
	expires time.Time
}

func (k *KV) Get(_ context.Context, key string) ([]byte, bool, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	e, ok := k.m[key]
	if !ok || time.Now().After(e.expires) {
		return nil, false, nil
	}
	return e.value, true, nil
}

func (k *KV) Put(_ context.Context, key string, value []byte, ttl time.Duration) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.m == nil {
		k.m = map[string]kvEntry{}
	}
	k.m[key] = kvEntry{slices.Clone(value), time.Now().Add(ttl)}
	return nil
}

// memory is a locked map of byte values, the store of Objects and Cache.
type memory struct {
	mu sync.Mutex
	m  map[string][]byte
}

func (m *memory) get(key string) ([]byte, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	b, ok := m.m[key]
	return b, ok
}

func (m *memory) put(key string, body []byte) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.m == nil {
		m.m = map[string][]byte{}
	}
	m.m[key] = slices.Clone(body)
}

// remove deletes keys and reports whether any was there.
func (m *memory) remove(keys ...string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	found := false
	for _, k := range keys {
		_, ok := m.m[k]
		found = found || ok
		delete(m.m, k)
	}
	return found
}

// Objects is an in-memory object bucket.
type Objects struct{ mem memory }

func (o *Objects) Get(_ context.Context, key string) ([]byte, bool, error) {
	b, ok := o.mem.get(key)
	return b, ok, nil
}

func (o *Objects) Put(_ context.Context, key string, body []byte, _ string, _ map[string]string) error {
	o.mem.put(key, body)
	return nil
}

// List returns every key under prefix, sorted as R2 lists them.
func (o *Objects) List(_ context.Context, prefix string) ([]string, error) {
	o.mem.mu.Lock()
	defer o.mem.mu.Unlock()
	var out []string
	for k := range o.mem.m {
		if strings.HasPrefix(k, prefix) {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out, nil
}

func (o *Objects) Delete(_ context.Context, keys []string) error {
	o.mem.remove(keys...)
	return nil
}

// Cache is an in-memory edge cache. It keeps entries without reading
// their lifetime: a test's process is shorter than any of them.
type Cache struct{ mem memory }

func (c *Cache) Match(_ context.Context, url string) ([]byte, bool, error) {
	b, ok := c.mem.get(url)
	return b, ok, nil
}

func (c *Cache) Put(_ context.Context, url string, _ http.Header, body []byte) error {
	c.mem.put(url, body)
	return nil
}

func (c *Cache) Delete(_ context.Context, url string) (bool, error) {
	return c.mem.remove(url), nil
}

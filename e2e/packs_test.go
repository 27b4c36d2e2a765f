package e2e

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Packs are static assets under /v1/pack/<version>/ with the immutable
// headers of spec 1; anything else there is a 404 that is never cached.
func TestPacksAreImmutableStaticFiles(t *testing.T) {
	version := get(t, "/v1/health").JSON(t)["packVersion"].(string)
	base := "/v1/pack/" + version + "/"
	res := get(t, base+"manifest.json")
	require.Equal(t, 200, res.Status, string(res.Body))
	var manifest struct {
		PackVersion string   `json:"packVersion"`
		Locales     []string `json:"locales"`
		Files       map[string]struct {
			SHA256 string `json:"sha256"`
		} `json:"files"`
		Indexes map[string]struct {
			SHA256 string `json:"sha256"`
		} `json:"indexes"`
	}
	require.NoError(t, json.Unmarshal(res.Body, &manifest))
	assert.Equal(t, version, manifest.PackVersion, "health reports the version served")
	assert.Len(t, manifest.Locales, 11)

	for _, name := range []string{"manifest.json", "pack.en.json", "pack.zh.ext.json"} {
		r := get(t, base+name)
		require.Equal(t, 200, r.Status, name)
		assert.Equal(t, "public, max-age=31536000, immutable", r.Header.Get("Cache-Control"), name)
		assert.Equal(t, "*", r.Header.Get("Access-Control-Allow-Origin"), name)
		assert.Contains(t, r.Header.Get("Content-Type"), "application/json", name)
		if f, listed := manifest.Files[name]; listed {
			sum := sha256.Sum256(r.Body)
			assert.Equal(t, f.SHA256, hex.EncodeToString(sum[:]), "%s matches its manifest hash", name)
		}
	}
	// The English core pack's binary index and the device indexes the
	// client's loadPacks fetches by default (packs/FORMAT.md "Core index",
	// "Device index"), and the associations' part indexes the service adds
	// ("Associations"), listed in the manifest and served like the packs.
	for name, magic := range map[string]string{"index.en.core.bin": "ESIDX\x00\x00\x00", "device.en.bin": "ESDEV\x00\x00\x00", "device.pt.bin": "ESDEV\x00\x00\x00",
		"index.en.assoc.bin": "ESIDX\x00\x00\x00", "index.fr.assoc.bin": "ESIDX\x00\x00\x00"} {
		r := get(t, base+name)
		require.Equal(t, 200, r.Status, name)
		assert.Equal(t, "public, max-age=31536000, immutable", r.Header.Get("Cache-Control"), name)
		assert.Equal(t, "*", r.Header.Get("Access-Control-Allow-Origin"), name)
		assert.Equal(t, "application/octet-stream", r.Header.Get("Content-Type"), name)
		sum := sha256.Sum256(r.Body)
		require.Contains(t, manifest.Indexes, name)
		assert.Equal(t, manifest.Indexes[name].SHA256, hex.EncodeToString(sum[:]), "%s matches its manifest hash", name)
		assert.Equal(t, magic, string(r.Body[:8]), name)
	}

	for _, path := range []string{base + "pack.xx.json", base + "secrets.txt", "/v1/pack/no-such-version/manifest.json", "/v1/pack/"} {
		r := get(t, path)
		assert.Equal(t, 404, r.Status, path)
		assert.Equal(t, "no-store", r.Header.Get("Cache-Control"), path)
		assert.Equal(t, "*", r.Header.Get("Access-Control-Allow-Origin"), path)
	}
	assert.Equal(t, 404, get(t, "/_headers").Status, "the rules file itself is never served")
}

// Culture files are static assets too, never immutable (a deploy can change
// them under one pack version).
func TestCultureFilesAreStatic(t *testing.T) {
	version := get(t, "/v1/health").JSON(t)["packVersion"].(string)
	base := "/v1/culture/" + version + "/"
	index := get(t, base+"index.json")
	require.Equal(t, 200, index.Status, string(index.Body))
	for _, name := range []string{"index.json", "culture.en.json", "culture.hi.json", "culture.zh.json"} {
		r := get(t, base+name)
		require.Equal(t, 200, r.Status, name)
		assert.Equal(t, "public, max-age=3600", r.Header.Get("Cache-Control"), name)
		assert.Equal(t, "*", r.Header.Get("Access-Control-Allow-Origin"), name)
		var file map[string]any
		require.NoError(t, json.Unmarshal(r.Body, &file), name)
	}
	missing := get(t, base+"culture.xx.json")
	assert.Equal(t, 404, missing.Status, "a locale without a culture file")
	assert.Equal(t, "*", missing.Header.Get("Access-Control-Allow-Origin"))
}

// Another method than GET or HEAD on a static file outside the packs is
// answered by the asset server before the Worker runs: 405, empty body, with
// the _headers rules of the path, so it names the right methods (spec 1's
// 405 rule) and carries CORS where the file does. Both runtimes must answer
// alike.
func TestStaticFilesAnswerOtherMethods405(t *testing.T) {
	cases := []struct {
		method, path string
		cors         bool
	}{
		{"PATCH", "/client/index.js", true},
		{"POST", "/", false},
		{"OPTIONS", "/robots.txt", false},
	}
	for _, c := range cases {
		t.Run(c.method+" "+c.path, func(t *testing.T) {
			r := call(t, c.method, c.path, []byte("{}"), "Origin", "https://example.org")
			require.Equal(t, 405, r.Status, string(r.Body))
			assert.Empty(t, r.Body)
			assert.Equal(t, "GET, HEAD", r.Header.Get("Allow"))
			want := ""
			if c.cors {
				want = "*"
			}
			assert.Equal(t, want, r.Header.Get("Access-Control-Allow-Origin"))
			ok := get(t, c.path)
			require.Equal(t, 200, ok.Status, "%s is a static file", c.path)
			assert.Equal(t, "GET, HEAD", ok.Header.Get("Allow"))
		})
	}
	// A path with no file still belongs to the Worker and its own 405 rule.
	r := call(t, "DELETE", "/v1/health", nil)
	assert.Equal(t, 405, r.Status)
	assert.Equal(t, "GET, HEAD", r.Header.Get("Allow"))
}

// Pack and culture files reach the Worker first (run_worker_first): another
// method than GET or HEAD is the service's 405 in spec 1's error shape,
// never cached, while GET and HEAD keep the asset server's answer
// (TestPacksAreImmutableStaticFiles); a preflight is the service's 204.
func TestPackAndCultureFilesAnswerOtherMethodsInErrorShape(t *testing.T) {
	version := get(t, "/v1/health").JSON(t)["packVersion"].(string)
	for _, c := range []struct{ method, path string }{
		{"POST", "/v1/pack/" + version + "/manifest.json"},
		{"PUT", "/v1/pack/" + version + "/pack.en.json"},
		{"PATCH", "/v1/pack/" + version + "/index.en.core.bin"},
		{"DELETE", "/v1/culture/" + version + "/culture.en.json"},
		{"POST", "/v1/culture/" + version + "/index.json"},
	} {
		t.Run(c.method+" "+c.path, func(t *testing.T) {
			r := call(t, c.method, c.path, []byte("{}"), "Origin", "https://example.org")
			require.Equal(t, 405, r.Status, string(r.Body))
			assert.Equal(t, "GET, HEAD", r.Header.Get("Allow"))
			assert.Equal(t, "no-store", r.Header.Get("Cache-Control"))
			assert.Equal(t, "*", r.Header.Get("Access-Control-Allow-Origin"))
			assert.Equal(t, "application/json; charset=utf-8", r.Header.Get("Content-Type"))
			assert.Contains(t, r.JSON(t)["error"], c.method)
			ok := get(t, c.path)
			require.Equal(t, 200, ok.Status, "%s is a static file", c.path)
			assert.NotEqual(t, "no-store", ok.Header.Get("Cache-Control"))
		})
	}
	pre := call(t, "OPTIONS", "/v1/pack/"+version+"/manifest.json", nil, "Origin", "https://example.org", "Access-Control-Request-Method", "GET")
	require.Equal(t, 204, pre.Status)
	assert.Equal(t, "GET, HEAD", pre.Header.Get("Access-Control-Allow-Methods"))
	assert.Equal(t, "*", pre.Header.Get("Access-Control-Allow-Origin"))
}

// HEAD and If-None-Match pass through the Worker to the asset server: the
// same ETag, no body, and 304 for the ETag a client holds.
func TestPackFilesKeepHeadAndETag(t *testing.T) {
	version := get(t, "/v1/health").JSON(t)["packVersion"].(string)
	path := "/v1/pack/" + version + "/pack.en.json"
	full := get(t, path)
	require.Equal(t, 200, full.Status)
	etag := full.Header.Get("ETag")
	require.NotEmpty(t, etag)
	head := call(t, "HEAD", path, nil)
	require.Equal(t, 200, head.Status)
	assert.Empty(t, head.Body)
	assert.Equal(t, etag, head.Header.Get("ETag"))
	assert.Equal(t, full.Header.Get("Content-Type"), head.Header.Get("Content-Type"))
	same := call(t, "GET", path, nil, "If-None-Match", etag)
	assert.Equal(t, 304, same.Status)
	assert.Empty(t, same.Body)
	assert.Equal(t, "public, max-age=31536000, immutable", same.Header.Get("Cache-Control"))
}

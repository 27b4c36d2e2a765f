package e2e

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// relatedIndex holds the related words of the English extension pack; the
// built-in English index leaves them out (packs/FORMAT.md, "Part index").
const relatedIndex = "index.en.related.bin"

// The related words are a static file like the other indexes: immutable,
// listed with its hash in the manifest.
func TestRelatedIndexIsServed(t *testing.T) {
	version := get(t, "/v1/health").JSON(t)["packVersion"].(string)
	base := "/v1/pack/" + version + "/"
	var manifest struct {
		Indexes map[string]struct {
			SHA256 string `json:"sha256"`
			Bytes  int    `json:"bytes"`
		} `json:"indexes"`
	}
	require.NoError(t, json.Unmarshal(get(t, base+"manifest.json").Body, &manifest))
	listed, ok := manifest.Indexes[relatedIndex]
	require.True(t, ok, "the manifest lists %s", relatedIndex)
	r := get(t, base+relatedIndex)
	require.Equal(t, 200, r.Status)
	assert.Equal(t, "public, max-age=31536000, immutable", r.Header.Get("Cache-Control"))
	assert.Equal(t, "*", r.Header.Get("Access-Control-Allow-Origin"))
	sum := sha256.Sum256(r.Body)
	assert.Equal(t, listed.SHA256, hex.EncodeToString(sum[:]))
	assert.Equal(t, listed.Bytes, len(r.Body))
}

// snowAliases lists the snow emoji the alias tier gave: "thawing" is a
// related word of ⛄ (then 🫠), which only the related index holds.
func snowAliases(items []map[string]any) []string {
	var out []string
	for _, it := range items {
		if e := strings.ReplaceAll(it["emoji"].(string), "\uFE0F", ""); it["source"] == "alias" && strings.Contains("⛄❄☃", e) {
			out = append(out, e)
		}
	}
	return out
}

// The related words fail to load on a fresh instance: every locale answers
// from its engine without them, uncached, and the next request after the
// fault clears loads them (spec 1 States, as for a locale pack).
func TestSearchRelatedIndexFails(t *testing.T) {
	// A fresh instance, which has not loaded the related words yet.
	before := get(t, "/__diag/instance").JSON(t)
	time.Sleep(5 * time.Millisecond)
	require.Contains(t, []int{202, 500}, call(t, "POST", "/__diag/exit", nil).Status)
	eventually(t, 10*time.Second, func() bool {
		res := get(t, "/__diag/instance")
		return res.Status == 200 && res.JSON(t)["startedAt"] != before["startedAt"]
	}, "no fresh instance after the Go program exited")

	require.Equal(t, 200, call(t, "PUT", "/__diag/faults/assets?files="+relatedIndex, nil).Status)
	t.Cleanup(func() { call(t, "DELETE", "/__diag/faults/assets", nil) })
	for _, locale := range []string{"en", "tr", "en"} {
		r := get(t, "/v1/search?locale="+locale+"&q="+fresh("thawing"))
		require.Equal(t, 200, r.Status, string(r.Body))
		body := r.JSON(t)
		assert.Equal(t, "no-store", r.Header.Get("Cache-Control"), locale)
		assert.Equal(t, locale, body["aliasLocale"], "%s: the alias tier answers without the related words", locale)
		assert.Equal(t, false, body["degraded"], locale)
		items := results(t, body)
		require.NotEmpty(t, items, locale)
		assert.Empty(t, snowAliases(items), "%s: no related word without the related index", locale)
	}
	kedi := get(t, "/v1/search?locale=tr&q="+fresh("kedi"))
	assert.Equal(t, "no-store", kedi.Header.Get("Cache-Control"), "every answer is incomplete meanwhile")
	assert.Equal(t, "alias", results(t, kedi.JSON(t))[0]["source"])

	call(t, "DELETE", "/__diag/faults/assets", nil)
	for _, locale := range []string{"en", "tr"} {
		ok := get(t, "/v1/search?locale="+locale+"&q="+fresh("thawing"))
		require.Equal(t, 200, ok.Status, string(ok.Body))
		assert.Equal(t, "public, max-age=3600, s-maxage=86400", ok.Header.Get("Cache-Control"), "%s: the next request loads them", locale)
		items := results(t, ok.JSON(t))
		require.NotEmpty(t, items)
		assert.NotEmpty(t, snowAliases(items[:1]), "%s: a snow emoji first, from the related words: %v", locale, items)
	}
}

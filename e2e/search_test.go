package e2e

import (
	"fmt"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSearchAnswersAndCaches(t *testing.T) {
	q := fmt.Sprintf("joy&limit=%d", 10+time.Now().Nanosecond()%30) // a fresh cache key per run
	r := get(t, "/v1/search?q="+q)
	require.Equal(t, 200, r.Status, string(r.Body))
	body := r.JSON(t)
	results := body["results"].([]any)
	require.NotEmpty(t, results)
	first := results[0].(map[string]any)
	assert.Equal(t, "😂", first["emoji"])
	assert.Equal(t, "alias", first["source"])
	assert.Equal(t, "en", body["aliasLocale"])
	assert.Equal(t, false, body["cached"])
	assert.Equal(t, "public, max-age=3600, s-maxage=86400", r.Header.Get("Cache-Control"))
	assert.Regexp(t, `total;dur=[0-9.]+`, r.Header.Get("Server-Timing"))
	assert.Equal(t, "*", r.Header.Get("Access-Control-Allow-Origin"))

	// The answer is put into the shared cache after the response (waitUntil).
	eventually(t, 10*time.Second, func() bool {
		return get(t, "/v1/search?q="+q).JSON(t)["cached"] == true
	}, "the second identical search never came from the shared cache")
	withCulture := get(t, "/v1/search?culture=1&q="+q)
	assert.Equal(t, true, withCulture.JSON(t)["cached"], "culture does not split the cache")
	assert.Equal(t, "public, max-age=3600", withCulture.Header.Get("Cache-Control"))
}

func TestSearchLocales(t *testing.T) {
	fr := get(t, "/v1/search?locale=fr-FR&q="+url.QueryEscape("chat"))
	require.Equal(t, 200, fr.Status, string(fr.Body))
	assert.Equal(t, "fr", fr.JSON(t)["aliasLocale"], "fr loads from the static assets on first use")
	emoji := map[string]bool{}
	for _, r := range fr.JSON(t)["results"].([]any) {
		emoji[r.(map[string]any)["emoji"].(string)] = true
	}
	assert.True(t, emoji["🐱"] || emoji["🐈"], "chat is a cat in French")

	tr := get(t, "/v1/search?locale=tr&q=kedi")
	require.Equal(t, 200, tr.Status)
	assert.Equal(t, "tr", tr.JSON(t)["aliasLocale"])

	bad := get(t, "/v1/search?locale=de&q=katze")
	assert.Equal(t, 400, bad.Status)
	assert.Contains(t, bad.JSON(t)["error"], "en, zh, hi, es, ar, fr, bn, pt, ru, id, tr")
}

func TestSearchRefusesBadParameters(t *testing.T) {
	for _, q := range []string{"", "q=", "q=a&limit=0", "q=a&mode=x", "q=a&culture=maybe", "q=a&region=ZZ"} {
		r := get(t, "/v1/search?"+q)
		assert.Equal(t, 400, r.Status, q)
		assert.Equal(t, "no-store", r.Header.Get("Cache-Control"), q)
		assert.NotEmpty(t, r.JSON(t)["error"], q)
	}
	assert.Equal(t, 405, call(t, "POST", "/v1/search?q=a", nil).Status)
}

// The culture layer on a lasting entry (windows would depend on the day).
func TestSearchCulture(t *testing.T) {
	off := get(t, "/v1/search?q=goat").JSON(t)
	assert.Nil(t, off["culture"])

	r := get(t, "/v1/search?q=goat&culture=1")
	require.Equal(t, 200, r.Status, string(r.Body))
	assert.Equal(t, "public, max-age=3600", r.Header.Get("Cache-Control"))
	body := r.JSON(t)
	info, ok := body["culture"].(map[string]any)
	require.True(t, ok, "culture object present for a locale with a culture file")
	assert.Equal(t, time.Now().UTC().Format("2006-01-02"), info["day"])
	assert.Nil(t, info["region"])
	found := false
	for i, it := range body["results"].([]any) {
		item := it.(map[string]any)
		if item["source"] == "culture" {
			assert.Positive(t, i, "after the top canonical result")
			assert.NotEmpty(t, item["context"])
			if item["cultureId"] == "en.goat" {
				found = true
			}
		}
	}
	if body["results"].([]any)[0].(map[string]any)["emoji"] != "🐐" {
		assert.True(t, found, "the lasting GOAT entry joins the answer")
	}
}

// Spec 1 rate limit for anonymous calls: 30 per minute per IP, then 429
// with Retry-After: 60 in the spec's error shape.
func TestSearchAnonymousRateLimit(t *testing.T) {
	var last reply
	limited := false
	for attempt := 0; attempt < 2 && !limited; attempt++ { // a burst may straddle a window
		ip := fmt.Sprintf("2001:db8:1::%x", time.Now().UnixNano()&0xffff)
		for i := 0; i < 31 && !limited; i++ {
			last = get(t, "/v1/search?q=cat", "CF-Connecting-IP", ip)
			limited = last.Status == 429
		}
	}
	require.True(t, limited, "the 31st call within a minute is refused")
	assert.Equal(t, "60", last.Header.Get("Retry-After"))
	assert.Equal(t, "no-store", last.Header.Get("Cache-Control"))
	assert.NotEmpty(t, last.JSON(t)["error"])
}

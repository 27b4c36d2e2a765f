package e2e

import (
	"fmt"
	"net/url"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// freshCalls numbers fresh's calls, so no two in one run share a limit.
var freshCalls atomic.Int64

// freshStart varies the limits between runs against a kept state.
var freshStart = int64(time.Now().Nanosecond())

// fresh makes a query the shared cache has not seen in this run: each call
// gets its own limit (10..50), so a test never reads an answer another test
// cached for the same words (up to 41 calls per run).
func fresh(q string) string { return freshFrom(q, 10) }

// freshFrom is fresh with a limit of at least lo (lo..50).
func freshFrom(q string, lo int64) string {
	n := (freshStart + freshCalls.Add(1)) % (51 - lo)
	return url.QueryEscape(q) + fmt.Sprintf("&limit=%d", lo+n)
}

func results(t *testing.T, body map[string]any) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, r := range body["results"].([]any) {
		out = append(out, r.(map[string]any))
	}
	return out
}

func sources(items []map[string]any) map[string]int {
	n := map[string]int{}
	for _, it := range items {
		n[it["source"].(string)]++
	}
	return n
}

func TestSearchHybridUsesTheMeaningTier(t *testing.T) {
	// The editorial phrases name everyday tiredness ("so tired after work"),
	// so the phrase here is one the alias tier only partly knows: its dozen
	// alias results fill a small limit (at 10-12 no semantic one shows),
	// so the limit leaves room for the meaning tier.
	r := get(t, "/v1/search?q="+freshFrom("feeling lethargic today", 20))
	require.Equal(t, 200, r.Status, string(r.Body))
	body := r.JSON(t)
	items := results(t, body)
	require.NotEmpty(t, items)
	assert.Positive(t, sources(items)["semantic"], "a phrase no alias names gets meaning-tier results")
	assert.Equal(t, false, body["degraded"])
	assert.Equal(t, "glove-cldr@100", body["model"])
	assert.Regexp(t, `^embed;dur=[0-9.]+, total;dur=[0-9.]+$`, r.Header.Get("Server-Timing"))
	assert.Equal(t, "public, max-age=3600, s-maxage=86400", r.Header.Get("Cache-Control"))
	top := map[string]bool{}
	for _, it := range items[:min(5, len(items))] {
		top[it["emoji"].(string)] = true
	}
	assert.True(t, top["😫"] || top["😴"] || top["😪"] || top["🥱"], "a tired face near the top: %v", top)
}

func TestSearchSemanticMode(t *testing.T) {
	r := get(t, "/v1/search?mode=semantic&q="+fresh("joy"))
	require.Equal(t, 200, r.Status, string(r.Body))
	body := r.JSON(t)
	items := results(t, body)
	require.NotEmpty(t, items)
	assert.Equal(t, map[string]int{"semantic": len(items)}, sources(items), "semantic mode is the meaning tier only")
	assert.Nil(t, body["aliasLocale"])
}

// Degraded mode: the embedding backend fails; the answer is alias-only,
// flagged, never cached (spec 1 States; Cache-Control table).
func TestSearchDegradedWhenTheBackendFails(t *testing.T) {
	aiDown(t)
	for _, mode := range []string{"hybrid", "semantic"} {
		// A query no other test sends: another test's cached answer at the
		// same fresh limit would come back undegraded (it did, once in CI).
		q := "/v1/search?mode=" + mode + "&q=" + fresh("kitten")
		r := get(t, q)
		require.Equal(t, 200, r.Status, string(r.Body))
		body := r.JSON(t)
		assert.Equal(t, true, body["degraded"], mode)
		assert.Equal(t, "no-store", r.Header.Get("Cache-Control"), mode)
		items := results(t, body)
		require.NotEmpty(t, items, mode)
		assert.Equal(t, map[string]int{"alias": len(items)}, sources(items), mode)
		assert.Equal(t, "en", body["aliasLocale"], mode)
		time.Sleep(300 * time.Millisecond) // room for a (wrong) background cache write
		again := get(t, q).JSON(t)
		assert.Equal(t, false, again["cached"], "%s: a degraded answer is not cached", mode)
	}
}

// A locale pack that fails to load: the meaning tier answers alone,
// uncached, and the next request loads the pack (spec 1 States).
func TestSearchLocalePackFails(t *testing.T) {
	call(t, "PUT", "/__diag/faults/assets?files=index.bn.bin", nil)
	t.Cleanup(func() { call(t, "DELETE", "/__diag/faults/assets", nil) })
	r := get(t, "/v1/search?locale=bn&q="+fresh("বিড়াল"))
	require.Equal(t, 200, r.Status, string(r.Body))
	body := r.JSON(t)
	assert.Equal(t, "no-store", r.Header.Get("Cache-Control"))
	assert.Nil(t, body["aliasLocale"], "no alias tier without the pack")
	assert.Equal(t, false, body["degraded"])
	items := results(t, body)
	assert.Equal(t, map[string]int{"semantic": len(items)}, sources(items))

	call(t, "DELETE", "/__diag/faults/assets", nil)
	ok := get(t, "/v1/search?locale=bn&q="+fresh("বিড়াল"))
	assert.Equal(t, "bn", ok.JSON(t)["aliasLocale"], "the next request loads the pack")
	assert.Equal(t, "public, max-age=3600, s-maxage=86400", ok.Header.Get("Cache-Control"))
}

// A vector file that fails to load (missing or corrupt): what is available
// answers, uncached.
func TestSearchVectorFileFails(t *testing.T) {
	call(t, "PUT", "/__diag/faults/assets?files=vectors.glove-cldr.100.hi.bin", nil)
	t.Cleanup(func() { call(t, "DELETE", "/__diag/faults/assets", nil) })
	r := get(t, "/v1/search?locale=hi&q="+fresh("बिल्ली"))
	require.Equal(t, 200, r.Status, string(r.Body))
	body := r.JSON(t)
	assert.Equal(t, "no-store", r.Header.Get("Cache-Control"))
	assert.Equal(t, "hi", body["aliasLocale"])
	assert.Equal(t, false, body["degraded"])
	assert.NotEmpty(t, results(t, body))

	call(t, "DELETE", "/__diag/faults/assets", nil)
	ok := get(t, "/v1/search?locale=hi&q="+fresh("बिल्ली"))
	assert.Equal(t, "public, max-age=3600, s-maxage=86400", ok.Header.Get("Cache-Control"))
}

// The regional-lead rule on a lasting regional entry: "football" is ⚽ in
// GB, 🏈 elsewhere.
func TestSearchCultureRegionalLead(t *testing.T) {
	canonical := results(t, get(t, "/v1/search?q=football").JSON(t))
	require.NotEmpty(t, canonical)
	require.Equal(t, "🏈", canonical[0]["emoji"])

	gb := results(t, get(t, "/v1/search?culture=1&region=gb&q=football").JSON(t))
	assert.Equal(t, "culture", gb[0]["source"], "a regional entry whose scope holds the region leads")
	assert.Equal(t, "en.football-soccer", gb[0]["cultureId"])
	assert.Equal(t, "🏈", gb[1]["emoji"], "the canonical answer comes second")

	for _, q := range []string{"culture=1&region=US&q=football", "culture=1&q=football"} {
		items := results(t, get(t, "/v1/search?"+q).JSON(t))
		assert.Equal(t, "🏈", items[0]["emoji"], "%s: the canonical answer stays first", q)
	}
}

// Culture windows on a fixed UTC day: Thanksgiving (US, 2026-11-23..27).
func TestSearchCultureWindows(t *testing.T) {
	setDay := func(day string) {
		require.Equal(t, 200, call(t, "PUT", "/__diag/clock?day="+day, nil).Status)
	}
	t.Cleanup(func() { call(t, "DELETE", "/__diag/clock", nil) })
	setDay("2026-11-25")

	canonical := results(t, get(t, "/v1/search?q=thanksgiving+dinner").JSON(t))
	require.NotEmpty(t, canonical)
	body := get(t, "/v1/search?culture=1&region=US&q=thanksgiving+dinner").JSON(t)
	assert.Equal(t, "2026-11-25", body["culture"].(map[string]any)["day"])
	items := results(t, body)
	assert.Equal(t, canonical[0]["emoji"], items[0]["emoji"], "culture goes after the top canonical result")
	assert.Equal(t, "culture", items[1]["source"])
	// The strongest Thanksgiving entry that is not already the top answer:
	// the turkey (weight 0.9), or the pie (0.7) when the turkey leads.
	id, emoji := "en.thanksgiving", "🦃"
	if canonical[0]["emoji"] == "🦃" {
		id, emoji = "en.thanksgiving-pie", "🥧"
	}
	assert.Equal(t, id, items[1]["cultureId"])
	assert.Equal(t, emoji, items[1]["emoji"])
	culture := 0
	for _, it := range items {
		if it["source"] == "culture" {
			culture++
		}
	}
	assert.LessOrEqual(t, culture, 5)

	outside := results(t, get(t, "/v1/search?culture=1&q=thanksgiving+dinner").JSON(t))
	for _, it := range outside {
		assert.NotEqual(t, "en.thanksgiving-pie", it["cultureId"], "a regional entry needs a region in its scope")
	}
	setDay("2026-12-10")
	for _, it := range results(t, get(t, "/v1/search?culture=1&region=US&q=thanksgiving+dinner").JSON(t)) {
		assert.NotEqual(t, "en.thanksgiving-pie", it["cultureId"], "outside its window")
	}
}

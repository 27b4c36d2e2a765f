package e2e

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/service/shards"
)

// letters spells a unique number in letters: shard queries must not hold
// digits, which the personal-data filter reads as ids.
func letters(prefix string) string {
	n := time.Now().UnixNano()
	var b strings.Builder
	for ; n > 0; n /= 26 {
		b.WriteByte(byte('a' + n%26))
	}
	return prefix + " " + b.String()
}

// Spec 1 Static files rule 6 over HTTP: the nightly build publishes only
// qualifying queries, answered by the service's own search, and a query
// that stops qualifying leaves the files at the next build.
func TestShardsNightlyBuild(t *testing.T) {
	var health struct {
		PackVersion string `json:"packVersion"`
	}
	require.NoError(t, json.Unmarshal(get(t, "/v1/health").Body, &health))
	v := health.PackVersion

	never := get(t, "/p/"+unique("neverbuilt")+"/index.json")
	assert.Equal(t, 404, never.Status, "no build of that version yet")
	assert.Equal(t, "*", never.Header.Get("Access-Control-Allow-Origin"))

	var apps []string
	for range 3 {
		appID, _, _ := newAppWithKey(t, signUp(t), "https://shards.test")
		apps = append(apps, appID)
	}
	yesterday := time.Now().UTC().AddDate(0, 0, -1).Format(time.DateOnly)
	n := 0
	logRow := func(app, day, query string, searches, personal int) {
		n++
		sql(t, "INSERT INTO query_daily (app_id, day, qkey, locale, query, searches, personal) VALUES (?, ?, ?, 'en', ?, ?, ?)",
			app, day, fmt.Sprintf("%015x%x", time.Now().UnixNano()%(1<<56), n%16), query, searches, personal)
	}
	published := letters("party")
	twoAccounts := letters("pizza")
	typedPersonal := letters("bob")
	normalizedPersonal := letters("mail") + " example com"
	today := letters("rocket")
	for i, app := range apps {
		logRow(app, yesterday, published, 4, 0)
		logRow(app, yesterday, typedPersonal, 4, i%2)
		logRow(app, yesterday, normalizedPersonal, 4, 0)
		logRow(app, time.Now().UTC().Format(time.DateOnly), today, 4, 0)
		if i < 2 {
			logRow(app, yesterday, twoAccounts, 10, 0)
		}
	}

	// nightly runs the build until a run succeeds: a degraded answer (the
	// embedding backend past its deadline on a busy machine) stops a build
	// by design, and the next night's run tries again.
	nightly := func() {
		detail := ""
		for range 5 {
			r := get(t, "/__scheduled?cron=17+3+*+*+*")
			require.Equal(t, 200, r.Status, string(r.Body))
			last := sql(t, "SELECT ok, detail FROM cron_runs WHERE cron = '17 3 * * *' ORDER BY id DESC LIMIT 1")
			require.Len(t, last, 1)
			run := last[0].(map[string]any)
			if run["ok"] == 1.0 {
				return
			}
			detail = run["detail"].(string)
			t.Logf("%s: a nightly build failed, run again: %s", tgt.name, detail)
		}
		t.Fatalf("five nightly builds failed; the last: %s", detail)
	}
	nightly()

	idx := get(t, "/p/"+v+"/index.json")
	require.Equal(t, 200, idx.Status, string(idx.Body))
	assert.Equal(t, "public, max-age=3600", idx.Header.Get("Cache-Control"))
	assert.Equal(t, "*", idx.Header.Get("Access-Control-Allow-Origin"))
	var index shards.Index
	require.NoError(t, json.Unmarshal(idx.Body, &index))
	keys := map[string]bool{}
	for _, k := range index.Keys {
		keys[k] = true
	}
	shardOf := func(query string) (reply, map[string]any) {
		k := shards.KeyFor(keys, "en", query)
		require.NotEmpty(t, k, "a shard for %q", query)
		r := get(t, "/p/"+v+"/"+k+".json")
		require.Equal(t, 200, r.Status, string(r.Body))
		return r, r.JSON(t)["results"].(map[string]any)
	}
	r, results := shardOf(published)
	assert.Equal(t, "public, max-age=86400", r.Header.Get("Cache-Control"))
	assert.Equal(t, "*", r.Header.Get("Access-Control-Allow-Origin"))
	require.Contains(t, results, published)
	live := get(t, "/v1/search?q="+url.QueryEscape(published)).JSON(t)["results"].([]any)
	assert.Equal(t, live, results[published], "the service's own hybrid answer")

	for _, k := range index.Keys {
		body := string(get(t, "/p/"+v+"/"+k+".json").Body)
		for _, q := range []string{twoAccounts, typedPersonal, normalizedPersonal, today} {
			assert.NotContains(t, body, q, "only qualifying queries are published")
		}
	}

	// One account's searches go: two accounts are left, the query leaves.
	sql(t, "DELETE FROM query_daily WHERE app_id = ? AND query = ?", apps[0], published)
	nightly()
	require.NoError(t, json.Unmarshal(get(t, "/p/"+v+"/index.json").Body, &index))
	keys = map[string]bool{}
	for _, k := range index.Keys {
		keys[k] = true
	}
	if k := shards.KeyFor(keys, "en", published); k != "" {
		_, results = shardOf(published)
		assert.NotContains(t, results, published, "a query that stopped qualifying leaves the files")
	}
	assert.Equal(t, 404, get(t, "/p/"+v+"/zz-0.json").Status)
	assert.Equal(t, 404, get(t, "/p/"+v+"/../secret.json").Status)
}

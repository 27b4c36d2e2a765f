package e2e

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func postReactions(t *testing.T, query string, body any, headers ...string) reply {
	t.Helper()
	b, ok := body.([]byte)
	if !ok {
		var err error
		b, err = json.Marshal(body)
		require.NoError(t, err)
	}
	return call(t, "POST", "/v1/suggest-reactions"+query, b, append([]string{"Content-Type", "application/json"}, headers...)...)
}

// Every error row of POST /v1/suggest-reactions (spec 1), with the error
// shape and no-store.
func TestReactionsErrors(t *testing.T) {
	cases := []struct {
		name   string
		body   any
		status int
	}{
		{"not json", []byte("text=hello"), 400},
		{"no text", map[string]any{"locale": "en"}, 400},
		{"empty text", map[string]any{"text": " "}, 400},
		{"unknown locale", map[string]any{"text": "hi", "locale": "xx"}, 400},
		{"limit out of bounds", map[string]any{"text": "hi", "limit": 99}, 400},
		{"tenant too long", map[string]any{"text": "hi", "tenant": strings.Repeat("t", 129)}, 400},
		{"body over 16 KB", []byte(`{"text":"` + strings.Repeat("a", 16<<10) + `"}`), 413},
	}
	for _, c := range cases {
		r := postReactions(t, "", c.body)
		assert.Equal(t, c.status, r.Status, c.name+": "+string(r.Body))
		assert.Equal(t, "no-store", r.Header.Get("Cache-Control"), c.name)
		assert.NotEmpty(t, r.JSON(t)["error"], c.name)
	}
	r := call(t, "GET", "/v1/suggest-reactions", nil)
	assert.Equal(t, 405, r.Status)
	assert.Equal(t, "POST", r.Header.Get("Allow"))
}

func TestReactionsAnswer(t *testing.T) {
	r := postReactions(t, "", map[string]any{"text": "got the job!! so happy", "limit": 5})
	require.Equal(t, 200, r.Status, string(r.Body))
	assert.Equal(t, "no-store", r.Header.Get("Cache-Control"))
	body := r.JSON(t)
	items := results(t, body)
	require.Len(t, items, 5)
	assert.Equal(t, "🎉", items[0]["emoji"])
	assert.Equal(t, "en", body["aliasLocale"])
	assert.NotContains(t, body, "culture", "the reaction response has no culture field (issue 27)")
	assert.Equal(t, false, body["degraded"])
	assert.Contains(t, r.Header.Get("Server-Timing"), "embed;dur=")

	tr := results(t, postReactions(t, "", map[string]any{"text": "Çok teşekkürler!", "locale": "tr-TR"}).JSON(t))
	require.NotEmpty(t, tr)
	assert.Equal(t, "🙏", tr[0]["emoji"])
	def := results(t, postReactions(t, "", map[string]any{"text": "hm"}).JSON(t))
	assert.Len(t, def, 6, "default limit")
}

func TestReactionsDegraded(t *testing.T) {
	aiDown(t)
	r := postReactions(t, "", map[string]any{"text": "thank you so much"})
	require.Equal(t, 200, r.Status, string(r.Body))
	body := r.JSON(t)
	assert.Equal(t, true, body["degraded"])
	items := results(t, body)
	require.NotEmpty(t, items)
	assert.Equal(t, "🙏", items[0]["emoji"])
	assert.Equal(t, map[string]int{"alias": len(items)}, sources(items))
}

// Keyed calls: custom emoji first, one semantic_calls per call (read back
// from the usage the dashboard shows), all alias and unmetered over the
// limit.
func TestReactionsKeyed(t *testing.T) {
	t.Parallel() // waits for a meter flush and the instance's usage refresh (about a minute)
	const origin = "https://app.reactions.test"
	u := signUp(t)
	appID, _, full := newAppWithKey(t, u, origin)
	now := time.Now().UnixMilli()
	sql(t, `INSERT INTO custom_emoji (id, app_id, shortcode, aliases, image_key, content_type, source, bytes, created_at)
		VALUES ('e_parrot', ?, 'partyparrot', '["party"]', 'custom/x/_/e_parrot.png', 'image/png', 'upload', 8, ?)`, appID, now)
	q := "?key=" + url.QueryEscape(full)
	r := postReactions(t, q, map[string]any{"text": "party tonight!", "limit": 4}, "Origin", origin)
	require.Equal(t, 200, r.Status, string(r.Body))
	items := results(t, r.JSON(t))
	require.Len(t, items, 4)
	assert.Equal(t, "custom", items[0]["source"])
	assert.Equal(t, ":partyparrot:", items[0]["emoji"])
	assert.Equal(t, "C-e_parrot", items[0]["id"])
	anon := results(t, postReactions(t, "", map[string]any{"text": "party tonight!", "limit": 4}).JSON(t))
	assert.NotEqual(t, "custom", anon[0]["source"], "anonymous callers get no custom emoji")

	usage := func() float64 {
		res := u.api(t, "GET", "/api/apps/"+appID+"/usage", nil)
		require.Equal(t, 200, res.Status, string(res.Body))
		return res.JSON(t)["usage"].(map[string]any)["semantic_calls"].(map[string]any)["appUsed"].(float64)
	}
	eventually(t, 40*time.Second, func() bool {
		postReactions(t, q, map[string]any{"text": "lol"}, "Origin", origin) // lets the instance flush
		return usage() >= 2
	}, "reaction calls were never counted")

	period := time.Now().UTC().Format("2006-01")
	sql(t, "INSERT INTO usage_monthly (app_id, period, metric, count) VALUES (?, ?, 'semantic_calls', 10000) ON CONFLICT (app_id, period, metric) DO UPDATE SET count = 10000", appID, period)
	eventually(t, 70*time.Second, func() bool {
		r := postReactions(t, q, map[string]any{"text": "what a lovely sunset"}, "Origin", origin)
		return r.Status == 200 && r.JSON(t)["overLimit"] == true
	}, "never over the limit")
	r = postReactions(t, q, map[string]any{"text": "what a lovely sunset"}, "Origin", origin)
	body := r.JSON(t)
	assert.Regexp(t, `^total;dur=[0-9.]+$`, r.Header.Get("Server-Timing"), "no model call over the limit")
	for _, it := range results(t, body) {
		assert.Equal(t, "alias", it["source"])
	}
}

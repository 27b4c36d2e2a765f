package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/service/chatimport/chatfake"
)

// chat fakes both chat providers for the import routes; both targets get
// its addresses as IMPORT_* vars (honoured in development only).
var chat *chatfake.Server

func chatVars() map[string]string {
	return map[string]string{"IMPORT_SLACK_API": chat.SlackAPI(), "IMPORT_DISCORD_API": chat.DiscordAPI(),
		"IMPORT_DISCORD_CDN": chat.DiscordCDN()}
}

// skippedBy reads an import answer's counts.
func skippedBy(t *testing.T, body map[string]any) map[string]int {
	t.Helper()
	out := map[string]int{}
	for k, v := range body["skippedBy"].(map[string]any) {
		out[k] = int(v.(float64))
	}
	return out
}

// The import bar of issue 11 on the real runtime: 120 team-chat emoji (with
// aliases, a case duplicate, HTML served as an image) take three calls of
// 50, 50 and 20 new; images are served back; provider errors answer as
// spec 2 says; the token is in no log and no row.
func TestChatImport(t *testing.T) {
	u := signUp(t)
	require.Equal(t, 200, u.api(t, "GET", "/api/me", nil).Status)
	sql(t, "UPDATE accounts SET plan = 'pro' WHERE idp_user_id = ?", u.sub)
	a := u.api(t, "POST", "/api/apps", map[string]any{"name": "Imports", "environment": "production"})
	require.Equal(t, 201, a.Status, string(a.Body))
	app := a.JSON(t)["app"].(map[string]any)["id"].(string)

	token := unique("xoxp-e2e-secret-")
	var list []chatfake.Emoji
	for i := 0; i < 120; i++ {
		list = append(list, chatfake.Emoji{Name: fmt.Sprintf("e%03d", i), Animated: i%20 == 0})
	}
	list = append(list, chatfake.Emoji{Name: "alias1", AliasOf: "e000"}, chatfake.Emoji{Name: "alias2", AliasOf: "e001"},
		chatfake.Emoji{Name: "E001"}, chatfake.Emoji{Name: "0page", HTML: true})
	chat.SetSlack(token, list)
	path := "/api/apps/" + app + "/emoji/import/slack"
	for i, want := range []struct{ imported, remaining, exists int }{{50, 70, 1}, {50, 20, 51}, {20, 0, 101}, {0, 0, 121}} {
		r := u.api(t, "POST", path, map[string]any{"token": token})
		require.Equal(t, 200, r.Status, string(r.Body))
		body := r.JSON(t)
		require.EqualValues(t, want.imported, body["imported"], "call %d", i+1)
		require.EqualValues(t, want.remaining, body["remaining"], "call %d", i+1)
		require.Equal(t, map[string]int{"alias": 2, "exists": want.exists, "invalid": 1, "limit": 0, "failed": 0},
			skippedBy(t, body), "call %d", i+1)
	}
	list2 := u.api(t, "GET", "/api/apps/"+app+"/emoji", nil)
	require.Equal(t, 200, list2.Status, string(list2.Body))
	emoji := list2.JSON(t)["emoji"].([]any)
	require.Len(t, emoji, 120)
	var gif map[string]any
	for _, e := range emoji {
		m := e.(map[string]any)
		assert.Equal(t, "slack", m["source"])
		if m["shortcode"] == "e020" {
			gif = m
		}
	}
	require.NotNil(t, gif)
	img := get(t, strings.TrimPrefix(gif["imageUrl"].(string), tgt.base))
	require.Equal(t, 200, img.Status)
	assert.Equal(t, "image/gif", img.Header.Get("Content-Type"))
	assert.Equal(t, chatfake.GIF("e020"), img.Body)

	// Errors: revoked token, rate limit, a bot not in the guild.
	chat.Revoke(token)
	r := u.api(t, "POST", path, map[string]any{"token": token})
	require.Equal(t, 400, r.Status)
	assert.Equal(t, "import_auth_failed", errorCode(t, r))
	assert.NotContains(t, string(r.Body), token)
	bot := unique("bot-e2e-secret-")
	guild := fmt.Sprint(100000000000 + len(token))
	chat.SetDiscord(bot, guild, []chatfake.Emoji{{Name: "PartyBlob", Animated: true}, {Name: "wave"}})
	chat.SetDiscord("someone-else", "777", []chatfake.Emoji{{Name: "x"}})
	dpath := "/api/apps/" + app + "/emoji/import/discord"
	d := u.api(t, "POST", dpath, map[string]any{"botToken": bot, "guildId": guild})
	require.Equal(t, 200, d.Status, string(d.Body))
	assert.EqualValues(t, 2, d.JSON(t)["imported"])
	notIn := u.api(t, "POST", dpath, map[string]any{"botToken": bot, "guildId": "777"})
	require.Equal(t, 400, notIn.Status)
	assert.Equal(t, "guildId", notIn.JSON(t)["error"].(map[string]any)["field"])
	chat.SetRateLimited(true)
	limited := u.api(t, "POST", dpath, map[string]any{"botToken": bot, "guildId": guild})
	chat.SetRateLimited(false)
	require.Equal(t, 429, limited.Status)
	assert.Equal(t, "import_rate_limited", errorCode(t, limited))
	assert.Equal(t, "60", limited.Header.Get("Retry-After"))

	// The tokens are in no row of any table and in no log line.
	var dump strings.Builder
	for _, row := range sql(t, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite%' AND name NOT LIKE 'd1%'") {
		name := row.(map[string]any)["name"].(string)
		b, _ := json.Marshal(sql(t, "SELECT * FROM "+name))
		dump.Write(b)
	}
	require.Contains(t, dump.String(), "e119", "the dump holds the imported rows")
	assert.NotContains(t, dump.String(), token)
	assert.NotContains(t, dump.String(), bot)
	logs, err := os.ReadFile(tgt.logPath)
	require.NoError(t, err)
	assert.NotContains(t, string(logs), token)
	assert.NotContains(t, string(logs), bot)
}

//go:build !js

package chatimport_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/service/auth"
	"github.com/emojisearch/emojisearch/service/chatimport"
	"github.com/emojisearch/emojisearch/service/chatimport/chatfake"
	"github.com/emojisearch/emojisearch/service/dashboard"
	"github.com/emojisearch/emojisearch/service/emojistore"
	"github.com/emojisearch/emojisearch/service/emojistore/emojistoretest"
	"github.com/emojisearch/emojisearch/service/httpx"
	"github.com/emojisearch/emojisearch/service/store"
	"github.com/emojisearch/emojisearch/service/store/sqlitedb"
)

var bg = context.Background()

type nopLimiter struct{}

func (nopLimiter) Allow(context.Context, string) (bool, error) { return true, nil }

type env struct {
	t    *testing.T
	db   store.DB
	h    http.Handler
	fake *chatfake.Server
	objs *emojistoretest.Objects
	logs *bytes.Buffer
	mu   sync.Mutex
}

func newEnv(t *testing.T) *env {
	db, err := sqlitedb.Open(bg, filepath.Join(t.TempDir(), "d1.sqlite"), sqlitedb.RepoMigrations())
	require.NoError(t, err)
	t.Cleanup(func() { _ = db.Close() })
	e := &env{t: t, db: db, fake: chatfake.New(), objs: &emojistoretest.Objects{}, logs: &bytes.Buffer{}}
	t.Cleanup(e.fake.Close)
	logf := func(f string, a ...any) {
		e.mu.Lock()
		defer e.mu.Unlock()
		fmt.Fprintf(e.logs, f+"\n", a...)
	}
	authn, err := auth.NewAuthenticator(auth.Config{DevSignIn: true})
	require.NoError(t, err)
	d, err := dashboard.New(dashboard.NewConfig(db, authn).WithEnvironment(dashboard.EnvDevelopment).
		WithWaitlist([]string{"https://example.com"}, nopLimiter{}).WithLog(logf))
	require.NoError(t, err)
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	im, err := chatimport.New(chatimport.NewConfig(db, emojistore.New(emojistore.NewConfig(db).WithObjects(e.objs).WithLog(logf)), client).
		WithProviders(e.fake.SlackAPI(), e.fake.DiscordAPI(), e.fake.DiscordCDN()).WithLog(logf))
	require.NoError(t, err)
	r := &httpx.Router{NotFound: http.NotFoundHandler()}
	d.Routes(r, im.APIRoutes(d)...)
	e.h = r
	return e
}

func (e *env) call(c *http.Cookie, method, path string, body any) (int, map[string]any, http.Header) {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req := httptest.NewRequest(method, "http://localhost"+path, rd)
	req.Header.Set("Content-Type", "application/json")
	if c != nil {
		req.AddCookie(c)
	}
	w := httptest.NewRecorder()
	e.h.ServeHTTP(w, req)
	var m map[string]any
	_ = json.Unmarshal(w.Body.Bytes(), &m)
	return w.Code, m, w.Header()
}

func (e *env) sql(q string, args ...any) []store.Row {
	res, err := e.db.All(bg, store.Q(q, args...))
	require.NoError(e.t, err)
	return res.Rows
}

// app signs login in, sets the plan and creates an app.
func (e *env) app(login, plan string) (*http.Cookie, string, string) {
	req := httptest.NewRequest("GET", "http://localhost/api/auth/dev?login="+login, nil)
	w := httptest.NewRecorder()
	e.h.ServeHTTP(w, req)
	require.Equal(e.t, 200, w.Code, w.Body.String())
	c := w.Result().Cookies()[0]
	var me struct {
		Account struct {
			ID string `json:"id"`
		} `json:"account"`
	}
	require.NoError(e.t, json.Unmarshal(w.Body.Bytes(), &me))
	e.sql("UPDATE accounts SET plan = ? WHERE id = ?", plan, me.Account.ID)
	code, body, _ := e.call(c, "POST", "/api/apps", map[string]any{"name": "Chat"})
	require.Equal(e.t, 201, code)
	return c, me.Account.ID, body["app"].(map[string]any)["id"].(string)
}

func skipped(m map[string]any) map[string]int {
	out := map[string]int{}
	for k, v := range m["skippedBy"].(map[string]any) {
		out[k] = int(v.(float64))
	}
	return out
}

// A workspace of 120 importable emoji plus aliases, a case duplicate,
// HTML served as an image, a missing image, a bad name, an image off the
// CDN and a shortcode the app has: three calls store 50, 50 and 20.
func TestSlackImportInBatches(t *testing.T) {
	e := newEnv(t)
	c, _, app := e.app("owner", "pro")
	const token = "xoxp-1111-secret-user-token"
	var list []chatfake.Emoji
	for i := 0; i < 120; i++ {
		list = append(list, chatfake.Emoji{Name: fmt.Sprintf("e%03d", i), Animated: i%10 == 0})
	}
	for i := 0; i < 5; i++ {
		list = append(list, chatfake.Emoji{Name: fmt.Sprintf("a_alias%d", i), AliasOf: "e000"})
	}
	list = append(list,
		chatfake.Emoji{Name: "E001"}, // normalises to e001: one of the two is a duplicate
		chatfake.Emoji{Name: "0html1", HTML: true}, chatfake.Emoji{Name: "0html2", HTML: true},
		chatfake.Emoji{Name: "0missing", Missing: true},
		chatfake.Emoji{Name: "bad name!"},
		chatfake.Emoji{Name: "0offcdn", URL: "https://169.254.169.254/latest/meta-data.png"},
		chatfake.Emoji{Name: "taken"},
	)
	e.fake.SetSlack(token, list)
	e.sql(`INSERT INTO custom_emoji (id, app_id, scope, shortcode, aliases, image_key, content_type, source, bytes, created_at)
		VALUES ('emo_taken', ?, '', 'taken', '[]', 'k', 'image/png', 'upload', 1, 1)`, app)
	path := "/api/apps/" + app + "/emoji/import/slack"
	fixed := map[string]int{"alias": 5, "invalid": 4, "failed": 1, "limit": 0}
	for i, want := range []struct{ imported, remaining, exists int }{
		{50, 70, 2},      // e001's twin, taken
		{50, 20, 2 + 50}, // and the first 50
		{20, 0, 2 + 100}, // and the first 100
		{0, 0, 2 + 120},  // nothing new
	} {
		code, body, _ := e.call(c, "POST", path, map[string]any{"token": token})
		require.Equal(t, 200, code, "call %d: %v", i+1, body)
		require.EqualValues(t, want.imported, body["imported"], "call %d", i+1)
		require.EqualValues(t, want.remaining, body["remaining"], "call %d", i+1)
		sb := skipped(body)
		exp := map[string]int{"exists": want.exists}
		for k, v := range fixed {
			exp[k] = v
		}
		require.Equal(t, exp, sb, "call %d", i+1)
		total := 0
		for _, v := range sb {
			total += v
		}
		require.EqualValues(t, total, body["skipped"])
	}
	rows := e.sql("SELECT count(*) AS n, sum(source = 'slack') AS s, sum(content_type = 'image/gif') AS g FROM custom_emoji WHERE app_id = ?", app)
	n, _ := rows[0].Int("n")
	s, _ := rows[0].Int("s")
	g, _ := rows[0].Int("g")
	require.EqualValues(t, 121, n)
	require.EqualValues(t, 120, s)
	require.EqualValues(t, 12, g, "animated emoji are stored as GIF")
	require.Len(t, e.objs.Keys(), 120, "one image per imported emoji")
	ev, _ := e.sql("SELECT count(*) AS n FROM events WHERE type = 'custom_emoji.created' AND app_id = ?", app)[0].Int("n")
	require.EqualValues(t, 120, ev, "one event per imported emoji")
	for _, r := range e.fake.Requests() {
		if strings.Contains(r.Path, "-cdn/") {
			require.Empty(t, r.Authorization, "the token never goes to the CDN")
		}
	}
	e.noToken(token)
}

// noToken checks that a token is in no log line and no database row.
func (e *env) noToken(tokens ...string) {
	e.mu.Lock()
	logs := e.logs.String()
	e.mu.Unlock()
	var dump strings.Builder
	for _, t := range e.sql("SELECT name FROM sqlite_master WHERE type = 'table'") {
		name, _ := t.String("name")
		for _, r := range e.sql("SELECT * FROM " + name) {
			b, _ := json.Marshal(r)
			dump.Write(b)
		}
	}
	require.NotEmpty(e.t, dump.String())
	for _, tok := range tokens {
		require.NotContains(e.t, logs, tok)
		require.NotContains(e.t, dump.String(), tok)
	}
}

func TestImportPlanLimit(t *testing.T) {
	e := newEnv(t)
	c, _, app := e.app("owner", "pro") // Pro: 1,000 custom emoji
	for i := 0; i < 995; i++ {
		e.sql(`INSERT INTO custom_emoji (id, app_id, scope, shortcode, aliases, image_key, content_type, source, bytes, created_at)
			VALUES (?, ?, '', ?, '[]', 'k', 'image/png', 'upload', 1, 1)`, fmt.Sprintf("emo_%d", i), app, fmt.Sprintf("old%d", i))
	}
	var list []chatfake.Emoji
	for i := 0; i < 12; i++ {
		list = append(list, chatfake.Emoji{Name: fmt.Sprintf("n%02d", i)})
	}
	e.fake.SetSlack("xoxp-limit", list)
	code, body, _ := e.call(c, "POST", "/api/apps/"+app+"/emoji/import/slack", map[string]any{"token": "xoxp-limit"})
	require.Equal(t, 200, code, body)
	require.EqualValues(t, 5, body["imported"])
	require.EqualValues(t, 0, body["remaining"])
	require.Equal(t, map[string]int{"alias": 0, "exists": 0, "invalid": 0, "limit": 7, "failed": 0}, skipped(body))
}

func TestDiscordImport(t *testing.T) {
	e := newEnv(t)
	c, _, app := e.app("owner", "scale")
	const bot, guild = "MTAxMDEw.bot-secret-token", "123456789012345678"
	e.fake.SetDiscord(bot, guild, []chatfake.Emoji{{Name: "PartyParrot", Animated: true}, {Name: "blob_wave"},
		{Name: "page", HTML: true}, {Name: "x"}})
	e.fake.SetDiscord("other-bot", "999", []chatfake.Emoji{{Name: "elsewhere"}})
	path := "/api/apps/" + app + "/emoji/import/discord"
	code, body, _ := e.call(c, "POST", path, map[string]any{"botToken": bot, "guildId": guild})
	require.Equal(t, 200, code, body)
	require.EqualValues(t, 3, body["imported"])
	require.Equal(t, map[string]int{"alias": 0, "exists": 0, "invalid": 1, "limit": 0, "failed": 0}, skipped(body))
	rows := e.sql("SELECT shortcode, content_type, source FROM custom_emoji WHERE app_id = ? ORDER BY shortcode", app)
	require.Len(t, rows, 3)
	sc, _ := rows[1].String("shortcode")
	ct, _ := rows[1].String("content_type")
	require.Equal(t, "partyparrot", sc, "names lowercased")
	require.Equal(t, "image/gif", ct)
	var sawSize bool
	for _, r := range e.fake.Requests() {
		if strings.HasPrefix(r.Path, "/discord-cdn/emojis/") {
			sawSize = true
		}
	}
	require.True(t, sawSize)

	for _, tc := range []struct {
		name   string
		body   map[string]any
		status int
		code   string
		field  string
	}{
		{"bad token", map[string]any{"botToken": "nope", "guildId": guild}, 400, "import_auth_failed", "botToken"},
		{"bot not in guild", map[string]any{"botToken": bot, "guildId": "999"}, 400, "import_auth_failed", "guildId"},
		{"unknown guild", map[string]any{"botToken": bot, "guildId": "555"}, 400, "import_auth_failed", "guildId"},
		{"guild id not numeric", map[string]any{"botToken": bot, "guildId": "abc"}, 400, "invalid_request", "guildId"},
		{"no bot token", map[string]any{"guildId": guild}, 400, "invalid_request", "botToken"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, body, _ := e.call(c, "POST", path, tc.body)
			require.Equal(t, tc.status, code, body)
			er := body["error"].(map[string]any)
			require.Equal(t, tc.code, er["code"])
			require.Equal(t, tc.field, er["field"])
		})
	}
	e.fake.SetRateLimited(true)
	code, body, h := e.call(c, "POST", path, map[string]any{"botToken": bot, "guildId": guild})
	require.Equal(t, 429, code)
	require.Equal(t, "import_rate_limited", body["error"].(map[string]any)["code"])
	require.Equal(t, "60", h.Get("Retry-After"))
	e.noToken(bot)
}

func TestSlackErrors(t *testing.T) {
	e := newEnv(t)
	c, _, app := e.app("owner", "pro")
	path := "/api/apps/" + app + "/emoji/import/slack"
	e.fake.SetSlack("xoxp-revoked-secret", nil)
	e.fake.Revoke("xoxp-revoked-secret")
	code, body, _ := e.call(c, "POST", path, map[string]any{"token": "xoxp-revoked-secret"})
	require.Equal(t, 400, code)
	er := body["error"].(map[string]any)
	require.Equal(t, "import_auth_failed", er["code"])
	require.Equal(t, "token", er["field"])
	require.Contains(t, er["message"], "token_revoked")
	require.NotContains(t, er["message"], "xoxp")
	code, body, _ = e.call(c, "POST", path, map[string]any{"token": "xoxp-unknown"})
	require.Equal(t, 400, code)
	require.Contains(t, body["error"].(map[string]any)["message"], "invalid_auth")
	code, _, _ = e.call(c, "POST", path, map[string]any{"token": ""})
	require.Equal(t, 400, code)
	code, _, _ = e.call(c, "POST", path, map[string]any{"token": "has space"})
	require.Equal(t, 400, code)
	e.fake.SetRateLimited(true)
	code, body, h := e.call(c, "POST", path, map[string]any{"token": "xoxp-revoked-secret"})
	require.Equal(t, 429, code)
	require.Equal(t, "60", h.Get("Retry-After"))
	e.fake.Close()
	code, body, _ = e.call(c, "POST", path, map[string]any{"token": "xoxp-revoked-secret"})
	require.Equal(t, 502, code)
	require.Equal(t, "import_unavailable", body["error"].(map[string]any)["code"])
	e.noToken("xoxp-revoked-secret", "xoxp-unknown")
}

func TestImportGates(t *testing.T) {
	e := newEnv(t)
	c, _, app := e.app("solo", "solo")
	code, body, _ := e.call(c, "POST", "/api/apps/"+app+"/emoji/import/slack", map[string]any{"token": "t"})
	require.Equal(t, 402, code)
	require.Equal(t, "pro", body["error"].(map[string]any)["plan"])
	other, _, _ := e.app("other", "pro")
	code, _, _ = e.call(other, "POST", "/api/apps/"+app+"/emoji/import/slack", map[string]any{"token": "t"})
	require.Equal(t, 404, code)
	code, _, _ = e.call(nil, "POST", "/api/apps/"+app+"/emoji/import/discord", map[string]any{"token": "t"})
	require.Equal(t, 401, code)
	code, _, _ = e.call(c, "GET", "/api/apps/"+app+"/emoji/import/slack", nil)
	require.Equal(t, 405, code)
}

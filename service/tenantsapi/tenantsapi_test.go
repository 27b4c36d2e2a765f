//go:build !js

package tenantsapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/service/access"
	"github.com/emojisearch/emojisearch/service/accounts"
	"github.com/emojisearch/emojisearch/service/apikey"
	"github.com/emojisearch/emojisearch/service/auth"
	"github.com/emojisearch/emojisearch/service/emojistore"
	"github.com/emojisearch/emojisearch/service/emojistore/emojistoretest"
	"github.com/emojisearch/emojisearch/service/httpx"
	"github.com/emojisearch/emojisearch/service/plans"
	"github.com/emojisearch/emojisearch/service/store"
	"github.com/emojisearch/emojisearch/service/store/sqlitedb"
	"github.com/emojisearch/emojisearch/service/tenantsapi"
)

var bg = context.Background()

type env struct {
	t       *testing.T
	db      store.DB
	repo    *accounts.Repo
	objects *emojistoretest.Objects
	router  *httpx.Router
	devKey  string
}

func newEnv(t *testing.T) *env {
	db, err := sqlitedb.Open(bg, filepath.Join(t.TempDir(), "d1.sqlite"), sqlitedb.RepoMigrations())
	require.NoError(t, err)
	t.Cleanup(func() { _ = db.Close() })
	dev, err := apikey.New(apikey.Secret)
	require.NoError(t, err)
	e := &env{t: t, db: db, repo: accounts.New(accounts.NewConfig(db)), objects: &emojistoretest.Objects{}, devKey: dev.Full}
	res, err := access.NewResolver(access.NewConfig(e.repo.Keys()).WithDevKeys(dev.Full))
	require.NoError(t, err)
	api := tenantsapi.New(emojistore.New(emojistore.NewConfig(db).WithObjects(e.objects).WithLog(t.Logf)), access.NewGuard(res, nil, nil))
	e.router = &httpx.Router{NotFound: httpx.NotFound(), BadMethod: httpx.MethodNotAllowed}
	api.Routes(e.router)
	return e
}

// account creates an account on plan with one app and returns the app id
// and a secret and a publishable key.
func (e *env) account(name, plan string) (app, secret, publishable string) {
	a, err := e.repo.CreateAccount(bg, auth.Identity{Subject: "idp_" + name, Email: name + "@x.io"})
	require.NoError(e.t, err)
	require.NoError(e.t, e.repo.SetPlan(bg, a.ID, plan))
	ap, err := e.repo.CreateApp(bg, a.ID, "app", accounts.EnvProduction, 10)
	require.NoError(e.t, err)
	_, sk, err := e.repo.CreateKey(bg, ap.ID, apikey.Secret, nil)
	require.NoError(e.t, err)
	_, pk, err := e.repo.CreateKey(bg, ap.ID, apikey.Publishable, []string{"https://site.example"})
	require.NoError(e.t, err)
	return ap.ID, sk, pk
}

type call struct {
	method, path, key string
	body              string
	contentType       string
	header            map[string]string
}

type answer struct {
	status int
	header http.Header
	body   map[string]any
}

func (e *env) do(c call) answer {
	e.t.Helper()
	r := httptest.NewRequest(c.method, "https://api.example"+c.path, strings.NewReader(c.body))
	if c.key != "" {
		r.Header.Set("Authorization", "Bearer "+c.key)
	}
	if c.contentType != "" {
		r.Header.Set("Content-Type", c.contentType)
	}
	for k, v := range c.header {
		r.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	e.router.ServeHTTP(w, r)
	var m map[string]any
	require.NoError(e.t, json.Unmarshal(w.Body.Bytes(), &m), w.Body.String())
	assert.Equal(e.t, "no-store", w.Header().Get("Cache-Control"))
	return answer{status: w.Code, header: w.Header(), body: m}
}

func jsonCall(method, path, key, body string) call {
	return call{method: method, path: path, key: key, body: body, contentType: "application/json"}
}

func uploadCall(t *testing.T, path, key, file string, fields ...string) call {
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	fw, err := mw.CreateFormFile("file", "e.svg")
	require.NoError(t, err)
	_, _ = fw.Write([]byte(file))
	for i := 0; i+1 < len(fields); i += 2 {
		require.NoError(t, mw.WriteField(fields[i], fields[i+1]))
	}
	require.NoError(t, mw.Close())
	return call{method: "POST", path: path, key: key, body: b.String(), contentType: mw.FormDataContentType()}
}

const okSVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"><circle cx="4" cy="4" r="3"/></svg>`

func TestRefusals(t *testing.T) {
	e := newEnv(t)
	_, sk, pk := e.account("scale", plans.Scale)
	_, proSK, _ := e.account("pro", plans.Pro)
	cases := []struct {
		name   string
		c      call
		status int
		code   string
	}{
		{"no key", call{method: "GET", path: "/v1/tenants"}, 401, "unauthorized"},
		{"unknown key", call{method: "GET", path: "/v1/tenants", key: "sk_live_" + strings.Repeat("a", 32)}, 401, "unauthorized"},
		{"not bearer", call{method: "GET", path: "/v1/tenants", header: map[string]string{"Authorization": "Basic x"}}, 401, "unauthorized"},
		{"publishable key in the url", call{method: "GET", path: "/v1/tenants?key=" + pk, header: map[string]string{}}, 403, "secret_key_required"},
		{"publishable key as bearer", call{method: "GET", path: "/v1/tenants", key: pk}, 403, "secret_key_required"},
		{"secret key in the url", call{method: "GET", path: "/v1/tenants?key=" + sk}, 403, "secret_key_in_url"},
		{"origin header", call{method: "GET", path: "/v1/tenants", key: sk, header: map[string]string{"Origin": "https://site.example"}}, 403, "secret_key_required"},
		{"development key", call{method: "GET", path: "/v1/tenants", key: e.devKey}, 403, "development_key"},
		{"pro plan", call{method: "GET", path: "/v1/tenants", key: proSK}, 402, "plan_required"},
		{"wrong method", call{method: "PUT", path: "/v1/tenants", key: sk}, 405, "method_not_allowed"},
		{"unknown route", call{method: "GET", path: "/v1/tenants/a/b/c/d", key: sk}, 404, "not_found"},
		{"bad limit", call{method: "GET", path: "/v1/tenants?limit=501", key: sk}, 400, "invalid_request"},
		{"bad cursor", call{method: "GET", path: "/v1/tenants?cursor=!!", key: sk}, 400, "invalid_request"},
		{"not json", call{method: "POST", path: "/v1/tenants", key: sk, body: "externalId=a", contentType: "application/x-www-form-urlencoded"}, 415, "unsupported_media_type"},
		{"malformed json", jsonCall("POST", "/v1/tenants", sk, "{"), 400, "invalid_json"},
		{"wrong type", jsonCall("POST", "/v1/tenants", sk, `{"externalId": 5}`), 400, "invalid_request"},
		{"no externalId", jsonCall("POST", "/v1/tenants", sk, `{}`), 400, "invalid_request"},
		{"bad externalId", jsonCall("POST", "/v1/tenants", sk, `{"externalId": "a/b"}`), 400, "invalid_request"},
		{"body over 16 KB", jsonCall("POST", "/v1/tenants", sk, `{"externalId": "a", "name": "`+strings.Repeat("x", 17<<10)+`"}`), 413, "body_too_large"},
		{"unknown tenant", call{method: "DELETE", path: "/v1/tenants/nobody", key: sk}, 404, "tenant_not_found"},
		{"unknown tenant emoji", call{method: "GET", path: "/v1/tenants/nobody/emoji", key: sk}, 404, "tenant_not_found"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := e.do(c.c)
			assert.Equal(t, c.status, a.status, "%v", a.body)
			assert.Equal(t, c.code, a.body["error"])
			assert.NotEmpty(t, a.body["message"])
			if c.code == "plan_required" {
				assert.Equal(t, "scale", a.body["plan"])
			}
			if c.code == "invalid_request" {
				assert.NotEmpty(t, a.body["field"])
			}
			if c.status == 405 {
				assert.Equal(t, "GET, HEAD, POST", a.header.Get("Allow"))
			}
		})
	}
}

func TestTenantJourney(t *testing.T) {
	e := newEnv(t)
	app, sk, _ := e.account("scale", plans.Scale)
	otherApp, otherSK, _ := e.account("other", plans.Scale)

	a := e.do(jsonCall("POST", "/v1/tenants", sk, `{"externalId": "org:42@acme", "name": "Acme"}`))
	require.Equal(t, 201, a.status, "%v", a.body)
	assert.Equal(t, "org:42@acme", a.body["externalId"])
	assert.Equal(t, "Acme", a.body["name"])
	id := a.body["id"].(string)
	a = e.do(jsonCall("POST", "/v1/tenants", sk, `{"externalId": "org:42@acme", "name": "Changed"}`))
	require.Equal(t, 200, a.status)
	assert.Equal(t, id, a.body["id"])
	assert.Equal(t, "Acme", a.body["name"], "the name is not changed")
	for _, ext := range []string{"b", "c", "a"} {
		require.Equal(t, 201, e.do(jsonCall("POST", "/v1/tenants", sk, `{"externalId": "`+ext+`"}`)).status)
	}
	require.Equal(t, 201, e.do(jsonCall("POST", "/v1/tenants", otherSK, `{"externalId": "zz"}`)).status)

	var seen []string
	cursor := ""
	for pages := 0; pages < 5; pages++ {
		path := "/v1/tenants?limit=3"
		if cursor != "" {
			path += "&cursor=" + cursor
		}
		a = e.do(call{method: "GET", path: path, key: sk})
		require.Equal(t, 200, a.status)
		for _, tn := range a.body["tenants"].([]any) {
			seen = append(seen, tn.(map[string]any)["externalId"].(string))
		}
		if a.body["nextCursor"] == nil {
			break
		}
		cursor = a.body["nextCursor"].(string)
	}
	assert.Equal(t, []string{"a", "b", "c", "org:42@acme"}, seen)

	base := "/v1/tenants/org%3A42%40acme/emoji"
	a = e.do(uploadCall(t, base, sk, okSVG, "shortcode", ":Acme_Logo:", "aliases", "acme, logo"))
	require.Equal(t, 201, a.status, "%v", a.body)
	assert.Equal(t, "acme_logo", a.body["shortcode"])
	assert.Equal(t, "api", a.body["source"])
	assert.Equal(t, id, a.body["tenantId"])
	assert.Equal(t, "org:42@acme", a.body["tenantExternalId"])
	assert.Equal(t, "https://api.example/v1/custom/"+app+"/"+a.body["id"].(string), a.body["imageUrl"])
	a = e.do(uploadCall(t, base, sk, okSVG, "shortcode", "acme_logo"))
	assert.Equal(t, 409, a.status)
	assert.Equal(t, "shortcode_taken", a.body["error"])
	a = e.do(uploadCall(t, base, sk, `<svg xmlns="http://www.w3.org/2000/svg"><script>x()</script></svg>`, "shortcode", "bad"))
	assert.Equal(t, 400, a.status)
	assert.Equal(t, "unsafe_svg", a.body["error"])
	a = e.do(uploadCall(t, base, sk, "GIF89", "shortcode", "bad"))
	assert.Equal(t, 415, a.status)
	assert.Equal(t, "unsupported_image", a.body["error"])
	a = e.do(call{method: "POST", path: base, key: sk, body: "x", contentType: "multipart/form-data; boundary=zz"})
	assert.Equal(t, 400, a.status)
	assert.Equal(t, "invalid_multipart", a.body["error"])
	a = e.do(uploadCall(t, "/v1/tenants/org%3A42%40acme/emoji", otherSK, okSVG, "shortcode", "x"))
	assert.Equal(t, 404, a.status, "another app's tenant is not found")

	a = e.do(call{method: "GET", path: base, key: sk})
	require.Equal(t, 200, a.status)
	assert.Len(t, a.body["emoji"], 1)
	assert.EqualValues(t, 1, a.body["used"])
	assert.EqualValues(t, 10000, a.body["limit"])
	assert.Len(t, e.objects.Keys(), 1)

	a = e.do(call{method: "DELETE", path: base + "/nope", key: sk})
	assert.Equal(t, 404, a.status)
	assert.Equal(t, "emoji_not_found", a.body["error"])
	a = e.do(call{method: "DELETE", path: base + "/%3AACME_LOGO%3A", key: sk})
	require.Equal(t, 200, a.status, "%v", a.body)
	assert.Equal(t, "acme_logo", a.body["shortcode"])
	assert.Empty(t, e.objects.Keys())

	require.Equal(t, 201, e.do(uploadCall(t, base, sk, okSVG, "shortcode", "again")).status)
	e.objects.SetFail(true)
	a = e.do(call{method: "DELETE", path: "/v1/tenants/org%3A42%40acme", key: sk})
	assert.Equal(t, 503, a.status)
	assert.Equal(t, "storage_unavailable", a.body["error"])
	e.objects.SetFail(false)
	a = e.do(call{method: "DELETE", path: "/v1/tenants/org%3A42%40acme", key: sk})
	require.Equal(t, 200, a.status)
	assert.EqualValues(t, 1, a.body["emojiDeleted"])
	assert.Equal(t, "org:42@acme", a.body["tenant"].(map[string]any)["externalId"])
	assert.Empty(t, e.objects.Keys())

	var n int64
	row, err := e.db.First(bg, store.Q("SELECT count(*) AS n FROM events WHERE app_id = ?", app))
	require.NoError(t, err)
	n, _ = row.Int("n")
	assert.Equal(t, int64(4+2+1+1), n, "4 tenants created, 2 emoji created, 1 deleted on its own, 1 tenant deleted (its emoji go with tenant.deleted's emojiDeleted)")
	_ = otherApp
}

//go:build !js

package dashboard

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/service/accounts"
	"github.com/emojisearch/emojisearch/service/plans"
	"github.com/emojisearch/emojisearch/service/store"
)

const okSVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"><circle cx="4" cy="4" r="3"/></svg>`

// pngFile is a whole 1x1 PNG (one red pixel): signature, IHDR, IDAT and
// IEND with their CRCs, as the intake reads it to the end.
var pngFile = "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\xcf\xc0\xf0\x1f\x00\x05\x00\x01\xff\x89\x99=\x1d\x00\x00\x00\x00IEND\xaeB`\x82"

// upload builds a multipart upload request body: file bytes first, then
// the text fields in order (name, value pairs).
func upload(t *testing.T, file string, fields ...string) (string, string) {
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", `form-data; name="file"; filename="emoji"`)
	h.Set("Content-Type", "application/octet-stream")
	fw, err := mw.CreatePart(h)
	require.NoError(t, err)
	_, _ = fw.Write([]byte(file))
	for i := 0; i+1 < len(fields); i += 2 {
		require.NoError(t, mw.WriteField(fields[i], fields[i+1]))
	}
	require.NoError(t, mw.Close())
	return mw.FormDataContentType(), b.String()
}

func (e *env) upload(token, app, file string, fields ...string) resp {
	e.t.Helper()
	ct, body := upload(e.t, file, fields...)
	return e.do(req{method: "POST", path: "/api/apps/" + app + "/emoji", token: token, body: body, contentType: ct})
}

// fill stores n emoji rows for app directly (limit tests).
func (e *env) fill(app string, n int) {
	e.t.Helper()
	_, err := e.db.Run(bg, store.Q(`WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < ?)
		INSERT INTO custom_emoji (id, app_id, scope, shortcode, image_key, content_type, source, bytes, created_at)
		SELECT 'emo_fill' || i, ?, '', 'fill' || i, 'custom/x/_/' || i || '.png', 'image/png', 'upload', 1, 1 FROM c`, n, app))
	require.NoError(e.t, err)
}

func TestUploadGatesAndErrors(t *testing.T) {
	e := newEnv(t)
	e.user("free", "free@x.io", plans.Free)
	e.user("solo", "solo@x.io", plans.Solo)
	scale := e.user("scale", "scale@x.io", plans.Scale)
	viewer := e.user("viewer", "viewer@x.io", plans.Free)
	e.user("stranger", "s@x.io", plans.Scale)
	e.member(scale, viewer, accounts.RoleViewer)
	freeApp, soloApp, scaleApp := e.createApp("free", "production"), e.createApp("solo", "production"), e.createApp("scale", "production")
	e.fill(soloApp, 100)

	ct, body := upload(t, okSVG, "shortcode", "ok")
	cases := []struct {
		name, token, app, file string
		fields                 []string
		raw                    *req
		status                 int
		code, field, plan      string
	}{
		{name: "free plan", token: "free", app: freeApp, file: okSVG, fields: []string{"shortcode", "a"}, status: 402, code: "plan_required", plan: "solo"},
		{name: "solo at its limit", token: "solo", app: soloApp, file: okSVG, fields: []string{"shortcode", "a"}, status: 402, code: "plan_required", plan: "pro"},
		{name: "viewer", token: "viewer", app: scaleApp, file: okSVG, fields: []string{"shortcode", "a"}, status: 403, code: "forbidden_role"},
		{name: "another account's app", token: "stranger", app: scaleApp, file: okSVG, fields: []string{"shortcode", "a"}, status: 404, code: "not_found"},
		{name: "bad shortcode", token: "scale", app: scaleApp, file: okSVG, fields: []string{"shortcode", "no spaces"}, status: 400, code: "invalid_request", field: "shortcode"},
		{name: "rtl override shortcode", token: "scale", app: scaleApp, file: okSVG, fields: []string{"shortcode", "a\u202Eb"}, status: 400, code: "invalid_request", field: "shortcode"},
		{name: "missing shortcode", token: "scale", app: scaleApp, file: okSVG, status: 400, code: "invalid_request", field: "shortcode"},
		{name: "21 aliases", token: "scale", app: scaleApp, file: okSVG, fields: []string{"shortcode", "a", "aliases", strings.Repeat("x,", 10) + "a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q,r,s,t,u"}, status: 400, code: "invalid_request", field: "aliases"},
		{name: "foreign tenant", token: "scale", app: scaleApp, file: okSVG, fields: []string{"shortcode", "a", "tenantId", "ten_nope"}, status: 400, code: "invalid_request", field: "tenantId"},
		{name: "unsafe svg", token: "scale", app: scaleApp, file: `<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>`, fields: []string{"shortcode", "a"}, status: 400, code: "unsafe_svg", field: "file"},
		{name: "jpeg", token: "scale", app: scaleApp, file: "\xff\xd8\xff\xe0\x00\x10JFIF\x00", fields: []string{"shortcode", "a"}, status: 415, code: "unsupported_image", field: "file"},
		{name: "empty file", token: "scale", app: scaleApp, file: "", fields: []string{"shortcode", "a"}, status: 400, code: "invalid_request", field: "file"},
		{name: "too large", token: "scale", app: scaleApp, file: pngFile + strings.Repeat("\x00", 256*1024), fields: []string{"shortcode", "a"}, status: 413, code: "image_too_large", field: "file"},
		{name: "json body", raw: &req{body: `{"shortcode":"a"}`, contentType: "application/json"}, token: "scale", app: scaleApp, status: 415, code: "unsupported_media_type"},
		{name: "truncated multipart", raw: &req{body: body[:len(body)-20], contentType: ct}, token: "scale", app: scaleApp, status: 400, code: "invalid_request", field: "file"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var r resp
			if c.raw != nil {
				q := *c.raw
				q.method, q.path, q.token = "POST", "/api/apps/"+c.app+"/emoji", c.token
				r = e.do(q)
			} else {
				r = e.upload(c.token, c.app, c.file, c.fields...)
			}
			require.Equal(t, c.status, r.Code, r.Body.String())
			assert.Equal(t, c.code, r.errCode())
			if c.field != "" {
				assert.Equal(t, c.field, r.errField("field"))
			}
			if c.plan != "" {
				assert.Equal(t, c.plan, r.errField("plan"))
			}
		})
	}
	assert.Empty(t, e.objects.stored, "no refused upload left an image")
	assert.Zero(t, e.count("SELECT count(*) AS n FROM custom_emoji WHERE app_id = ?", scaleApp))
}

func TestUploadListRenameDelete(t *testing.T) {
	e := newEnv(t)
	owner := e.user("owner", "o@x.io", plans.Pro)
	dev := e.user("dev", "d@x.io", plans.Free)
	e.member(owner, dev, accounts.RoleDeveloper)
	app := e.createApp("owner", "production")
	other := e.createApp("owner", "production")

	r := e.upload("dev", app, pngFile, "shortcode", ":Party_Parrot:", "aliases", "Fiesta, fiesta ,dance")
	require.Equal(t, http.StatusCreated, r.Code, r.Body.String())
	em := r.json()
	id := em["id"].(string)
	assert.Equal(t, "party_parrot", em["shortcode"])
	assert.Equal(t, []any{"fiesta", "dance"}, em["aliases"])
	assert.Equal(t, "https://example.com/v1/custom/"+app+"/"+id, em["imageUrl"])
	assert.Nil(t, em["tenantId"])
	assert.NotContains(t, em, "tenantExternalId")
	assert.Equal(t, "upload", em["source"])
	assert.EqualValues(t, len(pngFile), em["bytes"])
	assert.Equal(t, map[string]string{"custom/" + app + "/_/" + id + ".png": "image/png"}, e.objects.stored)
	assert.Equal(t, int64(1), e.count("SELECT count(*) AS n FROM events WHERE type = 'custom_emoji.created' AND app_id = ?", app))

	r = e.upload("owner", app, okSVG, "shortcode", "party_parrot")
	assert.Equal(t, http.StatusConflict, r.Code)
	assert.Equal(t, "shortcode_taken", r.errCode())
	r = e.upload("owner", other, okSVG, "shortcode", "party_parrot")
	require.Equal(t, http.StatusCreated, r.Code, "another app is another scope")

	r = e.do(req{method: "GET", path: "/api/apps/" + app + "/emoji", token: "dev"})
	require.Equal(t, http.StatusOK, r.Code)
	list := r.json()
	assert.EqualValues(t, 2, list["used"], "used counts every app of the account")
	assert.EqualValues(t, 1000, list["limit"])
	assert.Len(t, list["emoji"], 1)

	path := "/api/apps/" + app + "/emoji/" + id
	r = e.do(req{method: "PATCH", path: path, token: "dev", body: map[string]any{"shortcode": "parrot", "aliases": []string{"Bird"}}})
	require.Equal(t, http.StatusOK, r.Code, r.Body.String())
	assert.Equal(t, id, r.json()["id"])
	assert.Equal(t, "parrot", r.json()["shortcode"])
	assert.Equal(t, []any{"bird"}, r.json()["aliases"])
	r = e.do(req{method: "PATCH", path: path, token: "dev", body: map[string]any{"aliases": "bird"}})
	assert.Equal(t, "aliases", r.errField("field"))
	r = e.do(req{method: "PATCH", path: "/api/apps/" + other + "/emoji/" + id, token: "dev", body: map[string]any{"shortcode": "x"}})
	assert.Equal(t, http.StatusNotFound, r.Code, "an emoji of another app")

	e.objects.fail = true
	r = e.do(req{method: "DELETE", path: path, token: "dev"})
	assert.Equal(t, http.StatusServiceUnavailable, r.Code)
	assert.Equal(t, "storage_unavailable", r.errCode())
	e.objects.fail = false
	r = e.do(req{method: "DELETE", path: path, token: "dev"})
	require.Equal(t, http.StatusOK, r.Code)
	assert.Equal(t, map[string]any{"ok": true}, r.json())
	assert.Len(t, e.objects.stored, 1)
	r = e.do(req{method: "DELETE", path: path, token: "dev"})
	assert.Equal(t, http.StatusNotFound, r.Code)
	assert.Equal(t, int64(1), e.count("SELECT count(*) AS n FROM events WHERE type = 'custom_emoji.deleted'"))

	e.objects.failPut = true
	r = e.upload("owner", app, okSVG, "shortcode", "down")
	assert.Equal(t, http.StatusServiceUnavailable, r.Code)
	assert.Equal(t, "storage_unavailable", r.errCode())
}

func TestScaleLimit(t *testing.T) {
	e := newEnv(t)
	e.user("scale", "s@x.io", plans.Scale)
	app := e.createApp("scale", "production")
	e.fill(app, 10_000)
	r := e.upload("scale", app, okSVG, "shortcode", "one_more")
	assert.Equal(t, http.StatusForbidden, r.Code)
	assert.Equal(t, "plan_limit", r.errCode())
	r = e.do(req{method: "PATCH", path: "/api/apps/" + app + "/emoji/emo_fill1", token: "scale", body: map[string]any{"shortcode": "renamed"}})
	assert.Equal(t, http.StatusOK, r.Code, "edits are never plan-gated")
}

func TestDashboardTenants(t *testing.T) {
	e := newEnv(t)
	owner := e.user("owner", "o@x.io", plans.Scale)
	viewer := e.user("viewer", "v@x.io", plans.Free)
	e.member(owner, viewer, accounts.RoleViewer)
	e.user("pro", "p@x.io", plans.Pro)
	app := e.createApp("owner", "production")
	proApp := e.createApp("pro", "production")

	r := e.do(req{method: "POST", path: "/api/apps/" + proApp + "/tenants", token: "pro", body: map[string]any{"externalId": "c1"}})
	assert.Equal(t, http.StatusPaymentRequired, r.Code)
	assert.Equal(t, "scale", r.errField("plan"))
	r = e.do(req{method: "POST", path: "/api/apps/" + app + "/tenants", token: "viewer", body: map[string]any{"externalId": "c1"}})
	assert.Equal(t, http.StatusForbidden, r.Code)
	for _, bad := range []map[string]any{{"externalId": ""}, {"externalId": "a b"}, {"externalId": strings.Repeat("x", 129)}, {"externalId": "ok", "name": "a\nb"}} {
		r = e.do(req{method: "POST", path: "/api/apps/" + app + "/tenants", token: "owner", body: bad})
		assert.Equal(t, http.StatusBadRequest, r.Code, "%v", bad)
	}
	var first string
	for _, ext := range []string{"c3", "c1", "c2"} {
		r = e.do(req{method: "POST", path: "/api/apps/" + app + "/tenants", token: "owner", body: map[string]any{"externalId": ext, "name": "N " + ext}})
		require.Equal(t, http.StatusCreated, r.Code, r.Body.String())
		tn := r.json()["tenant"].(map[string]any)
		assert.Equal(t, ext, tn["externalId"])
		assert.EqualValues(t, 0, tn["emojiCount"])
		if first == "" {
			first = tn["id"].(string)
		}
	}
	r = e.do(req{method: "POST", path: "/api/apps/" + app + "/tenants", token: "owner", body: map[string]any{"externalId": "c1"}})
	assert.Equal(t, http.StatusConflict, r.Code)
	assert.Equal(t, "tenant_exists", r.errCode())
	assert.Equal(t, int64(3), e.count("SELECT count(*) AS n FROM events WHERE type = 'tenant.created'"))

	r = e.do(req{method: "GET", path: "/api/apps/" + app + "/tenants?limit=2", token: "viewer"})
	require.Equal(t, http.StatusOK, r.Code)
	page := r.json()
	require.Len(t, page["tenants"], 2)
	cursor := page["nextCursor"].(string)
	r = e.do(req{method: "GET", path: "/api/apps/" + app + "/tenants?limit=2&cursor=" + cursor, token: "viewer"})
	page = r.json()
	require.Len(t, page["tenants"], 1)
	assert.Equal(t, "c3", page["tenants"].([]any)[0].(map[string]any)["externalId"])
	assert.Nil(t, page["nextCursor"])
	for _, q := range []string{"limit=0", "limit=501", "limit=x", "cursor=!!"} {
		r = e.do(req{method: "GET", path: "/api/apps/" + app + "/tenants?" + q, token: "viewer"})
		assert.Equal(t, http.StatusBadRequest, r.Code, q)
	}

	r = e.upload("owner", app, okSVG, "shortcode", "logo", "tenantId", first)
	require.Equal(t, http.StatusCreated, r.Code, r.Body.String())
	assert.Equal(t, first, r.json()["tenantId"])
	r = e.do(req{method: "GET", path: "/api/apps/" + app + "/emoji?tenantId=" + first, token: "viewer"})
	assert.Len(t, r.json()["emoji"], 1)
	r = e.do(req{method: "GET", path: "/api/apps/" + app + "/emoji?tenantId=ten_other", token: "viewer"})
	assert.Equal(t, http.StatusNotFound, r.Code)

	r = e.do(req{method: "GET", path: "/api/apps/" + app + "/tenants/" + first, token: "viewer"})
	require.Equal(t, http.StatusOK, r.Code)
	assert.EqualValues(t, 1, r.json()["tenant"].(map[string]any)["emojiCount"])
	r = e.do(req{method: "GET", path: "/api/apps/" + proApp + "/tenants/" + first, token: "pro"})
	assert.Equal(t, http.StatusPaymentRequired, r.Code)
	r = e.do(req{method: "DELETE", path: "/api/apps/" + app + "/tenants/" + first, token: "viewer"})
	assert.Equal(t, http.StatusForbidden, r.Code)
	r = e.do(req{method: "DELETE", path: "/api/apps/" + app + "/tenants/" + first, token: "owner"})
	require.Equal(t, http.StatusOK, r.Code)
	assert.EqualValues(t, 1, r.json()["emojiDeleted"])
	assert.Empty(t, e.objects.stored)
	r = e.do(req{method: "GET", path: "/api/apps/" + app + "/tenants/" + first, token: "owner"})
	assert.Equal(t, http.StatusNotFound, r.Code)
}

func TestDevPlan(t *testing.T) {
	e := newEnv(t)
	a := e.user("u", "u@x.io", plans.Free)
	r := e.do(req{method: "POST", path: "/api/auth/dev/plan", token: "u", body: map[string]any{"plan": "scale"}, host: "localhost"})
	assert.Equal(t, http.StatusNotFound, r.Code, "production: no such route")

	e = newEnv(t, func(c Config) Config { return c.WithEnvironment(EnvDevelopment) })
	a = e.user("u", "u@x.io", plans.Free)
	r = e.do(req{method: "POST", path: "/api/auth/dev/plan", token: "u", body: map[string]any{"plan": "gold"}, host: "localhost"})
	assert.Equal(t, "plan", r.errField("field"))
	r = e.do(req{method: "POST", path: "/api/auth/dev/plan", token: "u", body: map[string]any{"plan": "scale"}, host: "localhost"})
	require.Equal(t, http.StatusOK, r.Code, r.Body.String())
	got, err := e.repo.AccountByIdentity(bg, "idp_u")
	require.NoError(t, err)
	assert.Equal(t, plans.Scale, got.Plan)
	assert.Equal(t, a.ID, got.ID)
}

// TestEmojiBadBodies: the JSON routes of custom emoji and tenants share
// the dashboard's body rules; nothing changes.
func TestEmojiBadBodies(t *testing.T) {
	e := newEnv(t)
	e.user("u", "u@x.io", plans.Scale)
	app := e.createApp("u", "production")
	r := e.upload("u", app, okSVG, "shortcode", "keep")
	require.Equal(t, http.StatusCreated, r.Code, r.Body.String())
	id := r.json()["id"].(string)
	routes := []route{
		{"PATCH", "/api/apps/" + app + "/emoji/" + id},
		{"POST", "/api/apps/" + app + "/tenants"},
	}
	refuseBodies(t, e, "u", routes, jsonRuleCases("shortcode", "x"), nil)
	assert.Equal(t, int64(0), e.count("SELECT count(*) AS n FROM tenants"))
	assert.Equal(t, int64(1), e.count("SELECT count(*) AS n FROM custom_emoji WHERE shortcode = 'keep'"))
}

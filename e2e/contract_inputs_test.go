package e2e

import (
	"bytes"
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Bad input, conflicts and the tenants API's answers, route by route (the
// statuses of docs/openapi.json the journeys do not reach).

// workspace is a Scale account with an app, a key, a tenant, a custom
// emoji, a webhook and a teammate: something for every route to act on.
type workspace struct {
	owner                         user
	app, key, tenant, emoji, hook string
	sk                            string
	upload                        func(file []byte, fields ...string) reply
	tenantsAPI                    func(method, path string, body []byte, ct string) reply
}

func newWorkspace(t *testing.T) workspace {
	t.Helper()
	const origin = "https://workspace27.test"
	u, app, _, sk := scaleApp(t, "scale", origin)
	w := workspace{owner: u, app: app, sk: sk}
	keys := u.api(t, "GET", "/api/apps/"+app, nil)
	require.Equal(t, 200, keys.Status, string(keys.Body))
	w.key = keys.JSON(t)["keys"].([]any)[0].(map[string]any)["id"].(string)
	tenant := u.api(t, "POST", "/api/apps/"+app+"/tenants", map[string]any{"externalId": "ws"})
	require.Equal(t, 201, tenant.Status, string(tenant.Body))
	w.tenant = tenant.JSON(t)["tenant"].(map[string]any)["id"].(string)
	w.upload = func(file []byte, fields ...string) reply {
		body, ct := multipartBody(t, file, fields...)
		return call(t, "POST", "/api/apps/"+app+"/emoji", body, "Authorization", "Bearer "+u.token, "Content-Type", ct)
	}
	em := w.upload(e2eImages(t)["png"], "shortcode", "taken")
	require.Equal(t, 201, em.Status, string(em.Body))
	w.emoji = em.JSON(t)["id"].(string)
	hook := u.api(t, "POST", "/api/apps/"+app+"/webhooks", map[string]any{"url": "http://localhost:9/ws"})
	require.Equal(t, 201, hook.Status, string(hook.Body))
	w.hook = hook.JSON(t)["webhook"].(map[string]any)["id"].(string)
	// Disabled: the workspace's events must not queue failing deliveries
	// that the webhook tests' sweeps would spend their budget on.
	require.Equal(t, 200, u.api(t, "PATCH", "/api/webhooks/"+w.hook, map[string]any{"enabled": false}).Status)
	w.tenantsAPI = func(method, path string, body []byte, ct string) reply {
		h := []string{"Authorization", "Bearer " + sk}
		if ct != "" {
			h = append(h, "Content-Type", ct)
		}
		return call(t, method, "/v1/tenants"+path, body, h...)
	}
	return w
}

func TestEveryRouteRefusesBadInput(t *testing.T) {
	w := newWorkspace(t)
	a := "/api/apps/" + w.app
	cases := []struct {
		method, path string
		body         any
		code         string
	}{
		{"POST", "/api/apps", map[string]any{"name": ""}, "invalid_request"},
		{"PATCH", a, map[string]any{"name": ""}, "invalid_request"},
		{"POST", a + "/keys", map[string]any{"kind": "golden"}, "invalid_request"},
		{"GET", a + "/usage?period=2026-13", nil, "invalid_request"},
		{"GET", a + "/analytics?days=5", nil, "invalid_request"},
		{"GET", a + "/tenants?limit=0", nil, "invalid_request"},
		{"POST", a + "/tenants", map[string]any{"externalId": "has space"}, "invalid_request"},
		{"POST", a + "/webhooks", map[string]any{"url": "https://10.0.0.1/hook"}, "invalid_request"},
		{"PATCH", "/api/webhooks/" + w.hook, map[string]any{"url": "ftp://example.com/"}, "invalid_request"},
		{"PATCH", a + "/emoji/" + w.emoji, map[string]any{"shortcode": "::"}, "invalid_request"},
		{"POST", "/api/team/invites", map[string]any{"role": "owner"}, "invalid_request"},
		{"PATCH", "/api/team/members/x1", map[string]any{"role": "owner"}, "invalid_request"},
		{"POST", "/api/auth/dev/plan", map[string]any{"plan": "gold"}, "invalid_request"},
		{"POST", "/api/billing/upgrade", []byte("{"), "invalid_json"},
	}
	for _, c := range cases {
		t.Run(c.method+" "+c.path, func(t *testing.T) {
			var r reply
			if raw, ok := c.body.([]byte); ok {
				r = call(t, c.method, c.path, raw, "Authorization", "Bearer "+w.owner.token, "Content-Type", "application/json")
			} else {
				r = w.owner.api(t, c.method, c.path, c.body)
			}
			require.Equal(t, http.StatusBadRequest, r.Status, string(r.Body))
			assert.Equal(t, c.code, errorCode(t, r))
		})
	}
	r := w.tenantsAPI("GET", "?limit=0", nil, "")
	assert.Equal(t, http.StatusBadRequest, r.Status, string(r.Body))
	assert.Equal(t, "invalid_request", r.JSON(t)["error"])
	r = w.tenantsAPI("POST", "", []byte("{"), "application/json")
	assert.Equal(t, http.StatusBadRequest, r.Status, string(r.Body))
	assert.Equal(t, "invalid_json", r.JSON(t)["error"])
}

// Conflicts, sizes and media types of the upload and tenant routes.
func TestUploadAndTenantRefusals(t *testing.T) {
	w := newWorkspace(t)
	png := e2eImages(t)["png"]
	big := append(bytes.Clone(png), make([]byte, 257<<10)...)

	r := w.upload(png, "shortcode", "taken")
	assert.Equal(t, http.StatusConflict, r.Status, string(r.Body))
	assert.Equal(t, "shortcode_taken", errorCode(t, r))
	second := w.upload(png, "shortcode", "second")
	require.Equal(t, 201, second.Status, string(second.Body))
	r = w.owner.api(t, "PATCH", "/api/apps/"+w.app+"/emoji/"+second.JSON(t)["id"].(string), map[string]any{"shortcode": "taken"})
	assert.Equal(t, http.StatusConflict, r.Status, string(r.Body))
	assert.Equal(t, "shortcode_taken", errorCode(t, r))
	r = w.upload(big, "shortcode", "big")
	assert.Equal(t, http.StatusRequestEntityTooLarge, r.Status, string(r.Body))
	assert.Equal(t, "image_too_large", errorCode(t, r))
	r = w.upload([]byte("plain text"), "shortcode", "text")
	assert.Equal(t, http.StatusUnsupportedMediaType, r.Status, string(r.Body))
	assert.Equal(t, "unsupported_image", errorCode(t, r))
	r = w.owner.api(t, "POST", "/api/apps/"+w.app+"/emoji", map[string]any{"shortcode": "json"})
	assert.Equal(t, http.StatusUnsupportedMediaType, r.Status, string(r.Body))
	assert.Equal(t, "unsupported_media_type", errorCode(t, r))
	del := w.owner.api(t, "DELETE", "/api/apps/"+w.app+"/emoji/"+second.JSON(t)["id"].(string), nil)
	require.Equal(t, 200, del.Status, string(del.Body))
	assert.Equal(t, map[string]any{"ok": true}, del.JSON(t))

	// The tenants API.
	require.Equal(t, 201, w.tenantsAPI("POST", "", []byte(`{"externalId":"api-1"}`), "application/json").Status)
	list := w.tenantsAPI("GET", "?limit=1", nil, "")
	require.Equal(t, 200, list.Status, string(list.Body))
	assert.Len(t, list.JSON(t)["tenants"], 1)
	assert.NotNil(t, list.JSON(t)["nextCursor"], "two tenants, pages of one")
	body, ct := multipartBody(t, png, "shortcode", "one")
	require.Equal(t, 201, w.tenantsAPI("POST", "/api-1/emoji", body, ct).Status)
	r = w.tenantsAPI("POST", "/api-1/emoji", body, ct)
	assert.Equal(t, http.StatusConflict, r.Status, string(r.Body))
	assert.Equal(t, "shortcode_taken", r.JSON(t)["error"])
	emoji := w.tenantsAPI("GET", "/api-1/emoji", nil, "")
	require.Equal(t, 200, emoji.Status, string(emoji.Body))
	assert.Len(t, emoji.JSON(t)["emoji"], 1)
	bigBody, bigCT := multipartBody(t, big, "shortcode", "big")
	r = w.tenantsAPI("POST", "/api-1/emoji", bigBody, bigCT)
	assert.Equal(t, http.StatusRequestEntityTooLarge, r.Status, string(r.Body))
	assert.Equal(t, "image_too_large", r.JSON(t)["error"])
	textBody, textCT := multipartBody(t, []byte("plain text"), "shortcode", "text")
	r = w.tenantsAPI("POST", "/api-1/emoji", textBody, textCT)
	assert.Equal(t, http.StatusUnsupportedMediaType, r.Status, string(r.Body))
	assert.Equal(t, "unsupported_image", r.JSON(t)["error"])
	r = w.tenantsAPI("POST", "", []byte(`{"externalId":"x"}`), "text/plain")
	assert.Equal(t, http.StatusUnsupportedMediaType, r.Status, string(r.Body))
	assert.Equal(t, "unsupported_media_type", r.JSON(t)["error"])
	r = w.tenantsAPI("POST", "", append([]byte(`{"externalId":"x","name":"`), append(bytes.Repeat([]byte("a"), 17<<10), '"', '}')...), "application/json")
	assert.Equal(t, http.StatusRequestEntityTooLarge, r.Status, string(r.Body))
	assert.Equal(t, "body_too_large", r.JSON(t)["error"])
	for _, p := range []struct{ method, path string }{
		{"DELETE", "/nobody"}, {"GET", "/nobody/emoji"}, {"DELETE", "/api-1/emoji/nothing"},
	} {
		r = w.tenantsAPI(p.method, p.path, nil, "")
		assert.Equal(t, http.StatusNotFound, r.Status, p.path+": "+string(r.Body))
	}
	r = w.tenantsAPI("POST", "/nobody/emoji", body, ct)
	assert.Equal(t, http.StatusNotFound, r.Status, string(r.Body))
	assert.Equal(t, "tenant_not_found", r.JSON(t)["error"])

	// The team: the owner cannot be removed.
	r = w.owner.api(t, "DELETE", "/api/team/members/"+url.PathEscape(accountID(t, w.owner)), nil)
	assert.Equal(t, http.StatusConflict, r.Status, string(r.Body))
	assert.Equal(t, "owner_immutable", errorCode(t, r))
}

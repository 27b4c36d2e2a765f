package e2e

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Dashboard routes and codes that were once covered by unit tests only
// (waitlist, billing, tenants, webhooks, keys, invites, plan gates), over
// HTTP on both targets and through the contract check.

// planUser signs a user up on plan (the development plan route).
func planUser(t *testing.T, plan string) user {
	t.Helper()
	u := signUp(t)
	require.Equal(t, 200, u.api(t, "GET", "/api/me", nil).Status)
	r := u.api(t, "POST", "/api/auth/dev/plan", map[string]any{"plan": plan})
	require.Equal(t, 200, r.Status, string(r.Body))
	return u
}

func newApp(t *testing.T, u user) string {
	t.Helper()
	r := u.api(t, "POST", "/api/apps", map[string]any{"name": "Issue 27", "environment": "development"})
	require.Equal(t, 201, r.Status, string(r.Body))
	return r.JSON(t)["app"].(map[string]any)["id"].(string)
}

func accountID(t *testing.T, u user) string {
	t.Helper()
	r := u.api(t, "GET", "/api/me", nil)
	require.Equal(t, 200, r.Status, string(r.Body))
	return r.JSON(t)["account"].(map[string]any)["id"].(string)
}

// POST /api/waitlist: JSON and form posts, the form's redirects, the
// refusals and the 5/min limit (spec 2, waitlist route rules).
func TestWaitlist(t *testing.T) {
	email := unique("wait") + "@example.com"
	ip := fmt.Sprintf("2001:db8:27::%x", time.Now().UnixNano()&0xffff)
	post := func(ct, body string, headers ...string) reply {
		return call(t, "POST", "/api/waitlist", []byte(body), append([]string{"Content-Type", ct, "CF-Connecting-IP", ip}, headers...)...)
	}
	ok := post("application/json", `{"email":"`+email+`","plan":"scale"}`)
	require.Equal(t, 200, ok.Status, string(ok.Body))
	assert.Equal(t, map[string]any{"status": "waitlist", "plan": "scale"}, ok.JSON(t))

	form := post("application/x-www-form-urlencoded", "email="+url.QueryEscape(email))
	require.Equal(t, 303, form.Status, string(form.Body))
	assert.Contains(t, form.Header.Get("Location"), websiteOrigin)
	assert.Contains(t, form.Header.Get("Location"), "waitlist=ok")
	bad := post("application/x-www-form-urlencoded", "email=not-an-email", "Origin", websiteOrigin)
	require.Equal(t, 303, bad.Status)
	assert.Contains(t, bad.Header.Get("Location"), "waitlist=error")

	invalid := post("application/json", `{"email":"nope"}`)
	assert.Equal(t, 400, invalid.Status)
	assert.Equal(t, "invalid_request", errorCode(t, invalid))
	require.Equal(t, 200, post("application/json", `{"email":"`+email+`"}`).Status)
	// The five posts of this address are used: the sixth is limited.
	limited := post("application/json", `{"email":"`+email+`"}`)
	assert.Equal(t, 429, limited.Status, string(limited.Body))
	assert.Equal(t, "rate_limited", errorCode(t, limited))
	assert.Equal(t, "60", limited.Header.Get("Retry-After"))

	other := func(ct, body string, headers ...string) reply {
		return call(t, "POST", "/api/waitlist", []byte(body), append([]string{"Content-Type", ct}, headers...)...)
	}
	foreign := other("application/json", `{"email":"`+email+`"}`, "Origin", "https://evil.example")
	assert.Equal(t, 403, foreign.Status)
	assert.Equal(t, "forbidden_origin", errorCode(t, foreign))
	text := other("text/plain", "email="+email)
	assert.Equal(t, 415, text.Status)
	assert.Equal(t, "unsupported_media_type", errorCode(t, text))
	big := other("application/x-www-form-urlencoded", "email="+strings.Repeat("a", 17<<10), "Accept", "application/json")
	assert.Equal(t, 413, big.Status)
	assert.Equal(t, "body_too_large", errorCode(t, big))
}

// POST /api/billing/upgrade records a waitlist request for a higher plan
// only (409 plan_not_higher); GET /api/billing shows it.
func TestBillingUpgrade(t *testing.T) {
	u := planUser(t, "solo")
	up := u.api(t, "POST", "/api/billing/upgrade", map[string]any{"plan": "pro"})
	require.Equal(t, 200, up.Status, string(up.Body))
	assert.Equal(t, map[string]any{"status": "waitlist", "plan": "pro"}, up.JSON(t))
	for _, plan := range []string{"solo", "free"} {
		same := u.api(t, "POST", "/api/billing/upgrade", map[string]any{"plan": plan})
		assert.Equal(t, 409, same.Status, plan)
		assert.Equal(t, "plan_not_higher", errorCode(t, same))
	}
	unknown := u.api(t, "POST", "/api/billing/upgrade", map[string]any{"plan": "gold"})
	assert.Equal(t, 400, unknown.Status)
	assert.Equal(t, "invalid_request", errorCode(t, unknown))
	billing := u.api(t, "GET", "/api/billing", nil)
	require.Equal(t, 200, billing.Status, string(billing.Body))
	assert.Equal(t, "solo", billing.JSON(t)["plan"], "an upgrade never changes the plan")
	assert.Equal(t, "pro", billing.JSON(t)["waitlistPlan"])
	assert.Nil(t, billing.JSON(t)["provider"])
}

// The dashboard's tenant routes: list, create (409 tenant_exists), get,
// delete.
func TestDashboardTenantRoutes(t *testing.T) {
	u := planUser(t, "scale")
	app := newApp(t, u)
	base := "/api/apps/" + app + "/tenants"
	created := u.api(t, "POST", base, map[string]any{"externalId": "acme", "name": "Acme"})
	require.Equal(t, 201, created.Status, string(created.Body))
	tenant := created.JSON(t)["tenant"].(map[string]any)
	again := u.api(t, "POST", base, map[string]any{"externalId": "acme"})
	assert.Equal(t, 409, again.Status)
	assert.Equal(t, "tenant_exists", errorCode(t, again))

	list := u.api(t, "GET", base+"?limit=10", nil)
	require.Equal(t, 200, list.Status, string(list.Body))
	assert.Len(t, list.JSON(t)["tenants"], 1)
	assert.Nil(t, list.JSON(t)["nextCursor"])
	one := u.api(t, "GET", base+"/"+tenant["id"].(string), nil)
	require.Equal(t, 200, one.Status, string(one.Body))
	assert.Equal(t, "acme", one.JSON(t)["tenant"].(map[string]any)["externalId"])
	del := u.api(t, "DELETE", base+"/"+tenant["id"].(string), nil)
	require.Equal(t, 200, del.Status, string(del.Body))
	assert.Equal(t, 0.0, del.JSON(t)["emojiDeleted"])
	gone := u.api(t, "GET", base+"/"+tenant["id"].(string), nil)
	assert.Equal(t, 404, gone.Status)
	assert.Equal(t, "not_found", errorCode(t, gone))
}

// Ten webhooks per app (409 webhook_limit); DELETE /api/webhooks/:id.
func TestWebhookLimitAndDelete(t *testing.T) {
	u := planUser(t, "scale")
	app := newApp(t, u)
	var ids []string
	for i := range 10 {
		r := u.api(t, "POST", "/api/apps/"+app+"/webhooks", map[string]any{"url": fmt.Sprintf("http://localhost:9/hook%d", i)})
		require.Equal(t, 201, r.Status, string(r.Body))
		ids = append(ids, r.JSON(t)["webhook"].(map[string]any)["id"].(string))
	}
	over := u.api(t, "POST", "/api/apps/"+app+"/webhooks", map[string]any{"url": "http://localhost:9/eleven"})
	assert.Equal(t, 409, over.Status)
	assert.Equal(t, "webhook_limit", errorCode(t, over))
	del := u.api(t, "DELETE", "/api/webhooks/"+ids[0], nil)
	require.Equal(t, 200, del.Status, string(del.Body))
	assert.Equal(t, map[string]any{"ok": true}, del.JSON(t))
	assert.Equal(t, 404, u.api(t, "DELETE", "/api/webhooks/"+ids[0], nil).Status)
	list := u.api(t, "GET", "/api/apps/"+app+"/webhooks", nil)
	require.Equal(t, 200, list.Status)
	assert.Len(t, list.JSON(t)["webhooks"], 9)
	assert.Equal(t, 201, u.api(t, "POST", "/api/apps/"+app+"/webhooks", map[string]any{"url": "http://localhost:9/again"}).Status,
		"a deleted webhook frees its place")
}

// PATCH /api/keys/:id changes the allowed origins; a revoked key answers
// 409 key_revoked.
func TestKeyPatch(t *testing.T) {
	u := signUp(t)
	_, keyID, _ := newAppWithKey(t, u, "https://a.keys27.test")
	r := u.api(t, "PATCH", "/api/keys/"+keyID, map[string]any{"allowedOrigins": []string{"https://b.keys27.test"}})
	require.Equal(t, 200, r.Status, string(r.Body))
	assert.Equal(t, []any{"https://b.keys27.test"}, r.JSON(t)["key"].(map[string]any)["allowedOrigins"])
	bad := u.api(t, "PATCH", "/api/keys/"+keyID, map[string]any{"allowedOrigins": []string{"not an origin"}})
	assert.Equal(t, 400, bad.Status)
	assert.Equal(t, "invalid_request", errorCode(t, bad))
	require.Equal(t, 200, u.api(t, "DELETE", "/api/keys/"+keyID, nil).Status)
	revoked := u.api(t, "PATCH", "/api/keys/"+keyID, map[string]any{"allowedOrigins": []string{"https://c.keys27.test"}})
	assert.Equal(t, 409, revoked.Status)
	assert.Equal(t, "key_revoked", errorCode(t, revoked))
	assert.Equal(t, 404, u.api(t, "PATCH", "/api/keys/key_000000000000000000000000", map[string]any{"allowedOrigins": []string{}}).Status)
}

// Invites: withdrawn (DELETE /api/team/invites/:id, then 404
// invite_not_found), expired (410 invite_expired), a second membership of
// the same team (409 already_member); the owner's role cannot change (409
// owner_immutable).
func TestTeamInviteCodes(t *testing.T) {
	owner, member := planUser(t, "pro"), signUp(t)
	require.Equal(t, 200, member.api(t, "GET", "/api/me", nil).Status)
	invite := func(from user) (id, token string) {
		r := from.api(t, "POST", "/api/team/invites", map[string]any{"role": "viewer"})
		require.Equal(t, 201, r.Status, string(r.Body))
		link := r.JSON(t)["url"].(string)
		return r.JSON(t)["invite"].(map[string]any)["id"].(string), link[strings.LastIndex(link, "/")+1:]
	}
	accept := func(u user, token string) reply { return u.api(t, "POST", "/api/invites/"+token+"/accept", nil) }

	id, token := invite(owner)
	withdrawn := owner.api(t, "DELETE", "/api/team/invites/"+id, nil)
	require.Equal(t, 200, withdrawn.Status, string(withdrawn.Body))
	r := accept(member, token)
	assert.Equal(t, 404, r.Status)
	assert.Equal(t, "invite_not_found", errorCode(t, r))

	id, token = invite(owner)
	sql(t, "UPDATE invites SET created_at = ? WHERE id = ?", time.Now().Add(-8*24*time.Hour).UnixMilli(), id)
	r = accept(member, token)
	assert.Equal(t, 410, r.Status)
	assert.Equal(t, "invite_expired", errorCode(t, r))

	_, token = invite(owner)
	require.Equal(t, 200, accept(member, token).Status)
	_, token = invite(owner)
	r = accept(member, token)
	assert.Equal(t, 409, r.Status)
	assert.Equal(t, "already_member", errorCode(t, r))

	r = owner.api(t, "PATCH", "/api/team/members/"+accountID(t, owner), map[string]any{"role": "viewer"})
	assert.Equal(t, 409, r.Status, string(r.Body))
	assert.Equal(t, "owner_immutable", errorCode(t, r))
}

// Plan gates: maxApps (402 plan_required past the plan's apps, 403
// plan_limit on the top plan) and emojiSet (Solo+).
func TestAppPlanGates(t *testing.T) {
	free := planUser(t, "free")
	newApp(t, free)
	newApp(t, free)
	third := free.api(t, "POST", "/api/apps", map[string]any{"name": "third"})
	assert.Equal(t, 402, third.Status)
	assert.Equal(t, "plan_required", errorCode(t, third))
	assert.Equal(t, "solo", third.JSON(t)["error"].(map[string]any)["plan"])

	owner := planUser(t, "free")
	own := newApp(t, owner)
	set := owner.api(t, "PATCH", "/api/apps/"+own, map[string]any{"emojiSet": "noto"})
	assert.Equal(t, 402, set.Status)
	assert.Equal(t, "solo", set.JSON(t)["error"].(map[string]any)["plan"])
	native := owner.api(t, "PATCH", "/api/apps/"+own, map[string]any{"emojiSet": "native", "name": "renamed"})
	require.Equal(t, 200, native.Status, string(native.Body))
	assert.Equal(t, "renamed", native.JSON(t)["app"].(map[string]any)["name"])

	scale := planUser(t, "scale")
	sql(t, `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100)
		INSERT INTO apps (id, account_id, name, environment, created_at)
		SELECT 'app_i27_' || ? || '_' || i, ?, 'bulk', 'development', 0 FROM n`, scale.sub, accountID(t, scale))
	top := scale.api(t, "POST", "/api/apps", map[string]any{"name": "one too many"})
	assert.Equal(t, 403, top.Status)
	assert.Equal(t, "plan_limit", errorCode(t, top))
}

// At the top plan's custom emoji limit: 403 plan_limit (dashboard upload,
// and the tenants API with used and limit).
func TestCustomEmojiPlanLimit(t *testing.T) {
	u, app, _, sk := scaleApp(t, "scale", "https://limit27.test")
	sql(t, `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10000)
		INSERT INTO custom_emoji (id, app_id, shortcode, image_key, content_type, source, bytes, created_at)
		SELECT 'ce_i27_' || ? || '_' || i, ?, 'bulk' || i, 'custom/none', 'image/png', 'upload', 1, 0 FROM n`, app, app)
	body, ct := multipartBody(t, e2eImages(t)["png"], "shortcode", "over")
	r := call(t, "POST", "/api/apps/"+app+"/emoji", body, "Authorization", "Bearer "+u.token, "Content-Type", ct)
	assert.Equal(t, 403, r.Status, string(r.Body))
	assert.Equal(t, "plan_limit", errorCode(t, r))

	require.Contains(t, []int{200, 201}, call(t, "POST", "/v1/tenants", []byte(`{"externalId":"t1"}`), "Authorization", "Bearer "+sk, "Content-Type", "application/json").Status)
	r = call(t, "POST", "/v1/tenants/t1/emoji", body, "Authorization", "Bearer "+sk, "Content-Type", ct)
	assert.Equal(t, 403, r.Status, string(r.Body))
	assert.Equal(t, "plan_limit", r.JSON(t)["error"])
	assert.Equal(t, 10000.0, r.JSON(t)["used"])
	assert.Equal(t, 10000.0, r.JSON(t)["limit"])
}

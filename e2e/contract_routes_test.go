package e2e

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Refusals every route of a kind shares, asked of every such route the
// document names: the document's list of routes drives the tests, so a
// route added to it is covered without a new test.

// operation is one method of one path of the document.
type operation struct {
	method, template string
	op               *openapi3.Operation
}

// operations lists the document's operations (CORS preflights aside) whose
// security includes scheme, in a stable order.
func operations(scheme string) []operation {
	var out []operation
	for _, template := range slices.Sorted(maps.Keys(spec.doc.Paths.Map())) {
		item := spec.doc.Paths.Find(template)
		for _, m := range slices.Sorted(maps.Keys(item.Operations())) {
			op := item.GetOperation(m)
			if m == http.MethodOptions || op.Security == nil {
				continue
			}
			for _, req := range *op.Security {
				if _, ok := req[scheme]; ok {
					out = append(out, operation{m, template, op})
					break
				}
			}
		}
	}
	return out
}

// Every dashboard route refuses a caller without a session token (401
// unauthorized), and every tenants API route a caller without a key.
func TestEveryRouteNeedsItsCredentials(t *testing.T) {
	for _, scheme := range []string{"sessionToken", "secretKey"} {
		for _, o := range operations(scheme) {
			if slices.ContainsFunc(*o.op.Security, func(r openapi3.SecurityRequirement) bool { return len(r) == 0 }) {
				continue // anonymous callers are served
			}
			t.Run(o.method+" "+o.template, func(t *testing.T) {
				r := call(t, o.method, pathFor(o.template), nil)
				require.Equal(t, http.StatusUnauthorized, r.Status, string(r.Body))
				if scheme == "sessionToken" {
					assert.Equal(t, "unauthorized", errorCode(t, r))
				} else {
					assert.NotEmpty(t, r.JSON(t)["error"])
				}
			})
		}
	}
}

// A signed-in caller asking for an app, key, webhook, invite, member or
// emoji that does not exist (or is not theirs: the same answer) gets 404.
func TestEveryDashboardRouteHidesWhatIsNotYours(t *testing.T) {
	u := planUser(t, "scale")
	for _, o := range operations("sessionToken") {
		if !strings.Contains(o.template, "{") {
			continue
		}
		t.Run(o.method+" "+o.template, func(t *testing.T) {
			var body any
			if o.method == http.MethodPost || o.method == http.MethodPatch {
				body = map[string]any{"role": "viewer"}
			}
			r := u.api(t, o.method, pathFor(o.template), body)
			require.Equal(t, http.StatusNotFound, r.Status, string(r.Body))
			assert.Contains(t, []string{"not_found", "invite_not_found"}, errorCode(t, r))
		})
	}
}

// Routes of a plan's features answer 402 plan_required, naming the
// cheapest plan that has them, to an account below it (spec 2).
func TestEveryPlanGatedRouteNamesThePlan(t *testing.T) {
	owner := planUser(t, "scale")
	app := newApp(t, owner)
	hook := owner.api(t, "POST", "/api/apps/"+app+"/webhooks", map[string]any{"url": "http://localhost:9/gated"})
	require.Equal(t, 201, hook.Status, string(hook.Body))
	hookID := hook.JSON(t)["webhook"].(map[string]any)["id"].(string)
	require.Equal(t, 200, owner.api(t, "PATCH", "/api/webhooks/"+hookID, map[string]any{"enabled": false}).Status,
		"disabled: no failing delivery for the webhook tests' sweeps")
	tenant := owner.api(t, "POST", "/api/apps/"+app+"/tenants", map[string]any{"externalId": "gated"})
	require.Equal(t, 201, tenant.Status, string(tenant.Body))
	tenantID := tenant.JSON(t)["tenant"].(map[string]any)["id"].(string)
	require.Equal(t, 200, owner.api(t, "POST", "/api/auth/dev/plan", map[string]any{"plan": "free"}).Status)

	cases := []struct{ method, path, plan string }{
		{"GET", "/api/apps/" + app + "/webhooks", "scale"},
		{"POST", "/api/apps/" + app + "/webhooks", "scale"},
		{"PATCH", "/api/webhooks/" + hookID, "scale"},
		{"DELETE", "/api/webhooks/" + hookID, "scale"},
		{"POST", "/api/webhooks/" + hookID + "/test", "scale"},
		{"GET", "/api/webhooks/" + hookID + "/deliveries", "scale"},
		{"GET", "/api/apps/" + app + "/tenants", "scale"},
		{"POST", "/api/apps/" + app + "/tenants", "scale"},
		{"GET", "/api/apps/" + app + "/tenants/" + tenantID, "scale"},
		{"DELETE", "/api/apps/" + app + "/tenants/" + tenantID, "scale"},
		{"GET", "/api/apps/" + app + "/analytics", "pro"},
		{"POST", "/api/apps/" + app + "/emoji/import/slack", "pro"},
		{"POST", "/api/apps/" + app + "/emoji/import/discord", "pro"},
		{"GET", "/api/team", "pro"},
		{"POST", "/api/team/invites", "pro"},
	}
	for _, c := range cases {
		t.Run(c.method+" "+c.path, func(t *testing.T) {
			body := map[string]any{"url": "http://localhost:9/x", "externalId": "x", "token": "xoxp-1", "botToken": "b", "guildId": "1", "role": "viewer"}
			r := owner.api(t, c.method, c.path, body)
			require.Equal(t, http.StatusPaymentRequired, r.Status, string(r.Body))
			assert.Equal(t, "plan_required", errorCode(t, r))
			assert.Equal(t, c.plan, r.JSON(t)["error"].(map[string]any)["plan"])
		})
	}
}

// Every tenants API route answers an account below Scale 402 and a key
// over its 120 requests a minute 429 with Retry-After (spec 1).
func TestEveryTenantsRoutePlanAndRateLimit(t *testing.T) {
	_, _, _, sk := scaleApp(t, "pro", "https://tenants-limits.test")
	ops := operations("secretKey")
	ip := fmt.Sprintf("2001:db8:27:1::%x", time.Now().UnixNano()&0xffff)
	for _, o := range ops {
		if !strings.HasPrefix(o.template, "/v1/tenants") {
			continue
		}
		r := call(t, o.method, pathFor(o.template), nil, "Authorization", "Bearer "+sk, "CF-Connecting-IP", ip)
		assert.Equal(t, http.StatusPaymentRequired, r.Status, "%s %s: %s", o.method, o.template, r.Body)
		assert.Equal(t, "plan_required", r.JSON(t)["error"])
	}
	// The limiter counts in fixed windows of a minute (Workers' rate
	// limiting binding; workerd and hostsim alike): calls that straddle a
	// window's end start the count again, so up to twice the limit may be
	// needed before the 121st call of one window is refused.
	limited := false
	for i := 0; i < 2*121+10 && !limited; i++ {
		limited = call(t, "GET", "/v1/tenants", nil, "Authorization", "Bearer "+sk, "CF-Connecting-IP", ip).Status == http.StatusTooManyRequests
	}
	require.True(t, limited, "the key's 121st call within a minute is refused")
	for _, o := range ops {
		r := call(t, o.method, pathFor(o.template), nil, "Authorization", "Bearer "+sk, "CF-Connecting-IP", ip)
		require.Equal(t, http.StatusTooManyRequests, r.Status, "%s %s: %s", o.method, o.template, r.Body)
		assert.Equal(t, "60", r.Header.Get("Retry-After"))
	}
}

// A session token that reaches a Worker without identity-provider settings
// answers 503 clerk_unconfigured on every dashboard route (spec 2,
// Authentication 4). The instance is a hostsim beside the target, with
// the target's vars but the CLERK_ ones.
func TestDashboardWithoutIdentityProvider(t *testing.T) {
	other := beside(t, func(vars map[string]string) {
		for k := range vars {
			if strings.HasPrefix(k, "CLERK_") {
				delete(vars, k)
			}
		}
	})
	token := signUp(t).token
	for _, o := range operations("sessionToken") {
		t.Run(o.method+" "+o.template, func(t *testing.T) {
			r := callAt(t, other.base, o.method, pathFor(o.template), []byte("{}"), "Authorization", "Bearer "+token, "Content-Type", "application/json")
			require.Equal(t, http.StatusServiceUnavailable, r.Status, string(r.Body))
			assert.Equal(t, "clerk_unconfigured", errorCode(t, r))
		})
	}
}

// beside starts a hostsim next to the target with the target's vars as
// edit leaves them, for the answers of a configuration the target lacks.
func beside(t *testing.T, edit func(vars map[string]string)) *target {
	t.Helper()
	vars := workerVars()
	edit(vars)
	other, err := startHostsimWith(repoRoot(), vars)
	require.NoError(t, err)
	t.Cleanup(other.stop)
	return other
}

// In production the development sign-in and plan routes do not exist
// (spec 2, Authentication 6): 404 in the dashboard's error shape.
func TestDevelopmentRoutesAbsentInProduction(t *testing.T) {
	prod := beside(t, func(vars map[string]string) { vars["ENVIRONMENT"] = "production" })
	for _, c := range []struct{ method, path string }{{"GET", "/api/auth/dev?login=someone"}, {"POST", "/api/auth/dev/plan"}} {
		r := callAt(t, prod.base, c.method, c.path, []byte(`{"plan":"scale"}`), "Content-Type", "application/json")
		assert.Equal(t, http.StatusNotFound, r.Status, "%s %s: %s", c.method, c.path, r.Body)
		assert.Equal(t, "not_found", errorCode(t, r))
	}
}

// The chat providers' own failures: a rate limit (429 import_rate_limited
// with Retry-After) and no answer at all (502 import_unavailable, on an
// instance whose provider addresses point at a closed port).
func TestImportProviderFailures(t *testing.T) {
	u := planUser(t, "pro")
	app := newApp(t, u)
	chat.SetRateLimited(true)
	limited := u.api(t, "POST", "/api/apps/"+app+"/emoji/import/slack", map[string]any{"token": "xoxp-limited"})
	chat.SetRateLimited(false)
	require.Equal(t, http.StatusTooManyRequests, limited.Status, string(limited.Body))
	assert.Equal(t, "import_rate_limited", errorCode(t, limited))
	assert.Equal(t, "60", limited.Header.Get("Retry-After"))

	down := beside(t, func(vars map[string]string) {
		for _, k := range []string{"IMPORT_SLACK_API", "IMPORT_DISCORD_API", "IMPORT_DISCORD_CDN"} {
			vars[k] = "http://127.0.0.1:1"
		}
	})
	as := func(method, path string, v any) reply {
		b, err := json.Marshal(v)
		require.NoError(t, err)
		return callAt(t, down.base, method, path, b, "Authorization", "Bearer "+u.token, "Content-Type", "application/json")
	}
	require.Equal(t, 200, as("POST", "/api/auth/dev/plan", map[string]any{"plan": "pro"}).Status)
	created := as("POST", "/api/apps", map[string]any{"name": "down"})
	require.Equal(t, 201, created.Status, string(created.Body))
	downApp := created.JSON(t)["app"].(map[string]any)["id"].(string)
	for path, body := range map[string]any{
		"/slack":   map[string]any{"token": "xoxp-down"},
		"/discord": map[string]any{"botToken": "bot-down", "guildId": "123"},
	} {
		r := as("POST", "/api/apps/"+downApp+"/emoji/import"+path, body)
		assert.Equal(t, http.StatusBadGateway, r.Status, "%s: %s", path, r.Body)
		assert.Equal(t, "import_unavailable", errorCode(t, r), path)
	}
}

// A team has at most 50 open invites (409 invite_limit).
func TestInviteLimit(t *testing.T) {
	owner := planUser(t, "pro")
	var last reply
	for i := 0; i <= 50; i++ {
		last = owner.api(t, "POST", "/api/team/invites", map[string]any{"role": "viewer"})
		if last.Status != http.StatusCreated {
			break
		}
	}
	assert.Equal(t, http.StatusConflict, last.Status, string(last.Body))
	assert.Equal(t, "invite_limit", errorCode(t, last))
}

// A database that cannot be read: the tenants API answers 503 unavailable
// with Retry-After (the key store is unreadable, so the caller is served
// as anonymous, which the tenants API cannot serve), and a custom emoji
// image 503 (spec 1). The instance is a hostsim beside the target whose
// tables are dropped.
func TestDatabaseUnreadable(t *testing.T) {
	broken := beside(t, func(map[string]string) {})
	for _, table := range []string{"custom_emoji", "api_keys"} {
		r := callAt(t, broken.base, "POST", "/__diag/d1/exec", []byte(`{"sql":"PRAGMA foreign_keys = OFF; DROP TABLE `+table+`"}`), "Content-Type", "application/json")
		require.Equal(t, 200, r.Status, string(r.Body))
	}
	key := "Bearer sk_live_" + strings.Repeat("Ab1", 10) + "xy"
	for _, o := range operations("secretKey") {
		if !strings.HasPrefix(o.template, "/v1/tenants") {
			continue
		}
		r := callAt(t, broken.base, o.method, pathFor(o.template), nil, "Authorization", key)
		require.Equal(t, http.StatusServiceUnavailable, r.Status, "%s %s: %s", o.method, o.template, r.Body)
		assert.Equal(t, "unavailable", r.JSON(t)["error"])
		assert.NotEmpty(t, r.Header.Get("Retry-After"))
	}
	r := callAt(t, broken.base, "GET", "/v1/custom/app_x/ce_x", nil)
	assert.Equal(t, http.StatusServiceUnavailable, r.Status, string(r.Body))
	assert.Equal(t, "no-store", r.Header.Get("Cache-Control"))
}

// Refusals the journeys leave out: a bad key on the reaction and image
// routes, the development plan route without a session, and team and
// billing routes acting on an owner the caller has no membership with.
func TestRemainingRefusals(t *testing.T) {
	bad := "?key=pk_live_" + strings.Repeat("Ab1", 10) + "xy"
	for _, path := range []string{"/v1/suggest-reactions", "/v1/classify-image"} {
		r := call(t, "POST", path+bad, []byte(`{"text":"hi"}`), "Content-Type", "application/json", "Origin", "https://a.test")
		assert.Equal(t, http.StatusUnauthorized, r.Status, "%s: %s", path, r.Body)
	}
	r := call(t, "POST", "/api/auth/dev/plan", []byte(`{"plan":"pro"}`), "Content-Type", "application/json")
	assert.Equal(t, http.StatusUnauthorized, r.Status, string(r.Body))
	assert.Equal(t, "unauthorized", errorCode(t, r))

	u := planUser(t, "pro")
	stranger := accountID(t, planUser(t, "pro"))
	for _, c := range []struct {
		method, path string
		body         any
	}{
		{"GET", "/api/team", nil}, {"GET", "/api/billing", nil},
		{"POST", "/api/billing/upgrade", map[string]any{"plan": "scale"}},
		{"POST", "/api/team/invites", map[string]any{"role": "viewer"}},
	} {
		r := u.api(t, c.method, c.path+"?owner="+stranger, c.body)
		assert.Equal(t, http.StatusNotFound, r.Status, "%s %s: %s", c.method, c.path, r.Body)
		assert.Equal(t, "not_found", errorCode(t, r))
	}
}

package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/service/webhooks/webhookstest"
)

// hookApp signs a user up on Scale with one app.
func hookApp(t *testing.T) (user, string) {
	t.Helper()
	u := signUp(t)
	require.Equal(t, 200, u.api(t, "GET", "/api/me", nil).Status)
	sql(t, "UPDATE accounts SET plan = 'scale' WHERE idp_user_id = ?", u.sub)
	a := u.api(t, "POST", "/api/apps", map[string]any{"name": "Hooks", "environment": "production"})
	require.Equal(t, 201, a.Status, string(a.Body))
	return u, a.JSON(t)["app"].(map[string]any)["id"].(string)
}

// addHook creates a webhook for path and tells the receiver its secret.
func addHook(t *testing.T, u user, app string, r *webhookstest.Receiver, path string) string {
	t.Helper()
	a := u.api(t, "POST", "/api/apps/"+app+"/webhooks", map[string]any{"url": r.URL + path})
	require.Equal(t, 201, a.Status, string(a.Body))
	body := a.JSON(t)
	r.SetSecret(path, body["secret"].(string))
	return body["webhook"].(map[string]any)["id"].(string)
}

// emitEvent writes an outbox row as the writers do (tenant.created).
func emitEvent(t *testing.T, app string) string {
	t.Helper()
	id := unique("evt_e2e")
	data := fmt.Sprintf(`{"id":"ten_%s","externalId":"x","name":null,"createdAt":%d}`, id, time.Now().UnixMilli())
	sql(t, "INSERT INTO events (id, app_id, type, data, created_at) VALUES (?, ?, 'tenant.created', ?, ?)",
		id, app, data, time.Now().UnixMilli())
	return id
}

// sweep fires the every-minute cron as the platform does; it returns
// when the sweep is done.
func sweep(t *testing.T) {
	res, err := http.Get(tgt.base + "/__scheduled?cron=*+*+*+*+*")
	if assert.NoError(t, err) {
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		assert.Equal(t, 200, res.StatusCode, "the sweep: %s", body)
	}
}

// Spec 2 Delivery on the real runtime: 500, 500, 200 → three attempts 10 s
// and 60 s apart with one event id and fresh signatures; a redirect is
// recorded, not followed and retried; a webhook disabled mid-retry gets
// nothing more; every delivery verifies with the receiver's own check.
func TestWebhookDeliveryRetries(t *testing.T) {
	t.Parallel() // waits out the 10 s and 60 s retry gaps
	r := webhookstest.NewReceiver(t)
	u, app := hookApp(t)
	flaky := addHook(t, u, app, r, "/flaky")
	redirect := addHook(t, u, app, r, "/redirect")
	disabled := addHook(t, u, app, r, "/disabled")
	addHook(t, u, app, r, "/ok")
	r.Script("/flaky", 500, 500, 200)
	r.Script("/redirect", 307, 200)
	r.Script("/disabled", 500)

	// The event is in the outbox; the next dashboard write pumps it.
	evt := emitEvent(t, app)
	test := u.api(t, "POST", "/api/webhooks/"+flaky+"/test", nil)
	require.Equal(t, 200, test.Status, string(test.Body))
	require.Equal(t, false, test.JSON(t)["delivery"].(map[string]any)["ok"], "the test event met the first 500")
	r.Script("/flaky", 500, 500, 500, 200)
	require.Equal(t, 200, u.api(t, "PATCH", "/api/webhooks/"+redirect, map[string]any{"enabled": true}).Status)

	eventually(t, 10*time.Second, func() bool { return len(r.Got("/ok")) == 1 && len(r.Got("/disabled")) == 1 }, "attempt 1 did not arrive")
	eventually(t, 20*time.Second, func() bool { return len(r.Got("/disabled")) == 2 && len(r.Got("/redirect")) == 2 }, "attempt 2 did not arrive")
	require.Equal(t, 200, u.api(t, "PATCH", "/api/webhooks/"+disabled, map[string]any{"enabled": false}).Status)
	u.signIn(t)

	// Attempt 3 is the cron sweep's: it waits until 60 s after attempt 2.
	done := make(chan struct{})
	go func() { sweep(t); close(done) }()
	eventually(t, 80*time.Second, func() bool { return len(r.Got("/flaky")) == 4 }, "attempt 3 did not arrive")
	<-done
	sweep(t) // nothing left: the disabled webhook gets nothing more

	// The test event and attempt 1 may arrive in either order: another
	// test's dashboard write can pump the outbox first.
	var hits []webhookstest.Hit
	for _, h := range r.Got("/flaky") {
		if h.Header.Get("Service-Event") != "webhook.test" {
			hits = append(hits, h)
		}
	}
	require.Len(t, hits, 3)
	sigs := map[string]bool{}
	for i, h := range hits {
		assert.Empty(t, h.Err, "attempt %d verifies", i+1)
		assert.Equal(t, evt, h.Header.Get("Service-Event-Id"))
		assert.Equal(t, "tenant.created", h.Header.Get("Service-Event"))
		assert.Equal(t, "Service-Webhooks/1.0", h.Header.Get("User-Agent"))
		assert.Equal(t, "application/json", h.Header.Get("Content-Type"))
		assert.Equal(t, string(hits[0].Body), string(h.Body), "same body")
		sigs[h.Header.Get("Service-Signature")] = true
	}
	assert.Len(t, sigs, 3, "a fresh t and signature each time")
	gap1, gap2 := hits[1].At.Sub(hits[0].At), hits[2].At.Sub(hits[1].At)
	t.Logf("%s: attempt gaps %v, %v", tgt.name, gap1, gap2)
	assert.InDelta(t, 10, gap1.Seconds(), 1.5)
	assert.InDelta(t, 60, gap2.Seconds(), 2)
	var env map[string]any
	require.NoError(t, json.Unmarshal(hits[0].Body, &env))
	assert.Equal(t, evt, env["id"])
	assert.Equal(t, app, env["appId"])

	assert.Len(t, r.Got("/redirect"), 2, "307 retried, then 200")
	assert.Empty(t, r.Bad(), "redirects are never followed")
	assert.Len(t, r.Got("/disabled"), 2, "nothing after disabling")
	assert.Len(t, r.Got("/ok"), 1)
	for _, h := range r.All() {
		assert.Empty(t, h.Err, h.Path)
	}

	// The receiver's check refuses a tampered body, a wrong secret and a t
	// 301 s old.
	h := hits[2]
	secret := r.Secret("/flaky")
	sig := h.Header.Get("Service-Signature")
	assert.NotEmpty(t, webhookstest.Verify(secret, sig, append([]byte{' '}, h.Body...), h.At))
	assert.NotEmpty(t, webhookstest.Verify(secret+"x", sig, h.Body, h.At))
	assert.NotEmpty(t, webhookstest.Verify(secret, sig, h.Body, h.At.Add(301*time.Second)))

	// Session tokens live a minute: sign in again.
	u.signIn(t)
	ds := u.api(t, "GET", "/api/webhooks/"+flaky+"/deliveries", nil).JSON(t)["deliveries"].([]any)
	require.Len(t, ds, 4)
	assert.Equal(t, true, ds[0].(map[string]any)["ok"])
	assert.EqualValues(t, 3, ds[0].(map[string]any)["attempt"])
	rd := u.api(t, "GET", "/api/webhooks/"+redirect+"/deliveries", nil).JSON(t)["deliveries"].([]any)
	assert.EqualValues(t, 307, rd[1].(map[string]any)["status"])
	assert.Equal(t, 0.0, countRows(t, "SELECT count(*) AS n FROM webhook_queue WHERE webhook_id IN (?, ?, ?)", flaky, redirect, disabled))
}

// usage.threshold on the real runtime: the meter's flush crosses 80 % of
// Scale's semantic_calls and the webhooks of both apps of the account get
// one event with one id.
func TestWebhookUsageThreshold(t *testing.T) {
	t.Parallel() // waits for a meter flush (about 10 s)
	const origin = "https://app.threshold.test"
	r := webhookstest.NewReceiver(t)
	u := signUp(t)
	app, _, key := newAppWithKey(t, u, origin)
	sql(t, "UPDATE accounts SET plan = 'scale' WHERE idp_user_id = ?", u.sub)
	second := u.api(t, "POST", "/api/apps", map[string]any{"name": "Second", "environment": "production"})
	require.Equal(t, 201, second.Status)
	app2 := second.JSON(t)["app"].(map[string]any)["id"].(string)
	for _, a := range []string{app, app2} {
		h := u.api(t, "POST", "/api/apps/"+a+"/webhooks", map[string]any{"url": r.URL + "/u/" + a, "events": []string{"usage.threshold"}})
		require.Equal(t, 201, h.Status, string(h.Body))
		r.SetSecret("/u/"+a, h.JSON(t)["secret"].(string))
	}
	period := time.Now().UTC().Format("2006-01")
	sql(t, "INSERT INTO usage_monthly (app_id, period, metric, count) VALUES (?, ?, 'semantic_calls', 7999999)", app2, period)
	eventually(t, 60*time.Second, func() bool {
		get(t, "/v1/search?q="+fresh("party")+"&key="+url.QueryEscape(key), "Origin", origin)
		return len(r.Got("/u/"+app)) > 0 && len(r.Got("/u/"+app2)) > 0
	}, "no usage.threshold arrived")
	h1, h2 := r.Got("/u/" + app)[0], r.Got("/u/" + app2)[0]
	require.Empty(t, h1.Err)
	require.Empty(t, h2.Err)
	require.Equal(t, "usage.threshold", h1.Header.Get("Service-Event"))
	require.Equal(t, h1.Header.Get("Service-Event-Id"), h2.Header.Get("Service-Event-Id"), "one event id for every app")
	var env struct {
		AppID string         `json:"appId"`
		Data  map[string]any `json:"data"`
	}
	require.NoError(t, json.Unmarshal(h1.Body, &env))
	require.Equal(t, app, env.AppID)
	require.Equal(t, "semantic_calls", env.Data["metric"])
	require.EqualValues(t, 80, env.Data["threshold"])
	require.EqualValues(t, 10_000_000, env.Data["limit"])
	require.Equal(t, period, env.Data["period"])
	require.GreaterOrEqual(t, env.Data["used"].(float64), 8_000_000.0)
	require.Equal(t, 1.0, countRows(t, "SELECT count(*) AS n FROM usage_thresholds WHERE event_id = ?", h1.Header.Get("Service-Event-Id")))
	// More calls do not fire again.
	for i := 0; i < 3; i++ {
		get(t, "/v1/search?q="+fresh("cat")+"&key="+url.QueryEscape(key), "Origin", origin)
	}
	time.Sleep(12 * time.Second)
	get(t, "/v1/search?q="+fresh("dog")+"&key="+url.QueryEscape(key), "Origin", origin)
	time.Sleep(2 * time.Second)
	require.Len(t, r.Got("/u/"+app), 1)
}

// The bar of issue 11: 50 parallel tenant creations on an app with 4
// webhooks (and a disabled fifth) → 200 deliveries, 50 distinct events
// per webhook, none twice, none to the disabled one, all verified.
func TestWebhookParallelTenants(t *testing.T) {
	r := webhookstest.NewReceiver(t)
	u, app := hookApp(t)
	var hooks []string
	for i := 0; i < 4; i++ {
		hooks = append(hooks, addHook(t, u, app, r, fmt.Sprintf("/t%d", i)))
	}
	off := addHook(t, u, app, r, "/off")
	require.Equal(t, 200, u.api(t, "PATCH", "/api/webhooks/"+off, map[string]any{"enabled": false}).Status)
	var wg sync.WaitGroup
	codes := make(chan int, 50)
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes <- u.api(t, "POST", "/api/apps/"+app+"/tenants", map[string]any{"externalId": fmt.Sprintf("team-%d", i)}).Status
		}()
	}
	wg.Wait()
	close(codes)
	for c := range codes {
		require.Equal(t, 201, c)
	}
	eventually(t, 60*time.Second, func() bool {
		for i := range hooks {
			if len(r.Got(fmt.Sprintf("/t%d", i))) < 50 {
				return false
			}
		}
		return true
	}, "not every delivery arrived")
	time.Sleep(2 * time.Second) // anything extra would arrive now
	for i, id := range hooks {
		hits := r.Got(fmt.Sprintf("/t%d", i))
		ids := map[string]bool{}
		for _, h := range hits {
			require.Empty(t, h.Err)
			require.Equal(t, "tenant.created", h.Header.Get("Service-Event"))
			ids[h.Header.Get("Service-Event-Id")] = true
		}
		require.Len(t, hits, 50, "webhook %d", i)
		require.Len(t, ids, 50, "webhook %d: distinct events", i)
		ds := u.api(t, "GET", "/api/webhooks/"+id+"/deliveries", nil).JSON(t)["deliveries"].([]any)
		require.Len(t, ds, 50)
	}
	require.Empty(t, r.Got("/off"))
	require.Equal(t, 200.0, countRows(t, "SELECT count(*) AS n FROM webhook_deliveries WHERE webhook_id IN (?, ?, ?, ?, ?) AND ok = 1",
		hooks[0], hooks[1], hooks[2], hooks[3], off))
}

// An instance that dies mid-retry loses nothing: its pump held the row's
// lease until 30 s past attempt 2's due time; the next sweep after that
// makes attempt 2 (package doc of service/webhooks).
func TestWebhookInstanceDiesMidRetry(t *testing.T) {
	r := webhookstest.NewReceiver(t)
	u, app := hookApp(t)
	hook := addHook(t, u, app, r, "/crash")
	r.Script("/crash", 500, 200)
	evt := emitEvent(t, app)
	require.Equal(t, 200, u.api(t, "PATCH", "/api/webhooks/"+hook, map[string]any{"enabled": true}).Status)
	eventually(t, 10*time.Second, func() bool { return len(r.Got("/crash")) == 1 }, "attempt 1 did not arrive")
	first := r.Got("/crash")[0].At
	before := get(t, "/__diag/instance").JSON(t)
	require.Contains(t, []int{202, 500}, call(t, "POST", "/__diag/exit", nil).Status)
	eventually(t, 10*time.Second, func() bool {
		res := get(t, "/__diag/instance")
		return res.Status == 200 && res.JSON(t)["startedAt"] != before["startedAt"]
	}, "no fresh instance after the Go program exited")
	time.Sleep(time.Until(first.Add(15 * time.Second)))
	require.Len(t, r.Got("/crash"), 1, "the pump died with its instance")
	// On workerd the trigger answers before the sweep's background work
	// ends, so each check after a sweep waits for what it could send.
	sweep(t) // the row is still leased: nothing yet
	time.Sleep(2 * time.Second)
	require.Len(t, r.Got("/crash"), 1)
	// The lease runs from the pump's own clock, a moment after the receiver
	// saw attempt 1: 3 s of margin for a busy machine.
	time.Sleep(time.Until(first.Add(43 * time.Second)))
	sweep(t)
	eventually(t, 10*time.Second, func() bool { return len(r.Got("/crash")) >= 2 }, "the sweep made no attempt 2 once the lease ended")
	time.Sleep(time.Second) // a second attempt 2 would arrive now
	hits := r.Got("/crash")
	require.Len(t, hits, 2, "the sweep made attempt 2 once the lease ended, once")
	require.Equal(t, evt, hits[1].Header.Get("Service-Event-Id"))
	require.Empty(t, hits[1].Err)
	t.Logf("%s: attempt 2 came %v after attempt 1", tgt.name, hits[1].At.Sub(first))
	require.Equal(t, 0.0, countRows(t, "SELECT count(*) AS n FROM webhook_queue WHERE webhook_id = ?", hook))
}

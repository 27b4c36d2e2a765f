package e2e

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/service/auth/authtest"
)

// hookHit is one delivery the receiver got.
type hookHit struct {
	at     time.Time
	path   string
	header http.Header
	body   []byte
	err    string // the receiver's verdict ("" = verified)
}

// hookReceiver is a webhook receiver in the test process: it checks every
// delivery with its own implementation of spec 2's receiver steps and
// answers from a per-path script of statuses (the last one repeats).
type hookReceiver struct {
	base    string
	mu      sync.Mutex
	hits    []hookHit
	secrets map[string]string
	script  map[string][]int
	landed  []string // requests to redirect targets: must stay empty
}

func newHookReceiver(t *testing.T) *hookReceiver {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	r := &hookReceiver{base: "http://" + ln.Addr().String(), secrets: map[string]string{}, script: map[string][]int{}}
	srv := &http.Server{Handler: http.HandlerFunc(r.serve)}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return r
}

func (r *hookReceiver) serve(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	r.mu.Lock()
	defer r.mu.Unlock()
	if strings.HasPrefix(req.URL.Path, "/landing") {
		r.landed = append(r.landed, req.URL.Path)
		return
	}
	h := hookHit{at: time.Now(), path: req.URL.Path, header: req.Header.Clone(), body: body}
	h.err = receiverCheck(r.secrets[req.URL.Path], req.Header.Get("Service-Signature"), body, time.Now())
	r.hits = append(r.hits, h)
	n := 0
	for _, x := range r.hits {
		if x.path == h.path {
			n++
		}
	}
	status := 200
	if s := r.script[h.path]; len(s) > 0 {
		status = s[min(n, len(s))-1]
	}
	if status >= 300 && status < 400 {
		w.Header().Set("Location", r.base+"/landing"+h.path)
	}
	w.WriteHeader(status)
}

func (r *hookReceiver) got(path string) []hookHit {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []hookHit
	for _, h := range r.hits {
		if h.path == path {
			out = append(out, h)
		}
	}
	return out
}

// receiverCheck follows spec 2 "Signature check for receivers": split on
// commas into name=value, read t and every v1, HMAC-SHA256 over
// "<t>.<raw body>" keyed with the whole secret, constant-time compare
// against each v1, refuse a t more than 300 s away.
func receiverCheck(secret, header string, body []byte, now time.Time) string {
	if secret == "" {
		return "no secret for this path"
	}
	t := ""
	var v1 [][]byte
	for _, field := range strings.Split(header, ",") {
		name, value, ok := strings.Cut(field, "=")
		if !ok {
			continue
		}
		switch name {
		case "t":
			t = value
		case "v1":
			if b, err := hex.DecodeString(value); err == nil {
				v1 = append(v1, b)
			}
		}
	}
	sec, err := strconv.ParseInt(t, 10, 64)
	if err != nil {
		return "t missing"
	}
	if age := now.Unix() - sec; age > 300 || age < -300 {
		return "t too far from now"
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(t))
	mac.Write([]byte("."))
	mac.Write(body)
	sum := mac.Sum(nil)
	for _, s := range v1 {
		if hmac.Equal(s, sum) {
			return ""
		}
	}
	return "signature mismatch"
}

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
func addHook(t *testing.T, u user, app string, r *hookReceiver, path string) string {
	t.Helper()
	a := u.api(t, "POST", "/api/apps/"+app+"/webhooks", map[string]any{"url": r.base + path})
	require.Equal(t, 201, a.Status, string(a.Body))
	body := a.JSON(t)
	r.mu.Lock()
	r.secrets[path] = body["secret"].(string)
	r.mu.Unlock()
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
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
	}
}

// Spec 2 Delivery on the real runtime: 500, 500, 200 → three attempts 10 s
// and 60 s apart with one event id and fresh signatures; a redirect is
// recorded, not followed and retried; a webhook disabled mid-retry gets
// nothing more; every delivery verifies with the receiver's own check.
func TestWebhookDeliveryRetries(t *testing.T) {
	r := newHookReceiver(t)
	u, app := hookApp(t)
	flaky := addHook(t, u, app, r, "/flaky")
	redirect := addHook(t, u, app, r, "/redirect")
	disabled := addHook(t, u, app, r, "/disabled")
	addHook(t, u, app, r, "/ok")
	r.mu.Lock()
	r.script["/flaky"] = []int{500, 500, 200}
	r.script["/redirect"] = []int{307, 200}
	r.script["/disabled"] = []int{500}
	r.mu.Unlock()

	// The event is in the outbox; the next dashboard write pumps it.
	evt := emitEvent(t, app)
	test := u.api(t, "POST", "/api/webhooks/"+flaky+"/test", nil)
	require.Equal(t, 200, test.Status, string(test.Body))
	require.Equal(t, false, test.JSON(t)["delivery"].(map[string]any)["ok"], "the test event met the first 500")
	r.mu.Lock()
	r.script["/flaky"] = []int{500, 500, 500, 200}
	r.mu.Unlock()
	require.Equal(t, 200, u.api(t, "PATCH", "/api/webhooks/"+redirect, map[string]any{"enabled": true}).Status)

	eventually(t, 10*time.Second, func() bool { return len(r.got("/ok")) == 1 && len(r.got("/disabled")) == 1 }, "attempt 1 did not arrive")
	eventually(t, 20*time.Second, func() bool { return len(r.got("/disabled")) == 2 && len(r.got("/redirect")) == 2 }, "attempt 2 did not arrive")
	require.Equal(t, 200, u.api(t, "PATCH", "/api/webhooks/"+disabled, map[string]any{"enabled": false}).Status)
	u.token = issuer.Token(t, authtest.Claims{"sub": u.sub, "email": u.email, "name": "E2E " + u.sub})

	// Attempt 3 is the cron sweep's: it waits until 60 s after attempt 2.
	done := make(chan struct{})
	go func() { sweep(t); close(done) }()
	eventually(t, 80*time.Second, func() bool { return len(r.got("/flaky")) == 4 }, "attempt 3 did not arrive")
	<-done
	sweep(t) // nothing left: the disabled webhook gets nothing more

	hits := r.got("/flaky")[1:] // [0] is the test event
	require.Len(t, hits, 3)
	sigs := map[string]bool{}
	for i, h := range hits {
		assert.Empty(t, h.err, "attempt %d verifies", i+1)
		assert.Equal(t, evt, h.header.Get("Service-Event-Id"))
		assert.Equal(t, "tenant.created", h.header.Get("Service-Event"))
		assert.Equal(t, "Service-Webhooks/1.0", h.header.Get("User-Agent"))
		assert.Equal(t, "application/json", h.header.Get("Content-Type"))
		assert.Equal(t, string(hits[0].body), string(h.body), "same body")
		sigs[h.header.Get("Service-Signature")] = true
	}
	assert.Len(t, sigs, 3, "a fresh t and signature each time")
	gap1, gap2 := hits[1].at.Sub(hits[0].at), hits[2].at.Sub(hits[1].at)
	t.Logf("%s: attempt gaps %v, %v", tgt.name, gap1, gap2)
	assert.InDelta(t, 10, gap1.Seconds(), 1.5)
	assert.InDelta(t, 60, gap2.Seconds(), 2)
	var env map[string]any
	require.NoError(t, json.Unmarshal(hits[0].body, &env))
	assert.Equal(t, evt, env["id"])
	assert.Equal(t, app, env["appId"])

	assert.Len(t, r.got("/redirect"), 2, "307 retried, then 200")
	assert.Empty(t, r.landed, "redirects are never followed")
	assert.Len(t, r.got("/disabled"), 2, "nothing after disabling")
	assert.Len(t, r.got("/ok"), 1)
	for _, h := range r.hits {
		assert.Empty(t, h.err, h.path)
	}

	// The receiver's check refuses a tampered body, a wrong secret and a t
	// 301 s old.
	h := hits[2]
	secret := r.secrets["/flaky"]
	sig := h.header.Get("Service-Signature")
	assert.NotEmpty(t, receiverCheck(secret, sig, append([]byte{' '}, h.body...), h.at))
	assert.NotEmpty(t, receiverCheck(secret+"x", sig, h.body, h.at))
	assert.NotEmpty(t, receiverCheck(secret, sig, h.body, h.at.Add(301*time.Second)))

	// Session tokens live a minute: sign in again.
	u.token = issuer.Token(t, authtest.Claims{"sub": u.sub, "email": u.email, "name": "E2E " + u.sub})
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
	r := newHookReceiver(t)
	u := signUp(t)
	app, _, key := newAppWithKey(t, u, origin)
	sql(t, "UPDATE accounts SET plan = 'scale' WHERE idp_user_id = ?", u.sub)
	second := u.api(t, "POST", "/api/apps", map[string]any{"name": "Second", "environment": "production"})
	require.Equal(t, 201, second.Status)
	app2 := second.JSON(t)["app"].(map[string]any)["id"].(string)
	for _, a := range []string{app, app2} {
		h := u.api(t, "POST", "/api/apps/"+a+"/webhooks", map[string]any{"url": r.base + "/u/" + a, "events": []string{"usage.threshold"}})
		require.Equal(t, 201, h.Status, string(h.Body))
		r.mu.Lock()
		r.secrets["/u/"+a] = h.JSON(t)["secret"].(string)
		r.mu.Unlock()
	}
	period := time.Now().UTC().Format("2006-01")
	sql(t, "INSERT INTO usage_monthly (app_id, period, metric, count) VALUES (?, ?, 'semantic_calls', 7999999)", app2, period)
	eventually(t, 60*time.Second, func() bool {
		get(t, "/v1/search?q="+fresh("party")+"&key="+url.QueryEscape(key), "Origin", origin)
		return len(r.got("/u/"+app)) > 0 && len(r.got("/u/"+app2)) > 0
	}, "no usage.threshold arrived")
	h1, h2 := r.got("/u/" + app)[0], r.got("/u/" + app2)[0]
	require.Empty(t, h1.err)
	require.Empty(t, h2.err)
	require.Equal(t, "usage.threshold", h1.header.Get("Service-Event"))
	require.Equal(t, h1.header.Get("Service-Event-Id"), h2.header.Get("Service-Event-Id"), "one event id for every app")
	var env struct {
		AppID string         `json:"appId"`
		Data  map[string]any `json:"data"`
	}
	require.NoError(t, json.Unmarshal(h1.body, &env))
	require.Equal(t, app, env.AppID)
	require.Equal(t, "semantic_calls", env.Data["metric"])
	require.EqualValues(t, 80, env.Data["threshold"])
	require.EqualValues(t, 10_000_000, env.Data["limit"])
	require.Equal(t, period, env.Data["period"])
	require.GreaterOrEqual(t, env.Data["used"].(float64), 8_000_000.0)
	require.Equal(t, 1.0, countRows(t, "SELECT count(*) AS n FROM usage_thresholds WHERE event_id = ?", h1.header.Get("Service-Event-Id")))
	// More calls do not fire again.
	for i := 0; i < 3; i++ {
		get(t, "/v1/search?q="+fresh("cat")+"&key="+url.QueryEscape(key), "Origin", origin)
	}
	time.Sleep(12 * time.Second)
	get(t, "/v1/search?q="+fresh("dog")+"&key="+url.QueryEscape(key), "Origin", origin)
	time.Sleep(2 * time.Second)
	require.Len(t, r.got("/u/"+app), 1)
}

// The bar of issue 11: 50 parallel tenant creations on an app with 4
// webhooks (and a disabled fifth) → 200 deliveries, 50 distinct events
// per webhook, none twice, none to the disabled one, all verified.
func TestWebhookParallelTenants(t *testing.T) {
	r := newHookReceiver(t)
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
			if len(r.got(fmt.Sprintf("/t%d", i))) < 50 {
				return false
			}
		}
		return true
	}, "not every delivery arrived")
	time.Sleep(2 * time.Second) // anything extra would arrive now
	for i, id := range hooks {
		hits := r.got(fmt.Sprintf("/t%d", i))
		ids := map[string]bool{}
		for _, h := range hits {
			require.Empty(t, h.err)
			require.Equal(t, "tenant.created", h.header.Get("Service-Event"))
			ids[h.header.Get("Service-Event-Id")] = true
		}
		require.Len(t, hits, 50, "webhook %d", i)
		require.Len(t, ids, 50, "webhook %d: distinct events", i)
		ds := u.api(t, "GET", "/api/webhooks/"+id+"/deliveries", nil).JSON(t)["deliveries"].([]any)
		require.Len(t, ds, 50)
	}
	require.Empty(t, r.got("/off"))
	require.Equal(t, 200.0, countRows(t, "SELECT count(*) AS n FROM webhook_deliveries WHERE webhook_id IN (?, ?, ?, ?, ?) AND ok = 1",
		hooks[0], hooks[1], hooks[2], hooks[3], off))
}

// An instance that dies mid-retry loses nothing: its pump held the row's
// lease until 30 s past attempt 2's due time; the next sweep after that
// makes attempt 2 (package doc of service/webhooks).
func TestWebhookInstanceDiesMidRetry(t *testing.T) {
	r := newHookReceiver(t)
	u, app := hookApp(t)
	hook := addHook(t, u, app, r, "/crash")
	r.mu.Lock()
	r.script["/crash"] = []int{500, 200}
	r.mu.Unlock()
	evt := emitEvent(t, app)
	require.Equal(t, 200, u.api(t, "PATCH", "/api/webhooks/"+hook, map[string]any{"enabled": true}).Status)
	eventually(t, 10*time.Second, func() bool { return len(r.got("/crash")) == 1 }, "attempt 1 did not arrive")
	first := r.got("/crash")[0].at
	before := get(t, "/__diag/instance").JSON(t)
	require.Contains(t, []int{202, 500}, call(t, "POST", "/__diag/exit", nil).Status)
	eventually(t, 10*time.Second, func() bool {
		res := get(t, "/__diag/instance")
		return res.Status == 200 && res.JSON(t)["startedAt"] != before["startedAt"]
	}, "no fresh instance after the Go program exited")
	time.Sleep(time.Until(first.Add(15 * time.Second)))
	require.Len(t, r.got("/crash"), 1, "the pump died with its instance")
	sweep(t) // the row is still leased: nothing yet
	require.Len(t, r.got("/crash"), 1)
	time.Sleep(time.Until(first.Add(41 * time.Second)))
	sweep(t)
	hits := r.got("/crash")
	require.Len(t, hits, 2, "the sweep made attempt 2 once the lease ended")
	require.Equal(t, evt, hits[1].header.Get("Service-Event-Id"))
	require.Empty(t, hits[1].err)
	t.Logf("%s: attempt 2 came %v after attempt 1", tgt.name, hits[1].at.Sub(first))
	require.Equal(t, 0.0, countRows(t, "SELECT count(*) AS n FROM webhook_queue WHERE webhook_id = ?", hook))
}

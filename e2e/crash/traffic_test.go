package crash

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// ledger is what the clients were told: every acknowledged row and every
// metered call answered. Only acknowledged work counts: a request whose
// answer never arrived may or may not have happened.
type ledger struct {
	mu       sync.Mutex
	accounts []string    // account ids
	apps     [][2]string // app id, account id
	keys     [][2]string // key id, app id
	members  [][2]string // owner id, member id
	metered  map[string]int64
	calls    []time.Time // when each metered answer arrived
	requests atomic.Int64
	failures atomic.Int64 // no answer (connection refused or cut)
	lat      []time.Duration
	status   map[int]int
	// upgrade moves an account to a plan with teams (plan changes have no
	// route: an operator's update, as billing would make it).
	upgrade func(accountID string) error
}

func newLedger() *ledger {
	return &ledger{metered: map[string]int64{}, status: map[int]int{}}
}

func (l *ledger) meteredTotal() int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	var n int64
	for _, c := range l.metered {
		n += c
	}
	return n
}

// meteredSince counts metered answers that arrived at or after t.
func (l *ledger) meteredSince(t time.Time) int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	i := sort.Search(len(l.calls), func(i int) bool { return !l.calls[i].Before(t) })
	return int64(len(l.calls) - i)
}

// client is one simulated dashboard user and API caller.
type client struct {
	base string
	http *http.Client
	l    *ledger
}

func newClient(base string, l *ledger) *client {
	jar, _ := cookiejar.New(nil)
	return &client{base: base, l: l, http: &http.Client{Jar: jar, Timeout: 30 * time.Second}}
}

// do sends one request; ok is false when no answer arrived.
func (c *client) do(ctx context.Context, method, path string, body any, header ...string) (int, http.Header, map[string]any, bool) {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	// A request once sent runs to its answer: ctx only stops the loops
	// between requests, so no answer the server gave is abandoned (and
	// counted as not acknowledged) by the client.
	req, err := http.NewRequestWithContext(context.WithoutCancel(ctx), method, c.base+path, rd)
	if err != nil {
		panic(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	start := time.Now()
	c.l.requests.Add(1)
	res, err := c.http.Do(req)
	if err != nil {
		c.l.failures.Add(1)
		return 0, nil, nil, false
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		c.l.failures.Add(1)
		return 0, nil, nil, false
	}
	c.l.mu.Lock()
	c.l.lat = append(c.l.lat, time.Since(start))
	c.l.status[res.StatusCode]++
	c.l.mu.Unlock()
	var v map[string]any
	_ = json.Unmarshal(raw, &v)
	return res.StatusCode, res.Header, v, true
}

func str(v map[string]any, path ...string) string {
	var cur any = v
	for _, p := range path {
		m, ok := cur.(map[string]any)
		if !ok {
			return ""
		}
		cur = m[p]
	}
	s, _ := cur.(string)
	return s
}

// account signs a new development user in (creating the account row).
func (c *client) account(ctx context.Context, login string) (string, bool) {
	st, _, v, ok := c.do(ctx, "GET", "/api/auth/dev?login="+login, nil)
	id := str(v, "account", "id")
	if !ok || st != 200 || id == "" {
		return "", false
	}
	c.l.mu.Lock()
	c.l.accounts = append(c.l.accounts, id)
	c.l.mu.Unlock()
	return id, true
}

// appWithKey creates an app and a secret key for it.
func (c *client) appWithKey(ctx context.Context, account string) (appID, fullKey string, ok bool) {
	st, _, v, ok := c.do(ctx, "POST", "/api/apps", map[string]any{"name": "Crash", "environment": "production"})
	appID = str(v, "app", "id")
	if !ok || st != 201 || appID == "" {
		return "", "", false
	}
	c.l.mu.Lock()
	c.l.apps = append(c.l.apps, [2]string{appID, account})
	c.l.mu.Unlock()
	st, _, v, ok = c.do(ctx, "POST", "/api/apps/"+appID+"/keys", map[string]any{"kind": "secret"})
	keyID, full := str(v, "key", "id"), str(v, "fullKey")
	if !ok || st != 201 || keyID == "" {
		return appID, "", false
	}
	c.l.mu.Lock()
	c.l.keys = append(c.l.keys, [2]string{keyID, appID})
	c.l.mu.Unlock()
	return appID, full, true
}

// member invites a new user into owner's team (the invite is created
// with this client's session, accepted with other's).
func (c *client) member(ctx context.Context, owner string, other *client, login string) {
	st, _, v, ok := c.do(ctx, "POST", "/api/team/invites", map[string]any{"role": "developer"})
	link := str(v, "url")
	if !ok || st != 201 || link == "" {
		return
	}
	token := link[strings.LastIndex(link, "/")+1:]
	memberID, ok := other.account(ctx, login)
	if !ok {
		return
	}
	st, _, _, ok = other.do(ctx, "POST", "/api/invites/"+url.PathEscape(token)+"/accept", nil)
	if ok && st == 200 {
		c.l.mu.Lock()
		c.l.members = append(c.l.members, [2]string{owner, memberID})
		c.l.mu.Unlock()
	}
}

var words = []string{"party", "so happy", "tired after work", "cat", "pizza night", "congrats", "rain", "love you", "coffee", "rocket launch"}

// search makes one keyed call and records it when it was metered: the
// answer came from the shared cache, or the model was called and the
// answer is not degraded, and the account was not over its limit (spec 1
// Metering rule 1).
func (c *client) search(ctx context.Context, appID, key string, n int) {
	q := url.QueryEscape(words[n%len(words)]) + fmt.Sprintf("&limit=%d", 5+n%20)
	st, h, v, ok := c.do(ctx, "GET", "/v1/search?q="+q, nil, "Authorization", "Bearer "+key)
	if !ok || st != 200 {
		return
	}
	cached, _ := v["cached"].(bool)
	degraded, _ := v["degraded"].(bool)
	over, _ := v["overLimit"].(bool)
	embedded := strings.HasPrefix(h.Get("Server-Timing"), "embed;")
	if over || !(cached || embedded && !degraded) {
		return
	}
	c.l.mu.Lock()
	c.l.metered[appID]++
	c.l.calls = append(c.l.calls, time.Now()) // under the lock: kept in order
	c.l.mu.Unlock()
}

// run is one client's loop until ctx ends: a new account with an app and
// a key, every third one a team member, then keyed calls, again.
func run(ctx context.Context, base string, l *ledger, id string, searches int, pause time.Duration) {
	c := newClient(base, l)
	for n := 0; ctx.Err() == nil; n++ {
		login := fmt.Sprintf("%s-%d", id, n)
		account, ok := c.account(ctx, login)
		if !ok {
			sleep(ctx, 100*time.Millisecond) // the server is stopping or restarting
			c = newClient(base, l)
			continue
		}
		appID, key, ok := c.appWithKey(ctx, account)
		if n%3 == 0 && l.upgrade != nil && l.upgrade(account) == nil {
			c.member(ctx, account, newClient(base, l), login+"-m")
		}
		if !ok {
			continue
		}
		for i := 0; i < searches && ctx.Err() == nil; i++ {
			c.search(ctx, appID, key, n*searches+i)
			sleep(ctx, pause)
		}
		c = newClient(base, l)
	}
}

func sleep(ctx context.Context, d time.Duration) {
	if d <= 0 {
		return
	}
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}

// percentile of sorted durations.
func percentile(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	return d[min(len(d)-1, int(float64(len(d))*p))]
}

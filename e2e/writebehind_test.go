package e2e

import (
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Counts are written within about a second of the first unwritten one
// when traffic stops, with no later request (issues 17 and 31,
// service/writebehind): keyed calls, 3 s of quiet, then the stored usage
// equals the calls answered. Not parallel: another test's keyed calls would arm writes too.
func TestMeteringWrittenAfterQuiet(t *testing.T) {
	const origin = "https://app.quiet.test"
	u := signUp(t)
	appID, _, full := newAppWithKey(t, u, origin)
	// A degraded answer (the embedding model past its deadline on a busy
	// machine) is not metered (spec 1, Metering rule 1): usage must equal
	// the metered answers.
	var mu sync.Mutex
	answered, metered := 0, 0
	search := func(q string) {
		r := get(t, "/v1/search?q="+q+"&key="+url.QueryEscape(full), "Origin", origin)
		mu.Lock()
		defer mu.Unlock()
		if r.Status == 200 {
			answered++
		}
		if billed(t, r) {
			metered++
		}
	}
	// A first call (written at once, the last write then starts the
	// interval), a pause, then a burst spread over a few seconds.
	search(fresh("party"))
	time.Sleep(2 * time.Second)
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(time.Duration(i) * 50 * time.Millisecond)
			search(fresh("so happy"))
		}()
	}
	wg.Wait()
	require.Equal(t, 41, answered)
	require.Positive(t, metered, "every answer degraded: nothing to count")

	time.Sleep(3 * time.Second) // no traffic of this app, no keyed request at all
	r := u.api(t, "GET", "/api/apps/"+appID+"/usage", nil)
	require.Equal(t, 200, r.Status, string(r.Body))
	calls := r.JSON(t)["usage"].(map[string]any)["semantic_calls"].(map[string]any)
	assert.Equal(t, float64(metered), calls["appUsed"], "usage = keyed calls metered, after 3 s of quiet")
	assert.Equal(t, float64(metered), calls["used"])
}

// Text that is not UTF-8 is refused with 400 in the surface's error shape
// and never cached (issue 17; the table over every route is in
// service/api): the second ask is refused again, not served from a cache.
func TestInvalidUTF8Refused(t *testing.T) {
	for range 2 {
		r := get(t, "/v1/search?q=%ff%fe")
		require.Equal(t, 400, r.Status, string(r.Body))
		assert.Equal(t, "no-store", r.Header.Get("Cache-Control"))
		assert.Contains(t, r.JSON(t)["error"], "UTF-8")
	}
	r := get(t, "/v1/search?q=%zz")
	assert.Equal(t, 400, r.Status)
	a := get(t, "/api/auth/dev?login=%c0%af")
	require.Equal(t, 400, a.Status, string(a.Body))
	assert.Equal(t, "invalid_request", a.JSON(t)["error"].(map[string]any)["code"])
	assert.Equal(t, "login", a.JSON(t)["error"].(map[string]any)["field"])
}

package cache

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/hostsim/internal/filestore"
)

var (
	ctx = context.Background()
	t0  = time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
)

const key = "https://emoji.example/api/search?q=cat"

type testCaches struct {
	*Storage
	now *time.Time
	dir string
}

func openCaches(t *testing.T) testCaches {
	t.Helper()
	now, dir := t0, t.TempDir()
	s, err := OpenWithConfig(dir, NewConfig().WithClock(func() time.Time { return now }).WithRand(strings.NewReader(strings.Repeat("\x01", 1024))))
	require.NoError(t, err)
	return testCaches{Storage: s, now: &now, dir: dir}
}

// asCacheError fails the test unless err is an *Error, and returns it.
func asCacheError(t *testing.T, err error) *Error {
	t.Helper()
	var cerr *Error
	require.True(t, errors.As(err, &cerr), "got %v", err)
	return cerr
}

func get(u string, header ...string) Request {
	h := http.Header{}
	for i := 0; i+1 < len(header); i += 2 {
		h.Add(header[i], header[i+1])
	}
	return Request{Method: "GET", URL: u, Header: h}
}

func resp(status int, body string, header ...string) Response {
	return Response{Status: status, Header: get("", header...).Header, Body: []byte(body)}
}

func httpDate(t time.Time) string { return t.UTC().Format(http.TimeFormat) }

// TestCacheability has one row per rule of what put stores and for how
// long: each row puts a response and checks a match just before and at the
// end of the lifetime it should get.
func TestCacheability(t *testing.T) {
	tests := []struct {
		name    string
		req     Request
		resp    Response
		ttl     time.Duration // 0: not stored at all
		comment string
	}{
		{"max-age", get(key), resp(200, "x", "Cache-Control", "max-age=60"), 60 * time.Second, ""},
		{"s-maxage", get(key), resp(200, "x", "Cache-Control", "s-maxage=120"), 120 * time.Second, ""},
		{"s-maxage wins over max-age=0", get(key), resp(200, "x", "Cache-Control", "max-age=0, s-maxage=30"), 30 * time.Second, ""},
		{"s-maxage=0 wins over max-age", get(key), resp(200, "x", "Cache-Control", "s-maxage=0, max-age=60"), 0, ""},
		{"max-age wins over Expires", get(key), resp(200, "x", "Cache-Control", "max-age=10", "Expires", httpDate(t0.Add(time.Hour))), 10 * time.Second, ""},
		{"Expires", get(key), resp(200, "x", "Expires", httpDate(t0.Add(90*time.Second))), 90 * time.Second, ""},
		{"Expires relative to Date", get(key), resp(200, "x", "Date", httpDate(t0.Add(-30*time.Second)), "Expires", httpDate(t0.Add(60*time.Second))), 60 * time.Second, "lifetime 90 s minus 30 s of age"},
		{"Expires in the past", get(key), resp(200, "x", "Expires", httpDate(t0.Add(-time.Second))), 0, ""},
		{"Expires invalid", get(key), resp(200, "x", "Expires", "0"), 0, ""},
		{"Age header shortens", get(key), resp(200, "x", "Cache-Control", "max-age=60", "Age", "45"), 15 * time.Second, ""},
		{"Date in the past shortens", get(key), resp(200, "x", "Cache-Control", "max-age=60", "Date", httpDate(t0.Add(-20*time.Second))), 40 * time.Second, ""},
		{"Date far off is ignored", get(key), resp(200, "x", "Cache-Control", "max-age=60", "Date", httpDate(t0.Add(-24*time.Hour))), 60 * time.Second, ""},
		{"already too old", get(key), resp(200, "x", "Cache-Control", "max-age=60", "Age", "60"), 0, ""},
		{"Last-Modified heuristic", get(key), resp(200, "x", "Last-Modified", httpDate(t0.Add(-1000*time.Second))), 100 * time.Second, "10% of the time since modification"},
		{"no caching headers", get(key), resp(200, "x"), 0, ""},
		{"public alone", get(key), resp(200, "x", "Cache-Control", "public"), 0, "storable, but no lifetime"},
		{"max-age=0", get(key), resp(200, "x", "Cache-Control", "max-age=0"), 0, ""},
		{"no-store", get(key), resp(200, "x", "Cache-Control", "no-store, max-age=60"), 0, ""},
		{"no-cache", get(key), resp(200, "x", "Cache-Control", "no-cache, max-age=60"), 0, ""},
		{"Pragma no-cache without Cache-Control", get(key), resp(200, "x", "Pragma", "no-cache", "Expires", httpDate(t0.Add(time.Hour))), 0, ""},
		{"Pragma ignored beside Cache-Control", get(key), resp(200, "x", "Pragma", "no-cache", "Cache-Control", "max-age=60"), 60 * time.Second, ""},
		{"private", get(key), resp(200, "x", "Cache-Control", "private, max-age=60"), 0, ""},
		{"proxy-revalidate", get(key), resp(200, "x", "Cache-Control", "proxy-revalidate, max-age=60"), 0, ""},
		{"Set-Cookie", get(key), resp(200, "x", "Cache-Control", "max-age=60", "Set-Cookie", "a=b"), 0, ""},
		{"Set-Cookie even when public", get(key), resp(200, "x", "Cache-Control", "public, max-age=60", "Set-Cookie", "a=b"), 0, "miniflare never stores Set-Cookie"},
		{"private=set-cookie strips the cookie", get(key), resp(200, "x", "Cache-Control", "max-age=60, private=set-cookie", "Set-Cookie", "a=b"), 60 * time.Second, ""},
		{"private=\"set-cookie\" is plain private", get(key), resp(200, "x", "Cache-Control", `max-age=60, private="set-cookie"`, "Set-Cookie", "a=b"), 0, "miniflare matches the unquoted form only"},
		{"Authorization without opt-in", get(key, "Authorization", "Bearer t"), resp(200, "x", "Cache-Control", "max-age=60"), 0, ""},
		{"Authorization with public", get(key, "Authorization", "Bearer t"), resp(200, "x", "Cache-Control", "public, max-age=60"), 60 * time.Second, ""},
		{"Authorization with s-maxage", get(key, "Authorization", "Bearer t"), resp(200, "x", "Cache-Control", "s-maxage=60"), 60 * time.Second, ""},
		{"Authorization with must-revalidate", get(key, "Authorization", "Bearer t"), resp(200, "x", "Cache-Control", "must-revalidate, max-age=60"), 60 * time.Second, ""},
		{"request Cache-Control is ignored", get(key, "Cache-Control", "no-store"), resp(200, "x", "Cache-Control", "max-age=60"), 60 * time.Second, ""},
		{"404 with max-age", get(key), resp(404, "x", "Cache-Control", "max-age=60"), 60 * time.Second, ""},
		{"302 with max-age", get(key), resp(302, "", "Cache-Control", "max-age=60", "Location", "/x"), 60 * time.Second, ""},
		{"500 is never stored", get(key), resp(500, "x", "Cache-Control", "max-age=60"), 0, ""},
		{"201 is never stored", get(key), resp(201, "x", "Cache-Control", "max-age=60"), 0, ""},
		{"directive names any case", get(key), resp(200, "x", "Cache-Control", "Max-Age=60"), 60 * time.Second, ""},
		{"quoted value", get(key), resp(200, "x", "Cache-Control", `max-age="60"`), 60 * time.Second, ""},
		{"spaces around =", get(key), resp(200, "x", "Cache-Control", "max-age = 60"), 60 * time.Second, ""},
		{"trailing junk after digits", get(key), resp(200, "x", "Cache-Control", "max-age=60s"), 60 * time.Second, "parseInt"},
		{"non-numeric max-age", get(key), resp(200, "x", "Cache-Control", "max-age=soon"), 0, ""},
		{"empty max-age falls through", get(key), resp(200, "x", "Cache-Control", "max-age=", "Expires", httpDate(t0.Add(5*time.Second))), 5 * time.Second, "an empty value is falsy"},
		{"two Cache-Control lines", get(key), resp(200, "x", "Cache-Control", "public", "Cache-Control", "max-age=60"), 60 * time.Second, ""},
		{"304 is silently dropped", get(key), resp(304, "", "Cache-Control", "max-age=60"), 0, ""},
		{"Vary other than * is stored", get(key), resp(200, "x", "Cache-Control", "max-age=60", "Vary", "Accept-Language"), 60 * time.Second, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs := openCaches(t)
			c := cs.Default()
			require.NoError(t, c.Put(ctx, tt.req, tt.resp), "put never fails for cacheability")

			_, hit, err := c.Match(ctx, get(key), MatchOptions{})
			require.NoError(t, err)
			if tt.ttl == 0 {
				assert.False(t, hit, "not stored")
				return
			}
			require.True(t, hit, "stored")
			*cs.now = t0.Add(tt.ttl - time.Millisecond)
			_, hit, err = c.Match(ctx, get(key), MatchOptions{})
			require.NoError(t, err)
			assert.True(t, hit, "still fresh just before %v", tt.ttl)
			*cs.now = t0.Add(tt.ttl)
			_, hit, err = c.Match(ctx, get(key), MatchOptions{})
			require.NoError(t, err)
			assert.False(t, hit, "expired at %v", tt.ttl)
		})
	}
}

func TestPutRefusals(t *testing.T) {
	tests := []struct {
		name string
		req  Request
		resp Response
		msg  string
	}{
		{"POST", Request{Method: "POST", URL: key}, resp(200, "x", "Cache-Control", "max-age=60"), "Cannot cache response to non-GET request."},
		{"HEAD", Request{Method: "HEAD", URL: key}, resp(200, "x", "Cache-Control", "max-age=60"), "Cannot cache response to non-GET request."},
		{"206", get(key), resp(206, "x", "Cache-Control", "max-age=60"), "Cannot cache response to a range request (206 Partial Content)."},
		{"Vary *", get(key), resp(200, "x", "Vary", "*"), "Cannot cache response with 'Vary: *' header."},
		{"Vary list with *", get(key), resp(200, "x", "Vary", "Accept, *"), "Cannot cache response with 'Vary: *' header."},
		{"method checked first", Request{Method: "PUT", URL: key}, resp(206, "x", "Vary", "*"), "Cannot cache response to non-GET request."},
		{"relative URL", get("/api/search"), resp(200, "x", "Cache-Control", "max-age=60"), "Invalid URL. Cache API keys must be fully-qualified, valid URLs."},
		{"bad URL", get("https://exa mple.com/"), resp(200, "x", "Cache-Control", "max-age=60"), "Invalid URL. Cache API keys must be fully-qualified, valid URLs."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := openCaches(t).Default().Put(ctx, tt.req, tt.resp)
			assert.Equal(t, tt.msg, asCacheError(t, err).Message)
			assert.Equal(t, "cache: "+tt.msg, err.Error())
		})
	}
}

func TestMatchHitHeaders(t *testing.T) {
	cs := openCaches(t)
	c := cs.Default()
	require.NoError(t, c.Put(ctx, get(key), resp(200, "cat", "Cache-Control", "max-age=600", "Content-Type", "application/json",
		"Connection", "close, X-Hop", "X-Hop", "1", "Keep-Alive", "timeout=5", "Warning", `110 - "stale", 299 - "kept"`)))

	*cs.now = t0.Add(90*time.Second + 600*time.Millisecond)
	got, hit, err := c.Match(ctx, get(key), MatchOptions{})
	require.NoError(t, err)
	require.True(t, hit)
	assert.Equal(t, 200, got.Status)
	assert.Equal(t, "cat", string(got.Body))
	assert.Equal(t, http.Header{
		"Cache-Control":   {"max-age=600"},
		"Content-Type":    {"application/json"},
		"Cf-Cache-Status": {"HIT"},
		"Age":             {"91"}, // rounded
		"Warning":         {`299 - "kept"`},
	}, got.Header, "hop-by-hop headers and 1xx warnings are not stored")
}

func TestAgeStartsFromResponseAge(t *testing.T) {
	cs := openCaches(t)
	c := cs.Default()
	require.NoError(t, c.Put(ctx, get(key), resp(200, "x", "Cache-Control", "max-age=600", "Age", "100")))
	*cs.now = t0.Add(5 * time.Second)
	got, _, err := c.Match(ctx, get(key), MatchOptions{})
	require.NoError(t, err)
	assert.Equal(t, "105", got.Header.Get("Age"))
}

func TestPrivateSetCookieStored(t *testing.T) {
	c := openCaches(t).Default()
	require.NoError(t, c.Put(ctx, get(key), resp(200, "x", "Cache-Control", "Public, private=set-cookie;, max-age=60", "Set-Cookie", "a=b")))
	got, hit, err := c.Match(ctx, get(key), MatchOptions{})
	require.NoError(t, err)
	require.True(t, hit)
	assert.Empty(t, got.Header.Values("Set-Cookie"))
	assert.Equal(t, "public, max-age=60", got.Header.Get("Cache-Control"))
}

func TestMatchKeysAndMethods(t *testing.T) {
	cs := openCaches(t)
	c := cs.Default()
	require.NoError(t, c.Put(ctx, get(key), resp(200, "x", "Cache-Control", "max-age=60", "Vary", "Accept-Language")))

	tests := []struct {
		name string
		req  Request
		opts MatchOptions
		hit  bool
	}{
		{"same URL", get(key), MatchOptions{}, true},
		{"method left empty", Request{URL: key}, MatchOptions{}, true},
		{"lower-case get", Request{Method: "get", URL: key}, MatchOptions{}, true},
		{"other query", get(strings.Replace(key, "cat", "dog", 1)), MatchOptions{}, false},
		{"other scheme", get(strings.Replace(key, "https", "http", 1)), MatchOptions{}, false},
		{"Vary header ignored", get(key, "Accept-Language", "fr"), MatchOptions{}, true},
		{"HEAD misses", Request{Method: "HEAD", URL: key}, MatchOptions{}, false},
		{"POST misses", Request{Method: "POST", URL: key}, MatchOptions{}, false},
		{"POST with ignoreMethod", Request{Method: "POST", URL: key}, MatchOptions{IgnoreMethod: true}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, hit, err := c.Match(ctx, tt.req, tt.opts)
			require.NoError(t, err)
			assert.Equal(t, tt.hit, hit)
			assert.Equal(t, tt.hit, got != nil)
		})
	}
	_, _, err := c.Match(ctx, get("not a key"), MatchOptions{})
	asCacheError(t, err)
}

func TestConditionalMatch(t *testing.T) {
	lastModified := httpDate(t0.Add(-time.Hour))
	cs := openCaches(t)
	c := cs.Default()
	require.NoError(t, c.Put(ctx, get(key), resp(200, "body", "Cache-Control", "max-age=60", "ETag", `W/"v1"`, "Last-Modified", lastModified)))
	require.NoError(t, c.Put(ctx, get(key+"&no-etag"), resp(200, "body", "Cache-Control", "max-age=60")))

	tests := []struct {
		name   string
		req    Request
		status int
	}{
		{"no condition", get(key), 200},
		{"If-None-Match equal", get(key, "If-None-Match", `"v1"`), 304},
		{"If-None-Match weak equal", get(key, "If-None-Match", `W/"v1"`), 304},
		{"If-None-Match in list", get(key, "If-None-Match", `"a", "v1"`), 304},
		{"If-None-Match star", get(key, "If-None-Match", ` * `), 304},
		{"If-None-Match other", get(key, "If-None-Match", `"v2"`), 200},
		{"If-None-Match unquoted", get(key, "If-None-Match", `v1`), 200},
		{"If-None-Match without stored ETag", get(key+"&no-etag", "If-None-Match", `*`), 200},
		{"If-Modified-Since equal", get(key, "If-Modified-Since", lastModified), 304},
		{"If-Modified-Since later", get(key, "If-Modified-Since", httpDate(t0)), 304},
		{"If-Modified-Since earlier", get(key, "If-Modified-Since", httpDate(t0.Add(-2*time.Hour))), 200},
		{"If-Modified-Since not IMF-fixdate", get(key, "If-Modified-Since", t0.Format(time.RFC850)), 200},
		{"If-Modified-Since without stored Last-Modified", get(key+"&no-etag", "If-Modified-Since", httpDate(t0)), 200},
		{"conditional beats range", get(key, "If-None-Match", `"v1"`, "Range", "bytes=0-1"), 304},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, hit, err := c.Match(ctx, tt.req, MatchOptions{})
			require.NoError(t, err)
			require.True(t, hit)
			assert.Equal(t, tt.status, got.Status)
			assert.Equal(t, "HIT", got.Header.Get("Cf-Cache-Status"))
			if tt.status == 304 {
				assert.Nil(t, got.Body)
				assert.Equal(t, `W/"v1"`, got.Header.Get("ETag"))
			} else {
				assert.Equal(t, "body", string(got.Body))
			}
		})
	}
}

func TestRangeMatch(t *testing.T) {
	cs := openCaches(t)
	c := cs.Default()
	require.NoError(t, c.Put(ctx, get(key), resp(200, "0123456789", "Cache-Control", "max-age=60", "Content-Type", "text/plain", "Content-Length", "10")))
	boundary := "hostsim-boundary-" + strings.Repeat("01", 16)

	tests := []struct {
		name   string
		rng    string
		status int
		body   string
		header http.Header // checked entries only
	}{
		{"single", "bytes=2-4", 206, "234", http.Header{"Content-Range": {"bytes 2-4/10"}, "Content-Length": {"3"}, "Content-Type": {"text/plain"}}},
		{"suffix", "bytes=-3", 206, "789", http.Header{"Content-Range": {"bytes 7-9/10"}}},
		{"open end", "bytes=8-", 206, "89", http.Header{"Content-Range": {"bytes 8-9/10"}}},
		{"end clamped", "bytes=8-99", 206, "89", http.Header{"Content-Range": {"bytes 8-9/10"}}},
		{"whole by suffix", "bytes=-10", 200, "0123456789", http.Header{"Content-Length": {"10"}}},
		{"empty set", "bytes=", 200, "0123456789", nil},
		{"multiple", "bytes=0-1, 8-9", 206,
			"--" + boundary + "\r\nContent-Type: text/plain\r\nContent-Range: bytes 0-1/10\r\n\r\n01\r\n" +
				"--" + boundary + "\r\nContent-Type: text/plain\r\nContent-Range: bytes 8-9/10\r\n\r\n89\r\n--" + boundary + "--",
			http.Header{"Content-Type": {"multipart/byteranges; boundary=" + boundary}}},
		{"unsatisfiable", "bytes=10-", 416, "", http.Header{"Content-Range": {"bytes */10"}, "Cf-Cache-Status": {"HIT"}}},
		{"bad unit", "lines=1-2", 416, "", http.Header{"Content-Range": {"bytes */10"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, hit, err := c.Match(ctx, get(key, "Range", tt.rng), MatchOptions{})
			require.NoError(t, err)
			require.True(t, hit, "a range answer is a hit, even a 416")
			assert.Equal(t, tt.status, got.Status)
			assert.Equal(t, tt.body, string(got.Body))
			for name, want := range tt.header {
				assert.Equal(t, want, got.Header.Values(name), name)
			}
		})
	}
}

func TestDelete(t *testing.T) {
	cs := openCaches(t)
	c := cs.Default()
	put := func(u string, maxAge string) {
		require.NoError(t, c.Put(ctx, get(u), resp(200, "x", "Cache-Control", "max-age="+maxAge)))
	}
	put(key, "60")
	put(key+"&short", "1")
	put(key+"&post", "60")
	*cs.now = t0.Add(2 * time.Second)

	tests := []struct {
		name string
		req  Request
		opts MatchOptions
		want bool
	}{
		{"live entry", get(key), MatchOptions{}, true},
		{"already deleted", get(key), MatchOptions{}, false},
		{"expired entry", get(key + "&short"), MatchOptions{}, false},
		{"never stored", get(key + "&none"), MatchOptions{}, false},
		{"POST deletes nothing", Request{Method: "POST", URL: key + "&post"}, MatchOptions{}, false},
		{"POST with ignoreMethod", Request{Method: "POST", URL: key + "&post"}, MatchOptions{IgnoreMethod: true}, true},
	}
	for _, tt := range tests {
		got, err := c.Delete(ctx, tt.req, tt.opts)
		require.NoError(t, err, tt.name)
		assert.Equal(t, tt.want, got, tt.name)
	}
	_, err := c.Delete(ctx, get("/relative"), MatchOptions{})
	require.Error(t, err)
}

func TestNamedCaches(t *testing.T) {
	cs := openCaches(t)
	def := cs.Default()
	emoji, err := cs.Named("emoji")
	require.NoError(t, err)
	defaultNamed, err := cs.Named("default")
	require.NoError(t, err)
	again, err := cs.Named("emoji")
	require.NoError(t, err)
	assert.Same(t, emoji, again)

	require.NoError(t, emoji.Put(ctx, get(key), resp(200, "named", "Cache-Control", "max-age=60")))
	_, hit, err := def.Match(ctx, get(key), MatchOptions{})
	require.NoError(t, err)
	assert.False(t, hit, "the default cache is separate")
	_, hit, err = defaultNamed.Match(ctx, get(key), MatchOptions{})
	require.NoError(t, err)
	assert.False(t, hit, `caches.open("default") is not caches.default`)
	got, hit, err := again.Match(ctx, get(key), MatchOptions{})
	require.NoError(t, err)
	require.True(t, hit)
	assert.Equal(t, "named", string(got.Body))

	_, err = cs.Named(strings.Repeat("n", 1024))
	assert.Equal(t, "Cache name is too long.", asCacheError(t, err).Message)
	_, err = cs.Named(strings.Repeat("n", 1023))
	require.NoError(t, err)
}

func TestPersistenceAcrossReopen(t *testing.T) {
	cs := openCaches(t)
	require.NoError(t, cs.Default().Put(ctx, get(key), resp(200, "kept", "Cache-Control", "max-age=60", "ETag", `"e"`)))
	named, err := cs.Named("emoji")
	require.NoError(t, err)
	require.NoError(t, named.Put(ctx, get(key), resp(200, "named", "Cache-Control", "max-age=60")))

	now := t0.Add(10 * time.Second)
	reopened, err := OpenWithConfig(cs.dir, NewConfig().WithClock(func() time.Time { return now }))
	require.NoError(t, err)
	got, hit, err := reopened.Default().Match(ctx, get(key), MatchOptions{})
	require.NoError(t, err)
	require.True(t, hit)
	assert.Equal(t, "kept", string(got.Body))
	assert.Equal(t, `"e"`, got.Header.Get("ETag"))
	assert.Equal(t, "10", got.Header.Get("Age"))
	named, err = reopened.Named("emoji")
	require.NoError(t, err)
	got, hit, err = named.Match(ctx, get(key), MatchOptions{})
	require.NoError(t, err)
	require.True(t, hit)
	assert.Equal(t, "named", string(got.Body))

	now = t0.Add(time.Minute)
	_, hit, err = reopened.Default().Match(ctx, get(key), MatchOptions{})
	require.NoError(t, err)
	assert.False(t, hit, "expiry survives a reopen")
}

func TestOverwrite(t *testing.T) {
	c := openCaches(t).Default()
	require.NoError(t, c.Put(ctx, get(key), resp(200, "one", "Cache-Control", "max-age=60")))
	require.NoError(t, c.Put(ctx, get(key), resp(200, "two", "Cache-Control", "max-age=60")))
	got, _, err := c.Match(ctx, get(key), MatchOptions{})
	require.NoError(t, err)
	assert.Equal(t, "two", string(got.Body))
	// An uncacheable put leaves the old entry alone.
	require.NoError(t, c.Put(ctx, get(key), resp(200, "three", "Cache-Control", "no-store")))
	got, _, err = c.Match(ctx, get(key), MatchOptions{})
	require.NoError(t, err)
	assert.Equal(t, "two", string(got.Body))
}

func TestHeaderMapLiterals(t *testing.T) {
	c := openCaches(t).Default()
	r := Response{Status: 200, Header: http.Header{"cache-control": {"max-age=60"}}, Body: []byte("x")}
	require.NoError(t, c.Put(ctx, Request{URL: key}, r))
	_, hit, err := c.Match(ctx, Request{URL: key, Header: http.Header{"range": {"bytes=0-0"}}}, MatchOptions{})
	require.NoError(t, err)
	assert.True(t, hit)
}

func TestOpenErrorsAndContext(t *testing.T) {
	_, err := OpenWithConfig("", NewConfig().WithClock(nil).WithRand(nil))
	require.Error(t, err)
	for _, want := range []string{"WithClock", "WithRand", "empty directory"} {
		assert.Contains(t, err.Error(), want)
	}

	c := openCaches(t).Default()
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	assert.ErrorIs(t, c.Put(cctx, get(key), resp(200, "x")), context.Canceled)
	_, _, err = c.Match(cctx, get(key), MatchOptions{})
	assert.ErrorIs(t, err, context.Canceled)
	_, err = c.Delete(cctx, get(key), MatchOptions{})
	assert.ErrorIs(t, err, context.Canceled)
}

// A damaged entry (its metadata is not the cache's) is a miss, set aside
// with a log line, and the next put stores again (issue 31).
func TestDamagedEntryIsAMiss(t *testing.T) {
	var log strings.Builder
	s, err := OpenWithConfig(t.TempDir(), NewConfig().WithClock(func() time.Time { return t0 }).WithLog(&log))
	require.NoError(t, err)
	c := s.Default()
	require.NoError(t, c.Put(ctx, get(key), resp(200, "cat", "Cache-Control", "max-age=600")))
	require.NoError(t, c.store.Put(filestore.Record{Key: key, Metadata: []byte(`"not an entry"`), Value: []byte("x")}))

	_, hit, err := c.Match(ctx, get(key), MatchOptions{})
	require.NoError(t, err)
	assert.False(t, hit)
	assert.Contains(t, log.String(), "filestore: quarantined")
	require.NoError(t, c.Put(ctx, get(key), resp(200, "cat", "Cache-Control", "max-age=600")))
	got, hit, err := c.Match(ctx, get(key), MatchOptions{})
	require.NoError(t, err)
	require.True(t, hit)
	assert.Equal(t, "cat", string(got.Body))
}

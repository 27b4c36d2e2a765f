package assets

import (
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// site writes files (path -> content) under a fresh folder and returns it.
func site(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(body), 0o644))
	}
	return dir
}

func newServer(t *testing.T, files map[string]string, opts Options) *Server {
	t.Helper()
	s, err := New(site(t, files), opts)
	require.NoError(t, err)
	return s
}

var pages = map[string]string{
	"index.html":       "home",
	"about.html":       "about",
	"blog/index.html":  "blog",
	"data.json":        `{"a":1}`,
	"blob.bin":         "\x00\x01",
	"icon.svg":         "<svg/>",
	"notes.unknownext": "?",
	"style.css":        "body{}",
	"app.js":           "js",
}

func get(s *Server, target string) *Response { return s.Fetch(http.MethodGet, target, http.Header{}) }

func TestHeaders(t *testing.T) {
	s := newServer(t, pages, Options{})
	cases := []struct {
		target, contentType, body string
	}{
		{"/data.json", "application/json", `{"a":1}`},
		{"/blob.bin", "application/octet-stream", "\x00\x01"},
		{"/app.js", "text/javascript; charset=utf-8", "js"},
		{"/icon.svg", "image/svg+xml", "<svg/>"},
		{"/about", "text/html; charset=utf-8", "about"},
		{"/style.css", "text/css; charset=utf-8", "body{}"},
		{"/notes.unknownext", "", "?"},
	}
	etag := regexp.MustCompile(`^"[0-9a-f]{32}"$`)
	for _, tc := range cases {
		t.Run(tc.target, func(t *testing.T) {
			r := get(s, tc.target)
			require.Equal(t, http.StatusOK, r.Status)
			assert.Equal(t, tc.body, string(r.Body))
			assert.Equal(t, tc.contentType, r.Header.Get("Content-Type"))
			assert.Regexp(t, etag, r.Header.Get("ETag"))
			assert.Equal(t, "public, max-age=0, must-revalidate", r.Header.Get("Cache-Control"))
			assert.Equal(t, "HIT", r.Header.Get("CF-Cache-Status"))
			assert.Equal(t, int64(len(tc.body)), r.Size)
			assert.NotEmpty(t, r.File)
		})
	}
	a, b := get(s, "/about"), get(s, "/about")
	assert.Equal(t, a.Header.Get("ETag"), b.Header.Get("ETag"), "stable")
	assert.NotEqual(t, a.Header.Get("ETag"), get(s, "/").Header.Get("ETag"), "content-based")
}

func TestConditionalAndHead(t *testing.T) {
	s := newServer(t, pages, Options{})
	strong := get(s, "/data.json").Header.Get("ETag")
	cases := []struct {
		name   string
		method string
		header http.Header
		status int
		body   bool
		cache  bool
	}{
		{"strong etag", http.MethodGet, http.Header{"If-None-Match": {strong}}, http.StatusNotModified, false, true},
		{"weak etag", http.MethodGet, http.Header{"If-None-Match": {"W/" + strong}}, http.StatusNotModified, false, true},
		{"other etag", http.MethodGet, http.Header{"If-None-Match": {`"nope"`}}, http.StatusOK, true, true},
		{"etag in a list is not matched, as in Workers", http.MethodGet, http.Header{"If-None-Match": {`"x", ` + strong}}, http.StatusOK, true, true},
		{"head", http.MethodHead, http.Header{}, http.StatusOK, false, true},
		{"authorization: no cache-control", http.MethodGet, http.Header{"Authorization": {"Bearer x"}}, http.StatusOK, true, false},
		{"range: no cache-control", http.MethodGet, http.Header{"Range": {"bytes=0-1"}}, http.StatusOK, true, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := s.Fetch(tc.method, "/data.json", tc.header)
			assert.Equal(t, tc.status, r.Status)
			assert.Equal(t, tc.body, r.Body != nil)
			assert.Equal(t, strong, r.Header.Get("ETag"))
			assert.Equal(t, "application/json", r.Header.Get("Content-Type"))
			assert.Equal(t, tc.cache, r.Header.Get("Cache-Control") != "")
			assert.Equal(t, int64(7), r.Size)
		})
	}
}

// expect: status, then body for 200/404 or Location for 307.
type expect struct {
	target string
	status int
	want   string
}

func runCases(t *testing.T, s *Server, cases []expect) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.target, func(t *testing.T) {
			r := get(s, tc.target)
			require.Equal(t, tc.status, r.Status)
			if tc.status == http.StatusTemporaryRedirect {
				assert.Equal(t, tc.want, r.Header.Get("Location"))
				assert.Nil(t, r.Body)
			} else {
				assert.Equal(t, tc.want, string(r.Body))
			}
		})
	}
}

func TestHTMLHandling(t *testing.T) {
	files := map[string]string{
		"index.html": "home", "about.html": "about", "blog/index.html": "blog",
		"raw/index": "binary index", "both.html": "both file", "both/index.html": "both dir",
	}
	t.Run(AutoTrailingSlash, func(t *testing.T) {
		runCases(t, newServer(t, files, Options{}), []expect{
			{"/", 200, "home"},
			{"/index.html", 307, "/"},
			{"/index", 307, "/"},
			{"/about", 200, "about"},
			{"/about.html", 307, "/about"},
			{"/about.html?x=1&y", 307, "/about?x=1&y"},
			{"/about/", 307, "/about"},
			{"/blog", 307, "/blog/"},
			{"/blog/", 200, "blog"},
			{"/blog/index.html", 307, "/blog/"},
			{"/blog/index", 307, "/blog/"},
			{"/blog.html", 307, "/blog/"},
			{"/raw/index", 200, "binary index"},
			{"/both", 200, "both file"},
			{"/both/", 200, "both dir"},
			{"//about", 307, "/about"},
			{"/missing", 404, ""},
		})
	})
	t.Run(ForceTrailingSlash, func(t *testing.T) {
		runCases(t, newServer(t, files, Options{HTMLHandling: ForceTrailingSlash}), []expect{
			{"/", 200, "home"},
			{"/about", 307, "/about/"},
			{"/about/", 200, "about"},
			{"/about.html", 307, "/about/"},
			{"/blog", 307, "/blog/"},
			{"/blog/", 200, "blog"},
			{"/blog/index.html", 307, "/blog/"},
			{"/both.html", 200, "both file"},
		})
	})
	t.Run(DropTrailingSlash, func(t *testing.T) {
		runCases(t, newServer(t, files, Options{HTMLHandling: DropTrailingSlash}), []expect{
			{"/", 200, "home"},
			{"/index.html", 307, "/"},
			{"/index", 307, "/"},
			{"/about", 200, "about"},
			{"/about/", 307, "/about"},
			{"/about.html", 307, "/about"},
			{"/blog", 200, "blog"},
			{"/blog/", 307, "/blog"},
			{"/blog/index.html", 307, "/blog"},
		})
	})
	t.Run(HTMLHandlingNone, func(t *testing.T) {
		runCases(t, newServer(t, files, Options{HTMLHandling: HTMLHandlingNone}), []expect{
			{"/", 404, ""},
			{"/index.html", 200, "home"},
			{"/about", 404, ""},
			{"/about.html", 200, "about"},
			{"/blog/", 404, ""},
		})
	})
}

func TestNotFoundHandling(t *testing.T) {
	files := map[string]string{"index.html": "app", "404.html": "top 404", "blog/404.html": "blog 404", "blog/a.html": "a"}
	t.Run(SinglePageApplication, func(t *testing.T) {
		runCases(t, newServer(t, files, Options{NotFoundHandling: SinglePageApplication}), []expect{
			{"/some/client/route", 200, "app"},
			{"/blog/a", 200, "a"},
		})
	})
	t.Run(NotFoundPage, func(t *testing.T) {
		runCases(t, newServer(t, files, Options{NotFoundHandling: NotFoundPage}), []expect{
			{"/blog/missing", 404, "blog 404"},
			{"/blog/deep/missing", 404, "blog 404"},
			{"/other/missing", 404, "top 404"},
			{"/blog/a", 200, "a"},
		})
	})
	t.Run("404 page without one", func(t *testing.T) {
		runCases(t, newServer(t, map[string]string{"a.html": "a"}, Options{NotFoundHandling: NotFoundPage}), []expect{
			{"/missing", 404, ""},
		})
	})
}

func TestLookupRouting(t *testing.T) {
	files := map[string]string{"index.html": "app", "api/docs.html": "docs", "logo.png": "png"}
	nav := http.Header{"Sec-Fetch-Mode": {"navigate"}}
	fetchMode := http.Header{"Sec-Fetch-Mode": {"cors"}}
	cases := []struct {
		name   string
		opts   Options
		method string
		target string
		header http.Header
		worker bool // the Worker should handle it
		status int
	}{
		{"asset first", Options{}, "GET", "/logo.png", nil, false, 200},
		{"missing goes to worker", Options{}, "GET", "/api/emoji", nil, true, 0},
		{"redirects come from assets", Options{}, "GET", "/index.html", nil, false, 307},
		{"POST to an asset path is 405", Options{}, "POST", "/logo.png", nil, false, 405},
		{"POST elsewhere goes to worker", Options{}, "POST", "/api/emoji", nil, true, 0},
		{"run_worker_first true", Options{RunWorkerFirst: true}, "GET", "/logo.png", nil, true, 0},
		{"rule sends to worker", Options{WorkerFirst: []string{"/api/*"}}, "GET", "/api/docs", nil, true, 0},
		{"negative rule wins", Options{WorkerFirst: []string{"/api/*", "!/api/docs*"}}, "GET", "/api/docs", nil, false, 200},
		{"rule is anchored", Options{WorkerFirst: []string{"/api"}}, "GET", "/api/docs", nil, false, 200},
		{"rule matches encoded path", Options{WorkerFirst: []string{"/a%20b"}}, "GET", "/a%20b", nil, true, 0},
		{"spa: fetch() of missing path goes to worker", Options{NotFoundHandling: SinglePageApplication, NavigationFallback: true}, "GET", "/route", fetchMode, true, 0},
		{"spa: navigation gets the app", Options{NotFoundHandling: SinglePageApplication, NavigationFallback: true}, "GET", "/route", nav, false, 200},
		{"spa without the flag: navigation goes to worker", Options{NotFoundHandling: SinglePageApplication}, "GET", "/route", nav, true, 0},
		{"spa with worker-first rules: every request gets the app", Options{NotFoundHandling: SinglePageApplication, WorkerFirst: []string{"/api/*"}}, "GET", "/route", fetchMode, false, 200},
		{"spa with worker-first rules: the rules still win", Options{NotFoundHandling: SinglePageApplication, WorkerFirst: []string{"/api/*"}}, "GET", "/api/x", fetchMode, true, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newServer(t, files, tc.opts)
			h := tc.header
			if h == nil {
				h = http.Header{}
			}
			r, ok := s.Lookup(tc.method, tc.target, h)
			assert.Equal(t, !tc.worker, ok)
			if tc.worker {
				assert.Nil(t, r)
				return
			}
			require.NotNil(t, r)
			assert.Equal(t, tc.status, r.Status)
		})
	}
}

func TestEncodedPaths(t *testing.T) {
	s := newServer(t, map[string]string{"a b.txt": "space", "[x].txt": "brackets", "ü.txt": "umlaut", "%41.txt": "literal percent"}, Options{})
	runCases(t, s, []expect{
		{"/a%20b.txt", 200, "space"},
		{"/%5Bx%5D.txt", 200, "brackets"},
		{"/[x].txt", 307, "/%5Bx%5D.txt"},
		{"/%C3%BC.txt", 200, "umlaut"},
		{"/%c3%bc.txt", 307, "/%C3%BC.txt"},
		{"/%2541.txt", 200, "literal percent"},
		{"/%41.txt", 404, ""},
		{"/%ZZ.txt", 404, ""},
	})
}

func TestNoTraversal(t *testing.T) {
	outer := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(outer, "secret.txt"), []byte("secret"), 0o644))
	dir := filepath.Join(outer, "public")
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "sub"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "sub", "ok.txt"), []byte("ok"), 0o644))
	require.NoError(t, os.Symlink(filepath.Join(outer, "secret.txt"), filepath.Join(dir, "leak.txt")))
	require.NoError(t, os.Symlink(filepath.Join(dir, "sub", "ok.txt"), filepath.Join(dir, "alias.txt")))
	s, err := New(dir, Options{NotFoundHandling: NotFoundPage})
	require.NoError(t, err)
	for _, target := range []string{
		"/../secret.txt", "/%2e%2e/secret.txt", "/..%2fsecret.txt", "/%2E%2E%2Fsecret.txt",
		"/sub/../../secret.txt", "/sub/%2e%2e%2f%2e%2e%2fsecret.txt", "/leak.txt", "/..\\secret.txt",
		"/secret.txt%00", "/%00",
	} {
		t.Run(target, func(t *testing.T) {
			r := get(s, target)
			assert.NotEqual(t, "secret", string(r.Body))
			assert.NotEqual(t, http.StatusOK, r.Status)
		})
	}
	assert.Equal(t, "ok", string(get(s, "/alias.txt").Body), "links inside the folder are served")
}

func TestAssetsIgnore(t *testing.T) {
	s := newServer(t, map[string]string{
		".assetsignore":     "# comment\n*.map\n!keep.map\nprivate/\n/top-only.txt\n**/drafts/**\n",
		"_headers":          "/*\n  X-Test: 1\n",
		"_redirects":        "/a /b 301\n",
		"app.js":            "js",
		"app.js.map":        "{}",
		"keep.map":          "{}",
		"private/key.txt":   "k",
		"top-only.txt":      "t",
		"sub/top-only.txt":  "sub",
		"posts/drafts/x.md": "x",
		"posts/final.md":    "f",
	}, Options{HTMLHandling: HTMLHandlingNone})
	runCases(t, s, []expect{
		{"/app.js", 200, "js"},
		{"/app.js.map", 404, ""},
		{"/keep.map", 200, "{}"},
		{"/private/key.txt", 404, ""},
		{"/top-only.txt", 404, ""},
		{"/sub/top-only.txt", 200, "sub"},
		{"/posts/drafts/x.md", 404, ""},
		{"/posts/final.md", 200, "f"},
		{"/_headers", 404, ""},
		{"/_redirects", 404, ""},
		{"/.assetsignore", 404, ""},
	})
}

func TestNewReportsEveryProblem(t *testing.T) {
	_, err := New(filepath.Join(t.TempDir(), "nope"), Options{
		HTMLHandling:     "sometimes",
		NotFoundHandling: "maybe",
		WorkerFirst:      []string{"api/*", "!/x"},
	})
	require.Error(t, err)
	for _, want := range []string{"html_handling", "not_found_handling", "rules must start with '/' or '!/'", "only negative rules", "nope"} {
		assert.Contains(t, err.Error(), want)
	}
}

func TestRoutingRuleProblems(t *testing.T) {
	long := "/" + string(make([]byte, 100))
	cases := []struct {
		name  string
		rules []string
		want  string
	}{
		{"empty", []string{}, "at least 1 rule"},
		{"no slash", []string{"api"}, "must start with '/' or '!/'"},
		{"bad negative", []string{"/a", "!api"}, "negative rules must start with '!/'"},
		{"only negative", []string{"!/a"}, "only negative rules"},
		{"duplicate", []string{"/a", "/a"}, "duplicate"},
		{"redundant", []string{"/api/*", "/api/x"}, "makes it redundant"},
		{"too long", []string{long}, "less than 100 characters"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			problems := RoutingRuleProblems(tc.rules)
			require.NotEmpty(t, problems)
			assert.Contains(t, problems[0]+problems[len(problems)-1], tc.want)
		})
	}
	assert.Empty(t, RoutingRuleProblems([]string{"/api/*", "!/api/docs", "/oauth/callback"}))
	assert.NotEmpty(t, Options{}.WithRunWorkerFirst(true).WithWorkerFirst("/a").Problems())
}

func TestReload(t *testing.T) {
	dir := site(t, map[string]string{"a.txt": "a"})
	s, err := New(dir, Options{})
	require.NoError(t, err)
	assert.Equal(t, 404, get(s, "/b.txt").Status)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "b.txt"), []byte("b"), 0o644))
	require.NoError(t, s.Reload())
	assert.Equal(t, "b", string(get(s, "/b.txt").Body))
}

func TestTooLarge(t *testing.T) {
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "huge.bin"))
	require.NoError(t, err)
	require.NoError(t, f.Truncate(MaxAssetSize+1))
	require.NoError(t, f.Close())
	_, err = New(dir, Options{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "asset too large: /huge.bin")
}

func TestOptionsAreValues(t *testing.T) {
	base := Options{}
	changed := base.WithHTMLHandling(DropTrailingSlash).WithNotFoundHandling(NotFoundPage).WithNavigationFallback(true)
	assert.Equal(t, Options{}, base)
	assert.Equal(t, DropTrailingSlash, changed.HTMLHandling)
	assert.Equal(t, NotFoundPage, changed.NotFoundHandling)
	assert.True(t, changed.NavigationFallback)
	rules := []string{"/a"}
	o := base.WithWorkerFirst(rules...)
	rules[0] = "/b"
	assert.Equal(t, []string{"/a"}, o.WorkerFirst)
}

func TestConcurrentFetchAndReload(t *testing.T) {
	s := newServer(t, pages, Options{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; i < 20; i++ {
			assert.NoError(t, s.Reload())
		}
	}()
	for i := 0; i < 200; i++ {
		assert.Equal(t, "about", string(get(s, "/about").Body))
	}
	<-done
}

func TestNavigationFallbackFor(t *testing.T) {
	cases := []struct {
		date  string
		flags []string
		want  bool
	}{
		{"2026-10-01", nil, true},
		{"2025-04-01", nil, true},
		{"2025-03-31", nil, false},
		{"", nil, false},
		{"2024-01-01", []string{"assets_navigation_prefers_asset_serving"}, true},
		{"2026-10-01", []string{"assets_navigation_has_no_effect"}, false},
		{"2026-10-01", []string{"nodejs_compat"}, true},
	}
	for _, tc := range cases {
		assert.Equal(t, tc.want, NavigationFallbackFor(tc.date, tc.flags), "%s %v", tc.date, tc.flags)
	}
}

func TestHeadersFile(t *testing.T) {
	s := newServer(t, map[string]string{
		"_headers": "# comment\n/v1/pack/*\n  Cache-Control: public, max-age=31536000, immutable\n  Access-Control-Allow-Origin: *\n" +
			"/v1/:section/index.json\n  X-Section: yes\n  ! CF-Cache-Status\n/v1/pack/*\n  X-Extra: a\n/*\n  X-Extra: b\n",
		"v1/pack/7/manifest.json": "{}",
		"v1/culture/index.json":   "{}",
		"other.txt":               "x",
		"page.html":               "<p>",
	}, Options{})
	cases := []struct {
		path   string
		header map[string]string
	}{
		{"/v1/pack/7/manifest.json", map[string]string{"Cache-Control": "public, max-age=31536000, immutable", "Access-Control-Allow-Origin": "*", "X-Extra": "a, b", "Cf-Cache-Status": "HIT"}},
		{"/v1/culture/index.json", map[string]string{"Cache-Control": CacheControl, "X-Section": "yes", "Cf-Cache-Status": "", "X-Extra": "b"}},
		{"/other.txt", map[string]string{"Cache-Control": CacheControl, "Access-Control-Allow-Origin": "", "X-Extra": "b"}},
	}
	for _, tc := range cases {
		t.Run(tc.path, func(t *testing.T) {
			res := s.Fetch(http.MethodGet, tc.path, http.Header{})
			require.Equal(t, 200, res.Status)
			for k, v := range tc.header {
				assert.Equal(t, v, res.Header.Get(k), k)
			}
		})
	}

	// The asset worker adds the rules to answers without a file as well.
	bare := []struct {
		method, path string
		status       int
		header       map[string]string
	}{
		{"POST", "/v1/pack/7/manifest.json", 405, map[string]string{"Access-Control-Allow-Origin": "*", "X-Extra": "a, b", "Cache-Control": "public, max-age=31536000, immutable"}},
		{"DELETE", "/other.txt", 405, map[string]string{"Access-Control-Allow-Origin": "", "X-Extra": "b"}},
		{"GET", "/v1/pack/7/missing.json", 404, map[string]string{"Access-Control-Allow-Origin": "*", "X-Extra": "a, b"}},
		{"GET", "/page.html", 307, map[string]string{"Location": "/page", "X-Extra": "b"}},
	}
	for _, tc := range bare {
		res := s.Fetch(tc.method, tc.path, http.Header{})
		require.Equal(t, tc.status, res.Status, tc.path)
		assert.Nil(t, res.Body, tc.path)
		for k, v := range tc.header {
			assert.Equal(t, v, res.Header.Get(k), "%s %s", tc.path, k)
		}
	}

	_, err := parseHeaders("X-No-Rule: 1\n")
	assert.ErrorContains(t, err, "line 1")
	_, err = parseHeaders("/a\n  missing-colon\n")
	assert.ErrorContains(t, err, "line 2")
}

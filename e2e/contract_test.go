package e2e

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The contract: every request the suite sends through call and every
// answer it gets are checked against docs/openapi.json (issue 27), on both
// targets. An undocumented route, method, status, field or header fails
// the test that met it; the coverage report lists every (route, status)
// pair the document names with the tests that produced it.
type contract struct {
	doc    *openapi3.T
	router routers.Router

	mu  sync.Mutex
	hit map[string]map[string]bool // "METHOD /path status" -> top-level test names
}

var spec *contract

// notInContract are path prefixes the suite reaches that are not the
// product's API: the diag build's test routes and the test-scheduled routes
// of `wrangler dev` (both absent from a deployed Worker), and the web pages
// and their static files (the picker at /, the client library's modules,
// the docs page, the dashboard app, the picker's favicons).
var notInContract = []string{"/__diag/", "/__scheduled", "/cdn-cgi/", "/client/", "/demo/", "/docs", "/dashboard/", "/robots.txt", "/favicon.svg", "/favicon.ico"}

// platformBodyLimit is the request size above which the platform itself
// refuses a body with 413 before any route runs (hostsim's limit, as
// Workers' 100 MB on the Free plan): no route of the document is involved.
const platformBodyLimit = 1 << 20

// apiHeaders are the response headers the contract speaks about: one of
// them in an answer whose description does not declare it is a failure.
// Transport headers (Date, Content-Length, CF-Cache-Status...) are not.
var apiHeaders = []string{"Cache-Control", "Server-Timing", "Retry-After", "Allow", "Access-Control-Allow-Origin",
	"Access-Control-Allow-Methods", "Access-Control-Allow-Headers", "Access-Control-Max-Age", "ETag", "Link",
	"Content-Security-Policy", "Cross-Origin-Resource-Policy", "Location", "X-Content-Type-Options"}

func loadContract(root, base string) (*contract, error) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromFile(filepath.Join(root, "docs", "openapi.json"))
	if err != nil {
		return nil, err
	}
	if err := doc.Validate(loader.Context); err != nil {
		return nil, fmt.Errorf("docs/openapi.json: %w", err)
	}
	doc.Servers = openapi3.Servers{{URL: base}}
	router, err := legacy.NewRouter(doc)
	if err != nil {
		return nil, err
	}
	for _, ct := range []string{"image/jpeg", "image/webp", "image/png", "image/gif", "image/svg+xml", "application/octet-stream"} {
		openapi3filter.RegisterBodyDecoder(ct, openapi3filter.FileBodyDecoder)
	}
	return &contract{doc: doc, router: router, hit: map[string]map[string]bool{}}, nil
}

// check validates one exchange; reqBody and resBody are the bytes sent and
// received. It returns every breach found.
func (c *contract) check(t *testing.T, req *http.Request, reqBody []byte, res *http.Response, resBody []byte) []string {
	if req.URL.Path == "/" {
		return nil
	}
	for _, p := range notInContract {
		if strings.HasPrefix(req.URL.Path, p) {
			return nil
		}
	}
	if len(reqBody) > platformBodyLimit && res.StatusCode == http.StatusRequestEntityTooLarge {
		return nil
	}
	method := req.Method
	if method == http.MethodHead {
		method = http.MethodGet
	}
	probe := c.onServer(req)
	probe.Method = method
	probe.Body = io.NopCloser(bytes.NewReader(reqBody))
	route, params, err := c.router.FindRoute(probe)
	switch {
	case errors.Is(err, routers.ErrMethodNotAllowed) || err != nil && c.pathOf(req) != "":
		return c.wrongMethod(req, res)
	case err != nil:
		if res.StatusCode == http.StatusNotFound {
			return nil // no such route: the 404 every surface gives
		}
		return []string{fmt.Sprintf("%s %s: undocumented route answered %d", req.Method, req.URL.Path, res.StatusCode)}
	}
	c.record(t, method, route.Path, res.StatusCode)
	where := fmt.Sprintf("%s %s -> %d", req.Method, route.Path, res.StatusCode)
	var breaches []string
	in := &openapi3filter.RequestValidationInput{Request: probe, PathParams: params, Route: route,
		Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, MultiError: true}}
	if err := openapi3filter.ValidateRequest(context.Background(), in); err != nil && res.StatusCode < 400 {
		breaches = append(breaches, fmt.Sprintf("%s: the request breaks the document, yet it was answered %d: %v", where, res.StatusCode, err))
	}
	out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: res.StatusCode, Header: res.Header,
		Body: io.NopCloser(bytes.NewReader(resBody)),
		Options: &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true,
			ExcludeResponseBody: req.Method == http.MethodHead || res.StatusCode == http.StatusNotModified}}
	if err := openapi3filter.ValidateResponse(context.Background(), out); err != nil {
		breaches = append(breaches, fmt.Sprintf("%s: %v", where, err))
	}
	if declared := c.declaredHeaders(route.Operation, res.StatusCode); declared != nil {
		for _, h := range apiHeaders {
			if res.Header.Get(h) != "" && !declared[http.CanonicalHeaderKey(h)] {
				breaches = append(breaches, fmt.Sprintf("%s: header %s (%q) is not in the document", where, h, res.Header.Get(h)))
			}
		}
	}
	return breaches
}

// wrongMethod checks the 405 of a method the document does not give the
// path: the status, and Allow naming exactly the documented methods.
func (c *contract) wrongMethod(req *http.Request, res *http.Response) []string {
	path := c.pathOf(req)
	if res.StatusCode != http.StatusMethodNotAllowed {
		return []string{fmt.Sprintf("%s %s: an undocumented method answered %d, not 405", req.Method, req.URL.Path, res.StatusCode)}
	}
	item := c.doc.Paths.Find(path)
	var want []string
	for m := range item.Operations() {
		if m != http.MethodOptions {
			want = append(want, m)
		}
	}
	if slices.Contains(want, http.MethodGet) {
		want = append(want, http.MethodHead)
	}
	sort.Strings(want)
	var got []string
	for _, m := range strings.Split(res.Header.Get("Allow"), ",") {
		if m = strings.TrimSpace(m); m != "" && m != http.MethodOptions {
			got = append(got, m)
		}
	}
	sort.Strings(got)
	if !slices.Equal(want, got) {
		return []string{fmt.Sprintf("%s %s: 405 with Allow %q, the document gives %v", req.Method, req.URL.Path, res.Header.Get("Allow"), want)}
	}
	return nil
}

// onServer is a copy of req addressed to the document's server, so an
// instance beside the target (TestDashboardWithoutIdentityProvider) is
// checked against the same routes.
func (c *contract) onServer(req *http.Request) *http.Request {
	probe := req.Clone(context.Background())
	u := *req.URL
	server, _ := url.Parse(c.doc.Servers[0].URL)
	u.Scheme, u.Host = server.Scheme, server.Host
	probe.URL = &u
	return probe
}

// pathOf is the document's path template that req's path matches, ""
// for none.
func (c *contract) pathOf(req *http.Request) string {
	for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPatch, http.MethodDelete, http.MethodOptions} {
		probe := c.onServer(req)
		probe.Method = m
		if route, _, err := c.router.FindRoute(probe); err == nil {
			return route.Path
		}
	}
	return ""
}

// declaredHeaders are the headers the response of status declares; nil
// when the status itself is undocumented (ValidateResponse reports it).
func (c *contract) declaredHeaders(op *openapi3.Operation, status int) map[string]bool {
	ref := op.Responses.Status(status)
	if ref == nil || ref.Value == nil {
		return nil
	}
	out := map[string]bool{"Content-Type": true}
	for name := range ref.Value.Headers {
		out[http.CanonicalHeaderKey(name)] = true
	}
	return out
}

func (c *contract) record(t *testing.T, method, path string, status int) {
	test, _, _ := strings.Cut(t.Name(), "/")
	key := fmt.Sprintf("%s %s %d", method, path, status)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.hit[key] == nil {
		c.hit[key] = map[string]bool{}
	}
	c.hit[key][test] = true
}

// pairs lists every (route, status) pair the document names.
func (c *contract) pairs() []string {
	var out []string
	for path, item := range c.doc.Paths.Map() {
		for method, op := range item.Operations() {
			for status := range op.Responses.Map() {
				out = append(out, fmt.Sprintf("%s %s %s", method, path, status))
			}
		}
	}
	sort.Strings(out)
	return out
}

// report writes the coverage report (Markdown) to w and returns the share
// of pairs covered.
func (c *contract) report(w io.Writer, target string) float64 {
	pairs := c.pairs()
	c.mu.Lock()
	defer c.mu.Unlock()
	covered := 0
	var missing []string
	var rows []string
	for _, p := range pairs {
		tests := c.hit[p]
		if len(tests) == 0 {
			missing = append(missing, p)
			continue
		}
		covered++
		names := make([]string, 0, len(tests))
		for n := range tests {
			names = append(names, n)
		}
		sort.Strings(names)
		rows = append(rows, fmt.Sprintf("| `%s` | %s |", p, strings.Join(names, ", ")))
	}
	share := float64(covered) / float64(len(pairs))
	fmt.Fprintf(w, "# Contract coverage on %s: %d of %d (route, status) pairs (%.1f %%)\n\n", target, covered, len(pairs), 100*share)
	if len(missing) > 0 {
		fmt.Fprintf(w, "## Not exercised\n\n")
		for _, m := range missing {
			fmt.Fprintf(w, "- `%s`\n", m)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "## Exercised\n\n| Route and status | Tests |\n|---|---|\n%s\n", strings.Join(rows, "\n"))
	return share
}

// coverageFloor is the share of the document's (route, status) pairs a
// whole-suite run must exercise on each target: all of them (issue 27). A
// route or status added to the document needs its test in the same change.
const coverageFloor = 1.0

// finishContract writes the report next to the suite's state and, on a
// whole-suite run (no -run filter), fails below coverageFloor.
func finishContract(root string) int {
	dir := filepath.Join(root, "e2e", ".state")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "e2e: contract report:", err)
		return 1
	}
	path := filepath.Join(dir, "contract-coverage-"+tgt.name+".md")
	var buf bytes.Buffer
	share := spec.report(&buf, tgt.name)
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "e2e: contract report:", err)
		return 1
	}
	head, _, _ := strings.Cut(buf.String(), "\n")
	fmt.Fprintf(os.Stderr, "e2e: %s (%s)\n", strings.TrimPrefix(head, "# "), path)
	if f := flag.Lookup("test.run"); f != nil && f.Value.String() == "" && share < coverageFloor {
		fmt.Fprintf(os.Stderr, "e2e: contract coverage is under its floor of %.0f %%: a (route, status) pair of docs/openapi.json lost its test\n", 100*coverageFloor)
		return 1
	}
	return 0
}

// checkContract fails t on every breach of the exchange.
func checkContract(t *testing.T, req *http.Request, reqBody []byte, res *http.Response, resBody []byte) {
	t.Helper()
	for _, b := range spec.check(t, req, reqBody, res, resBody) {
		t.Errorf("contract (docs/openapi.json): %s", b)
	}
}

// The reference is served at the Worker's origin as the document itself,
// with CORS and a short cache (issue 27).
func TestOpenAPIServed(t *testing.T) {
	r := get(t, "/openapi.json")
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	want, err := os.ReadFile(filepath.Join(repoRoot(), "docs", "openapi.json"))
	require.NoError(t, err)
	assert.True(t, bytes.Equal(want, r.Body), "/openapi.json is docs/openapi.json")
	assert.Equal(t, "public, max-age=300", r.Header.Get("Cache-Control"))
	assert.Equal(t, "*", r.Header.Get("Access-Control-Allow-Origin"))
	assert.True(t, strings.HasPrefix(r.Header.Get("Content-Type"), "application/json"), r.Header.Get("Content-Type"))
}

// pathFor fills a path template of the document with values its
// parameters accept.
func pathFor(template string) string {
	values := map[string]string{"set": "noto", "file": "1f600.svg", "externalId": "tenant-1", "shortcode": "party"}
	if strings.HasPrefix(template, "/p/") || strings.HasPrefix(template, "/v1/culture/") {
		values["file"] = "index.json"
	}
	if strings.HasPrefix(template, "/v1/pack/") {
		values["file"] = "manifest.json"
	}
	return regexp.MustCompile(`\{[^}]+\}`).ReplaceAllStringFunc(template, func(p string) string {
		if v, ok := values[strings.Trim(p, "{}")]; ok {
			return v
		}
		return "x1"
	})
}

// Every route the Worker answers refuses plain http to a hosted name with
// 403 in the search error shape, and answers a CORS preflight with 204
// naming its methods (spec 1, Conventions), as the document says.
func TestEveryRouteHTTPSOnlyAndPreflight(t *testing.T) {
	for _, template := range spec.doc.Paths.InMatchingOrder() {
		item := spec.doc.Paths.Find(template)
		if item.Options == nil {
			continue // a static file the asset server answers before the Worker
		}
		path := pathFor(template)
		t.Run(template, func(t *testing.T) {
			var methods []string
			for m := range item.Operations() {
				if m == http.MethodOptions {
					continue
				}
				methods = append(methods, m)
				r := call(t, m, path, nil, "Host", "api.example.com")
				require.Equal(t, http.StatusForbidden, r.Status, "%s %s: %s", m, path, r.Body)
				assert.Contains(t, r.JSON(t)["error"], "https")
			}
			r := call(t, http.MethodOptions, path, nil, "Origin", "https://example.com", "Access-Control-Request-Method", methods[0])
			require.Equal(t, http.StatusNoContent, r.Status, string(r.Body))
			for _, m := range methods {
				assert.Contains(t, r.Header.Get("Access-Control-Allow-Methods"), m)
			}
		})
	}
}

// The contract check itself fails on what it exists to catch: an extra
// field, a wrong type, an undocumented status or header, a route the
// document lacks, a 405 whose Allow disagrees with the document.
func TestContractCatchesBreaches(t *testing.T) {
	health := `{"ok":true,"packVersion":"v","model":"m@1","semantic":true}`
	json := http.Header{"Content-Type": {"application/json; charset=utf-8"}, "Cache-Control": {"no-store"},
		"Access-Control-Allow-Origin": {"*"}, "X-Content-Type-Options": {"nosniff"}}
	with := func(h http.Header, k, v string) http.Header {
		h = h.Clone()
		h.Set(k, v)
		return h
	}
	cases := []struct {
		name, method, path string
		status             int
		header             http.Header
		body               string
		breach             string
	}{
		{"as documented", "GET", "/v1/health", 200, json, health, ""},
		{"an extra field", "GET", "/v1/health", 200, json, strings.Replace(health, "{", `{"extra":1,`, 1), "extra"},
		{"a wrong type", "GET", "/v1/health", 200, json, strings.Replace(health, "true}", `"yes"}`, 1), "semantic"},
		{"an undocumented status", "GET", "/v1/health", 418, json, health, "418"},
		{"an undocumented header", "GET", "/v1/health", 200, with(json, "Retry-After", "5"), health, "Retry-After"},
		{"an undocumented route", "GET", "/v1/nothing-here", 200, json, health, "undocumented route"},
		{"a 405 naming other methods", "DELETE", "/v1/health", 405, with(json, "Allow", "GET, POST"), `{"error":"x"}`, "Allow"},
		{"an unknown error code", "GET", "/v1/tenants", 401, json, `{"error":"no_such_code","message":"m"}`, "error"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req, err := http.NewRequest(c.method, tgt.base+c.path, nil)
			require.NoError(t, err)
			res := &http.Response{StatusCode: c.status, Header: c.header}
			breaches := (&contract{doc: spec.doc, router: spec.router, hit: map[string]map[string]bool{}}).check(t, req, nil, res, []byte(c.body))
			if c.breach == "" {
				assert.Empty(t, breaches)
				return
			}
			require.NotEmpty(t, breaches)
			assert.Contains(t, strings.Join(breaches, "\n"), c.breach)
		})
	}
}

// Package assets serves a Worker's static assets folder the way Workers
// Static Assets does (workers-sdk packages/workers-shared: the router worker
// that decides between assets and the Worker, and the asset worker that
// answers): html_handling redirects and index files, not_found_handling,
// run_worker_first rules, strong ETags, If-None-Match, the default
// Cache-Control, and the ASSETS binding's fetch.
//
// Files are indexed when the Server is made (and on Reload), like wrangler's
// upload manifest; lookups only ever consult that index, so no request path
// can reach a file outside the folder.
//
// Checked against wrangler 4.164 (`wrangler dev`): headers (ETag,
// Content-Type, Cache-Control, CF-Cache-Status: HIT), 304, HEAD, 405,
// html_handling redirects, single-page-application with and without
// run_worker_first rules, and env.ASSETS.fetch.
//
// _headers rules (splats, placeholders, `! Name` detach) apply to every
// asset served. Not simulated: _redirects (never served, otherwise ignored);
// assets.base_path; the free-plan 429 for Worker-first requests.
package assets

import (
	"errors"
	"fmt"
	"net/http"
	"os"
	"regexp"
	"strings"
	"sync"
)

// Response is what the asset server answers.
type Response struct {
	Status int
	Header http.Header
	Body   []byte // nil for HEAD, 304, redirects and errors
	File   string // absolute path of the file served, "" when none
	Size   int64  // length of the file served, also for HEAD and 304
}

// Server answers requests from one assets folder. It is safe for concurrent use.
type Server struct {
	dir        string
	opts       Options
	workerOnly []*regexp.Regexp // run_worker_first rules: to the Worker
	assetsOnly []*regexp.Regexp // "!/" rules: straight to the assets

	mu      sync.RWMutex
	files   map[string]entry
	headers []headerRule // from _headers
}

// New indexes dir and checks the options, reporting every problem at once.
func New(dir string, opts Options) (*Server, error) {
	var problems []error
	for _, p := range opts.Problems() {
		problems = append(problems, errors.New(p))
	}
	files, err := buildManifest(dir)
	if err != nil {
		problems = append(problems, err)
	}
	rules, err := loadHeaders(dir)
	if err != nil {
		problems = append(problems, err)
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("assets: %w", errors.Join(problems...))
	}
	s := &Server{dir: dir, opts: opts, files: files, headers: rules}
	for _, rule := range opts.WorkerFirst {
		if strings.HasPrefix(rule, "!") {
			s.assetsOnly = append(s.assetsOnly, globRule(rule[1:]))
		} else {
			s.workerOnly = append(s.workerOnly, globRule(rule))
		}
	}
	return s, nil
}

// Reload re-indexes the folder, for when its files change under `dev`.
// On error the previous index stays.
func (s *Server) Reload() error {
	files, err := buildManifest(s.dir)
	if err != nil {
		return err
	}
	rules, err := loadHeaders(s.dir)
	if err != nil {
		return err
	}
	s.mu.Lock()
	s.files, s.headers = files, rules
	s.mu.Unlock()
	return nil
}

// globRule compiles a run_worker_first rule: "*" matches anything, "/" too,
// and the rule must match the whole (still percent-encoded) path.
func globRule(rule string) *regexp.Regexp {
	parts := strings.Split(rule, "*")
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	return regexp.MustCompile("^" + strings.Join(parts, ".*") + "$")
}

func matchesAny(rules []*regexp.Regexp, path string) bool {
	for _, r := range rules {
		if r.MatchString(path) {
			return true
		}
	}
	return false
}

// Lookup is the routing in front of a Worker that has assets. It returns the
// asset server's response and true, or nil and false when the request belongs
// to the Worker: it matches run_worker_first, or no asset (nor, for
// navigations, a not-found fallback) answers its path.
//
// target is the request path with its query, still percent-encoded as in the
// URL ("/a%20b/?x=1"). Methods other than GET and HEAD on an asset path get
// 405 from the asset server, as in Workers.
func (s *Server) Lookup(method, target string, header http.Header) (*Response, bool) {
	path, _ := splitTarget(target)
	if matchesAny(s.assetsOnly, path) {
		return s.Fetch(method, target, header), true
	}
	if matchesAny(s.workerOnly, path) || s.opts.RunWorkerFirst {
		return nil, false
	}
	// With run_worker_first rules the not-found handling always applies;
	// otherwise only navigations get it, and only with the compat flag.
	fallback := len(s.opts.WorkerFirst) > 0 || s.opts.NavigationFallback && header.Get("Sec-Fetch-Mode") == "navigate"
	if _, ok := s.intent(decodePath(path), fallback); !ok {
		return nil, false
	}
	return s.Fetch(method, target, header), true
}

// Fetch answers as env.ASSETS.fetch(request) does: the same asset server,
// with html_handling and not_found_handling, and 404 with no body when
// nothing matches. Only the path and query of target are used.
//
// _headers rules apply to every answer, not only to served files: the asset
// worker attaches them to its 404, 405 and 307 answers too (checked with
// wrangler 4.164: a POST to a pack file answers 405 with the rule's CORS and
// Cache-Control headers and an empty body).
func (s *Server) Fetch(method, target string, header http.Header) *Response {
	path, query := splitTarget(target)
	decoded := decodePath(path)
	in, ok := s.intent(decoded, true)
	if !ok {
		return s.bare(http.StatusNotFound, decoded, http.Header{})
	}
	if method != http.MethodGet && method != http.MethodHead {
		return s.bare(http.StatusMethodNotAllowed, decoded, http.Header{})
	}
	dest := decoded
	if in.redirect != "" {
		dest = in.redirect
	}
	if encoded := encodePath(dest); encoded != path || in.redirect != "" {
		h := http.Header{}
		h.Set("Location", encoded+query)
		return s.bare(http.StatusTemporaryRedirect, decoded, h)
	}
	return s.serve(in, decoded, method, header)
}

// bare is an answer without a file (404, 405, redirect), with the _headers
// rules of the request's decoded path applied as the asset worker does.
func (s *Server) bare(status int, path string, h http.Header) *Response {
	s.mu.RLock()
	applyHeaders(s.headers, path, h)
	s.mu.RUnlock()
	return &Response{Status: status, Header: h}
}

// serve answers with an asset; path is the request's decoded path, which
// _headers rules match.
func (s *Server) serve(in intent, path, method string, header http.Header) *Response {
	h := http.Header{}
	strong := `"` + in.asset.etag + `"`
	h.Set("ETag", strong)
	if in.asset.contentType != "" {
		h.Set("Content-Type", in.asset.contentType)
	}
	if header.Get("Authorization") == "" && header.Get("Range") == "" {
		h.Set("Cache-Control", CacheControl)
	}
	h.Set("CF-Cache-Status", CacheStatus)
	s.mu.RLock()
	applyHeaders(s.headers, path, h)
	s.mu.RUnlock()
	resp := &Response{Status: in.status, Header: h, File: in.asset.file, Size: in.asset.size}
	if inm := header.Get("If-None-Match"); inm == strong || inm == "W/"+strong {
		resp.Status = http.StatusNotModified
		return resp
	}
	if method == http.MethodHead {
		return resp
	}
	body, err := os.ReadFile(in.asset.file)
	if err != nil {
		return &Response{Status: http.StatusInternalServerError, Header: http.Header{}}
	}
	resp.Body = body
	return resp
}

// splitTarget separates "/path?query" into "/path" and "?query".
func splitTarget(target string) (string, string) {
	if i := strings.IndexByte(target, '?'); i >= 0 {
		return target[:i], target[i:]
	}
	return target, ""
}

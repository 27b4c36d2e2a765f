// Package httpx is the service's HTTP plumbing: a small path router that
// answers unknown routes and wrong methods in the spec's error shape, the
// response conventions every route shares, and JSON helpers. It knows no
// routes of its own.
package httpx

import (
	"context"
	"net/http"
	"net/url"
	"sort"
	"strings"
)

// Router matches paths made of literal segments, `:name` parameters and a
// final `*name` rest parameter. Unlike http.ServeMux it lets the service
// choose the body of 404 and 405 answers.
//
// The router refuses input that is not valid UTF-8 (Invalid) before any
// route runs, so no handler sees mangled text and no answer to it is
// cached; HandleInvalid chooses the answer's shape per path prefix.
type Router struct {
	routes    []*route
	invalid   []invalidShape
	NotFound  http.Handler
	BadMethod func(allow []string) http.Handler
	Preflight func(allow []string) http.Handler
}

// invalidShape answers refused input under a path prefix.
type invalidShape struct {
	prefix string
	answer func(Invalid) http.Handler
}

type route struct {
	segments []string
	handlers map[string]http.Handler
	// other answers the methods the route lacks, in place of the router's
	// BadMethod (a surface with its own error shape); nil: BadMethod.
	other func(allow []string) http.Handler
}

type paramsKey struct{}

// queryKey holds the request's query, decoded once by the router.
type queryKey struct{}

// Query returns the request's query parameters, as r.URL.Query() does,
// decoded once by the router for every handler and middleware after it.
func Query(r *http.Request) url.Values {
	if q, ok := r.Context().Value(queryKey{}).(url.Values); ok {
		return q
	}
	return r.URL.Query()
}

// Handle registers h for method and pattern (for example
// "/v1/pack/:version/:file").
func (r *Router) Handle(method, pattern string, h http.Handler) {
	r.route(pattern).handlers[method] = h
}

// HandleOther answers the methods pattern has no handler for (OPTIONS
// aside, a CORS preflight) with other(allow) instead of the router's
// BadMethod; allow lists the methods it has. A pattern with no handlers
// at all answers every method so: a catch-all with its own 404.
func (r *Router) HandleOther(pattern string, other func(allow []string) http.Handler) {
	r.route(pattern).other = other
}

func (r *Router) route(pattern string) *route {
	segs := split(pattern)
	for _, rt := range r.routes {
		if equalSegs(rt.segments, segs) {
			return rt
		}
	}
	rt := &route{segments: segs, handlers: map[string]http.Handler{}}
	r.routes = append(r.routes, rt)
	return rt
}

// HandleInvalid answers refused input (see Invalid) of paths under prefix
// with answer (a surface with its own error shape); the longest prefix
// wins. Elsewhere the answer is Error's 400.
func (r *Router) HandleInvalid(prefix string, answer func(Invalid) http.Handler) {
	r.invalid = append(r.invalid, invalidShape{prefix, answer})
}

// Patterns lists the registered route patterns, in registration order.
func (r *Router) Patterns() []string {
	out := make([]string, len(r.routes))
	for i, rt := range r.routes {
		out[i] = "/" + strings.Join(rt.segments, "/")
	}
	return out
}

func (r *Router) refuse(w http.ResponseWriter, req *http.Request, in Invalid) {
	var best *invalidShape
	for i, s := range r.invalid {
		if strings.HasPrefix(req.URL.Path, s.prefix) && (best == nil || len(s.prefix) > len(best.prefix)) {
			best = &r.invalid[i]
		}
	}
	if best != nil {
		best.answer(in).ServeHTTP(w, req)
		return
	}
	Error(w, http.StatusBadRequest, in.Message)
}

// HandleFunc is Handle for a function.
func (r *Router) HandleFunc(method, pattern string, h func(http.ResponseWriter, *http.Request)) {
	r.Handle(method, pattern, http.HandlerFunc(h))
}

// Param returns a path parameter of the matched route.
func Param(req *http.Request, name string) string {
	p, _ := req.Context().Value(paramsKey{}).(map[string]string)
	return p[name]
}

func (r *Router) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	in, bad, query := checkInput(req)
	if bad {
		r.refuse(w, req, in)
		return
	}
	req = req.WithContext(context.WithValue(req.Context(), queryKey{}, query))
	path := split(req.URL.EscapedPath())
	for _, rt := range r.routes {
		params, ok := match(rt.segments, path)
		if !ok {
			continue
		}
		h, ok := rt.handlers[req.Method]
		if !ok && req.Method == http.MethodHead {
			h, ok = rt.handlers[http.MethodGet]
		}
		if !ok {
			allow := rt.allow()
			switch {
			case req.Method == http.MethodOptions && r.Preflight != nil && len(allow) > 0:
				r.Preflight(allow).ServeHTTP(w, req)
			case rt.other != nil:
				rt.other(allow).ServeHTTP(w, req)
			default:
				r.BadMethod(allow).ServeHTTP(w, req)
			}
			return
		}
		if len(params) > 0 {
			req = req.WithContext(context.WithValue(req.Context(), paramsKey{}, params))
		}
		h.ServeHTTP(w, req)
		return
	}
	r.NotFound.ServeHTTP(w, req)
}

func (rt *route) allow() []string {
	var out []string
	for m := range rt.handlers {
		out = append(out, m)
	}
	if _, hasGet := rt.handlers[http.MethodGet]; hasGet {
		if _, hasHead := rt.handlers[http.MethodHead]; !hasHead {
			out = append(out, http.MethodHead)
		}
	}
	sort.Strings(out)
	return out
}

func split(p string) []string {
	p = strings.Trim(p, "/")
	if p == "" {
		return nil
	}
	return strings.Split(p, "/")
}

func equalSegs(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func match(pattern, path []string) (map[string]string, bool) {
	var params map[string]string
	set := func(k, v string) {
		if params == nil {
			params = map[string]string{}
		}
		params[k] = v
	}
	for i, seg := range pattern {
		if strings.HasPrefix(seg, "*") {
			if i >= len(path) {
				return nil, false
			}
			set(seg[1:], strings.Join(path[i:], "/"))
			return params, true
		}
		if i >= len(path) {
			return nil, false
		}
		switch {
		case strings.HasPrefix(seg, ":"):
			if path[i] == "" {
				return nil, false
			}
			set(seg[1:], path[i])
		case seg != path[i]:
			return nil, false
		}
	}
	return params, len(pattern) == len(path)
}

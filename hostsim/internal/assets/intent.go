package assets

import (
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"
)

// intent is what the asset server means to do with a path: serve an asset
// (with 200, or 404 for a 404 page) or redirect. The rules follow
// workers-shared asset-worker/src/handler.ts getIntent and its helpers.
type intent struct {
	asset    entry
	status   int
	redirect string // decoded destination; "" when serving
}

// resolver evaluates intents against one snapshot of the index.
type resolver struct {
	files    map[string]entry
	html     string
	notFound string // "none" while the router only asks whether an asset exists
}

func (s *Server) intent(path string, applyNotFound bool) (intent, bool) {
	s.mu.RLock()
	files := s.files
	s.mu.RUnlock()
	r := resolver{files: files, html: s.opts.htmlHandling(), notFound: NotFoundNone}
	if applyNotFound {
		r.notFound = s.opts.notFoundHandling()
	}
	return r.get(path, false)
}

func (r resolver) exists(p string) (entry, bool) {
	e, ok := r.files[p]
	return e, ok
}

func serveIntent(e entry) (intent, bool) {
	return intent{asset: e, status: http.StatusOK}, true
}

// step is one candidate of an html_handling rule list: serve file if it
// exists, or redirect to dest when file is what dest would serve.
type step struct {
	file, dest string
	redirect   bool
}

func serveIf(file string) step          { return step{file: file} }
func redirectIf(file, dest string) step { return step{file: file, dest: dest, redirect: true} }

// first tries the steps in order.
func (r resolver) first(skip bool, steps ...step) (intent, bool) {
	for _, st := range steps {
		if st.redirect {
			if in, ok := r.safeRedirect(st.file, st.dest, skip); ok {
				return in, true
			}
		} else if e, ok := r.exists(st.file); ok {
			return serveIntent(e)
		}
	}
	return intent{}, false
}

func (r resolver) get(p string, skip bool) (intent, bool) {
	var in intent
	var ok bool
	switch r.html {
	case AutoTrailingSlash:
		in, ok = r.autoTrailingSlash(p, skip)
	case ForceTrailingSlash:
		in, ok = r.forceTrailingSlash(p, skip)
	case DropTrailingSlash:
		in, ok = r.dropTrailingSlash(p, skip)
	default:
		in, ok = r.first(skip, serveIf(p))
	}
	if ok {
		return in, true
	}
	return r.notFoundIntent(p)
}

func (r resolver) autoTrailingSlash(p string, skip bool) (intent, bool) {
	var special []step
	switch {
	case strings.HasSuffix(p, "/index"):
		base := strings.TrimSuffix(p, "/index")
		special = []step{serveIf(p), redirectIf(p+".html", base+"/"), redirectIf(base+".html", base)}
	case strings.HasSuffix(p, "/index.html"):
		base := strings.TrimSuffix(p, "/index.html")
		special = []step{redirectIf(p, base+"/"), redirectIf(base+".html", base)}
	case strings.HasSuffix(p, "/"):
		base := strings.TrimSuffix(p, "/")
		special = []step{serveIf(p + "index.html"), redirectIf(base+".html", base)}
	case strings.HasSuffix(p, ".html"):
		base := strings.TrimSuffix(p, ".html")
		special = []step{redirectIf(p, base), redirectIf(base+"/index.html", base+"/")}
	}
	if in, ok := r.first(skip, special...); ok {
		return in, true
	}
	return r.first(skip, serveIf(p), serveIf(p+".html"), redirectIf(p+"/index.html", p+"/"))
}

func (r resolver) forceTrailingSlash(p string, skip bool) (intent, bool) {
	var special []step
	switch {
	case strings.HasSuffix(p, "/index"):
		base := strings.TrimSuffix(p, "/index")
		special = []step{serveIf(p), redirectIf(p+".html", base+"/"), redirectIf(base+".html", base+"/")}
	case strings.HasSuffix(p, "/index.html"):
		base := strings.TrimSuffix(p, "/index.html")
		special = []step{redirectIf(p, base+"/"), redirectIf(base+".html", base+"/")}
	case strings.HasSuffix(p, "/"):
		base := strings.TrimSuffix(p, "/")
		special = []step{serveIf(p + "index.html"), serveIf(base + ".html")}
	case strings.HasSuffix(p, ".html"):
		base := strings.TrimSuffix(p, ".html")
		special = []step{redirectIf(p, base+"/"), serveIf(p), redirectIf(base+"/index.html", base+"/")}
	}
	if in, ok := r.first(skip, special...); ok {
		return in, true
	}
	return r.first(skip, serveIf(p), redirectIf(p+".html", p+"/"), redirectIf(p+"/index.html", p+"/"))
}

func (r resolver) dropTrailingSlash(p string, skip bool) (intent, bool) {
	var special []step
	switch {
	case p == "/index":
		special = []step{serveIf(p), redirectIf("/index.html", "/")}
	case strings.HasSuffix(p, "/index"):
		base := strings.TrimSuffix(p, "/index")
		special = []step{serveIf(p), redirectIf(base+".html", base), redirectIf(p+".html", base)}
	case p == "/index.html":
		special = []step{redirectIf("/index.html", "/")}
	case strings.HasSuffix(p, "/index.html"):
		base := strings.TrimSuffix(p, "/index.html")
		special = []step{redirectIf(p, base), serveIf(p), redirectIf(base+".html", base)}
	case p == "/":
		special = []step{serveIf("/index.html")}
	case strings.HasSuffix(p, "/"):
		base := strings.TrimSuffix(p, "/")
		special = []step{redirectIf(base+".html", base), redirectIf(base+"/index.html", base)}
	case strings.HasSuffix(p, ".html"):
		base := strings.TrimSuffix(p, ".html")
		special = []step{redirectIf(p, base), redirectIf(base+"/index.html", base)}
	}
	if in, ok := r.first(skip, special...); ok {
		return in, true
	}
	return r.first(skip, serveIf(p), serveIf(p+".html"), serveIf(p+"/index.html"))
}

// safeRedirect redirects to dest only when dest is not itself a file and
// resolving dest would serve exactly file.
func (r resolver) safeRedirect(file, dest string, skip bool) (intent, bool) {
	if skip {
		return intent{}, false
	}
	if _, ok := r.exists(dest); ok {
		return intent{}, false
	}
	target, ok := r.get(dest, true)
	want, exists := r.exists(file)
	if ok && target.redirect == "" && exists && target.asset.etag == want.etag {
		return intent{redirect: dest}, true
	}
	return intent{}, false
}

func (r resolver) notFoundIntent(p string) (intent, bool) {
	switch r.notFound {
	case SinglePageApplication:
		if e, ok := r.exists("/index.html"); ok {
			return serveIntent(e)
		}
	case NotFoundPage:
		for dir := p; dir != ""; {
			dir = dir[:max(strings.LastIndexByte(dir, '/'), 0)]
			if e, ok := r.exists(dir + "/404.html"); ok {
				return intent{asset: e, status: http.StatusNotFound}, true
			}
		}
	}
	return intent{}, false
}

// decodePath percent-decodes each segment (keeping a segment that does not
// decode to UTF-8 as it is) and collapses repeated slashes, as the asset
// worker does before looking a path up.
func decodePath(p string) string {
	if p == "" {
		p = "/"
	}
	segs := strings.Split(p, "/")
	for i, seg := range segs {
		if d, err := url.PathUnescape(seg); err == nil && utf8.ValidString(d) {
			segs[i] = d
		}
	}
	out := strings.Join(segs, "/")
	for strings.Contains(out, "//") {
		out = strings.ReplaceAll(out, "//", "/")
	}
	return out
}

// encodePath re-encodes each segment with JavaScript's encodeURIComponent:
// the canonical form an asset is served at.
func encodePath(p string) string {
	segs := strings.Split(p, "/")
	for i, seg := range segs {
		segs[i] = encodeURIComponent(seg)
	}
	return strings.Join(segs, "/")
}

func encodeURIComponent(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-_.!~*'()", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}

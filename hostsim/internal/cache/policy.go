package cache

import (
	"math"
	"net/http"
	"regexp"
	"strings"
	"time"
)

// decision is what put does with a response: whether and how long to keep
// it, with which headers, and how old it already was.
type decision struct {
	store      bool
	ttl        time.Duration
	initialAge float64 // seconds, from Age and Date
	header     http.Header
}

// privateSetCookie asks Cloudflare to strip Set-Cookie and cache the rest;
// miniflare looks for it anywhere in the lower-cased Cache-Control value and
// removes it (with a ";" after it, if any) before judging the response.
const privateSetCookie = "private=set-cookie"

// decide ports the rules miniflare's cache applies on put (cache.worker.ts
// getExpiration with http-cache-semantics in shared mode):
//
//   - the request's Cache-Control is ignored, as Cloudflare ignores it;
//   - `Cache-Control: private=set-cookie` drops Set-Cookie and that
//     directive, then the rest decides;
//   - any remaining Set-Cookie means the response is never stored;
//   - otherwise storable per RFC 7234 for a shared cache, with a lifetime of
//     s-maxage, else max-age, else Expires - Date, else 10% of the time since
//     Last-Modified, minus the response's age.
//
// A response is stored only with a positive lifetime: miniflare stores a
// zero one with an expiration of "now", which no later match can see.
func decide(req Request, resp Response, now time.Time) decision {
	header := storedHeader(resp.Header)
	raw := strings.ToLower(strings.Join(header.Values("Cache-Control"), ", "))
	if i := strings.Index(raw, privateSetCookie); i >= 0 {
		raw = raw[:i] + strings.TrimPrefix(raw[i+len(privateSetCookie):], ";")
		header.Set("Cache-Control", parseCacheControl(raw).String())
		header.Del("Set-Cookie")
	}
	cc := parseCacheControl(strings.Join(header.Values("Cache-Control"), ", "))
	p := policy{cc: cc, header: header, status: resp.Status, now: now,
		authorized: req.Header.Get("Authorization") != ""}
	age := p.age()
	ttl := p.maxAge() - age
	return decision{
		store:      p.storable() && header.Values("Set-Cookie") == nil && ttl > 0, // false for NaN too
		ttl:        time.Duration(ttl * float64(time.Second)),
		initialAge: age,
		header:     header,
	}
}

type policy struct {
	cc         cacheControl
	header     http.Header
	status     int
	now        time.Time
	authorized bool
}

// storable is http-cache-semantics' storable() for a GET in a shared cache.
func (p policy) storable() bool {
	cc := p.cc
	return understoodStatuses[p.status] &&
		!cc.truthy("no-store") &&
		!cc.truthy("private") &&
		(!p.authorized || cc.truthy("must-revalidate") || cc.truthy("public") || cc.truthy("s-maxage")) &&
		(p.header.Get("Expires") != "" || cc.truthy("public") || cc.truthy("max-age") ||
			cc.truthy("s-maxage") || cacheableByDefault[p.status])
}

// maxAge is the freshness lifetime in seconds; NaN when a directive is not a
// number (the response is then not stored).
func (p policy) maxAge() float64 {
	cc, h := p.cc, p.header
	noCachePragma := h.Get("Cache-Control") == "" && strings.Contains(h.Get("Pragma"), "no-cache")
	switch {
	case !p.storable(), cc.truthy("no-cache"), noCachePragma, cc.truthy("proxy-revalidate"):
		return 0
	case h.Get("Vary") == "*":
		return 0
	case cc.truthy("s-maxage"):
		return parseInt(cc.value("s-maxage"))
	case cc.truthy("max-age"):
		return parseInt(cc.value("max-age"))
	}
	date := p.date()
	if expires := h.Get("Expires"); expires != "" {
		t, err := http.ParseTime(expires)
		if err != nil || t.Before(date) {
			return 0
		}
		return t.Sub(date).Seconds()
	}
	if lm, err := http.ParseTime(h.Get("Last-Modified")); err == nil && date.After(lm) {
		return date.Sub(lm).Seconds() * heuristicFraction
	}
	return 0
}

// date is the Date header, or now when it is missing, invalid or further
// than maxClockDrift from now.
func (p policy) date() time.Time {
	d, err := http.ParseTime(p.header.Get("Date"))
	if err != nil || d.Before(p.now.Add(-maxClockDrift)) || d.After(p.now.Add(maxClockDrift)) {
		return p.now
	}
	return d
}

// age is how old the response already is when stored, in seconds: the time
// since its Date, or its Age header when larger.
func (p policy) age() float64 {
	age := math.Max(0, p.now.Sub(p.date()).Seconds())
	if v := p.header.Get("Age"); v != "" {
		if a := parseInt(v); !math.IsNaN(a) && a > age {
			age = a
		}
	}
	return age
}

// storedHeader copies the response headers a cache may keep: without
// hop-by-hop headers, those named by Connection, and 1xx warnings.
func storedHeader(in http.Header) http.Header {
	h := canonical(in)
	for _, name := range strings.Split(strings.Join(h.Values("Connection"), ","), ",") {
		if name = strings.TrimSpace(name); name != "" {
			h.Del(name)
		}
	}
	for _, name := range hopByHopHeaders {
		h.Del(name)
	}
	if w := h.Values("Warning"); w != nil {
		var kept []string
		for _, warning := range strings.Split(strings.Join(w, ","), ",") {
			if !transientWarning.MatchString(warning) {
				kept = append(kept, warning)
			}
		}
		h.Del("Warning")
		if len(kept) > 0 {
			h.Set("Warning", strings.TrimSpace(strings.Join(kept, ",")))
		}
	}
	return h
}

// canonical copies h with canonical names, so headers written as map
// literals ("cache-control") are found like those set with Header.Set.
func canonical(h http.Header) http.Header {
	out := make(http.Header, len(h))
	for name, values := range h {
		for _, v := range values {
			out.Add(name, v)
		}
	}
	return out
}

var transientWarning = regexp.MustCompile(`^\s*1[0-9][0-9]`)

// cacheControl is a parsed Cache-Control header as http-cache-semantics
// reads it, except that directive names are matched case-insensitively
// (RFC 9111; the library compares them as written).
type cacheControl struct {
	names  []string
	values map[string]directive
}

type directive struct {
	value    string
	hasValue bool
}

func parseCacheControl(raw string) cacheControl {
	cc := cacheControl{values: map[string]directive{}}
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return cc
	}
	for _, part := range strings.Split(raw, ",") {
		name, value, hasValue := strings.Cut(strings.TrimSpace(part), "=")
		name = strings.ToLower(strings.TrimSpace(name))
		if name == "" {
			continue
		}
		if hasValue {
			value = strings.TrimSpace(value)
			if cut, _, found := strings.Cut(value, "="); found { // JS split("=", 2) drops the rest
				value = strings.TrimSpace(cut)
			}
			value = strings.TrimSuffix(strings.TrimPrefix(value, `"`), `"`)
		}
		if _, seen := cc.values[name]; !seen {
			cc.names = append(cc.names, name)
		}
		cc.values[name] = directive{value: value, hasValue: hasValue}
	}
	return cc
}

// truthy is JavaScript truthiness of the library's parsed value: present
// without a value, or with a non-empty one ("max-age=0" counts).
func (cc cacheControl) truthy(name string) bool {
	d, ok := cc.values[name]
	return ok && (!d.hasValue || d.value != "")
}

func (cc cacheControl) value(name string) string { return cc.values[name].value }

func (cc cacheControl) String() string {
	parts := make([]string, 0, len(cc.names))
	for _, name := range cc.names {
		if d := cc.values[name]; d.hasValue {
			parts = append(parts, name+"="+d.value)
		} else {
			parts = append(parts, name)
		}
	}
	return strings.Join(parts, ", ")
}

// parseInt is JavaScript's parseInt(s, 10): optional sign and leading
// digits after white space; NaN when there are none.
func parseInt(s string) float64 {
	s = strings.TrimLeft(s, " \t\n\r\v\f")
	sign := 1.0
	if s != "" && (s[0] == '+' || s[0] == '-') {
		if s[0] == '-' {
			sign = -1
		}
		s = s[1:]
	}
	n, digits := 0.0, 0
	for ; digits < len(s) && s[digits] >= '0' && s[digits] <= '9'; digits++ {
		n = n*10 + float64(s[digits]-'0')
	}
	if digits == 0 {
		return math.NaN()
	}
	return sign * n
}

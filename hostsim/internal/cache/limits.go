package cache

import "time"

// MaxNameLength bounds caches.open(name): workerd requires fewer bytes.
const MaxNameLength = 1024

// Messages of the TypeErrors workerd throws (src/workerd/api/cache.c++),
// word for word.
const (
	msgNonGET      = "Cannot cache response to non-GET request."
	msgPartial     = "Cannot cache response to a range request (206 Partial Content)."
	msgVaryStar    = "Cannot cache response with 'Vary: *' header."
	msgInvalidURL  = "Invalid URL. Cache API keys must be fully-qualified, valid URLs."
	msgNameTooLong = "Cache name is too long."
)

// Header miniflare's cache service adds to every hit (CacheHeaders.STATUS).
const headerCacheStatus = "Cf-Cache-Status"

// Cacheability rules of the http-cache-semantics library that miniflare's
// cache uses in shared-cache mode (RFC 7234).
var (
	// understoodStatuses may be stored at all.
	understoodStatuses = statusSet(200, 203, 204, 300, 301, 302, 303, 307, 308, 404, 405, 410, 414, 501)
	// cacheableByDefault may be stored without an explicit lifetime (they
	// still need a positive one, which for them can only come from the
	// Last-Modified heuristic).
	cacheableByDefault = statusSet(200, 203, 204, 206, 300, 301, 404, 405, 410, 414, 501)
	// hopByHopHeaders are never stored.
	hopByHopHeaders = []string{
		"Connection", "Keep-Alive", "Proxy-Authenticate", "Proxy-Authorization",
		"Te", "Trailer", "Transfer-Encoding", "Upgrade",
	}
)

const (
	// heuristicFraction of the time since Last-Modified is the lifetime of a
	// response with no explicit one (10%, as IE did).
	heuristicFraction = 0.1
	// maxClockDrift: a Date header further than this from our clock is
	// ignored.
	maxClockDrift = 8 * time.Hour
)

func statusSet(codes ...int) map[int]bool {
	m := make(map[int]bool, len(codes))
	for _, c := range codes {
		m[c] = true
	}
	return m
}
